import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Broker } from '../../src/core/broker';
import { BurstGrouper } from '../../src/core/burst';
import { InvalidRequestError } from '../../src/core/errors';
import { composeGroup, MAX_GROUP_SECTIONS, splitGroupAnswer, summarizeAnswers } from '../../src/core/group';
import type { ElicitRequest, ElicitResult, FormRequest } from '../../src/core/request';
import { validateAnswer } from '../../src/core/answerValidator';

const schema = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

describe('composeGroup / splitGroupAnswer', () => {
  const sections = [
    { key: 'who', message: 'Who?', requestedSchema: schema({ name: { type: 'string', title: 'Name' } }, ['name']) },
    { key: 'key', message: 'Key?', requestedSchema: schema({ name: { type: 'string', enum: ['C', 'Am'] }, token: { type: 'string', format: 'password' } }) },
  ];

  it('puts every section in one model under composed names, keeping each property name', () => {
    const form = composeGroup(sections);
    assert.deepEqual(form.sections, [{ key: 'who', message: 'Who?' }, { key: 'key', message: 'Key?' }]);
    assert.deepEqual(form.fields.map((f) => [f.name, f.property, f.section, f.kind]), [
      ['0:name', 'name', 0, 'text'],
      ['1:name', 'name', 1, 'choice'],
      ['1:token', 'token', 1, 'text'],
    ]);
    assert.deepEqual(validateAnswer(form, { '1:name': 'Am' }), { '0:name': 'Required' }, 'the same validators work on the composed model');
  });

  it('splits an accepted answer back per section, under the asker’s own names', () => {
    const form = composeGroup(sections);
    assert.deepEqual(splitGroupAnswer(form, { action: 'accept', content: { '0:name': 'Ada', '1:name': 'C', '1:token': 's3cret' } }), {
      who: { action: 'accept', content: { name: 'Ada' } },
      key: { action: 'accept', content: { name: 'C', token: 's3cret' } },
    });
    assert.deepEqual(splitGroupAnswer(form, { action: 'cancel' }), { who: { action: 'cancel' }, key: { action: 'cancel' } });
  });

  it('names the section whose schema it refuses, and refuses too many sections', () => {
    assert.throws(
      () => composeGroup([...sections, { key: 'bad', message: 'x', requestedSchema: schema({ a: { type: 'object' } }) }]),
      (e: unknown) => e instanceof InvalidRequestError && /^question "bad": /.test(e.message),
    );
    const many = Array.from({ length: MAX_GROUP_SECTIONS + 1 }, (_, i) => ({ key: String(i), message: 'x', requestedSchema: schema({}) }));
    assert.throws(() => composeGroup(many), /at most 10 are shown together/);
  });

  it('summarizes answers for the next round, never showing a secret', () => {
    const form = composeGroup(sections);
    assert.deepEqual(summarizeAnswers(form, { action: 'accept', content: { '0:name': 'Ada', '1:name': 'Am', '1:token': 's3cret' } }, ''), [
      { message: 'Who?', lines: ['Name: Ada'] },
      { message: 'Key?', lines: ['name: Am', 'token: (hidden)'] },
    ]);
    assert.deepEqual(summarizeAnswers(form, { action: 'decline' }, ''), [
      { message: 'Who?', lines: ['Declined'] },
      { message: 'Key?', lines: ['Declined'] },
    ]);
  });
});

describe('BurstGrouper', () => {
  function setup(answer: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>): { grouper: BurstGrouper; asked: ElicitRequest[]; broker: Broker } {
    const asked: ElicitRequest[] = [];
    const broker = new Broker({ render: async (q) => answer(q.request) }, { timeoutMs: () => 60_000, maxPendingPerAsker: () => 2, presentation: () => 'auto' });
    const grouper = new BurstGrouper((request) => {
      asked.push(request);
      return broker.ask(request);
    });
    return { grouper, asked, broker };
  }
  const question = (n: number, signal?: AbortSignal): FormRequest => ({
    mode: 'form',
    asker: { kind: 'mcp', name: 'busy' },
    message: `Question ${n}`,
    requestedSchema: schema({ n: { type: 'string' } }),
    signal,
  });

  it('asks a lone question as it is', async () => {
    const { grouper, asked } = setup(() => ({ action: 'accept', content: { n: 'one' } }));
    assert.deepEqual(await grouper.add(question(1)), { action: 'accept', content: { n: 'one' } });
    assert.equal(asked[0]!.mode, 'form');
  });

  it('asks questions that arrive together as one group and answers each', async () => {
    const { grouper, asked } = setup((request) => {
      assert.equal(request.mode, 'group');
      return { action: 'accept', content: { '0:n': 'a', '1:n': 'b', '2:n': 'c' } };
    });
    const results = await Promise.all([grouper.add(question(1)), grouper.add(question(2)), grouper.add(question(3))]);
    assert.deepEqual(results.map((r) => r.content), [{ n: 'a' }, { n: 'b' }, { n: 'c' }]);
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.message, '3 questions');
  });

  it('refuses a malformed question on its own; the others still go through', async () => {
    const { grouper } = setup(() => ({ action: 'accept', content: { '0:n': 'a', '1:n': 'b' } }));
    const bad = grouper.add({ ...question(0), requestedSchema: schema({ x: { type: 'object' } }) });
    const good = Promise.all([grouper.add(question(1)), grouper.add(question(2))]);
    await assert.rejects(bad, InvalidRequestError);
    assert.deepEqual((await good).map((r) => r.action), ['accept', 'accept']);
  });

  it('a withdrawn question is answered cancel at once; the group stays for the others', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { grouper } = setup(async () => {
      await gate;
      return { action: 'accept', content: { '0:n': 'a', '1:n': 'b' } };
    });
    const withdraw = new AbortController();
    const first = grouper.add(question(1, withdraw.signal));
    const second = grouper.add(question(2));
    await new Promise((r) => setTimeout(r, 40));
    withdraw.abort();
    assert.deepEqual(await first, { action: 'cancel' });
    release();
    assert.deepEqual(await second, { action: 'accept', content: { n: 'b' } });
  });

  it(`starts a new group after ${MAX_GROUP_SECTIONS}, and the per-asker limit counts groups, not questions`, async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { grouper, asked } = setup(async (request) => {
      await gate;
      return { action: 'accept', content: request.mode === 'group' ? Object.fromEntries(request.sections.map((_, i) => [`${i}:n`, 'x'])) : {} };
    });
    const all = Promise.allSettled(Array.from({ length: 3 * MAX_GROUP_SECTIONS }, (_, i) => grouper.add(question(i))));
    await new Promise((r) => setTimeout(r, 40));
    release();
    const outcomes = await all;
    assert.equal(asked.length, 3, 'three groups of ten');
    // The limit is 2 open questions: two groups are shown, the third is refused whole.
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 2 * MAX_GROUP_SECTIONS);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    assert.equal(refused.length, MAX_GROUP_SECTIONS);
    assert.match(String(refused[0]!.reason), /Too many open questions from busy: 2 are waiting/);
  });
});
