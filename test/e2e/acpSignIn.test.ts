/**
 * Signing in to agents in a real VS Code (code-server), with the fixture agent:
 * a key typed into the masked box reaches the agent's environment (the agent
 * records a digest), a refused key is asked again with the agent's reason, the
 * accepted one is kept in SecretStorage and used without asking next time,
 * Manage Saved Secrets forgets it; a terminal login runs in an integrated
 * terminal the person types in; Sign Out logs out; and a session/new that
 * fails is shown with the agent's details and stderr, with Restart. Ends with
 * the leak scan: the keys are nowhere but SecretStorage.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import {
  pickQuickPickItem,
  quickPickOk,
  readQuickInput,
  runCommand,
  screenshot,
  typeAndSubmit,
  waitForNoQuickInput,
  waitForQuickInput,
} from './harness/workbench';
import { agentPanel as findAgentPanel, newAgentSession as openAgentSession } from './agentPanelDriver';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { assertNoSecretLeak } from '../support/leakScan';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { digestOf, waitForSavedSecret } from '../support/secretReport';
import { waitUntil } from '../support/waitUntil';

const REFUSED_KEY = 'refused-e2e-key-4f1a9c';
const GOOD_KEY = 'good-e2e-key-8b2d7e';

describe('Signing in to ACP agents in code-server', { timeout: 900_000 }, () => {
  const keyedRecord = newRecordFile();
  const terminalRecord = newRecordFile();
  const failingRecord = newRecordFile();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-signin-'));
  const report = path.join(out, 'secrets-report.json');
  const agentKeysReport = `${report}.agent-keys.json`;
  let session: ElicitSession;

  before(async () => {
    const agent = (name: string, env: Record<string, string>) => ({
      command: process.execPath,
      args: [path.join(fixtures, 'acp-agent.mjs')],
      env: { FIXTURE_NAME: name, ...env },
    });
    const agents = {
      keyed: agent('keyed', { RECORD_FILE: keyedRecord, REQUIRE_AUTH: '1' }),
      terminal: agent('terminal', { RECORD_FILE: terminalRecord, REQUIRE_AUTH: '1', LOGIN_STORE: path.join(out, 'logins') }),
      failing: agent('failing', { RECORD_FILE: failingRecord, FAIL_NEW_SESSION: '1', REQUIRE_AUTH: '1' }),
    };
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.agents': agents }, { ELICIT_TEST_REPORT: report });
  });

  after(async () => {
    try {
      await session?.close();
    } finally {
      // The report and the terminal agent's login store live here: nothing is left in the temp directory, pass or fail.
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  const newAgentSession = (agent: string): Promise<void> => openAgentSession(session.workbench.page, agent);
  const agentPanel = (title: string): Promise<FrameLocator> => findAgentPanel(session.workbench.page, title);

  async function closeActiveEditor(page: Page): Promise<void> {
    await runCommand(page, 'View: Close Editor');
  }

  it('asks for the key in a masked box named for the agent, asks again with the reason when refused, and opens the session', async () => {
    const { page } = session.workbench;
    await newAgentSession('keyed');
    await waitForQuickInput(page, (q) => q.title === 'keyed asks you to sign in');
    await pickQuickPickItem(page, 'Use FIXTURE_API_KEY');
    const box = await waitForQuickInput(page, (q) => q.title === 'keyed · FIXTURE_API_KEY');
    assert.match(box.message ?? '', /Use FIXTURE_API_KEY: FIXTURE_API_KEY for keyed/);
    assert.equal(await page.locator('.quick-input-widget .quick-input-box input').getAttribute('type'), 'password', 'the key is masked');
    await typeAndSubmit(page, REFUSED_KEY);
    const again = await waitForQuickInput(page, (q) => q.title === 'keyed · FIXTURE_API_KEY' && (q.message ?? '').includes('refused'));
    assert.match(again.message ?? '', /keyed refused the last value: Use FIXTURE_API_KEY failed: Internal error: the key •••• was refused/);
    await screenshot(page, 'acp-key-refused');
    await typeAndSubmit(page, GOOD_KEY);

    const panel = await agentPanel('keyed');
    // The keyed agent's tests follow one sign-in from its first key to Sign Out and the next: its tab is
    // kept from one test to the next.
    session.sharedTabs.push('keyed');
    await panel.locator('.status', { hasText: 'Ready' }).waitFor({ timeout: 30_000 });
    await panel.getByText('Signed in to keyed (Use FIXTURE_API_KEY).').waitFor({ timeout: 10_000 });
    const records = readRecords(keyedRecord);
    assert.deepEqual(
      records.filter((r) => r.kind === 'authenticate').map((r) => r.keyDigest),
      [digestOf(REFUSED_KEY), digestOf(GOOD_KEY)],
      'the agent received each typed key in its environment',
    );
    assert.equal(records.find((r) => r.kind === 'session')!.keyDigest, digestOf(GOOD_KEY));
    await waitForSavedSecret(
      agentKeysReport,
      (k) => k.startsWith('elicit.agentKey:["keyed",') && k.endsWith(',"FIXTURE_API_KEY"]'),
      GOOD_KEY,
      'SecretStorage holds the accepted key',
    );
    assert.ok(await panel.locator('button.sign-out').isVisible(), 'Sign Out is offered');
  });

  it('uses the saved key next time without asking', async () => {
    const { page } = session.workbench;
    await closeActiveEditor(page);
    const sessionsBefore = readRecords(keyedRecord).filter((r) => r.kind === 'session').length;
    await newAgentSession('keyed');
    const panel = await agentPanel('keyed');
    await panel.locator('.status', { hasText: 'Ready' }).waitFor({ timeout: 30_000 });
    const sessions = await waitForRecords(keyedRecord, sessionsBefore + 1, (r) => r.kind === 'session');
    assert.equal(sessions.at(-1)!.keyDigest, digestOf(GOOD_KEY));
    assert.equal(readRecords(keyedRecord).filter((r) => r.kind === 'authenticate').length, 3, 'one more authenticate, no question');
    assert.equal(await readQuickInput(page), undefined, 'nothing was asked');
  });

  it('Sign Out logs the agent out, forgets its key, and ends the session', async () => {
    const { page } = session.workbench;
    const panel = await agentPanel('keyed');
    await panel.locator('button.sign-out').click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 20_000 });
    assert.match((await dialog.textContent()) ?? '', /Sign out of keyed\?/);
    await dialog.locator('.dialog-buttons').getByRole('button', { name: 'Sign Out' }).click();
    await waitForRecords(keyedRecord, 1, (r) => r.kind === 'logout');
    await panel.locator('.error-banner', { hasText: 'Signed out of keyed. Restart to sign in again.' }).waitFor({ timeout: 20_000 });
    await waitUntil(() => !Object.keys(readJson(agentKeysReport)).some((k) => k.includes('"keyed"')), 'the key to be forgotten');
    assert.equal(readRecords(keyedRecord).at(-1)!.kind, 'logout');
    await screenshot(page, 'acp-signed-out');
  });

  it('Manage Saved Secrets lists an agent key and forgets it', async () => {
    const { page } = session.workbench;
    // Restart signs in again: the key is asked for once more.
    const panel = await agentPanel('keyed');
    await panel.locator('button.restart').click();
    await waitForQuickInput(page, (q) => q.title === 'keyed asks you to sign in');
    await pickQuickPickItem(page, 'Use FIXTURE_API_KEY');
    await waitForQuickInput(page, (q) => q.title === 'keyed · FIXTURE_API_KEY');
    await typeAndSubmit(page, GOOD_KEY);
    await panel.locator('.status', { hasText: 'Ready' }).waitFor({ timeout: 30_000 });
    await waitForSavedSecret(agentKeysReport, (k) => k.includes('"FIXTURE_API_KEY"'), GOOD_KEY);

    await runCommand(page, 'Elicit: Manage Saved Secrets');
    const list = await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'FIXTURE_API_KEY'));
    assert.equal(list.items.find((i) => i.label === 'FIXTURE_API_KEY')!.description, 'sign-in key of the agent keyed');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'FIXTURE_API_KEY' }).locator('[role="checkbox"]').click();
    await quickPickOk(page).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 20_000 });
    await dialog.locator('.dialog-buttons').getByRole('button', { name: 'Forget' }).click();
    await waitUntil(() => Object.keys(readJson(agentKeysReport)).length === 0, 'the key to be forgotten');
  });

  it('runs a terminal login in an integrated terminal named for the agent, then opens the session', async () => {
    const { page } = session.workbench;
    await newAgentSession('terminal');
    await waitForQuickInput(page, (q) => q.title === 'terminal asks you to sign in');
    await pickQuickPickItem(page, 'Terminal login');
    await waitForNoQuickInput(page, 'the method pick to close');
    // Issue #21, finding 8: the command line and the variables it sets are shown before a terminal opens.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 20_000 });
    const consent = (await dialog.textContent()) ?? '';
    assert.match(consent, /terminal wants to run its sign-in "Terminal login" in a terminal/);
    assert.match(consent, /FIXTURE_LOGIN=terminal/);
    assert.match(consent, /--login/);
    await dialog.locator('.dialog-buttons').getByRole('button', { name: 'Open Terminal' }).click();
    const tab = page.locator('.terminal-tabs-entry, .single-terminal-tab', { hasText: 'terminal sign-in' }).first();
    await tab.waitFor({ timeout: 30_000 });
    const xterm = page.locator('.terminal-wrapper.active .xterm, .terminal .xterm').first();
    await xterm.waitFor({ timeout: 30_000 });
    // The terminal draws on a canvas: the login's own record says it is waiting for input.
    await waitForRecords(terminalRecord, 1, (r) => r.kind === 'terminal-login-waiting', 30_000);
    await screenshot(page, 'acp-terminal-login');
    await xterm.click();
    await page.keyboard.type('yes');
    await page.keyboard.press('Enter');
    const [login] = await waitForRecords(terminalRecord, 1, (r) => r.kind === 'terminal-login');
    assert.deepEqual(
      { tty: login!.tty, env: login!.env, ok: login!.ok },
      { tty: true, env: 'terminal', ok: true },
      'it ran in a real terminal with the method env',
    );
    const panel = await agentPanel('terminal');
    await panel.locator('.status', { hasText: 'Ready' }).waitFor({ timeout: 30_000 });
    await panel.getByText('Signed in to terminal (Terminal login).').waitFor({ timeout: 10_000 });
    const kinds = readRecords(terminalRecord).map((r) => r.kind);
    assert.ok(!kinds.includes('authenticate'), 'the terminal method is never passed to authenticate');
    assert.equal(kinds.filter((k) => k === 'initialize').length, 2, 'restarted after the login');
    assert.equal(kinds.at(-1), 'session');
  });

  it("shows a failing session/new with the agent's details and stderr, and Restart tries again", async () => {
    const { page } = session.workbench;
    await newAgentSession('failing');
    const panel = await agentPanel('failing');
    const banner = panel.locator('.error-banner');
    await banner
      .getByText(/failing could not open a session: Internal error: Query closed before response received/)
      .waitFor({ timeout: 30_000 });
    const text = (await banner.textContent()) ?? '';
    assert.match(text, /The last lines failing wrote to stderr:/);
    assert.match(text, /\[failing\] Error handling request session\/new/);
    await screenshot(page, 'acp-session-failed');
    await panel.locator('button.restart').click();
    await waitForRecords(failingRecord, 2, (r) => r.kind === 'new-session-failed');
    await banner.getByText(/could not open a session/).waitFor({ timeout: 30_000 });
    // The agent offers ways to sign in, so Sign In… is offered too: it asks first, then tries again.
    await panel.locator('button.sign-in').click();
    await waitForQuickInput(page, (q) => q.title === 'failing asks you to sign in');
    await pickQuickPickItem(page, 'Sign in with a fixture token');
    await waitForRecords(failingRecord, 3, (r) => r.kind === 'new-session-failed');
    const kinds = readRecords(failingRecord).map((r) => r.kind);
    assert.deepEqual(kinds.slice(-3), ['initialize', 'authenticate', 'new-session-failed']);
  });

  it('keeps the keys out of every file VS Code and the extension wrote', () => {
    assertNoSecretLeak(session, [REFUSED_KEY, GOOD_KEY], [out]);
  });
});

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}
