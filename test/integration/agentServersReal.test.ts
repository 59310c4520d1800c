/**
 * Today's agents use the person's MCP servers through Elicit (issue #56), offline: the real
 * @agentclientprotocol/claude-agent-acp 0.101.0 and @agentclientprotocol/codex-acp 2.6.0, each
 * through Elicit's own ACP client, given a server in `session/new` exactly as the agent panel
 * gives it (acp/agentServers.ts over gateway/agentEndpoints.ts). The server (a fixture tracker
 * written with the v2 server SDK) is run by Elicit's own connection with its token in its
 * environment; it asks for a priority (a choice) and a key (a secret) during the call. The
 * question reaches the person naming the server, tool, agent and session; the answer reaches
 * the server; the tool's result reaches the model; the token reaches neither agent.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { mcpServerEntries } from '../../src/acp/agentServers';
import type { Question } from '../../src/core/broker/broker';
import { questionTitle } from '../../src/core/display';
import type { ElicitResult } from '../../src/core/request';
import { AgentEndpoints, type SessionGrant } from '../../src/gateway/agentEndpoints';
import { McpConnection } from '../../src/mcp/connection';
import { tempDir } from '../support/acpFixture';
import { codexAcp, scriptedCodexHome } from '../support/codexOffline';
import { claudeAcp, claudeOfflineEnv } from '../support/claudeOffline';
import { fixture, stdioServer } from '../support/mcpServers';
import { messagesEndpoint, resultText, toolResults } from '../support/messagesEndpoint';
import { node22Binary } from '../support/node22';
import { repoRoot, startRealAgent, stopRealAgent, type RealAgent } from '../support/realAgent';
import { newRecordFile, waitForRecords } from '../support/records';
import { responsesEndpoint, toolOutputs } from '../support/responsesEndpoint';
import type { ScriptedModel } from '../support/scriptedModel';
import { answerFields, scriptedBroker } from '../support/scriptedRenderer';

const TRACKER_TOKEN = 'trk-env-token-5f1e9a7c3b';
const KEY = 'typed-tracker-key-0042';

/** A process's environment, or '' once it has ended. */
function environOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}

/** Elicit's side: the tracker as the person configured it, the person's answers, and the agents' endpoints. */
function elicitSide(record: string) {
  const seen: Question[] = [];
  const answers: Array<(q: Question) => ElicitResult> = [];
  const { broker } = scriptedBroker((q) => {
    seen.push(q);
    const next = answers.shift();
    assert.ok(next, `unexpected question: ${q.request.message}`);
    return next(q);
  });
  const tracker = new McpConnection(stdioServer('tracker', fixture('tracker-server.mjs'), { RECORD_FILE: record, TRACKER_TOKEN }), {
    ask: (r) => broker.ask(r),
    log: () => undefined,
  });
  const logs: string[] = [];
  const endpoints = new AgentEndpoints({
    version: 'test',
    log: (line) => void logs.push(line),
    upstream: {
      list: () => tracker.listTools(),
      call: (_server, tool, args, signal, caller) => tracker.callTool(tool, args, signal, undefined, { caller }),
    },
  });
  return { seen, answers, tracker, endpoints, logs };
}

const bridge = { command: process.execPath, args: [join(repoRoot, 'dist', 'mcp-bridge.js')], env: {} };

