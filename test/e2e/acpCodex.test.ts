/**
 * The real @agentclientprotocol/codex-acp 2.6.0, offline, in a real VS Code
 * (code-server) through Elicit's agent panel, with a scripted Responses
 * endpoint as its OpenAI service (`openai_base_url` in its CODEX_HOME) and the
 * transparent tap (test/fixtures/acp-tap.mjs) in front. The person signs in with
 * an API key typed into Elicit's masked box (codex's "API Key" method takes it
 * in `authenticate`'s `_meta`), a prompt runs a turn whose escalated command
 * asks permission, allowed once in Elicit's QuickPick, the collaboration mode
 * is switched to Plan from the panel's config option and codex's blocking
 * question (request_user_input) is answered with Other… text, and the leak scan
 * finds the key nowhere but SecretStorage.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { pickQuickPickItem, runCommand, screenshot, typeAndSubmit, waitForNoQuickInput, waitForQuickInput } from './harness/workbench';
import { repoRoot } from './harness/codeServer';
import { agentPanel, send, waitForStatus } from './agentPanelDriver';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { assertNoSecretLeak, findInFiles } from '../support/leakScan';
import { readRecords } from '../support/records';
import { waitForSavedSecret } from '../support/secretReport';
import { responsesEndpoint, toolOutputs, userTexts } from '../support/responsesEndpoint';
import type { ScriptedModel } from '../support/scriptedModel';
import { waitUntil } from '../support/waitUntil';

const KEY = 'sk-e2e-codex26-9a4c2e71d0';
const codexAcp = path.join(repoRoot, 'node_modules', '@agentclientprotocol', 'codex-acp', 'dist', 'index.js');

/** A gate a scripted turn waits on: the agent stays mid-turn until it opens. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

type Line = {
  dir: 'in' | 'out' | 'env';
  digest?: string | null;
  message?: { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };
};

describe('codex-acp 2.6.0 in code-server, offline', { timeout: 900_000 }, () => {
  let out: string;
  let tapRecord: string;
  let codexHome: string;
  let report: string;
  let model: ScriptedModel;
  let session: ElicitSession | undefined;

  const lines = (): Line[] => readRecords(tapRecord) as Line[];
  const sent = (method: string): Line[] => lines().filter((l) => l.dir === 'in' && l.message?.method === method);

  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-codex-'));
    tapRecord = path.join(out, 'tap.jsonl');
    codexHome = path.join(out, 'codex-home');
    report = path.join(out, 'secrets-report.json');
    fs.mkdirSync(codexHome);
    model = responsesEndpoint();
    model.acceptedKey = KEY;
    const url = await model.start();
    // codex's own OpenAI provider, which needs a sign-in, pointed at the scripted endpoint.
    fs.writeFileSync(path.join(codexHome, 'config.toml'), `openai_base_url = "${url}/v1"\n`);
    const agents = {
      codex: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-tap.mjs'), process.execPath, codexAcp],
        env: {
          CODEX_HOME: codexHome,
          TAP_RECORD: tapRecord,
          // The tap notes a digest of this variable as each codex starts: the key never is in its environment.
          TAP_DIGEST_VAR: 'CODEX_API_KEY',
          NO_BROWSER: '1',
          INITIAL_AGENT_MODE: 'workspace-write',
          // codex-acp's log of its app-server traffic: shows when an answer was steered into the running turn.
          APP_SERVER_LOGS: path.join(out, 'codex-logs'),
        },
      },
    };
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.agents': agents }, { ELICIT_TEST_REPORT: report });
  });

  after(async () => {
    try {
      await session?.close();
      await model?.close();
    } finally {
      // The tap record, codex's home and the secrets report live here: nothing is left in the temp directory, pass or fail.
      if (out) fs.rmSync(out, { recursive: true, force: true });
    }
  });

  const codexPanel = (): Promise<FrameLocator> => agentPanel(session!.workbench.page, 'codex', 60_000);

  /** Whether codex-acp's log shows a `turn/steer` answered by its app-server (an answer fed into the running turn). */
  function steered(): boolean {
    const log = path.join(out, 'codex-logs', 'app-server.log');
    if (!fs.existsSync(log)) return false;
    const messages = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .flatMap((line) => {
        const json = line.indexOf(' {');
        try {
          return json < 0 ? [] : [JSON.parse(line.slice(json + 1)) as { id?: number; method?: string; result?: unknown }];
        } catch {
          return [];
        }
      });
    const at = messages.findIndex((m) => m.method === 'turn/steer');
    return at >= 0 && messages.slice(at + 1).some((m) => m.id === messages[at]!.id && m.method === undefined && m.result !== undefined);
  }

  /** The answers Elicit sent codex to its elicitation/create requests so far. */
  const elicitationAnswers = (): Line[] => {
    const asked = new Set(lines().flatMap((l) => (l.dir === 'out' && l.message?.method === 'elicitation/create' ? [l.message.id] : [])));
    return lines().filter((l) => l.dir === 'in' && l.message?.method === undefined && asked.has(l.message?.id));
  };

  it("signs in with an API key typed into the masked box: it reaches codex's authenticate and is kept in SecretStorage", async () => {
    const { page } = session!.workbench;
    await runCommand(page, 'Elicit: New Agent Session');
    const pick = await waitForQuickInput(page, (q) => q.title === 'codex asks you to sign in', 90_000);
    assert.deepEqual(
      pick.items.map((i) => i.label),
      ['API Key', 'ChatGPT (device code)'],
    );
    await pickQuickPickItem(page, 'API Key');
    await waitForQuickInput(page, (q) => q.title === 'codex · API Key');
    assert.equal(await page.locator('.quick-input-widget .quick-input-box input').getAttribute('type'), 'password');
    await typeAndSubmit(page, KEY);

    const panel = await codexPanel();
    await waitForStatus(panel, 'Ready', 90_000);
    // The file's tests talk to this one session, signed in here: its tab is kept from one test to the
    // next. A fresh codex session in each test left the scripted model's turns out of step (in a run,
    // the non-blocking question was answered before the person answered it).
    session!.sharedTabs.push('codex');
    await panel.getByText('Signed in to codex (API Key).').waitFor({ timeout: 10_000 });
    assert.deepEqual(
      sent('authenticate').map((l) => l.message!.params),
      [{ methodId: 'api-key', _meta: { 'api-key': { apiKey: KEY } } }],
    );
    await waitForSavedSecret(
      report + '.agent-keys.json',
      (k) => k.startsWith('elicit.agentKey:["codex",') && k.endsWith(',"authenticate:api-key"]'),
      KEY,
      'SecretStorage holds the key',
    );
  });

  it('a prompt runs a turn; the escalated command asks permission, allowed once in the QuickPick, and runs', async () => {
    const { page } = session!.workbench;
    const panel = await codexPanel();
    model.script(
      { tool: 'exec_command', input: { cmd: 'touch e2e.txt', sandbox_permissions: 'require_escalated', justification: 'Create e2e.txt?' } },
      { text: 'Created e2e.txt.' },
    );
    await send(panel, 'Create e2e.txt');
    const permission = await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Yes, proceed'), 120_000);
    assert.equal(permission.title, 'codex wants permission · touch e2e.txt');
    await screenshot(page, 'acp-codex-permission');
    await pickQuickPickItem(page, 'Yes, proceed');
    await panel.locator('.item.agent', { hasText: 'Created e2e.txt.' }).waitFor({ timeout: 120_000 });
    await waitForStatus(panel, 'Ready', 60_000);

    assert.ok(fs.existsSync(path.join(session!.workspaceDir, 'e2e.txt')), 'the command ran');
    const answer = lines().find(
      (l) => l.dir === 'in' && l.message?.method === undefined && JSON.stringify(l.message?.result ?? '').includes('allow_once'),
    );
    assert.deepEqual(answer?.message?.result, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    // Every model request carried the key typed; the last one has the command's output.
    assert.equal(model.remaining, 0, 'both scripted turns were taken');
    assert.ok(model.requests.length > 0 && model.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`));
    assert.match(String(toolOutputs(model.turnRequests.at(-1)!.body).at(-1)?.output), /exited with code 0/);
  });

  it('a non-blocking question: codex keeps working (the panel streams on) while it waits, attributed to codex and the session; the answer reaches the running turn', async () => {
    const { page } = session!.workbench;
    const panel = await codexPanel();
    const working = gate();
    model.script(
      { tool: 'request_user_input_async', input: { questions: [{ title: 'Which colour for the logo?', options: ['Red', 'Blue'] }] } },
      // The model keeps working (this response stays open) while the question waits.
      { text: 'Still drawing the logo.', until: working.opened },
      { text: 'Drawn in the colour you chose.' },
    );
    const answeredBefore = elicitationAnswers().length;
    await send(panel, 'Draw a logo');
    const question = await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Blue'), 120_000);
    assert.match(question.title ?? '', /^codex asks · session [0-9a-f-]{8}…$/, 'attributed to codex and its session');
    assert.match(question.message ?? question.placeholder ?? '', /Which colour for the logo\?/, 'the question itself is in view');
    // Streamed after the question appeared, while it is still unanswered.
    await panel.locator('.item.agent', { hasText: 'Still drawing the logo.' }).waitFor({ timeout: 120_000 });
    assert.equal(elicitationAnswers().length, answeredBefore, 'the question is still unanswered');
    // The card shows the question, codex's notice under it.
    const card = panel.locator('.item.question').last();
    assert.equal(await card.locator('.question-text').innerText(), 'Which colour for the logo?');
    assert.match(await card.locator('.message.secondary').innerText(), /Codex keeps working while you answer/);
    // It waits in Pending Questions under codex and the session (the quick input stays open).
    await page.locator('.statusbar-item', { hasText: '1 question' }).first().click();
    const row = page.locator('.pane-body .monaco-list-row', { hasText: 'Which colour for the logo?' });
    await row.waitFor({ timeout: 10_000 });
    assert.match(await row.innerText(), /codex · session [0-9a-f-]{8}…/);
    await screenshot(page, 'acp-codex-non-blocking-question');

    await pickQuickPickItem(page, 'Blue');
    await waitUntil(steered, 'codex to steer the answer into the running turn', 60_000);
    working.open();
    await panel.locator('.item.agent', { hasText: 'Drawn in the colour you chose.' }).waitFor({ timeout: 120_000 });
    await waitForStatus(panel, 'Ready', 60_000);
    const reply = userTexts(model.turnRequests.at(-1)!.body).find((t) => t.startsWith('<send_user_message_question_reply>'));
    assert.ok(reply, 'the answer reached the model within the same turn');
    const [answer] = JSON.parse(reply.split('\n')[1]!) as Array<{ question: string; answer: string }>;
    assert.deepEqual({ question: answer!.question, answer: answer!.answer }, { question: 'Which colour for the logo?', answer: 'Blue' });
  });

  it('a non-blocking question still open when the turn ends is marked "turn ended" in the quick input, the card and Pending Questions; Dismiss closes it', async () => {
    const { page } = session!.workbench;
    const panel = await codexPanel();
    const shown = gate();
    model.script(
      { tool: 'request_user_input_async', input: { questions: [{ title: 'Which font?', options: ['Serif', 'Sans'] }] } },
      // The turn ends once the question is in front of the person, unanswered.
      { text: 'Finished without an answer.', until: shown.opened },
    );
    const answeredBefore = elicitationAnswers().length;
    await send(panel, 'Pick a font');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Serif'), 120_000);
    shown.open();
    await panel.locator('.item.agent', { hasText: 'Finished without an answer.' }).waitFor({ timeout: 120_000 });
    await waitForStatus(panel, 'Ready', 60_000);

    // Submit has become Dismiss: an answer would be dropped.
    const ended = await waitForQuickInput(page, (q) => /turn ended$/.test(q.title ?? ''), 30_000);
    assert.deepEqual(
      ended.items.map((i) => i.label),
      ['Dismiss'],
    );
    assert.match(ended.message ?? ended.placeholder ?? '', /Turn ended: codex no longer takes an answer to “Which font\?”/);
    await panel.locator('.item.question .turn-ended').last().waitFor({ timeout: 10_000 });
    const row = page.locator('.pane-body .monaco-list-row', { hasText: 'Which font?' });
    // The view redraws a moment after the question's UI: wait for the row to say so.
    await waitUntil(async () => /turn ended/.test(await row.innerText()), 'the Pending Questions row to say "turn ended"', 10_000);
    await screenshot(page, 'acp-codex-turn-ended');
    // codex withdrew the question as its turn ended: it was told cancel then, not left waiting.
    await waitUntil(() => elicitationAnswers().length === answeredBefore + 1, 'codex to be answered');
    assert.deepEqual(elicitationAnswers().at(-1)!.message!.result, { action: 'cancel' });

    await pickQuickPickItem(page, 'Dismiss');
    await waitForNoQuickInput(page, 'the dismissed question to close');
    await panel.locator('.item.question', { hasText: 'Dismissed (turn ended)' }).waitFor({ timeout: 10_000 });
    await waitUntil(async () => (await row.count()) === 0, 'the row to leave Pending Questions');
    // Nothing is revived by the next turn, and codex got no second answer.
    assert.equal(elicitationAnswers().length, answeredBefore + 1);
  });

  it("switches to Plan from the panel's config option; codex's blocking question answered with Other… text reaches the model as None of the above and the note", async () => {
    const { page } = session!.workbench;
    const panel = await codexPanel();
    await waitForStatus(panel, 'Ready', 60_000);
    // codex offers its options in session/new: each a labelled drop-down in the panel.
    const collaboration = panel.locator('.config-option[data-config-id="collaboration_mode"]');
    await collaboration.waitFor({ timeout: 10_000 });
    assert.equal(await collaboration.getAttribute('data-current'), 'default');
    for (const id of ['model', 'reasoning_effort']) {
      assert.equal(await panel.locator(`.config-option[data-config-id="${id}"]`).count(), 1, `codex's ${id} option is shown`);
    }
    // Elicit advertises boolean config options: codex sends Fast mode as one, a labelled checkbox.
    const fast = panel.locator('.config-option[data-config-id="fast-mode"]');
    assert.equal(await fast.getByRole('checkbox', { name: 'Fast mode' }).count(), 1, "codex's Fast mode is a checkbox");
    await collaboration.locator('vscode-single-select').click();
    await collaboration.getByRole('option', { name: 'Plan' }).click();
    await panel.locator('.item.notice', { hasText: 'Collaboration mode: Plan.' }).waitFor({ timeout: 30_000 });
    await panel.locator('.config-option[data-config-id="collaboration_mode"][data-current="plan"]').waitFor({ timeout: 10_000 });
    assert.deepEqual(
      sent('session/set_config_option').map((l) => {
        const { configId, value } = l.message!.params!;
        return { configId, value };
      }),
      [{ configId: 'collaboration_mode', value: 'plan' }],
    );
    await screenshot(page, 'acp-codex-config-options');

    model.script(
      {
        tool: 'request_user_input',
        input: {
          questions: [
            {
              id: 'database',
              header: 'Database',
              question: 'Which database should the service use?',
              options: [
                { label: 'Postgres (Recommended)', description: 'A relational server.' },
                { label: 'SQLite', description: 'One file, no server.' },
              ],
            },
          ],
        },
      },
      { text: 'Planned with DuckDB.' },
    );
    const elicitations = (): Line[] => lines().filter((l) => l.dir === 'out' && l.message?.method === 'elicitation/create');
    const askedBefore = elicitations().length;
    await send(panel, 'Plan the storage');
    const question = await waitForQuickInput(page, (q) => q.items.some((i) => i.label.includes('Other…')), 120_000);
    assert.deepEqual(
      question.items.filter((i) => !/Leave empty|Decline/.test(i.label)).map((i) => i.label.replace(/^\S*\s*(?=Other)/, '')),
      ['Postgres (Recommended)', 'SQLite', 'Other…'],
      '"None of the above" is what Other… sends, not an option of its own',
    );
    // codex 0.166 sends no timer for the model's blocking questions (autoResolutionMs null): no countdown is made up.
    assert.doesNotMatch(question.title ?? '', /answers for you/);
    const asked = elicitations().slice(askedBefore);
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0]!.message!.params!._meta, { codex: { autoResolutionMs: null } });
    await pickQuickPickItem(page, 'Other…');
    await waitForQuickInput(page, (q) => (q.message ?? '').includes('your own answer to “Which database should the service use?”'));
    await typeAndSubmit(page, 'DuckDB, embedded');
    await panel.locator('.item.agent', { hasText: 'Planned with DuckDB.' }).waitFor({ timeout: 120_000 });
    await waitForStatus(panel, 'Ready', 60_000);

    // What codex got from Elicit, and what codex told the model: the fields it expects, nothing else.
    const answer = lines().find((l) => l.dir === 'in' && l.message?.id === asked[0]!.message!.id && l.message?.method === undefined);
    assert.deepEqual(answer?.message?.result, {
      action: 'accept',
      content: { database: 'None of the above', database_note: 'DuckDB, embedded' },
    });
    const output = toolOutputs(model.turnRequests.at(-1)!.body).at(-1)!;
    assert.deepEqual(JSON.parse(String(output.output)), {
      answers: { database: { answers: ['None of the above', 'user_note: DuckDB, embedded'] } },
    });
  });

  it('keeps the key only in SecretStorage (and in what codex itself keeps)', async () => {
    // codex keeps an accepted key in its own CODEX_HOME/auth.json: the agent's choice, outside Elicit.
    await waitUntil(() => fs.existsSync(path.join(codexHome, 'auth.json')), 'codex wrote its auth.json');
    assert.ok(fs.readFileSync(path.join(codexHome, 'auth.json'), 'utf8').includes(KEY));
    // The tap between Elicit and codex saw it in authenticate only; no codex was started with it in its environment.
    assert.deepEqual(findInFiles([tapRecord], KEY), [tapRecord]);
    const starts = lines().filter((l) => l.dir === 'env');
    assert.ok(starts.length > 0 && starts.every((l) => l.digest === null), JSON.stringify(starts));
    assertNoSecretLeak(session!, [KEY]);
  });
});
