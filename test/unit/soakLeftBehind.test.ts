/**
 * What the soak finds left behind (test/soak/leftBehind.ts, issue #37): a window's socket file
 * nobody listens on any more (its process died without removing it), told from a live window's;
 * and the descriptors a host holds at the end beyond those it held at a start.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { descriptorGrowth, windowSockets } from '../soak/leftBehind';
import { waitUntil } from '../support/waitUntil';

describe("the soak's check for what is left behind", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-left-behind-'));
  const live = net.createServer();
  after(() => {
    live.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("tells a window's socket left by a killed process from a live window's", async () => {
    await new Promise<void>((resolve) => live.listen(path.join(dir, 'a.sock'), resolve));
    // A process killed while it listens leaves its socket file: nobody accepts on it any more.
    const stale = path.join(dir, 'b.sock');
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(stale)})`]);
    await waitUntil(() => fs.existsSync(stale), 'the child listens', 10_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a socket');
    assert.deepEqual(await windowSockets([dir]), { live: 1, stale: ['b.sock'] });
  });

  it('counts the kinds that grew and the files newly open, by name (each host logs to a folder of its own)', () => {
    const grown = descriptorGrowth(
      { kinds: { socket: 40, pipe: 9, file: 2 }, files: ['/logs/exthost1/Elicit.log', '/dev/null'] },
      { kinds: { socket: 52, pipe: 9, file: 3 }, files: ['/logs/exthost2/Elicit.log', '/logs/exthost2/Elicit s01.log', '/dev/null'] },
    );
    assert.deepEqual(grown, { grew: { socket: 12, file: 1 }, newFiles: ['Elicit s01.log'] });
  });
});