describe("claude-agent-acp 0.101.0 calls the person's tracker through Elicit", { timeout: 300_000 }, () => {
  let temp: string;
  let workspace: string;
  let model: ScriptedModel;
  let claude: RealAgent;
  const record = newRecordFile();
  const elicit = elicitSide(record);
  let grant: SessionGrant;

  before(async () => {
    temp = tempDir('elicit-claude-servers-');
    workspace = join(temp, 'workspace');
    mkdirSync(join(workspace, '.claude'), { recursive: true });
    // Permissions asked (not the "auto" mode, whose classifier is a model call of its own).
    writeFileSync(join(workspace, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }));
    model = messagesEndpoint();
    const url = await model.start();
    await elicit.endpoints.start();
    claude = await startRealAgent({
      name: 'claude',
      command: node22Binary(),
      args: [claudeAcp],
      env: claudeOfflineEnv(temp, url, 'sk-ant-scripted'),
      workspace,
      record: join(temp, 'tap.jsonl'),
    });
  });

  after(async () => {
    try {
      await stopRealAgent(claude);
      await elicit.endpoints.stop();
      await elicit.tracker.stop();
      await model?.close();
    } finally {
      if (temp && !process.env.KEEP_TEMP) rmSync(temp, { recursive: true, force: true });
    }
  });

  it("asks the person the server's question naming claude and the session; the answer reaches the server and the result the model", async () => {
    let sessionId = '';
    grant = elicit.endpoints.grant([{ name: 'tracker', server: 'tracker' }], () => `claude, session ${sessionId.slice(0, 8)}`);
    const { servers, via } = mcpServerEntries(claude.connection.initializeResponse, grant.endpoints, grant.token, bridge);
    assert.equal(via, 'http', 'claude takes MCP over HTTP');
    sessionId = (await claude.connection.newSession(workspace, servers)).sessionId;

    model.script({ tool: 'mcp__tracker__create_issue', input: { title: 'Crash on save' } }, { text: 'Opened it.' });
    claude.permits.push((prompt) => ({ outcome: 'selected', optionId: prompt.options.find((o) => o.kind === 'allow_once')!.optionId }));
    elicit.answers.push((q) => answerFields(q, { priority: 'high', trackerKey: KEY }));
    assert.equal(await claude.connection.prompt(sessionId, 'Open an issue on the tracker: Crash on save'), 'end_turn');

    assert.equal(claude.prompts.at(-1)?.toolTitle, 'mcp__tracker__create_issue', 'claude asked before calling');
    const question = elicit.seen.at(-1)!;
    assert.equal(questionTitle(question.request), `tracker asks · tool create_issue · for claude, session ${sessionId.slice(0, 8)}`);
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
    const result = resultText(toolResults(model.turnRequests.at(-1)!.body).at(-1)!.content);
    assert.match(result, /Opened issue #1 "Crash on save" with high priority\./);
    // Neither the server's token nor the key typed reached the agent or its model.
    const sentToAgent = JSON.stringify(claude.lines());
    const sentToModel = JSON.stringify(model.requests.map((r) => r.body));
    for (const secret of [TRACKER_TOKEN, KEY]) {
      assert.ok(!sentToAgent.includes(secret), 'nothing sent to the agent holds it');
      assert.ok(!sentToModel.includes(secret), 'nothing sent to the model holds it');
      assert.ok(!environOf(claude.connection.pid!).includes(secret), "the agent's environment does not hold it");
    }
  });

  it("refuses the session's token once the session ends", async () => {
    grant.revoke();
    const response = await fetch(grant.endpoints[0]!.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${grant.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    assert.equal(response.status, 401);
  });
});

describe("codex-acp 2.6.0 calls the person's tracker through Elicit", { timeout: 300_000 }, () => {
  let temp: string;
  let workspace: string;
  let model: ScriptedModel;
  let codex: RealAgent;
  const record = newRecordFile();
  const elicit = elicitSide(record);

  before(async () => {
    temp = tempDir('elicit-codex-servers-');
    workspace = join(temp, 'workspace');
    const codexHome = join(temp, 'codex-home');
    mkdirSync(workspace);
    model = responsesEndpoint();
    const url = await model.start();
    scriptedCodexHome(codexHome, url);
    await elicit.endpoints.start();
    codex = await startRealAgent({
      name: 'codex',
      command: process.execPath,
      args: [codexAcp],
      env: { CODEX_HOME: codexHome, SCRIPTED_MODEL_KEY: 'scripted', NO_BROWSER: '1', INITIAL_AGENT_MODE: 'workspace-write' },
      workspace,
      record: join(temp, 'tap.jsonl'),
    });
  });

  after(async () => {
    try {
      await stopRealAgent(codex);
      await elicit.endpoints.stop();
      await elicit.tracker.stop();
      await model?.close();
    } finally {
      if (temp && !process.env.KEEP_TEMP) rmSync(temp, { recursive: true, force: true });
    }
  });

  it("asks the person the server's question naming codex and the session; the answer reaches the server and the result the model", async () => {
    let sessionId = '';
    const grant = elicit.endpoints.grant([{ name: 'tracker', server: 'tracker' }], () => `codex, session ${sessionId.slice(0, 8)}`);
    const { servers, via } = mcpServerEntries(codex.connection.initializeResponse, grant.endpoints, grant.token, bridge);
    assert.equal(via, 'http', 'codex takes MCP over HTTP');
    sessionId = (await codex.connection.newSession(workspace, servers)).sessionId;

    // Codex offers MCP tools as nested tools of its `exec` tool (JavaScript), named mcp__<server>__<tool>.
    model.script(
      { tool: 'exec', input: 'const result = await tools.mcp__tracker__create_issue({ title: "Crash on save" });\ntext(result);' },
      { text: 'Opened it.' },
    );
    codex.permits.push((prompt) => ({ outcome: 'selected', optionId: prompt.options.find((o) => o.kind === 'allow_once')!.optionId }));
    elicit.answers.push((q) => answerFields(q, { priority: 'low', trackerKey: KEY }));
    assert.equal(await codex.connection.prompt(sessionId, 'Open an issue on the tracker: Crash on save'), 'end_turn');

    assert.match(codex.prompts.at(-1)?.toolTitle ?? '', /tracker/, `codex asked before calling: ${JSON.stringify(codex.prompts.at(-1))}`);
    const question = elicit.seen.at(-1);
    assert.ok(
      question,
      `no question; tools offered: ${JSON.stringify((model.turnRequests[0]?.body.tools as Array<{ name?: string }>)?.map((t) => t.name))}`,
    );
    assert.equal(questionTitle(question.request), `tracker asks · tool create_issue · for codex, session ${sessionId.slice(0, 8)}`);
    const [created] = await waitForRecords(record, 1);
    assert.equal(created!.priority, 'low');
    assert.equal(created!.hadToken, true);
    const output = JSON.stringify(toolOutputs(model.turnRequests.at(-1)!.body).at(-1)?.output ?? '');
    assert.match(output, /Opened issue #1 \\+"Crash on save\\+" with low priority\./);
    const sentToAgent = JSON.stringify(codex.lines());
    for (const secret of [TRACKER_TOKEN, KEY]) {
      assert.ok(!sentToAgent.includes(secret), 'nothing sent to the agent holds it');
      assert.ok(!JSON.stringify(model.requests.map((r) => r.body)).includes(secret), 'nothing sent to the model holds it');
      assert.ok(!environOf(codex.connection.pid!).includes(secret), "the agent's environment does not hold it");
    }
    grant.revoke();
  });
});
