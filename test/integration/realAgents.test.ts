/**
 * Today's agents, offline, through Elicit's own ACP client (AcpConnection + the
 * real broker, a scripted person): @agentclientprotocol/codex-acp 2.6.0 (Codex
 * 0.166's app-server) and @agentclientprotocol/claude-agent-acp 0.101.0 (Claude
 * Agent SDK, on Node 22), each with a scripted model endpoint in place of the
 * model service. The questions and permission requests are the agents' own;
 * what reached the model is read from the endpoint's recorded request bodies.
 * The exact `elicitation/create` params are kept in test/fixtures/agent-questions/.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PermissionChoice } from '../../src/acp/connection';
import { configOptionRequest } from '../../src/acp/configOptions';
import { SessionControls } from '../../src/acp/sessionControls';
import { tempDir } from '../support/acpFixture';
import { codexAcp, scriptedCodexHome } from '../support/codexOffline';
import { askTwoQuestions, claudeAcp, claudeOfflineEnv } from '../support/claudeOffline';
import { messagesEndpoint, resultText, toolResults } from '../support/messagesEndpoint';
import { node22Binary } from '../support/node22';
import { matchesFixture, startRealAgent, stopRealAgent, type RealAgent, type TapLine } from '../support/realAgent';
import { responsesEndpoint, toolOutputs, userTexts } from '../support/responsesEndpoint';
import type { ScriptedModel } from '../support/scriptedModel';
import { answerFields } from '../support/scriptedRenderer';
import { CANCELLED } from '../../src/core/request';
import type { Question } from '../../src/core/broker/broker';
import { waitUntil } from '../support/waitUntil';

const select = (optionId: string) => (): PermissionChoice => ({ outcome: 'selected', optionId });

/** A gate a scripted turn waits on: the agent stays mid-turn until it opens. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('codex-acp 2.6.0 through Elicit, offline', { timeout: 300_000 }, () => {
  let temp: string;
  let workspace: string;
  let model: ScriptedModel;
  let codex: RealAgent;

  before(async () => {
    temp = tempDir('elicit-codex-');
    workspace = join(temp, 'workspace');
    const codexHome = join(temp, 'codex-home');
    mkdirSync(workspace);
    model = responsesEndpoint();
    const url = await model.start();
    // A custom model provider: no sign-in, the scripted endpoint as the model service.
    scriptedCodexHome(codexHome, url);
    codex = await startRealAgent({
      name: 'codex',
      command: process.execPath,
      args: [codexAcp],
      env: {
        CODEX_HOME: codexHome,
        SCRIPTED_MODEL_KEY: 'scripted',
        NO_BROWSER: '1',
        INITIAL_AGENT_MODE: 'workspace-write',
        // codex-acp's own log of its app-server traffic: shows when an answer was steered into a turn.
        APP_SERVER_LOGS: join(temp, 'codex-logs'),
      },
      workspace,
      record: join(temp, 'tap.jsonl'),
    });
  });

  after(async () => {
    try {
      await stopRealAgent(codex);
      await model?.close();
    } finally {
      // KEEP_TEMP=1 keeps the agent's home and logs (codex-logs/app-server.log) to look at after a failure.
      if (temp && !process.env.KEEP_TEMP) rmSync(temp, { recursive: true, force: true });
    }
  });

  /** Whether codex-acp's log shows a `turn/steer` of this session answered by its app-server. */
  function steered(sessionId: string): boolean {
    const log = join(temp, 'codex-logs', 'app-server.log');
    if (!existsSync(log)) return false;
    const messages = readFileSync(log, 'utf8')
      .split('\n')
      .flatMap((line) => {
        const json = line.indexOf(' {');
        try {
          return json < 0
            ? []
            : [JSON.parse(line.slice(json + 1)) as { id?: number; method?: string; params?: { threadId?: string }; result?: unknown }];
        } catch {
          return [];
        }
      });
    // The steer request, then the app-server's answer to it (a turn id), later in the log.
    const at = messages.findIndex((m) => m.method === 'turn/steer' && m.params?.threadId === sessionId);
    return at >= 0 && messages.slice(at + 1).some((m) => m.id === messages[at]!.id && m.method === undefined && m.result !== undefined);
  }

  async function newSession(): Promise<string> {
    return (await codex.connection.newSession(workspace)).sessionId;
  }

  it('Elicit advertises form and URL elicitation: codex offers its device-code sign-in (a URL question)', async () => {
    const initialize = codex.lines().find((l) => l.dir === 'in' && l.message?.method === 'initialize')!.message!.params!;
    assert.deepEqual((initialize.clientCapabilities as Record<string, unknown>).elicitation, { form: {}, url: {} });
    assert.deepEqual(
      codex.connection.initializeResponse?.authMethods?.map((m) => ('id' in m ? m.id : undefined)),
      ['api-key', 'chat-gpt-device-code'],
    );
  });

  it('Elicit advertises boolean config options: codex offers Fast mode as a toggle, and takes { type: "boolean", value }', async () => {
    const initialize = codex.lines().find((l) => l.dir === 'in' && l.message?.method === 'initialize')!.message!.params!;
    assert.deepEqual((initialize.clientCapabilities as Record<string, unknown>).session, { configOptions: { boolean: {} } });
    const { sessionId, ...opened } = await codex.connection.newSession(workspace);
    const controls = new SessionControls();
    controls.opened(opened);
    assert.deepEqual(
      controls.configOptions?.map((o) => [o.id, o.type]),
      [
        ['mode', 'select'],
        ['collaboration_mode', 'select'],
        ['model', 'select'],
        ['reasoning_effort', 'select'],
        ['fast-mode', 'boolean'],
      ],
    );
    const fast = controls.configOption('fast-mode')!;
    assert.equal(fast.name, 'Fast mode');
    assert.equal(typeof fast.current, 'boolean');
    const request = configOptionRequest(sessionId, fast, !fast.current)!;
    assert.deepEqual(request, { sessionId, configId: 'fast-mode', type: 'boolean', value: !fast.current });
    const answer = await codex.connection.request('session/set_config_option', request);
    assert.equal(controls.setConfigOptions(answer.configOptions), true);
    assert.equal(controls.configOption('fast-mode')?.current, !fast.current);
  });

  it('an escalated command asks allow once / allow always / cancel; allowed once, it runs', async () => {
    const sessionId = await newSession();
    model.script(
      {
        tool: 'exec_command',
        input: { cmd: 'touch once.txt', sandbox_permissions: 'require_escalated', justification: 'Create once.txt?' },
      },
      { text: 'Created it.' },
    );
    codex.permits.push(select('allow_once'));
    assert.equal(await codex.connection.prompt(sessionId, 'Create once.txt'), 'end_turn');

    const prompt = codex.prompts.at(-1)!;
    assert.equal(prompt.toolTitle, 'touch once.txt');
    assert.deepEqual(
      prompt.options.map((o) => [o.optionId, o.kind]),
      [
        ['allow_once', 'allow_once'],
        ['accept_execpolicy_amendment', 'allow_always'],
        ['cancel', 'reject_once'],
      ],
    );
    assert.match(prompt.options[1]!.name, /don't ask again for commands that start with `touch once\.txt`/);
    assert.ok(existsSync(join(workspace, 'once.txt')), 'the command ran');
    const output = toolOutputs(model.turnRequests.at(-1)!.body).at(-1)!;
    assert.match(String(output.output), /exited with code 0/);
    matchesFixture('codex-permission', codex.sent('session/request_permission').at(-1), temp);
  });

  it('allowed always (accept_execpolicy_amendment), a second matching command runs without a question', async () => {
    const sessionId = await newSession();
    const asked = codex.prompts.length;
    model.script(
      { tool: 'exec_command', input: { cmd: 'touch always-1.txt', sandbox_permissions: 'require_escalated', prefix_rule: ['touch'] } },
      { tool: 'exec_command', input: { cmd: 'touch always-2.txt', sandbox_permissions: 'require_escalated', prefix_rule: ['touch'] } },
      { text: 'Touched both.' },
    );
    // Answered "allow once" instead, the second command asks again (and, unanswered here, the turn is cancelled).
    codex.permits.push(select('accept_execpolicy_amendment'));
    assert.equal(await codex.connection.prompt(sessionId, 'Touch two files'), 'end_turn');
    assert.equal(codex.prompts.length, asked + 1, 'only the first command asked');
    assert.match(codex.prompts.at(-1)!.options[1]!.name, /commands that start with `touch`$/);
    assert.ok(existsSync(join(workspace, 'always-1.txt')) && existsSync(join(workspace, 'always-2.txt')), 'both commands ran');
    const outputs = toolOutputs(model.turnRequests.at(-1)!.body);
    assert.equal(outputs.length, 2);
    for (const output of outputs) assert.match(String(output.output), /exited with code 0/);
  });

  it('a blocking question (request_user_input, plan mode) answered with a choice and a note reaches the model', async () => {
    const sessionId = await newSession();
    await codex.connection.request('session/set_config_option', { sessionId, configId: 'collaboration_mode', value: 'plan' });
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
      { text: 'Planned with SQLite.' },
    );
    codex.answers.push((q) => answerFields(q, { database: 'SQLite', database_note: 'keep the file in data/' }));
    assert.equal(await codex.connection.prompt(sessionId, 'Plan the storage'), 'end_turn');

    const params = codex.sent('elicitation/create').at(-1)!;
    assert.equal(params.sessionId, sessionId);
    assert.equal(typeof params.toolCallId, 'string');
    matchesFixture('codex-blocking', params, temp);
    const output = toolOutputs(model.turnRequests.at(-1)!.body).at(-1)!;
    assert.deepEqual(JSON.parse(String(output.output)), {
      answers: { database: { answers: ['SQLite', 'user_note: keep the file in data/'] } },
    });
  });

  it('a declined blocking question reaches the model as no answers, and the turn goes on', async () => {
    const sessionId = await newSession();
    await codex.connection.request('session/set_config_option', { sessionId, configId: 'collaboration_mode', value: 'plan' });
    model.script(
      {
        tool: 'request_user_input',
        input: {
          questions: [
            {
              id: 'license',
              header: 'License',
              question: 'Which license?',
              options: [
                { label: 'MIT', description: 'Permissive.' },
                { label: 'GPL-3.0', description: 'Copyleft.' },
              ],
            },
          ],
        },
      },
      { text: 'I will leave the license out.' },
    );
    codex.answers.push(() => ({ action: 'decline' }));
    assert.equal(await codex.connection.prompt(sessionId, 'Plan the license'), 'end_turn');
    const output = toolOutputs(model.turnRequests.at(-1)!.body).at(-1)!;
    assert.deepEqual(JSON.parse(String(output.output)), { answers: {} });
  });

  it('a non-blocking question (request_user_input_async) answered while the turn runs is fed into that turn', async () => {
    const sessionId = await newSession();
    const working = gate();
    model.script(
      { tool: 'request_user_input_async', input: { questions: [{ title: 'Which colour for the logo?', options: ['Red', 'Blue'] }] } },
      // The model keeps working (this response stays open) while the person answers.
      { text: 'Still drawing the logo.', until: working.opened },
      { text: 'Drawn in the colour you chose.' },
    );
    const requestsBefore = model.turnRequests.length;
    // A person answers while codex works on: once codex is streaming the model's next response (the
    // one held open below), not in the moment between the question and that request.
    codex.answers.push(async (q) => {
      await waitUntil(() => model.turnRequests.length >= requestsBefore + 2, 'codex to ask the model for its next response', 30_000);
      return answerFields(q, { question_0: 'Blue', question_0_note: 'a dark blue' });
    });
    const turn = codex.connection.prompt(sessionId, 'Draw a logo');
    // The model's response stays open until codex has steered the answer into the running turn.
    await waitUntil(() => steered(sessionId), 'codex to steer the answer into the turn', 30_000).catch((error: unknown) => {
      // What codex-acp said about the answer (steered, not steered, dropped), for the failure's message.
      const said = codex.logs.filter((line) => /steer|async question|dropped/i.test(line)).slice(-10);
      throw new Error(`${String(error)}; codex's log: ${said.join(' | ') || '(nothing about the answer)'}`);
    });
    working.open();
    assert.equal(await turn, 'end_turn');

    const params = codex.sent('elicitation/create').at(-1)!;
    assert.equal(params.toolCallId, undefined, 'a non-blocking question belongs to no tool call');
    matchesFixture('codex-async', params, temp);
    const reply = userTexts(model.turnRequests.at(-1)!.body).find((t) => t.startsWith('<send_user_message_question_reply>'));
    assert.ok(reply, 'the answer reached the model in the same turn');
    const [answer] = JSON.parse(reply.split('\n')[1]!) as Array<{ question: string; answer: string }>;
    assert.deepEqual(
      { question: answer!.question, answer: answer!.answer },
      { question: 'Which colour for the logo?', answer: 'Blue\n\na dark blue' },
    );
  });
  it('a non-blocking question still open when the turn ends is withdrawn by codex ($/cancel_request): codex is answered cancel at once, and the question stays in front of the person marked turn ended until dismissed', async () => {
    const sessionId = await newSession();
    const shown = gate();
    model.script(
      { tool: 'request_user_input_async', input: { questions: [{ title: 'Which font?', options: ['Serif', 'Sans'] }] } },
      // The turn ends once the question is in front of the person, unanswered.
      { text: 'Finished without an answer.', until: shown.opened },
    );
    let seen: Question | undefined;
    let dismiss!: () => void;
    let closedBy: unknown;
    codex.answers.push(
      (question, signal) =>
        new Promise((resolve) => {
          seen = question;
          dismiss = () => resolve(CANCELLED);
          shown.open();
          signal.addEventListener('abort', () => ((closedBy = signal.reason ?? 'aborted'), resolve(CANCELLED)), { once: true });
        }),
    );
    assert.equal(await codex.connection.prompt(sessionId, 'Pick a font'), 'end_turn');

    const asked = codex
      .lines()
      .filter((l) => l.dir === 'out' && l.message?.method === 'elicitation/create')
      .at(-1)!.message!;
    assert.equal(asked.params!.sessionId, sessionId);
    await waitUntil(
      () =>
        codex.lines().some((l) => l.dir === 'out' && l.message?.method === '$/cancel_request' && l.message?.params?.requestId === asked.id),
      'codex to withdraw the question as its turn ended',
    );
    const answer = (): TapLine | undefined =>
      codex.lines().find((l) => l.dir === 'in' && l.message?.id === asked.id && l.message?.method === undefined);
    await waitUntil(() => answer() !== undefined, 'the answer to the withdrawn question');
    assert.deepEqual(answer()!.message!.result, { action: 'cancel' }, 'codex no longer waits: it is told cancel at once');

    // The person still has it, marked: its UI closes only when they dismiss it.
    const request = seen!.request;
    assert.ok(request.mode === 'form' && request.nonBlocking?.turnEnded.aborted, 'the question is marked turn ended');
    assert.equal(request.asker.detail, `session ${sessionId.slice(0, 8)}…`, 'attributed to its session');
    assert.equal(closedBy, undefined, 'its UI was not closed under the person');
    assert.ok(
      codex.events.some((e) => e.kind === 'questionTurnEnded' && e.sessionId === sessionId),
      'the agent panel is told the turn ended',
    );
    dismiss();
    await waitUntil(
      () => codex.events.some((e) => e.kind === 'question' && e.sessionId === sessionId && e.result?.action === 'cancel'),
      'the dismissal to reach the transcript',
    );
    assert.equal(codex.connection.openRequests, 0);
  });
});

