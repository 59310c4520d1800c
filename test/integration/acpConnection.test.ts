/**
 * The extension's ACP client code (AcpConnection + the real broker) against the
 * fixture agent started as a process, with a scripted answerer, a scripted
 * permission prompt and an in-memory file system in place of a person and VS Code.
 * Assertions are on what the agent recorded.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  AcpConnection,
  AuthRequiredError,
  FileNotFoundError,
  type AcpClientOptions,
  PERMISSION_CANCELLED,
  type AcpEvent,
  type PermissionChoice,
  type PermissionPrompt,
} from '../../src/acp/connection';
import type { AgentConfig } from '../../src/acp/config';
import { Transcript } from '../../src/acp/transcript';
import type { Question } from '../../src/core/broker/broker';
import { CANCELLED, type ElicitResult } from '../../src/core/request';
import { askerKey, UrlWaits } from '../../src/core/broker/urlWaits';
import { isAlive } from '../support/mcpServers';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { scriptedBroker } from '../support/scriptedRenderer';
import { waitUntil } from '../support/waitUntil';

const root = join(__dirname, '..', '..');
const agentFile = join(root, 'test', 'fixtures', 'acp-agent.mjs');
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'elicit-acp-ws-')));
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'elicit-acp-outside-')));

type Answer = (q: Question, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;
type Permit = (p: PermissionPrompt, signal: AbortSignal) => PermissionChoice | Promise<PermissionChoice>;

const running: AcpConnection[] = [];
after(async () => {
  await Promise.all(running.map((c) => c.stop()));
});

interface Harness {
  connection: AcpConnection;
  record: string;
  sessionId: string;
  seen: Question[];
  prompts: PermissionPrompt[];
  events: AcpEvent[];
  files: Map<string, string>;
  urlWaits: UrlWaits;
  answers: Answer[];
  permits: Permit[];
  /** Runs one prompt turn and returns the records the agent wrote during it. */
  turn(text: string): Promise<{ stopReason: string; records: Array<Record<string, unknown>> }>;
}

async function openAgent(name: string): Promise<Harness> {
  const record = newRecordFile();
  const answers: Answer[] = [];
  const permits: Permit[] = [];
  const prompts: PermissionPrompt[] = [];
  const events: AcpEvent[] = [];
  const files = new Map<string, string>();
  const urlWaits = new UrlWaits();
  const { broker, renderer } = scriptedBroker((q, signal) => {
    const next = answers.shift();
    assert.ok(next, `an unexpected question arrived: ${q.request.message}`);
    return next(q, signal);
  });
  const config: AgentConfig = { name, command: process.execPath, args: [agentFile], env: { RECORD_FILE: record, FIXTURE_NAME: name } };
  const connection = new AcpConnection(config, {
    ask: (request) => broker.ask(request),
    permission: async (prompt, signal) => {
      prompts.push(prompt);
      const next = permits.shift();
      assert.ok(next, 'an unexpected permission request arrived');
      return next(prompt, signal);
    },
    readTextFile: async (path) => {
      const text = files.get(path);
      if (text === undefined) throw new FileNotFoundError(`${path} does not exist`);
      return text;
    },
    writeTextFile: async (path, content) => {
      files.set(path, content);
    },
    roots: () => [workspace],
    log: () => undefined,
    urlWaits,
    defaultCwd: workspace,
  });
  running.push(connection);
  connection.onEvent((e) => events.push(e));
  await connection.start();
  const { sessionId } = await connection.newSession(workspace);
  return {
    connection,
    record,
    sessionId,
    seen: renderer.seen,
    prompts,
    events,
    files,
    urlWaits,
    answers,
    permits,
    async turn(text) {
      const before = readRecords(record).length;
      const turnsBefore = readRecords(record).filter((r) => r.kind === 'turn-end').length;
      const stopReason = await connection.prompt(sessionId, text);
      await waitForRecords(record, turnsBefore + 1, (r) => r.kind === 'turn-end');
      const records = readRecords(record).slice(before);
      return { stopReason, records };
    },
  };
}

function recordOf(records: Array<Record<string, unknown>>, kind: string): Record<string, unknown> {
  const found = records.find((r) => r.kind === kind);
  assert.ok(found, `no "${kind}" record in ${JSON.stringify(records)}`);
  return found;
}

