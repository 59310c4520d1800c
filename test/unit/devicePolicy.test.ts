/**
 * What may be answered on a paired phone (issue #23), over the broker's own
 * questions: agent and form questions may go; secret fields, key and
 * configuration inputs, sign-ins and Elicit's own questions never; permission
 * requests only as allow once / reject once. A phone's answer is checked as the
 * editor checks it, closes the question in the editor and is kept in the history
 * under the device's name. Agent questions are the recorded params of codex and
 * claude (test/fixtures/agent-questions).
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { Broker, type AnsweredQuestion, type Question, type RenderOutcome, type Renderer } from '../../src/core/broker/broker';
import { agentElicitRequest } from '../../src/acp/agentConventions';
import { toHistoryEntry } from '../../src/core/broker/history';
import type { Asker, ElicitRequest, ElicitResult } from '../../src/core/request';
import {
  acceptsDevicePermission,
  devicePermissionOptions,
  deviceVerdict,
  promptGoesToDevice,
  type EditorPromptKind,
} from '../../src/core/device/devicePolicy';
import { phoneQuestion, readPhoneAnswer } from '../../src/core/device/phoneQuestions';
import { parseMcpConfig } from '../../src/core/mcpConfig/serverConfig';
import { MemorySecretStore } from '../../src/mcp/oauthStore';
import { SecretGrants } from '../../src/mcp/secretGrants';
import { ConfigInputs } from '../../src/vscode/mcp/configInputs';
import { SecretVault } from '../../src/vscode/secrets/secretVault';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'agent-questions');
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

/** A person away from the desk: every question stays on screen until it is closed. */
class AwayRenderer implements Renderer {
  readonly signals: AbortSignal[] = [];
  render(_question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    this.signals.push(signal);
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
  }
}

function awayBroker(): { broker: Broker; renderer: AwayRenderer; answered: AnsweredQuestion[] } {
  const renderer = new AwayRenderer();
  const broker = new Broker(renderer, { timeoutMs: () => 60_000, maxPendingPerAsker: () => 10, presentation: () => 'form' });
  const answered: AnsweredQuestion[] = [];
  broker.onDidAnswer((a) => answered.push(a));
  return { broker, renderer, answered };
}

/** Asks and returns the broker's question for it, with the pending answer. */
async function pose(broker: Broker, request: ElicitRequest): Promise<{ question: Question; answer: Promise<ElicitResult> }> {
  const before = new Set(broker.pending().map((q) => q.id));
  const answer = broker.ask(request);
  await new Promise((resolve) => setImmediate(resolve));
  const question = broker.pending().find((q) => !before.has(q.id));
  assert.ok(question, 'the question is waiting');
  return { question, answer };
}

const codex: Asker = { kind: 'acp', name: 'codex', detail: 'session 1' };
const server: Asker = { kind: 'mcp', name: 'weather' };

/** A recorded agent question as the ACP side asks it. */
function agentQuestion(file: string, asker = codex): ElicitRequest {
  return agentElicitRequest('elicitation/create', fixture(file), asker, new AbortController().signal);
}

