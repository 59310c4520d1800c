/**
 * Issue #33, finding 1: what one request may cost the host to read is counted
 * before the work (core/form/formBudget.ts), a request is read once, and a
 * request over its asker's limit is refused unread.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Broker, type Renderer } from '../../src/core/broker/broker';
import { BurstGrouper } from '../../src/core/broker/burst';
import type { FormRequest } from '../../src/core/request';
import { FormBudget, jsonSize, MAX_FORM_PATTERN_STEPS, MAX_FORM_SIZE, VALUE_SIZE } from '../../src/core/form/formBudget';
import { composeGroup } from '../../src/core/form/group';
import { normalize } from '../../src/core/form/normalize';
import { TurnLane } from '../../src/core/time/turnLane';
import { withOtherWindows } from '../../src/core/windows/otherWindowQuestions';
import type { QuestionSummary } from '../../src/core/windows/protocol';
import { summarize } from '../../src/core/windows/summary';
import { costlyExamplesForm, costlyForm, COSTLY_PATTERN } from '../fixtures/stall-cases.mjs';

/** A schema whose `properties` count how often they are read. */
function counted(properties: Record<string, unknown>): { schema: object; reads: () => number } {
  let reads = 0;
  const schema = { type: 'object' } as Record<string, unknown>;
  Object.defineProperty(schema, 'properties', {
    enumerable: true,
    get: () => {
      reads++;
      return properties;
    },
  });
  return { schema, reads: () => reads };
}

const waits: Renderer = {
  render: (_q, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }))),
};
const asker = { kind: 'mcp' as const, name: 'stall-server' };

describe('jsonSize', () => {
  it('counts values and characters', () => {
    assert.equal(jsonSize('abc', 1e9), VALUE_SIZE + 3);
    assert.equal(jsonSize({ ab: [1, 'x'] }, 1e9), 4 * VALUE_SIZE + 2 + 1);
  });

  it('stops at its cap: a list of ten million values is looked at no further than the cap allows', () => {
    let looked = 0;
    const huge = new Proxy(new Array<number>(10_000_000).fill(1), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) looked++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    assert.ok(jsonSize(huge, 1_000) >= 1_000);
    assert.ok(looked <= 1_000 / VALUE_SIZE + 1, `looked at ${looked} values`);
  });
});

describe('reading a form within a budget', () => {
  it('refuses the 100-field form of costly defaults at the field that does not fit, having spent at most the budget', () => {
    const budget = new FormBudget();
    assert.throws(
      () => normalize(costlyForm(100), budget),
      /property "f1": the form's defaults are too costly to check against their patterns/,
    );
    assert.ok(budget.spent().steps <= MAX_FORM_PATTERN_STEPS);
  });

  it('reads a form of costly examples, leaving out the examples past the budget', () => {
    const budget = new FormBudget();
    const form = normalize(costlyExamplesForm(100), budget);
    assert.equal(form.fields.length, 100);
    assert.ok(budget.spent().steps <= MAX_FORM_PATTERN_STEPS);
    // The examples never match the pattern (no final b), so none is shown, whether looked at or not.
    assert.ok(form.fields.every((f) => f.kind === 'text' && f.example === undefined));
  });

  it('still checks an example that fits and shows it', () => {
    const form = normalize({
      type: 'object',
      properties: { code: { type: 'string', pattern: COSTLY_PATTERN, examples: ['nope', 'aab'] } },
    });
    assert.equal(form.fields[0]!.kind === 'text' && form.fields[0]!.example, 'aab');
  });

  it('refuses a form larger than it reads before looking at any field', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) properties[`f${i}`] = { type: 'string', description: 'x'.repeat(MAX_FORM_SIZE / 100) };
    assert.throws(() => normalize({ type: 'object', properties }), /the form is too large to read/);
  });

  it('gives a group of ten questions one budget: ten costly sections cost what one form may', () => {
    const sections = Array.from({ length: 10 }, (_, i) => ({ key: `q${i}`, message: `Question ${i}`, requestedSchema: costlyForm(1) }));
    // One costly default fits the budget; the second section's does not.
    assert.throws(() => composeGroup(sections), /question "q1": .*too costly to check/);
  });
});