/** Resolves when `signal` aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

describe('AcpConnection with the fixture agent', () => {
  let agent: Harness;
  before(async () => {
    agent = await openAgent('fixture');
  });

  it('initializes with fs, terminals and both elicitation modes declared, in the workspace folder', async () => {
    const records = readRecords(agent.record);
    const init = recordOf(records, 'initialize');
    assert.equal(init.protocolVersion, 1);
    const capabilities = init.clientCapabilities as Record<string, unknown>;
    assert.deepEqual(capabilities.fs, { readTextFile: true, writeTextFile: true });
    assert.deepEqual(capabilities.elicitation, { form: {}, url: {} });
    assert.equal(capabilities.terminal, true);
    assert.equal((init.clientInfo as { name: string }).name, 'elicit');
    assert.deepEqual(recordOf(records, 'session').cwd, workspace);
    assert.equal(agent.connection.status, 'running');
  });

  it('runs the full turn: permission, a form tied to the tool call, a confined write; secrets stay out of the transcript', async () => {
    const transcript = new Transcript(workspace);
    const sub = agent.connection.onEvent((e) => transcript.apply(e));
    agent.permits.push((prompt) => {
      assert.equal(prompt.agent, 'fixture');
      assert.equal(prompt.toolTitle, 'Write greeting.txt');
      assert.deepEqual(
        prompt.options.map((o) => o.kind),
        ['allow_once', 'allow_always', 'reject_once', 'reject_always'],
      );
      return { outcome: 'selected', optionId: 'allow-once' };
    });
    agent.answers.push((q) => {
      assert.deepEqual(q.request.asker, { kind: 'acp', name: 'fixture', detail: 'Write greeting.txt' });
      assert.equal(q.presentation, 'form');
      assert.equal(
        q.form!.fields.find((f) => f.name === 'apiToken')!.kind === 'text' &&
          (q.form!.fields.find((f) => f.name === 'apiToken') as { secret: boolean }).secret,
        true,
      );
      return { action: 'accept', content: { greeting: 'Howdy', audience: 'team', apiToken: 'sk-secret-123' } };
    });
    transcript.user('full');
    const { stopReason, records } = await agent.turn('full');
    sub.dispose();
    assert.equal(stopReason, 'end_turn');
    assert.deepEqual(recordOf(records, 'permission').result, { outcome: { outcome: 'selected', optionId: 'allow-once' } });
    assert.deepEqual(recordOf(records, 'form').result, {
      action: 'accept',
      content: { greeting: 'Howdy', audience: 'team', apiToken: 'sk-secret-123', shout: false },
    });
    assert.equal(agent.files.get(join(workspace, 'greeting.txt')), 'Howdy, team!\n');
    assert.ok(!('error' in recordOf(records, 'write')));

    const items = transcript.all();
    const text = items.filter((i) => i.kind === 'agent').map((i) => (i as { text: string }).text);
    assert.deepEqual(text, ['Hello from the fixture agent.\nA second line.', 'Wrote "Howdy, team!" to greeting.txt.']);
    assert.ok(items.some((i) => i.kind === 'thought'));
    const tool = items.find((i) => i.kind === 'tool');
    assert.ok(tool && tool.kind === 'tool');
    assert.equal(tool.status, 'completed');
    assert.deepEqual(tool.locations, ['greeting.txt']);
    assert.deepEqual(tool.content, [
      {
        kind: 'diff',
        path: 'greeting.txt',
        isNew: true,
        lines: [
          { op: '+', text: 'Howdy, team!' },
          { op: '+', text: '' },
        ],
        omitted: 0,
      },
    ]);
    const plans = items.filter((i) => i.kind === 'plan');
    assert.equal(plans.length, 1, 'a plan is updated in place within a turn');
    const permission = items.find((i) => i.kind === 'permission');
    assert.deepEqual(permission && { ...permission, id: 0 }, {
      id: 0,
      kind: 'permission',
      agent: 'fixture',
      title: 'Write greeting.txt',
      // What "allow always" covers, in the agent's own words.
      always: ['Always allow'],
      options: ['Allow once', 'Always allow', 'Reject', 'Always reject'],
      outcome: 'Allow once',
    });
    const question = items.find((i) => i.kind === 'question');
    assert.ok(question && question.kind === 'question');
    assert.equal(question.title, 'Write greeting.txt');
    assert.equal(question.outcome, 'accept');
    assert.deepEqual(question.answer, [
      { label: 'Greeting', secret: false, value: 'Howdy' },
      { label: 'Audience', secret: false, value: 'team' },
      { label: 'API token', secret: true },
      { label: 'Shout', secret: false, value: 'no' },
    ]);
    assert.ok(!JSON.stringify(items).includes('sk-secret-123'), 'the secret never enters the transcript');
    assert.ok(items.some((i) => i.kind === 'file' && i.action === 'write' && i.path === 'greeting.txt'));
  });

  it('sends a rejection the person chose', async () => {
    agent.permits.push(() => ({ outcome: 'selected', optionId: 'reject-always' }));
    const { records } = await agent.turn('permission');
    assert.deepEqual(recordOf(records, 'permission').result, { outcome: { outcome: 'selected', optionId: 'reject-always' } });
  });

  it('answers cancelled for an Escape, and for an option the agent never offered', async () => {
    agent.permits.push(() => PERMISSION_CANCELLED);
    let { records } = await agent.turn('permission');
    assert.deepEqual(recordOf(records, 'permission').result, { outcome: { outcome: 'cancelled' } });
    agent.permits.push(() => ({ outcome: 'selected', optionId: 'sudo' }));
    ({ records } = await agent.turn('permission'));
    assert.deepEqual(recordOf(records, 'permission').result, { outcome: { outcome: 'cancelled' } });
  });

  it('Stop (session/cancel) closes a pending permission prompt and answers cancelled', async () => {
    let promptSignal: AbortSignal | undefined;
    agent.permits.push(async (_p, signal) => {
      promptSignal = signal;
      await aborted(signal);
      return { outcome: 'selected', optionId: 'allow-once' }; // too late: must become cancelled
    });
    const turn = agent.turn('permission-wait');
    await waitUntil(() => promptSignal !== undefined, 'the prompt to start', 10_000);
    await agent.connection.cancel(agent.sessionId);
    const { stopReason, records } = await turn;
    assert.equal(promptSignal!.aborted, true);
    assert.equal(stopReason, 'cancelled');
    assert.deepEqual(recordOf(records, 'permission').result, { outcome: { outcome: 'cancelled' } });
    await waitForRecords(agent.record, 1, (r) => r.kind === 'cancel-received' && r.sessionId === agent.sessionId);
    assert.equal(agent.connection.openRequests, 0);
  });

  it('closes a permission prompt the agent cancels ($/cancel_request) and answers cancelled', async () => {
    agent.permits.push(async (_p, signal) => {
      await aborted(signal);
      return PERMISSION_CANCELLED;
    });
    const { records } = await agent.turn('agent-cancel');
    assert.deepEqual(recordOf(records, 'permission').result, { outcome: { outcome: 'cancelled' } });
  });

  it('closes a question the agent cancels and answers cancel', async () => {
    let questionSignal: AbortSignal | undefined;
    agent.answers.push(async (_q, signal) => {
      questionSignal = signal;
      await aborted(signal);
      return CANCELLED;
    });
    const { records } = await agent.turn('agent-cancel-form');
    assert.equal(questionSignal?.aborted, true);
    assert.deepEqual(recordOf(records, 'form').result, { action: 'cancel' });
  });

  it('sends accept, decline and cancel for form questions as such', async () => {
    const params = JSON.stringify({
      mode: 'form',
      message: 'Pick a key',
      requestedSchema: { type: 'object', properties: { key: { type: 'string', enum: ['C', 'Am'] } }, required: ['key'] },
    });
    agent.answers.push((q) => {
      assert.deepEqual(q.request.asker, { kind: 'acp', name: 'fixture' });
      return { action: 'accept', content: { key: 'Am' } };
    });
    agent.answers.push(() => ({ action: 'decline' }));
    agent.answers.push(() => CANCELLED);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(recordOf((await agent.turn(`raw ${params}`)).records, 'raw').result);
    assert.deepEqual(results, [{ action: 'accept', content: { key: 'Am' } }, { action: 'decline' }, { action: 'cancel' }]);
  });

  it('answers a malformed schema, an undeclared mode and a missing message with -32602, never showing them', async () => {
    const before = agent.seen.length;
    const cases: Array<[object, RegExp]> = [
      [
        { mode: 'form', message: 'Nested', requestedSchema: { type: 'object', properties: { a: { type: 'object', properties: {} } } } },
        /property "a" is a nested object/,
      ],
      [{ mode: 'telepathy', message: 'Think of a number' }, /mode "telepathy" is not supported/],
      [{ mode: 'form', requestedSchema: { type: 'object', properties: {} } }, /needs a "message" string/],
      [{ mode: 'url', message: 'Open', url: 'javascript:alert(1)', elicitationId: 'x' }, /only http and https/],
    ];
    for (const [params, message] of cases) {
      const { records } = await agent.turn(`raw ${JSON.stringify(params)}`);
      const { error } = recordOf(records, 'raw') as { error: { code: number; message: string } };
      assert.equal(error.code, -32602, JSON.stringify(error));
      assert.match(error.message, message);
      assert.ok(error.message.length < 300, 'the error stays short');
    }
    assert.equal(agent.seen.length, before);
  });

  it('sees format "password" and pattern exactly as sent', async () => {
    agent.answers.push((q) => {
      const [code, key] = q.form!.fields;
      assert.equal(code!.kind === 'text' && code!.pattern, '^[A-Z]{3}$');
      assert.equal(key!.kind === 'text' && key!.secret, true);
      return { action: 'accept', content: { code: 'ABC', key: 'hunter2' } };
    });
    const params = {
      mode: 'form',
      message: 'Code and key',
      requestedSchema: {
        type: 'object',
        properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, key: { type: 'string', format: 'password' } },
        required: ['code'],
      },
    };
    const { records } = await agent.turn(`raw ${JSON.stringify(params)}`);
    assert.deepEqual(recordOf(records, 'raw').result, { action: 'accept', content: { code: 'ABC', key: 'hunter2' } });
  });

  for (const scenario of ['url', 'legacy-url'] as const) {
    it(`takes a URL question with consent and ends the wait on completion (${scenario})`, async () => {
      let waiting: Promise<string> | undefined;
      agent.answers.push((q) => {
        assert.equal(q.presentation, 'url');
        assert.equal(q.url!.url, 'https://auth.example.com/login?state=acp');
        waiting = agent.urlWaits.wait(askerKey(q.request.asker), (q.request as { elicitationId: string }).elicitationId);
        return { action: 'accept' };
      });
      const { records } = await agent.turn(scenario);
      assert.deepEqual(recordOf(records, 'url').result, { action: 'accept' });
      await waitForRecords(
        agent.record,
        1,
        (r) => r.kind === 'completed-sent' && r.method === (scenario === 'url' ? 'elicitation/complete' : 'session/elicitation/complete'),
      );
      assert.equal(await waiting, 'completed');
      assert.equal(agent.urlWaits.size, 0, 'the repeated and unknown completions left nothing behind');
      assert.ok(agent.events.some((e) => e.kind === 'completed'));
    });
  }

  it('answers the legacy session/elicitation method', async () => {
    agent.answers.push((q) => {
      assert.equal(q.request.message, 'Which branch?');
      return { action: 'accept', content: { branch: 'main' } };
    });
    const { records } = await agent.turn('legacy');
    const legacy = recordOf(records, 'legacy');
    assert.equal(legacy.method, 'session/elicitation');
    assert.deepEqual(legacy.result, { action: 'accept', content: { branch: 'main' } });
    agent.answers.push(() => ({ action: 'decline' }));
    const raw = JSON.stringify({
      mode: 'form',
      message: 'Again',
      requestedSchema: { type: 'object', properties: { b: { type: 'string' } } },
    });
    assert.deepEqual(recordOf((await agent.turn(`legacy-raw ${raw}`)).records, 'raw').result, { action: 'decline' });
    const bad = JSON.stringify({ mode: 'carrier-pigeon', message: 'Coo' });
    assert.equal((recordOf((await agent.turn(`legacy-raw ${bad}`)).records, 'raw').error as { code: number }).code, -32602);
  });

  it('reads files inside the workspace (honouring line and limit) and refuses others', async () => {
    const inside = join(workspace, 'notes.txt');
    agent.files.set(inside, 'one\ntwo\nthree\nfour\n');
    const read = async (args: object): Promise<Record<string, unknown>> =>
      recordOf((await agent.turn(`read ${JSON.stringify(args)}`)).records, 'read');
    assert.deepEqual((await read({ path: inside })).result, { content: 'one\ntwo\nthree\nfour\n' });
    assert.deepEqual((await read({ path: inside, line: 2, limit: 2 })).result, { content: 'two\nthree\n' });
    assert.deepEqual((await read({ path: inside, line: 4 })).result, { content: 'four\n' });

    const refusals: Array<[object, number, RegExp]> = [
      [{ path: '/etc/passwd' }, -32602, /outside the workspace folders/],
      [{ path: join(workspace, '..', 'escape.txt') }, -32602, /outside the workspace folders/],
      [{ path: 'notes.txt' }, -32602, /not an absolute path/],
      [{ path: join(workspace, 'missing.txt') }, -32002, /Resource not found/],
    ];
    mkdirSync(join(workspace, 'sub'), { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'outside');
    symlinkSync(outside, join(workspace, 'sub', 'link'));
    agent.files.set(join(workspace, 'sub', 'link', 'secret.txt'), 'outside');
    refusals.push([{ path: join(workspace, 'sub', 'link', 'secret.txt') }, -32602, /outside the workspace folders/]);
    for (const [args, code, message] of refusals) {
      const { error } = (await read(args)) as { error: { code: number; message: string } };
      assert.equal(error?.code, code, JSON.stringify(args));
      assert.match(error.message, message);
    }
  });

  it('writes files inside the workspace only', async () => {
    const target = join(workspace, 'out', 'new.txt');
    let { records } = await agent.turn(`write ${JSON.stringify({ path: target, content: 'fresh' })}`);
    assert.ok(!('error' in recordOf(records, 'write')));
    assert.equal(agent.files.get(target), 'fresh');
    const escape = join(outside, 'evil.txt');
    ({ records } = await agent.turn(`write ${JSON.stringify({ path: escape, content: 'evil' })}`));
    assert.equal((recordOf(records, 'write').error as { code: number }).code, -32602);
    assert.equal(agent.files.has(escape), false);
    ({ records } = await agent.turn(`write ${JSON.stringify({ path: join(workspace, 'sub', 'link', 'evil.txt'), content: 'evil' })}`));
    assert.equal((recordOf(records, 'write').error as { code: number }).code, -32602, 'a link out of the workspace is refused');
  });

  it('applies every update the agent sent before answering session/prompt by the time prompt() resolves', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const seen: string[] = [];
    const sub = agent.connection.onEvent((e) => {
      if (e.kind === 'update' && e.update.sessionUpdate === 'agent_message_chunk' && e.update.content.type === 'text')
        seen.push(e.update.content.text);
    });
    await agent.connection.prompt(agent.sessionId, `echo ${words.join(' ')}`);
    sub.dispose(); // at once: nothing may arrive later
    assert.equal(seen.join(''), words.join(' '));
  });

  it('runs a command in a client terminal: output, exit status, shown live in the tool call, gone after release', async () => {
    const transcript = new Transcript(workspace);
    const sub = agent.connection.onEvent((e) => transcript.apply(e));
    const script =
      "process.stdout.write('\\x1b[32mgreen\\x1b[0m out\\n'); console.error('to stderr'); console.log(process.cwd()); process.exit(3)";
    const { records } = await agent.turn(`terminal ${JSON.stringify({ command: process.execPath, args: ['-e', script] })}`);
    sub.dispose();
    assert.match(String((recordOf(records, 'terminal-create').result as { terminalId: string }).terminalId), /^term-\d+$/);
    assert.deepEqual(recordOf(records, 'terminal-exit').result, { exitCode: 3, signal: null });
    const output = recordOf(records, 'terminal-output').result as { output: string; truncated: boolean; exitStatus: unknown };
    assert.equal(output.truncated, false);
    assert.deepEqual(output.exitStatus, { exitCode: 3, signal: null });
    assert.match(output.output, /\x1b\[32mgreen\x1b\[0m out\n/, 'the agent gets the raw output');
    assert.match(output.output, /to stderr\n/);
    assert.ok(output.output.includes(`${workspace}\n`), 'it ran in the session folder');
    assert.equal((recordOf(records, 'terminal-after-release').error as { code: number }).code, -32602, 'a released terminal is gone');
    const tool = transcript.all().find((i) => i.kind === 'tool');
    assert.ok(tool && tool.kind === 'tool');
    const shown = tool.content[0]!;
    assert.ok(shown.kind === 'terminal');
    assert.equal(shown.exit, 'exit code 3');
    assert.equal(shown.command, `${process.execPath} -e ${JSON.stringify(script)}`, 'an argument with spaces is quoted');
    assert.match(shown.output, /^green out\n/, 'the panel shows it without colour codes');
  });

  it('kills a terminal (and what it started), keeps only the last outputByteLimit bytes, refuses a cwd outside the workspace', async () => {
    const chatty = "process.stdout.write('é'.repeat(400) + 'END\\n'); setInterval(() => {}, 1000)";
    let { records } = await agent.turn(
      `terminal ${JSON.stringify({ command: process.execPath, args: ['-e', chatty], outputByteLimit: 101, kill: true })}`,
    );
    assert.deepEqual(recordOf(records, 'terminal-exit').result, { exitCode: null, signal: 'SIGTERM' });
    const output = recordOf(records, 'terminal-output').result as { output: string; truncated: boolean };
    assert.equal(output.truncated, true);
    assert.ok(Buffer.byteLength(output.output) <= 101, `${Buffer.byteLength(output.output)} bytes kept`);
    assert.match(output.output, /^(é)+END\n$/, 'cut at a character boundary, the end kept');
    ({ records } = await agent.turn(`terminal ${JSON.stringify({ command: process.execPath, args: ['-e', '1'], cwd: outside })}`));
    assert.equal((recordOf(records, 'terminal-create').error as { code: number }).code, -32602);
    ({ records } = await agent.turn(`terminal ${JSON.stringify({ command: 'elicit-no-such-command-xyz', args: [] })}`));
    assert.match((recordOf(records, 'terminal-create').error as { message: string }).message, /Could not run elicit-no-such-command-xyz/);
  });

  it('a crash closes the open question (its signal aborts), reports the exit with stderr, and leaves nothing open', async () => {
    let questionSignal: AbortSignal | undefined;
    agent.answers.push(async (_q, signal) => {
      questionSignal = signal;
      await aborted(signal);
      return CANCELLED;
    });
    const exit = new Promise<AcpEvent>((resolve) => agent.connection.onEvent((e) => e.kind === 'exit' && resolve(e)));
    await assert.rejects(agent.connection.prompt(agent.sessionId, 'crash'), /exited with code 3[\s\S]*crashing now/);
    assert.equal(questionSignal?.aborted, true);
    const event = (await exit) as Extract<AcpEvent, { kind: 'exit' }>;
    assert.equal(event.expected, false);
    assert.match(event.message, /fixture exited with code 3/);
    assert.equal(agent.connection.status, 'exited');
    assert.equal(agent.connection.openRequests, 0);
    await assert.rejects(agent.connection.prompt(agent.sessionId, 'echo hi'), /exited with code 3/);
  });
});

/** Client options for tests that expect no question, permission or file access. */
const noAnswers: AcpClientOptions = {
  ask: async () => CANCELLED,
  permission: async () => PERMISSION_CANCELLED,
  readTextFile: async () => '',
  writeTextFile: async () => undefined,
  roots: () => [workspace],
  log: () => undefined,
};

