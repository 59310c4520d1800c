/** The leak scan must find a secret wherever and however it was written, or its "no leak" means nothing. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assertNoSecretLeak, findInFiles } from '../support/leakScan';

describe('findInFiles', () => {
  it('finds UTF-8, UTF-16 and base64 copies in nested folders and nothing elsewhere', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-leak-'));
    const secret = 'sk-leak-test-123';
    fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    fs.writeFileSync(path.join(root, 'a', 'b', 'log.txt'), `line\nvalue=${secret}\n`);
    fs.writeFileSync(path.join(root, 'a', 'state.db'), Buffer.concat([Buffer.from([0, 1]), Buffer.from(secret, 'utf16le')]));
    fs.writeFileSync(path.join(root, 'b64.json'), JSON.stringify({ v: Buffer.from(secret).toString('base64') }));
    fs.writeFileSync(path.join(root, 'clean.txt'), 'sk-leak-test-12 is not it');
    const hits = findInFiles([root], secret)
      .map((f) => path.relative(root, f))
      .sort();
    assert.deepEqual(hits, ['a/b/log.txt', 'a/state.db', 'b64.json']);
  });
});

describe('assertNoSecretLeak', () => {
  it('names the file that holds a secret, and passes when none does', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-leak-'));
    const places = {
      server: { userDataDir: path.join(root, 'ud'), extensionsDir: path.join(root, 'ext') },
      workspaceDir: path.join(root, 'ws'),
    };
    for (const dir of [places.server.userDataDir, places.server.extensionsDir, places.workspaceDir]) fs.mkdirSync(dir);
    assertNoSecretLeak(places, ['sk-not-there-4711']);
    fs.writeFileSync(path.join(places.server.userDataDir, 'exthost.log'), 'token=sk-not-there-4711');
    assert.throws(() => assertNoSecretLeak(places, ['sk-not-there-4711']), /exthost\.log/);
  });
});
