/**
 * An end-to-end session cleans up after itself: code-server and everything it
 * starts use a temp folder inside the session's own folder, and closing the
 * session removes that folder and the workspace (27 folders, about 35 MB, were
 * left in the temp directory by every run).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { openElicitSession } from './elicitSession';
import { extensionHostOf } from './harness/processes';
import { waitUntil } from '../support/waitUntil';

/** One process's environment, from /proc. */
function environmentOf(pid: number): Record<string, string> {
  const entries = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

describe('an end-to-end session', { timeout: 300_000 }, () => {
  it("keeps VS Code's temp files in its own folder and removes everything when it closes", async () => {
    const session = await openElicitSession(JSON.stringify({ servers: {} }));
    const { server, workspaceDir } = session;
    try {
      let host: ReturnType<typeof extensionHostOf>;
      await waitUntil(() => (host = extensionHostOf(server.userDataDir)) !== undefined, 'the extension host', 60_000);
      const tmp = environmentOf(host!.pid).TMPDIR ?? '';
      assert.ok(tmp.startsWith(server.sessionDir + path.sep), `the extension host's TMPDIR is ${tmp}, outside ${server.sessionDir}`);
      for (const dir of [server.userDataDir, server.extensionsDir, tmp, workspaceDir]) assert.ok(fs.existsSync(dir), `${dir} exists while the session runs`);
    } finally {
      await session.close();
    }
    assert.equal(fs.existsSync(server.sessionDir), false, `${server.sessionDir} is left behind`);
    assert.equal(fs.existsSync(workspaceDir), false, `${workspaceDir} is left behind`);
  });
});