describe('AcpConnection process lifecycle', () => {
  it('stop() ends the agent process', async () => {
    const agent = await openAgent('stoppable');
    const pid = agent.connection.pid!;
    assert.ok(isAlive(pid));
    const exits: AcpEvent[] = [];
    agent.connection.onEvent((e) => e.kind === 'exit' && exits.push(e));
    await agent.connection.stop();
    assert.equal(isAlive(pid), false);
    assert.deepEqual(
      exits.map((e) => e.kind === 'exit' && e.expected),
      [true],
    );
  });

  it('a command that does not exist fails to start with a sentence', async () => {
    const connection = new AcpConnection({ name: 'ghost', command: 'elicit-no-such-agent-binary', args: [], env: {} }, noAnswers);
    await assert.rejects(connection.start(), /Could not start ghost: command not found/);
    assert.equal(connection.status, 'exited');
  });

  it('a crash ends the wait of an accepted URL question as cancelled', async () => {
    const agent = await openAgent('url-crasher');
    let waiting: Promise<string> | undefined;
    agent.answers.push((q) => {
      waiting = agent.urlWaits.wait(askerKey(q.request.asker), 'login-crash');
      return { action: 'accept' };
    });
    await assert.rejects(agent.connection.prompt(agent.sessionId, 'url-crash'), /exited with code 4/);
    assert.equal(await waiting, 'cancelled');
    assert.equal(agent.urlWaits.size, 0);
  });

  it('two sessions of the same agent run side by side in separate processes', async () => {
    const [a, b] = await Promise.all([openAgent('twin'), openAgent('twin')]);
    assert.notEqual(a.connection.pid, b.connection.pid);
    const [ra, rb] = await Promise.all([a.turn('echo one'), b.turn('echo two')]);
    assert.equal(ra.stopReason, 'end_turn');
    assert.equal(rb.stopReason, 'end_turn');
    await Promise.all([a.connection.stop(), b.connection.stop()]);
  });
});

