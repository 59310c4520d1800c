/**
 * Agents in Elicit work with the person's MCP servers (issue #56), in a real VS Code
 * (code-server), with today's real agents from npm, offline: claude-agent-acp 0.101.0 (on
 * Node 22) and codex-acp 2.6.0, each with a scripted model endpoint and the transparent tap.
 * The one MCP server, a fixture issue tracker (v2 server SDK, its own token in its
 * environment), is configured only in the person's user mcp.json. Each agent gets it from
 * Elicit in `session/new` (the panel's header says so), calls its tool, and the server's
 * question (a choice and a secret) comes to Elicit's quick input naming the server, the tool,
 * the agent and the session; answered as a person does, the server gets the answer and the
 * model the tool's result. A declined question is said in the panel. Neither the server's
 * token nor the key typed reaches an agent (its environment, what it was sent) or a model.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  pickQuickPickItem,
  reloadWindow,
  screenshot,
  typeAndSubmit,
  waitForNoQuickInput,
  waitForQuickInput,
  type QuickInputState,
} from './harness/workbench';
import { allProcesses } from './harness/processes';
import { agentPanel, newAgentSession, send, waitForStatus } from './agentPanelDriver';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { claudeAcp, claudeOfflineEnv } from '../support/claudeOffline';
import { codexAcp, scriptedCodexHome } from '../support/codexOffline';
import { assertNoSecretLeak } from '../support/leakScan';
import { messagesEndpoint, resultText, toolResults } from '../support/messagesEndpoint';
import { node22Binary } from '../support/node22';
import { readRecords, waitForRecords } from '../support/records';
import { responsesEndpoint, toolOutputs } from '../support/responsesEndpoint';
import type { ScriptedModel } from '../support/scriptedModel';
import { waitUntil } from '../support/waitUntil';

const TRACKER_TOKEN = 'trk-e2e-env-token-77c1d0e5';
const KEY = 'tracker-key-typed-e2e-3b9f';

type Line = { dir: 'in' | 'out' | 'env'; message?: { method?: string; params?: Record<string, unknown> } };

/** A process's environment, or '' once it has ended. */
function environOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}

