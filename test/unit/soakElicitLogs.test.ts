import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { keepElicitLogs } from '../soak/elicitLogs';

describe("the soak keeps Elicit's logs of a kept run", () => {
  it("copies every host's Elicit logs, with their folders, and nothing else", () => {
    const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-soak-logs-'));
    const into = path.join(userData, 'kept');
    const write = (file: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(userData, 'logs', file)), { recursive: true });
      fs.writeFileSync(path.join(userData, 'logs', file), text);
    };
    try {
      write('20261130T062513/window1/exthost/elicit-dev.elicit/Elicit.log', 'first host');
      write('20261130T062513/window1/exthost/elicit-dev.elicit/Elicit: h11.log', 'h11 in the first host');
      write('20261130T063310/window1/exthost/elicit-dev.elicit/Elicit.log', 'after the reload');
      write('20261130T062513/window1/exthost/exthost.log', "VS Code's own");
      write('20261130T062513/window1/renderer.log', "VS Code's own");
      assert.equal(keepElicitLogs(userData, into), 3);
      assert.equal(
        fs.readFileSync(path.join(into, '20261130T062513/window1/exthost/elicit-dev.elicit/Elicit: h11.log'), 'utf8'),
        'h11 in the first host',
      );
      assert.equal(
        fs.readFileSync(path.join(into, '20261130T063310/window1/exthost/elicit-dev.elicit/Elicit.log'), 'utf8'),
        'after the reload',
      );
      assert.ok(!fs.existsSync(path.join(into, '20261130T062513/window1/exthost/exthost.log')));
      assert.equal(keepElicitLogs(path.join(userData, 'none'), into), 0, 'an editor that left no logs');
    } finally {
      fs.rmSync(userData, { recursive: true, force: true });
    }
  });
});