describe('what may go to a paired phone', () => {
  it('agent questions of codex and claude, and a plain MCP form', async () => {
    const { broker } = awayBroker();
    for (const request of [
      agentQuestion('codex-blocking.json'),
      agentQuestion('codex-async.json'),
      agentQuestion('claude-ask-user-question.json', { kind: 'acp', name: 'claude' }),
      { mode: 'form', asker: server, message: 'Where?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } },
    ] satisfies ElicitRequest[]) {
      const { question } = await pose(broker, request);
      assert.deepEqual(deviceVerdict(question), { allowed: true, opensOnComputer: false }, request.message);
      assert.equal(phoneQuestion(question).kind, 'form');
    }
  });

  it('carries the asker’s own timer as the time left when the list is made, also for a question kept for the editor', async () => {
    const { broker } = awayBroker();
    const now = Date.now();
    const form: ElicitRequest = { ...agentQuestion('codex-blocking.json'), autoResolvesAt: now + 45_000 };
    const secret: ElicitRequest = {
      mode: 'form',
      asker: codex,
      message: 'Token?',
      requestedSchema: { type: 'object', properties: { token: { type: 'string', format: 'password' } } },
      autoResolvesAt: now + 5_000,
    };
    const timed = phoneQuestion((await pose(broker, form)).question, now + 15_000);
    assert.equal(timed.kind, 'form');
    assert.equal(timed.autoResolvesInMs, 30_000);
    const kept = phoneQuestion((await pose(broker, secret)).question, now + 6_000);
    assert.equal(kept.kind, 'editorOnly');
    assert.equal(kept.autoResolvesInMs, 0, 'a timer already run out shows as up, never as negative');
    const untimed = phoneQuestion((await pose(broker, agentQuestion('codex-async.json'))).question);
    assert.equal('autoResolvesInMs' in untimed, false);
  });

  it('never a question with a secret field: format password, writeOnly, or codex’s isSecret', async () => {
    const { broker } = awayBroker();
    const codexSecret = fixture('codex-blocking.json');
    const props = (codexSecret.requestedSchema as { properties: Record<string, { _meta: { codex: { isSecret: boolean } } }> }).properties;
    props.database_note!._meta.codex.isSecret = true;
    for (const request of [
      agentElicitRequest('elicitation/create', codexSecret, codex, new AbortController().signal),
      {
        mode: 'form',
        asker: server,
        message: 'Key',
        requestedSchema: { type: 'object', properties: { k: { type: 'string', format: 'password' } } },
      },
      {
        mode: 'form',
        asker: server,
        message: 'Pin',
        requestedSchema: { type: 'object', properties: { p: { type: 'string', writeOnly: true } } },
      },
      {
        mode: 'group',
        asker: server,
        message: 'Two',
        sections: [
          { key: '1', message: 'Name', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } },
          { key: '2', message: 'Token', requestedSchema: { type: 'object', properties: { t: { type: 'string', format: 'password' } } } },
        ],
      },
    ] satisfies ElicitRequest[]) {
      const { question } = await pose(broker, request);
      assert.deepEqual(deviceVerdict(question), { allowed: false, reason: 'secret' });
      const view = phoneQuestion(question);
      assert.equal(view.kind, 'editorOnly');
      assert.ok(!JSON.stringify(view).includes(request.message === 'Two' ? 'Token' : request.message), 'nothing of what it asks');
    }
  });

  it('never a configuration input (a key), even one that is not a password', async () => {
    for (const input of [
      { id: 'api-key', type: 'promptString', description: 'API key', password: true },
      { id: 'region', type: 'promptString', description: 'Region' },
    ]) {
      const { broker } = awayBroker();
      const parsed = parseMcpConfig(
        JSON.stringify({ inputs: [input], servers: { s: { command: 'node', args: ['s.js'], env: { VALUE: `\${input:${input.id}}` } } } }),
        '.vscode/mcp.json',
        { workspaceFolder: '/ws', userHome: '/home/u', env: {} },
      );
      const config = { ...parsed.servers[0]!, origin: { file: 'file:///ws/.vscode/mcp.json', folder: '/ws' } };
      const memento = { get: () => undefined, update: async () => undefined, keys: () => [] } as unknown as vscode.Memento;
      const vault = new SecretVault(new MemorySecretStore() as unknown as vscode.SecretStorage, memento);
      const inputs = new ConfigInputs(
        broker,
        vault,
        new SecretGrants(
          memento,
          async () => undefined,
          async () => false,
        ),
      );
      const resolved = inputs.resolve(config).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const asked = broker.pending();
      assert.equal(asked.length, 1, `the input ${input.id} is asked`);
      assert.match(asked[0]!.request.message, new RegExp(input.description));
      assert.deepEqual(deviceVerdict(asked[0]!), { allowed: false, reason: 'key' });
      broker.decline(asked[0]!.id);
      await resolved;
    }
  });

  it('never Elicit’s own questions for the person at the desk (a tool’s arguments)', async () => {
    const { broker } = awayBroker();
    const { question } = await pose(broker, {
      mode: 'form',
      asker: server,
      message: 'Arguments',
      onBehalf: { title: 'Run MCP Tool · weather · forecast' },
      requestedSchema: { type: 'object', properties: { city: { type: 'string' } } },
    });
    assert.deepEqual(deviceVerdict(question), { allowed: false, reason: 'elicitOwn' });
  });

  it('a URL question goes with its host and warnings, never the URL: it opens on the computer', async () => {
    const { broker } = awayBroker();
    const { question } = await pose(broker, {
      mode: 'url',
      asker: server,
      message: 'Connect your account',
      url: 'https://auth.example.com/connect?magic=s3cr3t-link-token',
      elicitationId: 'e1',
    });
    assert.deepEqual(deviceVerdict(question), { allowed: true, opensOnComputer: true });
    const view = phoneQuestion(question);
    assert.equal(view.kind, 'url');
    assert.ok(view.kind === 'url' && view.host === 'auth.example.com');
    assert.ok(!JSON.stringify(view).includes('s3cr3t-link-token'));
    assert.deepEqual(readPhoneAnswer(question, { action: 'accept', content: {} }).ok, false, 'only Open or Decline');
    assert.deepEqual(readPhoneAnswer(question, { action: 'open' }), { ok: true, answer: { action: 'open' } });
  });

  it('of the editor’s other prompts, only permission requests (allow once / reject once) and location questions', () => {
    const kinds: EditorPromptKind[] = ['permission', 'location', 'agentKey', 'agentSignIn', 'terminalSignIn', 'secretGrant', 'clipboard'];
    assert.deepEqual(
      kinds.filter((kind) => promptGoesToDevice(kind)),
      ['permission', 'location'],
    );
    for (const file of ['codex-permission.json', 'claude-permission.json']) {
      const options = fixture(file).options as Array<{ optionId: string; name: string; kind: string }>;
      assert.deepEqual(
        devicePermissionOptions(options).map((o) => o.kind),
        ['allow_once', 'reject_once'],
        file,
      );
      const always = options.find((o) => o.kind === 'allow_always')!;
      assert.equal(acceptsDevicePermission(options, always.optionId), false, 'allow always is chosen in the editor only');
      assert.equal(acceptsDevicePermission(options, options[0]!.optionId), true);
    }
  });
});

