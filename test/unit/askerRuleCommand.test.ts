/** "Always Decline from This Asker…" on a Pending Questions row (issue #22), with VS Code stood in. */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { standIn } from './vscodeStandIn/vscode';
import { Broker, type Question, type RenderOutcome, type Renderer } from '../../src/core/broker/broker';
import type { ElicitResult, FormRequest } from '../../src/core/request';
import { AnswerMemory } from '../../src/core/memory/answerMemory';
import { ALWAYS_DECLINE_COMMAND, registerAskerRuleCommand } from '../../src/vscode/memory/askerRuleCommand';

/** Every question stays on screen until it is closed. */
class WaitingRenderer implements Renderer {
  render(_question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
  }
}

const request: FormRequest = {
  mode: 'form',
  asker: { kind: 'mcp', name: 'weather', origin: 'origin-a' },
  message: 'Which region?',
  requestedSchema: { type: 'object', properties: { region: { type: 'string', enum: ['eu-west', 'us-east'] } } },
};

function setUp(): { broker: Broker; memory: AnswerMemory; run: (item: unknown) => Promise<unknown> } {
  const broker = new Broker(new WaitingRenderer(), { timeoutMs: () => 60_000, maxPendingPerAsker: () => 10, presentation: () => 'form' });
  const none = { read: async () => undefined, write: async () => undefined };
  const memory = new AnswerMemory(none, () => 'always', Date.now, none);
  registerAskerRuleCommand(broker, memory);
  const handler = standIn.registeredCommands.get(ALWAYS_DECLINE_COMMAND);
  assert.ok(handler, 'the command is registered');
  return { broker, memory, run: async (item) => handler(item) };
}

async function waiting(broker: Broker): Promise<{ question: Question; answer: Promise<ElicitResult> }> {
  const answer = broker.ask(request);
  await new Promise((resolve) => setImmediate(resolve));
  const question = broker.pending().at(-1);
  assert.ok(question, 'the question is waiting');
  return { question, answer };
}

describe('Always Decline from This Asker…', () => {
  beforeEach(() => standIn.reset());

  it('declines the question after the person confirms, and keeps the rule', async () => {
    const { broker, memory, run } = setUp();
    const { question, answer } = await waiting(broker);
    standIn.warningAnswer = 'Always Decline';
    await run(question);
    assert.deepEqual(await answer, { action: 'decline' });
    assert.equal(memory.declineRule(request)?.kind, 'decline');
    assert.match(standIn.warnings[0]![0], /^Always decline this question from weather\?$/);
  });

  it('says so when the row’s question was answered meanwhile, instead of doing nothing', async () => {
    const { broker, memory, run } = setUp();
    const { question, answer } = await waiting(broker);
    broker.decline(question.id);
    await answer;
    await run(question);
    assert.deepEqual(standIn.infoMessages, ['This question is no longer waiting.']);
    assert.deepEqual(standIn.warnings, [], 'no confirmation for a question that is gone');
    assert.equal(memory.declineRule(request), undefined, 'no rule');
  });
});