describe('AcpConnection resuming a session (session/load)', () => {
  function keeper(record: string, store: string): AcpConnection {
    const connection = new AcpConnection(
      {
        name: 'keeper',
        command: process.execPath,
        args: [agentFile],
        env: { RECORD_FILE: record, FIXTURE_NAME: 'keeper', SESSION_STORE: store },
      },
      noAnswers,
    );
    running.push(connection);
    return connection;
  }

  it('a new agent process replays the earlier conversation into the transcript, and the session goes on', async () => {
    const store = mkdtempSync(join(tmpdir(), 'elicit-acp-sessions-'));
    const record = newRecordFile();
    const first = keeper(record, store);
    await first.start();
    assert.equal(first.canLoadSession, true);
    const { sessionId } = await first.newSession(workspace);
    assert.equal(await first.prompt(sessionId, 'echo before the reload'), 'end_turn');
    await first.stop();

    const second = keeper(record, store);
    const transcript = new Transcript(workspace);
    second.onEvent((e) => transcript.apply(e));
    await second.start();
    await second.loadSession(sessionId, workspace);
    const shown = transcript.all().map((item) => ('text' in item ? `${item.kind}: ${item.text}` : item.kind));
    assert.deepEqual(shown, ['user: echo before the reload', 'agent: before the reload']);
    assert.equal(await second.prompt(sessionId, 'echo after'), 'end_turn');
    const { callStarted, ...load } = readRecords(record).find((r) => r.kind === 'load')!;
    assert.equal(typeof callStarted, 'number', 'stamped with when its request came');
    assert.deepEqual(load, { agent: 'keeper', kind: 'load', sessionId, cwd: workspace, replayed: 4 });
  });

  it('an agent without loadSession says so; an unknown session is refused', async () => {
    const plain = await openAgent('forgetful');
    assert.equal(plain.connection.canLoadSession, false);
    const connection = keeper(newRecordFile(), mkdtempSync(join(tmpdir(), 'elicit-acp-sessions-')));
    await connection.start();
    await assert.rejects(connection.loadSession('session-gone', workspace), /not found/i);
  });
});