describe('claude-agent-acp 0.101.0 (Node 22) through Elicit, offline', { timeout: 300_000 }, () => {
  let temp: string;
  let workspace: string;
  let model: ScriptedModel;
  let claude: RealAgent;

  before(async () => {
    temp = tempDir('elicit-claude-');
    workspace = join(temp, 'workspace');
    mkdirSync(workspace);
    model = messagesEndpoint();
    const url = await model.start();
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
      await model?.close();
    } finally {
      if (temp && !process.env.KEEP_TEMP) rmSync(temp, { recursive: true, force: true });
    }
  });

  it('Elicit advertises form elicitation: claude offers the model its AskUserQuestion tool', async () => {
    const initialize = claude.lines().find((l) => l.dir === 'in' && l.message?.method === 'initialize')!.message!.params!;
    assert.deepEqual((initialize.clientCapabilities as Record<string, unknown>).elicitation, { form: {}, url: {} });
    const { sessionId } = await claude.connection.newSession(workspace);
    model.script({ text: 'Hello.' });
    assert.equal(await claude.connection.prompt(sessionId, 'Hello'), 'end_turn');
    const tools = (model.turnRequests.at(-1)!.body.tools as Array<{ name: string }>).map((t) => t.name);
    assert.ok(tools.includes('AskUserQuestion'), `AskUserQuestion among ${tools.join(', ')}`);
  });

  it('AskUserQuestion with a single- and a multi-select comes as one form; the answer reaches the model intact', async () => {
    const { sessionId } = await claude.connection.newSession(workspace);
    model.script(askTwoQuestions, { text: 'Thanks.' });
    claude.answers.push((q) => answerFields(q, { question_0: 'SQLite', question_1: ['Auth', 'Export'], question_1_custom: 'Webhooks' }));
    assert.equal(await claude.connection.prompt(sessionId, 'Set up the service'), 'end_turn');

    assert.equal(claude.seen.length, 1, 'one form');
    const params = claude.sent('elicitation/create').at(-1)!;
    assert.equal(params.sessionId, sessionId);
    matchesFixture('claude-ask-user-question', params, temp);
    const result = resultText(toolResults(model.turnRequests.at(-1)!.body).at(-1)!.content);
    assert.match(result, /"Which database\?"="SQLite"/);
    assert.match(result, /"Which features\?"="Auth, Export, Webhooks"/);
  });

  it('a declined AskUserQuestion reaches the model as unanswered, and the turn goes on', async () => {
    const { sessionId } = await claude.connection.newSession(workspace);
    model.script(askTwoQuestions, { text: 'I will choose myself.' });
    claude.answers.push(() => ({ action: 'decline' }));
    assert.equal(await claude.connection.prompt(sessionId, 'Set up the service'), 'end_turn');
    const result = toolResults(model.turnRequests.at(-1)!.body).at(-1)!;
    assert.doesNotMatch(resultText(result.content), /SQLite|Postgres/);
    assert.ok(claude.events.some((e) => e.kind === 'question' && e.sessionId === sessionId && e.result?.action === 'decline'));
  });

  it('a Bash permission (mode default) offers allow once / always / reject; allowed once, the command runs', async () => {
    const { sessionId } = await claude.connection.newSession(workspace);
    await claude.connection.request('session/set_mode', { sessionId, modeId: 'default' });
    model.script(
      { tool: 'Bash', input: { command: 'echo hello-claude > claude.txt', description: 'Write claude.txt' } },
      { text: 'Done.' },
    );
    claude.permits.push(select('allow-once'));
    assert.equal(await claude.connection.prompt(sessionId, 'Write claude.txt'), 'end_turn');

    const prompt = claude.prompts.at(-1)!;
    assert.deepEqual(
      prompt.options.map((o) => [o.optionId, o.kind]),
      [
        ['allow-once', 'allow_once'],
        ['allow-with-updates', 'allow_always'],
        ['reject', 'reject_once'],
      ],
    );
    assert.equal(readFileSync(join(workspace, 'claude.txt'), 'utf8'), 'hello-claude\n');
    const result = toolResults(model.turnRequests.at(-1)!.body).at(-1)!;
    assert.equal(result.is_error, false);
    matchesFixture('claude-permission', claude.sent('session/request_permission').at(-1), temp);
  });

  it('a Bash command allowed always (allow-with-updates) runs again without a question', async () => {
    const { sessionId } = await claude.connection.newSession(workspace);
    await claude.connection.request('session/set_mode', { sessionId, modeId: 'default' });
    const asked = claude.prompts.length;
    model.script(
      { tool: 'Bash', input: { command: 'node -p 6*7', description: 'Compute one' } },
      { tool: 'Bash', input: { command: 'node -p 6*7', description: 'Compute it again' } },
      { text: 'Said both.' },
    );
    // Answered "allow once" instead, the second command asks again (and, unanswered here, is refused).
    claude.permits.push(select('allow-with-updates'));
    assert.equal(await claude.connection.prompt(sessionId, 'Say two things'), 'end_turn');
    assert.equal(claude.prompts.length, asked + 1, 'only the first command asked');
    assert.match(claude.prompts.at(-1)!.options[1]!.name, /don't ask again for node -p 6\*7 commands/);
    const results = toolResults(model.turnRequests.at(-1)!.body).slice(-2);
    assert.deepEqual(
      results.map((r) => [resultText(r.content).trim(), r.is_error]),
      [
        ['42', false],
        ['42', false],
      ],
    );
  });
});
