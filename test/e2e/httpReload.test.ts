/**
 * A 2025-11-25 Streamable HTTP server outlives the window: at Developer: Reload Window its
 * session with the old window must end (DELETE), so that what it asked there fails at the server
 * with an error, instead of waiting for an answer that can no longer come. The reloaded window
 * opens a new session, where the server asks again. Found by the soak (issue #37, finding A): in
 * code-server the extension host's end came before the DELETE went out.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { reloadWindow, runCommand, waitForQuickInput } from './harness/workbench';
import { openElicitSession, type ElicitSession } from './elicitSession';
import { HttpAsker } from '../soak/httpAsker';
import { readSoakLog, type SoakLogLine } from '../soak/soakLog';
import { repoRoot } from '../support/mcpServers';
import { waitUntil } from '../support/waitUntil';

describe('a 2025 HTTP server across Developer: Reload Window, in code-server', { timeout: 300_000 }, () => {
  let dir: string;
  let asker: HttpAsker;
  let session: ElicitSession;

  const logged = (): SoakLogLine[] => readSoakLog<SoakLogLine>(path.join(dir, 'log.jsonl'));

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-http-reload-'));
    asker = await HttpAsker.start('outliver', path.join(repoRoot, 'test', 'soak', 'soak-server.mjs'), {
      SOAK_LOG: path.join(dir, 'log.jsonl'),
      SOAK_MEAN_MS: '300',
      SOAK_OPEN: '1',
      SOAK_WITHDRAW: '0',
    });
    session = await openElicitSession(JSON.stringify({ servers: { outliver: { type: 'http', url: asker.url } } }));
  });

  after(async () => {
    await session?.close();
    await asker?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function startServer(): Promise<void> {
    // The only server: started without a pick.
    await runCommand(session.workbench.page, 'Elicit: Start MCP Server');
  }

  it('ends the old session at the reload: what the server asked there fails with an error, and it asks again in the new one', async () => {
    await startServer();
    await waitUntil(() => logged().some((e) => e.event === 'asked'), 'the server asks in the first window', 60_000);
    // Shown before the palette opens for the reload: a question popping up while the reload command is
    // typed would close the palette, and the harness's Escape that follows would cancel the question.
    await waitForQuickInput(session.workbench.page, (q) => /Soak question from outliver/.test(q.message ?? q.placeholder ?? ''));
    const askedBefore = logged()
      .filter((e) => e.event === 'asked')
      .map((e) => e.question!);
    const reloadedAt = Date.now();
    await reloadWindow(session.workbench.page);
    await waitUntil(
      () => askedBefore.every((q) => logged().some((e) => e.event === 'fate' && e.question === q)),
      'every question asked before the reload has its fate at the server',
      20_000,
    );
    const fates = logged().filter((e) => e.event === 'fate' && askedBefore.includes(e.question!));
    for (const fate of fates) {
      assert.equal(fate.fate, 'error', `${fate.question} ends with an error at the server, not an answer: ${JSON.stringify(fate)}`);
      assert.ok(fate.at - reloadedAt < 15_000, `${fate.question} ended soon after the reload`);
    }
    await startServer();
    await waitUntil(
      () => logged().some((e) => e.event === 'asked' && e.at > reloadedAt && !askedBefore.includes(e.question!)),
      'the server asks again, in the reloaded window',
      60_000,
    );
  });
});