describe('AcpConnection with an agent that asks to sign in', () => {
  it('reports auth_required, offers the methods it can use, and opens the session once signed in', async () => {
    const record = newRecordFile();
    const connection = new AcpConnection(
      {
        name: 'locked',
        command: process.execPath,
        args: [agentFile],
        env: { RECORD_FILE: record, FIXTURE_NAME: 'locked', REQUIRE_AUTH: '1' },
      },
      noAnswers,
    );
    running.push(connection);
    await connection.start();
    await assert.rejects(
      connection.newSession(workspace),
      (error: unknown) => error instanceof AuthRequiredError && /locked asks you to sign in/.test(error.message),
    );
    // No terminal login: this client did not declare auth.terminal, so the agent offers none.
    assert.deepEqual(connection.authMethods, [
      { kind: 'agent', id: 'fixture-token', name: 'Sign in with a fixture token', description: 'Signs in without leaving the editor' },
      { kind: 'agent', id: 'fixture-refuse', name: 'Refused sign-in', description: 'The agent refuses this one' },
      {
        kind: 'env_var',
        id: 'fixture-key',
        name: 'Use FIXTURE_API_KEY',
        description: 'Requires the FIXTURE_API_KEY environment variable.',
        vars: [{ name: 'FIXTURE_API_KEY', secret: true, optional: false }],
      },
    ]);
    await assert.rejects(connection.authenticate('fixture-refuse'), /cannot sign in with fixture-refuse/);
    await connection.authenticate('fixture-token');
    const { sessionId } = await connection.newSession(workspace);
    assert.equal(sessionId, 'session-1');
    const kinds = readRecords(record).map((r) => (r.kind === 'authenticate' ? `authenticate ${r.methodId as string}` : r.kind));
    assert.deepEqual(kinds, ['initialize', 'auth-required', 'authenticate fixture-refuse', 'authenticate fixture-token', 'session']);
    await connection.stop();
  });
});
