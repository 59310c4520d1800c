/**
 * An agent session survives a window reload: VS Code restores the agent tab,
 * Elicit starts the agent again and resumes the session with `session/load`
 * (the fixture agent keeps its sessions in SESSION_STORE), the replayed
 * conversation fills the transcript, and the next prompt goes to the same session.
 * Closing the tab closes the session (session/close), and Elicit: Resume Agent
 * Session lists it (session/list) and reopens it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { pickQuickPickItem, reloadWindow, runCommand, screenshot, waitForQuickInput } from './harness/workbench';
import { agentPanel as findAgentPanel, send } from './agentPanelDriver';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';

describe('ACP session resumed after a window reload, in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-sessions-'));
  let session: ElicitSession;

  before(async () => {
    const agents = {
      keeper: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-agent.mjs')],
        env: { RECORD_FILE: record, FIXTURE_NAME: 'keeper', SESSION_STORE: store },
      },
      other: { command: process.execPath, args: [path.join(fixtures, 'acp-agent.mjs')], env: { FIXTURE_NAME: 'other' } },
    };
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.agents': agents });
  });

  after(async () => {
    await session?.close();
    fs.rmSync(store, { recursive: true, force: true });
  });

  const agentPanel = (): Promise<FrameLocator> => findAgentPanel(session.workbench.page, 'keeper');

  it('restores the agent tab with its conversation and goes on in the same session', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: New Agent Session');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'keeper'));
    await pickQuickPickItem(page, 'keeper');
    let panel = await agentPanel();
    // The next test closes this session's tab itself (closing it is what it tries): kept for it.
    session.sharedTabs.push('keeper');
    await send(panel, 'echo said before the reload');
    await panel.locator('.item.agent', { hasText: 'said before the reload' }).waitFor({ timeout: 20_000 });
    const [opened] = await waitForRecords(record, 1, (r) => r.kind === 'session');
    const sessionId = String(opened!.sessionId);

    await reloadWindow(page);

    // A new agent process loads the same session; its replay refills the transcript.
    const [loaded] = await waitForRecords(record, 1, (r) => r.kind === 'load', 60_000);
    assert.equal(loaded!.sessionId, sessionId);
    assert.ok(!readRecords(record).some((r) => r.kind === 'close'), 'a reload does not close the session');
    panel = await agentPanel();
    await panel.locator('.item.user', { hasText: 'echo said before the reload' }).waitFor({ timeout: 20_000 });
    await panel.locator('.item.agent', { hasText: 'said before the reload' }).waitFor({ timeout: 20_000 });
    await panel.getByText('Resumed the session after the window reloaded.').waitFor({ timeout: 20_000 });
    await screenshot(page, 'acp-resumed');

    await send(panel, 'echo and after it');
    await panel.locator('.item.agent', { hasText: 'and after it' }).waitFor({ timeout: 20_000 });
    const prompts = await waitForRecords(record, 2, (r) => r.kind === 'prompt');
    assert.deepEqual(
      prompts.map((r) => r.sessionId),
      [sessionId, sessionId],
      'both prompts went to one session',
    );
    assert.equal((await waitForRecords(record, 1, (r) => r.kind === 'session')).length, 1, 'no new session was opened');
  });

  it('closing the tab closes the session; Resume Agent Session lists it by title and folder and reopens it', async () => {
    const { page } = session.workbench;
    const [opened] = await waitForRecords(record, 1, (r) => r.kind === 'session');
    const sessionId = String(opened!.sessionId);
    await agentPanel();
    await runCommand(page, 'View: Close Editor');
    const [closed] = await waitForRecords(record, 1, (r) => r.kind === 'close');
    assert.equal(closed!.sessionId, sessionId);

    await runCommand(page, 'Elicit: Resume Agent Session');
    await waitForQuickInput(page, (q) => q.title === 'Resume Agent Session' && q.items.some((i) => i.label === 'keeper'));
    await pickQuickPickItem(page, 'keeper');
    const pick = await waitForQuickInput(page, (q) => q.title === 'Resume a keeper session');
    assert.deepEqual(
      pick.items.map((i) => [i.label, i.description]),
      [['echo said before the reload', path.basename(session.workspaceDir)]],
    );
    assert.match(pick.items[0]!.detail ?? '', new RegExp(`· ${sessionId}$`));
    await screenshot(page, 'acp-resume-pick');
    await pickQuickPickItem(page, 'echo said before the reload');
    const loads = await waitForRecords(record, 2, (r) => r.kind === 'load');
    assert.equal(loads.at(-1)!.sessionId, sessionId);
    const panel = await agentPanel();
    await panel.locator('.item.agent', { hasText: 'and after it' }).waitFor({ timeout: 20_000 });
    await panel.getByText('Resumed the session.').waitFor({ timeout: 20_000 });
    // The agent listed the sessions and loaded the one picked, in one process: no second start.
    const kinds = readRecords(record).map((r) => r.kind);
    assert.deepEqual(kinds.slice(kinds.lastIndexOf('initialize')), ['initialize', 'list', 'load']);
    await send(panel, 'echo resumed once more');
    const prompts = await waitForRecords(record, 3, (r) => r.kind === 'prompt');
    assert.equal(prompts.at(-1)!.sessionId, sessionId);
  });
});