describe("agents in code-server use the person's MCP servers through Elicit", { timeout: 900_000 }, () => {
  let out: string;
  let record: string;
  let claudeModel: ScriptedModel;
  let codexModel: ScriptedModel;
  let session: ElicitSession | undefined;
  const taps = { claude: '', codex: '' };
  const lines = (agent: 'claude' | 'codex'): Line[] => readRecords(taps[agent]) as Line[];

  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-agent-servers-'));
    record = path.join(out, 'tracker.jsonl');
    taps.claude = path.join(out, 'claude-tap.jsonl');
    taps.codex = path.join(out, 'codex-tap.jsonl');
    claudeModel = messagesEndpoint();
    const claudeUrl = await claudeModel.start();
    codexModel = responsesEndpoint();
    const codexUrl = await codexModel.start();
    const codexHome = path.join(out, 'codex-home');
    scriptedCodexHome(codexHome, codexUrl);
    const agents = {
      claude: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-tap.mjs'), node22Binary(), claudeAcp],
        env: { ...claudeOfflineEnv(path.join(out, 'claude'), claudeUrl, 'sk-ant-scripted'), TAP_RECORD: taps.claude },
      },
      codex: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-tap.mjs'), process.execPath, codexAcp],
        env: {
          CODEX_HOME: codexHome,
          SCRIPTED_MODEL_KEY: 'scripted',
          NO_BROWSER: '1',
          INITIAL_AGENT_MODE: 'workspace-write',
          TAP_RECORD: taps.codex,
        },
      },
    };
    // The tracker is in the person's user mcp.json only: neither agent's own configuration knows it.
    const userMcpJson = {
      servers: {
        tracker: {
          type: 'stdio',
          command: process.execPath,
          args: [path.join(fixtures, 'tracker-server.mjs')],
          env: { TRACKER_TOKEN, RECORD_FILE: record },
        },
      },
    };
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.agents': agents }, {}, [], {
      user: { 'mcp.json': JSON.stringify(userMcpJson) },
    });
    // claude asks before an MCP call (its "auto" mode would judge it with a model call of its own).
    fs.mkdirSync(path.join(session.workspaceDir, '.claude'));
    fs.writeFileSync(
      path.join(session.workspaceDir, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { defaultMode: 'default' } }),
    );
  });

  after(async () => {
    try {
      await session?.close();
      await claudeModel?.close();
      await codexModel?.close();
      // The agents' processes outlive the extension host by a moment and write into their homes as they go.
      if (out)
        await waitUntil(() => !allProcesses().some((p) => environOf(p.pid).includes(out)), 'the agents to end', 20_000).catch(
          () => undefined,
        );
    } finally {
      if (out) fs.rmSync(out, { recursive: true, force: true, maxRetries: 5 });
    }
  });

  /** The tracker's question, step 1 (the priority), as the person sees it. */
  async function priorityStep(page: Page): Promise<QuickInputState> {
    return waitForQuickInput(page, (q) => q.step === '1/2' && q.items.some((i) => i.label === 'high'), 120_000);
  }

  /** Nothing any agent process holds or was sent, and nothing a model was sent, holds these. */
  function assertNeverSent(secrets: string[]): void {
    // The agents and whatever they started: the tap's variable is in their environments (not in the tracker's, which Elicit starts).
    const agentProcesses = allProcesses().filter((p) => environOf(p.pid).includes(`TAP_RECORD=${out}`));
    assert.ok(agentProcesses.length > 0, 'the agents run');
    for (const secret of secrets) {
      for (const p of agentProcesses)
        assert.ok(!environOf(p.pid).includes(secret), `process ${p.pid} (${p.args.slice(0, 80)}) has it in its environment`);
      for (const agent of ['claude', 'codex'] as const) assert.ok(!JSON.stringify(lines(agent)).includes(secret), `${agent} was sent it`);
      for (const model of [claudeModel, codexModel]) assert.ok(!JSON.stringify(model.requests.map((r) => r.body)).includes(secret));
    }
  }

  it("claude calls the tracker's tool; its question (a choice and a secret) is answered in Elicit naming claude and the session", async () => {
    const { page } = session!.workbench;
    await newAgentSession(page, 'claude');
    const panel = await agentPanel(page, 'claude', 120_000);
    // The last test reloads the window with both sessions open: kept for it.
    session!.sharedTabs.push('claude');
    await waitForStatus(panel, 'Ready', 120_000);
    await panel.locator('.servers', { hasText: 'MCP servers: tracker' }).waitFor({ timeout: 10_000 });
    const [offered] = lines('claude').filter((l) => l.dir === 'in' && l.message?.method === 'session/new');
    const entries = offered!.message!.params!.mcpServers as Array<Record<string, unknown>>;
    assert.deepEqual(
      entries.map((e) => [e.type, e.name, String(e.url).replace(/:\d+\//, ':PORT/')]),
      [['http', 'tracker', 'http://127.0.0.1:PORT/servers/tracker']],
    );

    claudeModel.script({ tool: 'mcp__tracker__create_issue', input: { title: 'Crash on save' } }, { text: 'Opened the issue.' });
    await send(panel, 'Open an issue on the tracker: Crash on save');
    const permission = await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Yes'), 120_000);
    assert.equal(permission.title, 'claude wants permission · mcp__tracker__create_issue');
    await pickQuickPickItem(page, 'Yes');

    const priority = await priorityStep(page);
    const sessionId = String(
      lines('claude').find((l) => l.dir === 'out' && l.message?.method === 'session/update')?.message?.params?.sessionId,
    );
    assert.equal(priority.title, `tracker asks · tool create_issue · for claude, session ${sessionId.slice(0, 8)}`);
    assert.match(priority.message ?? '', /New issue "Crash on save"/);
    await screenshot(page, 'agent-servers-claude-question');
    await pickQuickPickItem(page, 'high');
    await waitForQuickInput(page, (q) => q.step === '2/2');
    assert.equal(await page.locator('.quick-input-widget input[type="password"]').count(), 1, 'the key is typed masked');
    await typeAndSubmit(page, KEY);
    await waitForNoQuickInput(page, 'the question to close');

    await panel.locator('.item.agent', { hasText: 'Opened the issue.' }).waitFor({ timeout: 120_000 });
    const [created] = await waitForRecords(record, 1);
    assert.deepEqual(created, {
      server: 'tracker',
      tool: 'create_issue',
      title: 'Crash on save',
      action: 'accept',
      priority: 'high',
      keyLength: KEY.length,
      hadToken: true,
    });
    assert.match(
      resultText(toolResults(claudeModel.turnRequests.at(-1)!.body).at(-1)!.content),
      /Opened issue #1 "Crash on save" with high priority/,
    );
    // The panel names the call by server and tool, and says the question was answered.
    await waitUntil(
      async () => (await panel.locator('.item.tool .tool-title').allInnerTexts()).includes('tracker · create_issue'),
      'the tool call row to name the server and tool',
      10_000,
    ).catch(async (error: unknown) => {
      throw new Error(`${String(error)}; rows: ${JSON.stringify(await panel.locator('.item.tool .tool-title').allInnerTexts())}`);
    });
    await panel.locator('.item.notice', { hasText: 'tracker asked you for tool create_issue: answered.' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'agent-servers-claude-panel');
    assertNeverSent([TRACKER_TOKEN, KEY]);
  });

  it('codex calls the same tracker through its exec tool; a declined question is said in the panel and reaches the model as the server put it', async () => {
    const { page } = session!.workbench;
    await newAgentSession(page, 'codex');
    const panel = await agentPanel(page, 'codex', 120_000);
    // The last test reloads the window with both sessions open: kept for it.
    session!.sharedTabs.push('codex');
    await waitForStatus(panel, 'Ready', 120_000);
    await panel.locator('.servers', { hasText: 'MCP servers: tracker' }).waitFor({ timeout: 10_000 });

    const call = (title: string): string => `const result = await tools.mcp__tracker__create_issue({ title: "${title}" });\ntext(result);`;
    codexModel.script({ tool: 'exec', input: call('Slow start') }, { text: 'Opened it.' });
    await send(panel, 'Open an issue on the tracker: Slow start');
    const permission = await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Allow'), 120_000);
    assert.match(permission.title ?? '', /^codex wants permission · mcp\.tracker\.create_issue/);
    await pickQuickPickItem(page, 'Allow');
    const priority = await priorityStep(page);
    assert.match(priority.title ?? '', /^tracker asks · tool create_issue · for codex, session [0-9a-f]{8}$/);
    await pickQuickPickItem(page, 'low');
    // The key claude's session typed is saved for this server (not for an agent): offered, never shown.
    const keyStep = await waitForQuickInput(page, (q) => q.step === '2/2');
    const useSaved = keyStep.items.find((i) => i.label.endsWith('Use saved value'));
    assert.ok(useSaved, `the saved key is offered: ${JSON.stringify(keyStep.items)}`);
    assert.ok(!JSON.stringify(keyStep).includes(KEY));
    await pickQuickPickItem(page, useSaved.label);
    await waitForNoQuickInput(page, 'the question to close');
    await panel.locator('.item.agent', { hasText: 'Opened it.' }).waitFor({ timeout: 120_000 });
    const created = (await waitForRecords(record, 2)).at(-1)!;
    assert.deepEqual([created.title, created.priority, created.hadToken], ['Slow start', 'low', true]);
    assert.match(
      JSON.stringify(toolOutputs(codexModel.turnRequests.at(-1)!.body).at(-1)?.output),
      /Opened issue #2 \\+"Slow start\\+" with low priority/,
    );
    await panel.locator('.item.tool .tool-title', { hasText: 'tracker · create_issue' }).first().waitFor({ timeout: 10_000 });

    // Declined: the server's own words reach the model, and the panel says what happened.
    codexModel.script({ tool: 'exec', input: call('Not now') }, { text: 'The tracker needs your answer.' });
    await send(panel, 'Open an issue on the tracker: Not now');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Allow'), 120_000);
    await pickQuickPickItem(page, 'Allow');
    await priorityStep(page);
    await pickQuickPickItem(page, 'Decline');
    await waitForNoQuickInput(page, 'the question to close');
    await panel.locator('.item.agent', { hasText: 'The tracker needs your answer.' }).waitFor({ timeout: 120_000 });
    await panel
      .locator('.item.notice', {
        hasText: 'tracker asked you for tool create_issue: you declined, so the call goes on without your answer',
      })
      .waitFor({ timeout: 10_000 });
    const declined = (await waitForRecords(record, 3)).at(-1)!;
    assert.deepEqual([declined.title, declined.action], ['Not now', 'decline']);
    assert.match(
      JSON.stringify(toolOutputs(codexModel.turnRequests.at(-1)!.body).at(-1)?.output),
      /No issue was opened: the person chose decline/,
    );
    await screenshot(page, 'agent-servers-codex-declined');
    assertNeverSent([TRACKER_TOKEN, KEY]);
    // The tracker token is in the user mcp.json the person wrote; the key typed is nowhere on disk.
    assertNoSecretLeak(session!, [KEY]);
  });
  it('after Reload Window each restored session gets its servers again, with a new token, and calls them as before', async () => {
    const { page } = session!.workbench;
    const sessionsOf = (method: string): Array<Record<string, unknown>> =>
      lines('claude').flatMap((l) => (l.dir === 'in' && l.message?.method === method ? [l.message.params!] : []));
    const authorization = (params: Record<string, unknown>): string =>
      String((params.mcpServers as Array<{ headers: Array<{ value: string }> }>)[0]!.headers[0]!.value);
    const before = authorization(sessionsOf('session/new')[0]!);
    await reloadWindow(page);
    const panel = await agentPanel(page, 'claude', 120_000);
    await panel.getByText('Resumed the session after the window reloaded.').waitFor({ timeout: 120_000 });
    await panel.locator('.servers', { hasText: 'MCP servers: tracker' }).waitFor({ timeout: 10_000 });
    const reopened = [...sessionsOf('session/load'), ...sessionsOf('session/resume')];
    assert.equal(reopened.length, 1, 'claude reopened its session once');
    assert.match(authorization(reopened[0]!), /^Bearer \S{40,}$/);
    assert.notEqual(authorization(reopened[0]!), before, 'a new token for the reopened session');

    claudeModel.script({ tool: 'mcp__tracker__create_issue', input: { title: 'After the reload' } }, { text: 'Opened another.' });
    await send(panel, 'Open an issue on the tracker: After the reload');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Yes'), 120_000);
    await pickQuickPickItem(page, 'Yes');
    const priority = await priorityStep(page);
    assert.match(priority.title ?? '', /^tracker asks · tool create_issue · for claude, session [0-9a-f]{8}$/);
    await pickQuickPickItem(page, 'normal');
    const keyStep = await waitForQuickInput(page, (q) => q.step === '2/2');
    await pickQuickPickItem(page, keyStep.items.find((i) => i.label.endsWith('Use saved value'))!.label);
    await waitForNoQuickInput(page, 'the question to close');
    await panel.locator('.item.agent', { hasText: 'Opened another.' }).waitFor({ timeout: 120_000 });
    const created = (await waitForRecords(record, 4)).at(-1)!;
    assert.deepEqual([created.title, created.priority, created.keyLength], ['After the reload', 'normal', KEY.length]);
    assertNeverSent([TRACKER_TOKEN, KEY]);
  });
});
