/**
 * An agent session survives a window reload: VS Code restores the agent tab,
 * Elicit starts the agent again and resumes the session with `session/load`
 * (the fixture agent keeps its sessions in SESSION_STORE), the replayed
 * conversation fills the transcript, and the next prompt goes to the same session.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { pickQuickPickItem, reloadWindow, runCommand, screenshot, waitForQuickInput, webviewFrame } from './harness/workbench';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, waitForRecords } from '../support/records';

describe('ACP session resumed after a window reload, in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-sessions-'));
  let session: ElicitSession;

  before(async () => {
    const agents = {
      keeper: { command: process.execPath, args: [path.join(fixtures, 'acp-agent.mjs')], env: { RECORD_FILE: record, FIXTURE_NAME: 'keeper', SESSION_STORE: store } },
      other: { command: process.execPath, args: [path.join(fixtures, 'acp-agent.mjs')], env: { FIXTURE_NAME: 'other' } },
    };
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.agents': agents });
  });

  after(async () => {
    await session?.close();
    fs.rmSync(store, { recursive: true, force: true });
  });

  async function agentPanel(): Promise<FrameLocator> {
    const panel = await webviewFrame(session.workbench.page, 'keeper');
    await panel.locator('textarea.prompt').waitFor({ timeout: 30_000 });
    return panel;
  }

  async function send(panel: FrameLocator, text: string): Promise<void> {
    await panel.locator('.status', { hasText: 'Ready' }).waitFor({ timeout: 30_000 });
    await panel.locator('textarea.prompt').fill(text);
    await panel.locator('textarea.prompt').press('Enter');
  }

  it('restores the agent tab with its conversation and goes on in the same session', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: New Agent Session');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'keeper'));
    await pickQuickPickItem(page, 'keeper');
    let panel = await agentPanel();
    await send(panel, 'echo said before the reload');
    await panel.locator('.item.agent', { hasText: 'said before the reload' }).waitFor({ timeout: 20_000 });
    const [opened] = await waitForRecords(record, 1, (r) => r.kind === 'session');
    const sessionId = String(opened!.sessionId);

    await reloadWindow(page);

    // A new agent process loads the same session; its replay refills the transcript.
    const [loaded] = await waitForRecords(record, 1, (r) => r.kind === 'load', 60_000);
    assert.equal(loaded!.sessionId, sessionId);
    panel = await agentPanel();
    await panel.locator('.item.user', { hasText: 'echo said before the reload' }).waitFor({ timeout: 20_000 });
    await panel.locator('.item.agent', { hasText: 'said before the reload' }).waitFor({ timeout: 20_000 });
    await panel.getByText('Resumed the session after the window reloaded.').waitFor({ timeout: 20_000 });
    await screenshot(page, 'acp-resumed');

    await send(panel, 'echo and after it');
    await panel.locator('.item.agent', { hasText: 'and after it' }).waitFor({ timeout: 20_000 });
    const prompts = await waitForRecords(record, 2, (r) => r.kind === 'prompt');
    assert.deepEqual(prompts.map((r) => r.sessionId), [sessionId, sessionId], 'both prompts went to one session');
    assert.equal((await waitForRecords(record, 1, (r) => r.kind === 'session')).length, 1, 'no new session was opened');
  });
});