describe('an answer from a paired phone', () => {
  const schema = {
    type: 'object',
    properties: {
      size: { type: 'integer', minimum: 1, maximum: 10 },
      colours: { type: 'array', items: { enum: ['red', 'blue'] }, minItems: 1 },
    },
    required: ['size'],
  };

  it('is checked as in the editor: a wrong value, an unknown field or a wrong shape is refused with the field’s sentence', async () => {
    const { broker } = awayBroker();
    const { question } = await pose(broker, { mode: 'form', asker: server, message: 'Order', requestedSchema: schema });
    const wrong = readPhoneAnswer(question, { action: 'accept', content: { size: 40, colours: ['red'] } });
    assert.ok(!wrong.ok && /at most 10/.test(wrong.errors.size!));
    assert.equal(readPhoneAnswer(question, { action: 'accept', content: { size: 2, colours: ['green'] } }).ok, false);
    assert.equal(readPhoneAnswer(question, { action: 'accept', content: { size: { $gt: 1 } } }).ok, false);
    assert.equal(readPhoneAnswer(question, { action: 'cancel' }).ok, false, 'a phone never cancels for the asker');
    assert.equal(readPhoneAnswer(question, 'accept').ok, false);
    const right = readPhoneAnswer(question, { action: 'accept', content: { size: 3, colours: ['blue'], extra: 'x' } });
    assert.deepEqual(right, { ok: true, answer: { action: 'accept', content: { size: 3, colours: ['blue'] } } }, 'only the fields asked');
  });

  it('closes the question in the editor, reaches the asker, and is kept in the history under the device’s name', async () => {
    const { broker, renderer, answered } = awayBroker();
    const { question, answer } = await pose(broker, { mode: 'form', asker: server, message: 'Order', requestedSchema: schema });
    assert.equal(
      broker.answerFromElsewhere(question.id, { action: 'accept', content: { size: 3, colours: ['red'] } }, 'Ada’s Pixel'),
      undefined,
    );
    assert.deepEqual(await answer, { action: 'accept', content: { size: 3, colours: ['red'] } });
    assert.ok(renderer.signals[0]!.aborted, 'the editor’s form closed');
    assert.equal(answered[0]!.device, 'Ada’s Pixel');
    assert.equal(toHistoryEntry(answered[0]!).device, 'Ada’s Pixel');
    assert.match(broker.answerFromElsewhere(question.id, { action: 'decline' }, 'Ada’s Pixel')!, /no longer waiting/, 'answered once');
  });

  it('answers a question put off in the editor, and can decline; never cancels', async () => {
    const { broker, answered } = awayBroker();
    const first = await pose(broker, { mode: 'form', asker: server, message: 'A', requestedSchema: schema });
    broker.later(first.question.id);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(first.question.state, 'later');
    assert.match(broker.answerFromElsewhere(first.question.id, { action: 'cancel' }, 'Pixel')!, /Only an answer or a decline/);
    assert.equal(broker.answerFromElsewhere(first.question.id, { action: 'decline' }, 'Pixel'), undefined);
    assert.deepEqual(await first.answer, { action: 'decline' });
    assert.equal(answered[0]!.device, 'Pixel');
  });

  it('that breaks the schema never reaches the asker, even past the phone’s check: the question keeps waiting', async () => {
    const { broker, answered } = awayBroker();
    const { question } = await pose(broker, { mode: 'form', asker: server, message: 'Order', requestedSchema: schema });
    assert.match(broker.answerFromElsewhere(question.id, { action: 'accept', content: { size: 99 } }, 'Pixel')!, /refused/);
    assert.equal(broker.pending().length, 1);
    assert.equal(answered.length, 0);
    broker.decline(question.id);
  });
});
