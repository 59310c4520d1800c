/**
 * The real @agentclientprotocol/claude-agent-acp 0.101.0 (Claude Agent SDK, on
 * Node 22), offline, in a real VS Code (code-server) through Elicit's agent
 * panel, with a scripted Anthropic Messages endpoint as its model service and
 * the transparent tap (test/fixtures/acp-tap.mjs) in front. Answered through
 * the UI as a person would: an AskUserQuestion with a single-select answered
 * with Other… text and a multi-select, one declined, and a Bash command allowed
 * always, so the same command runs again without a question. The key claude is
 * given (in code-server's environment, as a person's shell would) is found in
 * none of the files Elicit or VS Code write.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import {
  clickAtPersonsPace,
  pickQuickPickItem,
  pressAtPersonsPace,
  quickPickOk,
  screenshot,
  typeAndSubmit,
  waitForNoQuickInput,
  waitForQuickInput,
} from './harness/workbench';
import { agentPanel, newAgentSession, send, waitForStatus } from './agentPanelDriver';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { askTwoQuestions, claudeAcp, claudeOfflineEnv } from '../support/claudeOffline';
import { assertNoSecretLeak } from '../support/leakScan';
import { messagesEndpoint, resultText, toolResults } from '../support/messagesEndpoint';
import { node22Binary } from '../support/node22';
import { readRecords } from '../support/records';
import type { ScriptedModel } from '../support/scriptedModel';
import { waitUntil } from '../support/waitUntil';

const KEY = 'sk-ant-e2e-claude101-4f8b2d6a';

type Line = {
  dir: 'in' | 'out' | 'env';
  message?: { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };
};

describe('claude-agent-acp 0.101.0 in code-server, offline', { timeout: 900_000 }, () => {
  let out: string;
  let tapRecord: string;
  let model: ScriptedModel;
  let session: ElicitSession | undefined;

  const lines = (): Line[] => readRecords(tapRecord) as Line[];
  /** The answers Elicit sent claude to its elicitation/create requests so far. */
  const elicitationAnswers = (): Line[] => {
    const asked = new Set(lines().flatMap((l) => (l.dir === 'out' && l.message?.method === 'elicitation/create' ? [l.message.id] : [])));
    return lines().filter((l) => l.dir === 'in' && l.message?.method === undefined && asked.has(l.message?.id));
  };
  const permissionRequests = (): Line[] => lines().filter((l) => l.dir === 'out' && l.message?.method === 'session/request_permission');

  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-claude-'));
    tapRecord = path.join(out, 'tap.jsonl');
    model = messagesEndpoint();
    const url = await model.start();
    const agents = {
      claude: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-tap.mjs'), node22Binary(), claudeAcp],
        // claude's own home, config and temp files: outside what the leak scan reads.
        env: { ...claudeOfflineEnv(out, url), TAP_RECORD: tapRecord },
      },
    };
    // The key comes from the environment VS Code was started in, as a person's shell gives it.
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.agents': agents }, { ANTHROPIC_API_KEY: KEY });
  });

  after(async () => {
    try {
      await session?.close();
      await model?.close();
    } finally {
      if (out) fs.rmSync(out, { recursive: true, force: true });
    }
  });

  const claudePanel = (): Promise<FrameLocator> => agentPanel(session!.workbench.page, 'claude', 90_000);
  /** A session of its own for a test: each starts from an editor with no tab open. */
  const freshClaudePanel = async (): Promise<FrameLocator> => {
    await newAgentSession(session!.workbench.page, 'claude', false);
    const panel = await claudePanel();
    await waitForStatus(panel, 'Ready', 120_000);
    return panel;
  };
  /** The box of an option in the multi-select step of askTwoQuestions. */
  const featureBox = (label: string) =>
    session!.workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).locator('[role="checkbox"]');

  it('answers an AskUserQuestion in quick-input steps: the single-select with Other… text, the multi-select ticked; the model gets exactly the answers', async () => {
    const { page } = session!.workbench;
    await newAgentSession(page, 'claude', false);
    const panel = await claudePanel();
    await waitForStatus(panel, 'Ready', 120_000);
    model.script(askTwoQuestions, { text: 'Thanks, setting it up.' });
    await send(panel, 'Set up the service');

    const first = await waitForQuickInput(page, (q) => q.step === '1/2' && q.items.some((i) => i.label.includes('Other…')), 120_000);
    assert.match(first.title ?? '', /^claude asks/);
    assert.match(first.message ?? '', /Which database\?/);
    // Each option's description beside it and its preview (claude's `_meta`) on the line under it.
    assert.equal(first.items.find((i) => i.label === 'SQLite')?.description, 'One file, no server.');
    const sqlite = page.locator('.quick-input-list .monaco-list-row', { hasText: 'SQLite' });
    assert.match(await sqlite.innerText(), /app\/ └── data\.sqlite\s+one file, no server/);
    await pickQuickPickItem(page, 'Other…');
    await waitForQuickInput(page, (q) => (q.message ?? '').includes('your own answer to “Database”'));
    await typeAndSubmit(page, 'DuckDB, embedded');

    await waitForQuickInput(page, (q) => q.step === '2/2' && q.items.some((i) => i.label === 'Export'));
    // Issue #34: two boxes ticked with the mouse and Enter at once (a person's once) reach the agent.
    await clickAtPersonsPace(page, featureBox('Auth'));
    await clickAtPersonsPace(page, featureBox('Export'));
    await screenshot(page, 'acp-claude-ask-multi');
    await pressAtPersonsPace(page, 'Enter');
    await waitForNoQuickInput(page, 'the question to close');

    await panel.locator('.item.agent', { hasText: 'Thanks, setting it up.' }).waitFor({ timeout: 120_000 });
    assert.deepEqual(elicitationAnswers().at(-1)!.message!.result, {
      action: 'accept',
      content: { question_0_custom: 'DuckDB, embedded', question_1: ['Auth', 'Export'] },
    });
    const result = resultText(toolResults(model.turnRequests.at(-1)!.body).at(-1)!.content);
    assert.match(result, /"Which database\?"="[^"]*DuckDB, embedded[^"]*"/);
    assert.match(result, /"Which features\?"="Auth, Export"/);
    assert.ok(
      model.requests.filter((r) => r.scripted).every((r) => r.headers['x-api-key'] === KEY),
      'claude called the model with the key from its environment',
    );
    // The card shows the question, attributed to its tool call.
    const card = panel.locator('.item.question').last();
    assert.equal(await card.locator('.question-text').innerText(), 'Database: Which database? (+1 more question)');
  });

  it("answers the multi-select step with OK clicked at a person's pace, right after the tick", async () => {
    const { page } = session!.workbench;
    const panel = await freshClaudePanel();
    model.script(askTwoQuestions, { text: 'Search it is.' });
    await send(panel, 'Set up a search service');
    await waitForQuickInput(page, (q) => q.step === '1/2' && q.items.some((i) => i.label === 'SQLite'), 120_000);
    await pickQuickPickItem(page, 'SQLite');
    await waitForQuickInput(page, (q) => q.step === '2/2' && q.items.some((i) => i.label === 'Export'));
    await clickAtPersonsPace(page, featureBox('Search'));
    await clickAtPersonsPace(page, quickPickOk(page));
    await panel.locator('.item.agent', { hasText: 'Search it is.' }).waitFor({ timeout: 120_000 });
    assert.deepEqual(elicitationAnswers().at(-1)!.message!.result, {
      action: 'accept',
      content: { question_0: 'SQLite', question_1: ['Search'] },
    });
    const result = resultText(toolResults(model.turnRequests.at(-1)!.body).at(-1)!.content);
    assert.match(result, /"Which features\?"="Search"/);
  });

  it('a declined AskUserQuestion reaches the model unanswered, and the turn goes on', async () => {
    const { page } = session!.workbench;
    const panel = await freshClaudePanel();
    model.script(askTwoQuestions, { text: 'I will choose myself.' });
    await send(panel, 'Set up the service again');
    await waitForQuickInput(page, (q) => q.step === '1/2' && q.items.some((i) => i.label === 'SQLite'), 120_000);
    await pickQuickPickItem(page, 'Decline');
    await panel.locator('.item.agent', { hasText: 'I will choose myself.' }).waitFor({ timeout: 120_000 });
    assert.deepEqual(elicitationAnswers().at(-1)!.message!.result, { action: 'decline' });
    await panel.locator('.item.question .outcome', { hasText: 'Declined' }).last().waitFor({ timeout: 10_000 });
    const result = resultText(toolResults(model.turnRequests.at(-1)!.body).at(-1)!.content);
    assert.doesNotMatch(result, /SQLite|Postgres|DuckDB/);
  });

  it("a Bash command allowed always (shown with what that covers, in claude's words) runs again without a question", async () => {
    const { page } = session!.workbench;
    const panel = await freshClaudePanel();
    // In the default mode claude asks before a Bash command.
    // claude sends its modes as a config option: the panel's Mode drop-down ("Manual" is its mode id "default").
    const mode = panel.locator('.config-option[data-config-id="mode"]');
    if ((await mode.getAttribute('data-current')) !== 'default') {
      await mode.locator('vscode-single-select').click();
      await mode.getByRole('option', { name: 'Manual' }).click();
      await panel.locator('.config-option[data-config-id="mode"][data-current="default"]').waitFor({ timeout: 20_000 });
    }
    await waitForStatus(panel, 'Ready');
    const asked = permissionRequests().length;
    model.script(
      { tool: 'Bash', input: { command: 'node -p 6*7', description: 'Compute it' } },
      { tool: 'Bash', input: { command: 'node -p 6*7', description: 'Compute it again' } },
      { text: 'Computed twice.' },
    );
    await send(panel, 'Compute 6*7 twice');
    const prompt = await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Yes'), 120_000);
    assert.match(prompt.title ?? '', /^claude wants permission · /);
    assert.match(prompt.message ?? '', /Command: node -p 6\*7/);
    const always = prompt.items.find((i) => /^Yes, and /.test(i.label));
    assert.ok(always, JSON.stringify(prompt.items));
    assert.match(prompt.message ?? '', /“Allow always” covers, as claude puts it: Yes, and /);
    // The panel's card says the same, attributed to claude.
    const card = panel.locator('.item.permission').last();
    await card.locator('.label', { hasText: 'claude asks permission' }).waitFor({ timeout: 10_000 });
    assert.match(await card.locator('.permission-detail').innerText(), /Yes, and /);
    await screenshot(page, 'acp-claude-allow-always');
    await pickQuickPickItem(page, always.label);

    await panel.locator('.item.agent', { hasText: 'Computed twice.' }).waitFor({ timeout: 120_000 });
    await waitForStatus(panel, 'Ready', 60_000);
    assert.equal(permissionRequests().length, asked + 1, 'only the first command asked');
    assert.match(prompt.message ?? '', /“Allow always” covers, as claude puts it: Yes, and don't ask again for node -p 6\*7 commands/);
    // Both ran: the model got the output of each.
    const results = toolResults(model.turnRequests.at(-1)!.body).slice(-2);
    assert.deepEqual(
      results.map((r) => [resultText(r.content).trim(), r.is_error]),
      [
        ['42', false],
        ['42', false],
      ],
    );
    const answer = lines().find((l) => l.dir === 'in' && JSON.stringify(l.message?.result ?? '').includes('allow-with-updates'));
    assert.deepEqual(answer?.message?.result, { outcome: { outcome: 'selected', optionId: 'allow-with-updates' } });
  });

  it('keeps the key out of every file Elicit and VS Code wrote', async () => {
    await waitUntil(() => model.requests.length > 0, 'claude called the model');
    assertNoSecretLeak(session!, [KEY]);
  });
});