describe("a request is read once, and never past its asker's limit", () => {
  it('normalize() of the same schema object reads it once', () => {
    const { schema, reads } = counted({ city: { type: 'string' } });
    const first = normalize(schema);
    const afterFirst = reads();
    assert.equal(normalize(schema), first);
    assert.equal(reads(), afterFirst);
  });

  it('the burst grouper and the broker read a burst member once between them', async () => {
    const broker = new Broker(waits, { timeoutMs: () => 60_000, maxPendingPerAsker: () => 5, presentation: () => 'form' });
    const grouper = new BurstGrouper((request) => broker.ask(request));
    const controller = new AbortController();
    const first = counted({ a: { type: 'string' } });
    const second = counted({ b: { type: 'string' } });
    const ask = (schema: object): Promise<unknown> =>
      grouper.add({ mode: 'form', asker, message: 'm', requestedSchema: schema, signal: controller.signal } as FormRequest);
    const answers = [ask(first.schema), ask(second.schema)];
    await new Promise((resolve) => setTimeout(resolve, 150)); // the burst is asked as one
    const readsOnce = [first.reads(), second.reads()];
    assert.deepEqual(broker.pending().length, 1);
    controller.abort();
    await Promise.all(answers);
    // As many reads of `properties` as one normalize() of such a schema makes, no more.
    const once = counted({ c: { type: 'string' } });
    normalize(once.schema);
    assert.deepEqual(readsOnce, [once.reads(), once.reads()]);
  });

  it("a request over its asker's limit is refused without being read", async () => {
    const broker = new Broker(waits, { timeoutMs: () => 60_000, maxPendingPerAsker: () => 1, presentation: () => 'form' });
    const controller = new AbortController();
    const open = broker.ask({
      mode: 'form',
      asker,
      message: 'm',
      requestedSchema: { type: 'object', properties: {} },
      signal: controller.signal,
    });
    const { schema, reads } = counted({ a: { type: 'string' } });
    await assert.rejects(broker.ask({ mode: 'form', asker, message: 'm', requestedSchema: schema }), /Too many open questions/);
    assert.equal(reads(), 0);
    controller.abort();
    await open;
  });
});

describe('TurnLane', () => {
  it('lets the first reader of a turn go at once and each other reader go in a later turn of its own, in order', async () => {
    const lane = new TurnLane();
    const order: string[] = [];
    const turns: number[] = [];
    let turn = 0;
    const ticking = setInterval(() => turn++, 0);
    const readers = ['a', 'b', 'c', 'd'].map((name) => {
      const wait = lane.take();
      if (!wait) {
        order.push(name);
        turns.push(turn);
        return Promise.resolve();
      }
      return wait.then(() => {
        order.push(name);
        turns.push(turn);
      });
    });
    assert.deepEqual(order, ['a']);
    assert.equal(lane.queued, 3);
    await Promise.all(readers);
    clearInterval(ticking);
    assert.deepEqual(order, ['a', 'b', 'c', 'd']);
    for (let i = 1; i < turns.length; i++)
      assert.ok(turns[i]! > turns[i - 1]!, `reader ${i} went in the same turn as the one before: ${turns.join(',')}`);
  });

  it('is free again once a turn passes with nobody waiting', async () => {
    const lane = new TurnLane();
    assert.equal(lane.take(), undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(lane.take(), undefined);
  });
});

describe('an answer from another window or a phone', () => {
  it('is counted before it is checked: long answers to many costly patterns are refused, a short one is taken', async () => {
    const broker = new Broker(waits, { timeoutMs: () => 60_000, maxPendingPerAsker: () => 5, presentation: () => 'form' });
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 10; i++) properties[`f${i}`] = { type: 'string', pattern: COSTLY_PATTERN };
    const asked = broker.ask({ mode: 'form', asker, message: 'm', requestedSchema: { type: 'object', properties } });
    const [question] = broker.pending();
    const long = Object.fromEntries(Object.keys(properties).map((name) => [name, `${'a'.repeat(999)}b`]));
    assert.match(broker.answerFromElsewhere(question!.id, { action: 'accept', content: long }) ?? '', /too long to check here/);
    assert.equal(broker.answerFromElsewhere(question!.id, { action: 'accept', content: { f0: 'ab' } }), undefined);
    assert.deepEqual(await asked, { action: 'accept', content: { f0: 'ab' } });
  });
});

describe("a phone's list of other windows' questions", () => {
  it('reads at most one new question a turn; the others are listed once read, the list told each time', async () => {
    const owner = new Broker(waits, { timeoutMs: () => 60_000, maxPendingPerAsker: () => 10, presentation: () => 'form' });
    const controller = new AbortController();
    const asked = [0, 1, 2].map((i) =>
      owner.ask({ mode: 'form', asker, message: `Question ${i}`, requestedSchema: costlyExamplesForm(5), signal: controller.signal }),
    );
    // As another window receives them: decoded afresh, never read here before.
    const remote = JSON.parse(JSON.stringify(summarize(owner.pending()))).map((question: QuestionSummary) => ({
      window: { id: 'w-songs', folder: 'songs' },
      question,
    }));
    const lane = new TurnLane();
    let told = 0;
    const device = withOtherWindows(
      { list: () => [], onDidChange: () => ({ dispose: () => undefined }), answer: async () => 'gone' },
      { remote: () => remote, onDidChange: () => ({ dispose: () => undefined }), answerFromDevice: async () => undefined },
      () => 'form',
      lane,
    );
    device.onDidChange(() => told++);
    assert.equal(device.list().length, 1, 'one read in this turn');
    assert.equal(device.list().length, 1, 'a second list in the same turn reads no more');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(device.list().length, 3, 'the others were read in turns of their own');
    assert.equal(told, 2, 'the list was told as each one was read');
    controller.abort();
    await Promise.all(asked);
  });
});
