/**
 * A real agent, offline, in a real VS Code: @zed-industries/codex-acp 0.16.0
 * (a dev dependency) through Elicit's agent panel in code-server. Signing in
 * with a dummy CODEX_API_KEY typed into the masked box opens the session; its
 * modes are listed and one is switched; its slash commands are offered; after a
 * window reload the session is resumed without asking for the key again. What
 * codex said and was sent is read from a transparent tap (test/fixtures/acp-tap.mjs)
 * between Elicit and codex; the leak scan proves the key is only in SecretStorage.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import {
  pickQuickPickItem,
  readQuickInput,
  reloadWindow,
  runCommand,
  screenshot,
  typeAndSubmit,
  waitForQuickInput,
} from './harness/workbench';
import { repoRoot } from './harness/codeServer';
import { agentPanel } from './agentPanelDriver';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { assertNoSecretLeak } from '../support/leakScan';
import { readRecords, waitForRecords } from '../support/records';
import { digestOf, waitForSavedSecret } from '../support/secretReport';

const KEY = 'sk-e2e-dummy-codex-5d83a1f0';
const codexBin = path.join(repoRoot, 'node_modules', '.bin', 'codex-acp');

type Line = {
  dir: 'in' | 'out' | 'env';
  message?: { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };
  digest?: string | null;
};

describe('codex-acp 0.16.0 in code-server, offline', { timeout: 900_000 }, () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-codex-'));
  const tapRecord = path.join(out, 'tap.jsonl');
  const codexHome = path.join(out, 'codex-home');
  const report = path.join(out, 'secrets-report.json');
  let session: ElicitSession;

  const lines = (): Line[] => readRecords(tapRecord) as Line[];
  const sent = (method: string): Line[] => lines().filter((l) => l.dir === 'in' && l.message?.method === method);
  /** codex's answer to the last request Elicit sent with this method (ids restart with each process: look after the request). */
  function answerTo(method: string): Line | undefined {
    const all = lines();
    let at = all.length - 1;
    while (at >= 0 && !(all[at]!.dir === 'in' && all[at]!.message?.method === method)) at--;
    const id = all[at]?.message?.id;
    return at < 0 ? undefined : all.slice(at + 1).find((l) => l.dir === 'out' && l.message?.id === id && l.message?.method === undefined);
  }

  before(async () => {
    fs.mkdirSync(codexHome);
    const agents = {
      codex: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-tap.mjs'), codexBin],
        env: { CODEX_HOME: codexHome, TAP_RECORD: tapRecord, TAP_DIGEST_VAR: 'CODEX_API_KEY' },
      },
    };
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.agents': agents }, { ELICIT_TEST_REPORT: report });
  });

  after(async () => {
    try {
      await session?.close();
    } finally {
      // The tap record, codex's home and the secrets report live here: nothing is left in the temp directory, pass or fail.
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  const codexPanel = (): Promise<FrameLocator> => agentPanel(session.workbench.page, 'codex', 60_000);

  it('signs in with a CODEX_API_KEY typed into the masked box, and the session opens with its modes', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: New Agent Session');
    const pick = await waitForQuickInput(page, (q) => q.title === 'codex asks you to sign in', 60_000);
    assert.deepEqual(
      pick.items.map((i) => i.label),
      ['Login with ChatGPT', 'Use CODEX_API_KEY', 'Use OPENAI_API_KEY'],
    );
    await pickQuickPickItem(page, 'Use CODEX_API_KEY');
    await waitForQuickInput(page, (q) => q.title === 'codex · CODEX_API_KEY');
    assert.equal(await page.locator('.quick-input-widget .quick-input-box input').getAttribute('type'), 'password');
    await typeAndSubmit(page, KEY);

    const panel = await codexPanel();
    await panel.locator('.status', { hasText: 'Ready' }).waitFor({ timeout: 60_000 });
    await panel.getByText('Signed in to codex (Use CODEX_API_KEY).').waitFor({ timeout: 10_000 });
    // The restarted codex had the key in its environment, accepted authenticate, and opened a session.
    assert.equal(
      lines()
        .filter((l) => l.dir === 'env')
        .at(-1)!.digest,
      digestOf(KEY),
    );
    assert.deepEqual(sent('authenticate').at(-1)!.message!.params, { methodId: 'codex-api-key' });
    assert.deepEqual(answerTo('authenticate')!.message!.result, {});
    const opened = answerTo('session/new')!.message!.result as {
      sessionId: string;
      modes: { availableModes: Array<{ id: string; name: string }> };
    };
    assert.ok(opened.sessionId);
    assert.deepEqual(
      opened.modes.availableModes.map((m) => m.name),
      ['Read Only', 'Default', 'Full Access'],
    );
    await waitForSavedSecret(
      report + '.agent-keys.json',
      (k) => k.startsWith('elicit.agentKey:["codex",') && k.endsWith(',"CODEX_API_KEY"]'),
      KEY,
      'SecretStorage holds the key',
    );

    const select = panel.locator('.mode-picker select');
    await select.waitFor({ timeout: 10_000 });
    assert.deepEqual(await select.locator('option').allTextContents(), ['Read Only', 'Default', 'Full Access']);
    assert.equal(await select.inputValue(), 'read-only');
  });

  it('switches the mode with session/set_mode, and codex reports the new mode', async () => {
    const { page } = session.workbench;
    const panel = await codexPanel();
    const select = panel.locator('.mode-picker select');
    await select.selectOption('auto');
    await panel.locator('.item.notice', { hasText: 'Mode: Default.' }).waitFor({ timeout: 20_000 });
    const sessionId = (answerTo('session/new')!.message!.result as { sessionId: string }).sessionId;
    assert.deepEqual(sent('session/set_mode').at(-1)!.message!.params, { sessionId, modeId: 'auto' });
    assert.deepEqual(answerTo('session/set_mode')!.message!.result, {});
    // codex confirms with its config options: the "mode" option's value is now auto.
    await waitForRecords(tapRecord, 1, (r) => {
      const update = (r as Line).message?.params?.update as
        { sessionUpdate?: string; configOptions?: Array<{ id: string; currentValue: string }> } | undefined;
      return (
        (r as Line).dir === 'out' &&
        update?.sessionUpdate === 'config_option_update' &&
        update.configOptions?.find((o) => o.id === 'mode')?.currentValue === 'auto'
      );
    });
    assert.equal(await select.inputValue(), 'auto');
    await screenshot(page, 'acp-codex-modes');
  });

  it("offers codex's slash commands after /", async () => {
    const panel = await codexPanel();
    const prompt = panel.locator('textarea.prompt');
    await prompt.pressSequentially('/rev');
    const names = panel.locator('.command-menu .command-name');
    await names.first().waitFor({ timeout: 10_000 });
    assert.deepEqual(await names.allTextContents(), ['/review', '/review-branch', '/review-commit']);
    await prompt.press('Escape');
    await prompt.fill('');
  });

  it('after a window reload resumes the session without asking for the key again', async () => {
    const { page } = session.workbench;
    let panel = await codexPanel();
    // codex keeps a session once it had a turn: one that cannot reach the model, stopped after it started.
    await panel.locator('textarea.prompt').fill('hello from the e2e test');
    await panel.locator('textarea.prompt').press('Enter');
    await waitForRecords(tapRecord, 1, (r) => (r as Line).dir === 'in' && (r as Line).message?.method === 'session/prompt');
    await page.waitForTimeout(1500);
    await panel.locator('button.stop').click();
    await panel.locator('.item.turn, .item.notice.error').last().waitFor({ timeout: 60_000 });
    await panel.locator('.status', { hasText: 'Ready' }).waitFor({ timeout: 60_000 });
    const sessionId = (answerTo('session/new')!.message!.result as { sessionId: string }).sessionId;
    const starts = lines().filter((l) => l.dir === 'env').length;

    const sentBefore = lines().length;
    await reloadWindow(page);
    // Watch the whole start: neither the sign-in pick nor the key box may show.
    const deadline = Date.now() + 60_000;
    while (answerTo('session/load')?.message?.result === undefined) {
      const shown = await readQuickInput(page);
      assert.notEqual(shown?.title, 'codex · CODEX_API_KEY', 'the key was asked again');
      assert.notEqual(shown?.title, 'codex asks you to sign in', 'sign-in was asked again');
      assert.ok(Date.now() < deadline, `codex did not load the session: ${JSON.stringify(answerTo('session/load'))}`);
      await page.waitForTimeout(200);
    }
    assert.deepEqual(sent('session/load').at(-1)!.message!.params, { sessionId, cwd: session.workspaceDir, mcpServers: [] });
    const env = lines().filter((l) => l.dir === 'env');
    assert.equal(env.length, starts + 1, 'one new codex process');
    assert.equal(env.at(-1)!.digest, digestOf(KEY), 'started with the saved key');
    // The reload did not close the session (only closing the tab does), and nothing was asked.
    const after = lines()
      .slice(sentBefore)
      .filter((l) => l.dir === 'in')
      .map((l) => l.message?.method);
    assert.deepEqual(after, ['initialize', 'session/load']);
    panel = await codexPanel();
    await panel.locator('.item.user', { hasText: 'hello from the e2e test' }).waitFor({ timeout: 30_000 });
    await panel.getByText('Resumed the session after the window reloaded.').waitFor({ timeout: 30_000 });
    await panel.locator('.status', { hasText: 'Ready' }).waitFor({ timeout: 30_000 });
    assert.equal(await readQuickInput(page), undefined);
    await screenshot(page, 'acp-codex-resumed');
  });

  it('keeps the key only in SecretStorage (and in what codex itself keeps)', () => {
    // codex-acp saves an accepted key in its own CODEX_HOME/auth.json: the agent's choice, outside Elicit.
    assert.ok(fs.readFileSync(path.join(codexHome, 'auth.json'), 'utf8').includes(KEY));
    assertNoSecretLeak(session, [KEY], [tapRecord, report, `${report}.agent-keys.json`]);
  });
});
