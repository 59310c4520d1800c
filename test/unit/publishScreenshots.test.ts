/** `npm run screenshots` copies exactly the pictures the documents link to, and says which no run has taken. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { linkedScreenshots, publishScreenshots } from '../e2e/publishScreenshots';

describe('linkedScreenshots', () => {
  it('finds each docs/screenshots picture once, in order, and nothing else', () => {
    const markdown = [
      '| ![a](docs/screenshots/form-dark.png) | ![b](docs/screenshots/run-tool-inputbox.png) |',
      '![again](docs/screenshots/form-dark.png) ![elsewhere](media/icon.png) ![old](test/e2e/screenshots/x.png)',
    ].join('\n');
    assert.deepEqual(linkedScreenshots(markdown), ['form-dark', 'run-tool-inputbox']);
  });
});

describe('publishScreenshots', () => {
  it('copies the linked and the named shots from the run folder, leaves the others, and lists what is missing', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-publish-'));
    const from = path.join(root, 'runs');
    fs.mkdirSync(from);
    for (const name of ['linked', 'named', 'unlinked']) fs.writeFileSync(path.join(from, `${name}.png`), `png of ${name}`);
    fs.writeFileSync(path.join(root, 'README.md'), '![x](docs/screenshots/linked.png) ![y](docs/screenshots/not-taken.png)');
    try {
      const result = publishScreenshots({ from, root, documents: ['README.md', 'CONTRIBUTING.md'], extra: ['named'] });
      assert.deepEqual(result, { copied: ['named', 'linked'], missing: ['not-taken'] });
      assert.deepEqual(fs.readdirSync(path.join(root, 'docs', 'screenshots')).sort(), ['linked.png', 'named.png']);
      assert.equal(fs.readFileSync(path.join(root, 'docs', 'screenshots', 'linked.png'), 'utf8'), 'png of linked');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
