import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Broker, type Question } from '../../src/core/broker/broker';
import { BurstGrouper, FRESH_MS } from '../../src/core/broker/burst';
import { InvalidRequestError } from '../../src/core/errors';
import { composeGroup, MAX_GROUP_SECTIONS, splitGroupAnswer, summarizeAnswers } from '../../src/core/form/group';
import { WITHDRAWN, type ElicitRequest, type ElicitResult, type FormRequest, type GroupRequest } from '../../src/core/request';
import { validateAnswer } from '../../src/core/form/ajvAnswerCheck';

const schema = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

describe('composeGroup / splitGroupAnswer', () => {
  const sections = [
    { key: 'who', message: 'Who?', requestedSchema: schema({ name: { type: 'string', title: 'Name' } }, ['name']) },
    {
      key: 'key',
      message: 'Key?',
      requestedSchema: schema({ name: { type: 'string', enum: ['C', 'Am'] }, token: { type: 'string', format: 'password' } }),
    },
  ];

  it('puts every section in one model under composed names, keeping each property name', () => {
    const form = composeGroup(sections);
    assert.deepEqual(form.sections, [
      { key: 'who', message: 'Who?' },
      { key: 'key', message: 'Key?' },
    ]);
    assert.deepEqual(
      form.fields.map((f) => [f.name, f.property, f.section, f.kind]),
      [
        ['0:name', 'name', 0, 'text'],
        ['1:name', 'name', 1, 'choice'],
        ['1:token', 'token', 1, 'text'],
      ],
    );
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
  function setup(
    answer: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>,
    limit = 2,
  ): { grouper: BurstGrouper; asked: ElicitRequest[]; broker: Broker } {
    const asked: ElicitRequest[] = [];
    // Like the real renderers, it closes (answering cancel) when the question is taken back.
    const render = (q: Question, signal: AbortSignal): Promise<ElicitResult> =>
      new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
        Promise.resolve(answer(q.request)).then(resolve, reject);
      });
    const broker = new Broker({ render }, { timeoutMs: () => 60_000, maxPendingPerAsker: () => limit, presentation: () => 'auto' });
    const grouper = new BurstGrouper((request) => {
      asked.push(request);
      return broker.ask(request);
    });
    return { grouper, asked, broker };
  }
  /** A person who answers a group of three with a, b and c, and leaves a question asked alone open. */
  const answerGroupOfThree = (request: ElicitRequest): ElicitResult | Promise<ElicitResult> =>
    request.mode === 'group'
      ? { action: 'accept', content: { '0:n': 'a', '1:n': 'b', '2:n': 'c' } }
      : new Promise<ElicitResult>(() => undefined);
  const question = (n: number, signal?: AbortSignal): FormRequest => ({
    mode: 'form',
    asker: { kind: 'mcp', name: 'busy' },
    message: `Question ${n}`,
    requestedSchema: schema({ n: { type: 'string' } }),
    signal,
  });

  it('asks a lone question at once, and the next one of a conversation at once too', async () => {
    const { grouper, asked } = setup((request) => ({ action: 'accept', content: { n: request.message } }));
    // No waiting for a burst that is not there: both are answered before any timer could run
    // (a clock would measure the machine's load, not the grouper).
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    assert.deepEqual(await grouper.add(question(1)), { action: 'accept', content: { n: 'Question 1' } });
    assert.deepEqual(await grouper.add(question(2)), { action: 'accept', content: { n: 'Question 2' } });
    assert.equal(timerRan, false, 'no waiting for a burst that is not there');
    assert.deepEqual(
      asked.map((r) => r.mode),
      ['form', 'form'],
    );
  });

  it('asks questions that arrive together as one group and answers each; the first, asked alone a moment before, is withdrawn without a trace', async () => {
    const { grouper, asked, broker } = setup(answerGroupOfThree);
    const history: string[] = [];
    broker.onDidAnswer((answered) => history.push(answered.question.request.message));
    const results = await Promise.all([grouper.add(question(1)), grouper.add(question(2)), grouper.add(question(3))]);
    assert.deepEqual(
      results.map((r) => r.content),
      [{ n: 'a' }, { n: 'b' }, { n: 'c' }],
    );
    assert.deepEqual(
      asked.map((r) => r.mode),
      ['form', 'group'],
    );
    assert.equal(asked[0]!.signal?.reason, WITHDRAWN);
    assert.equal(asked[1]!.message, '3 questions');
    assert.deepEqual(history, ['3 questions'], 'the withdrawn question is not in the history');
    assert.equal(broker.pending().length, 0);
  });

  // A busy extension host reads a burst slowly: the 2nd question can come 40 ms after the 1st was asked,
  // in the same turn of the event loop. The person saw nothing in between, so it is still one burst.
  it('groups a burst that is read slowly in one turn of the event loop; one that comes after an idle pause is asked alone', async () => {
    const { grouper, asked } = setup(answerGroupOfThree);
    const busy = (ms: number): void => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    const first = grouper.add(question(1));
    busy(FRESH_MS + 15);
    const rest = [grouper.add(question(2)), grouper.add(question(3))];
    const results = await Promise.all([first, ...rest]);
    assert.deepEqual(
      results.map((r) => r.content),
      [{ n: 'a' }, { n: 'b' }, { n: 'c' }],
    );
    assert.deepEqual(
      asked.map((r) => r.mode),
      ['form', 'group'],
    );

    // The first still unanswered, the next after an idle pause: a conversation, each asked alone.
    const alone = setup((request) =>
      request.message === 'Question 4' ? new Promise<ElicitResult>(() => undefined) : { action: 'accept', content: { n: 'x' } },
    );
    void alone.grouper.add(question(4));
    await new Promise((resolve) => setTimeout(resolve, FRESH_MS + 15));
    assert.deepEqual(await alone.grouper.add(question(5)), { action: 'accept', content: { n: 'x' } });
    assert.deepEqual(
      alone.asked.map((r) => r.mode),
      ['form', 'form'],
    );
    assert.equal(alone.asked[0]!.signal?.aborted, false, 'the first is not taken back');
  });

  it('refuses a malformed question on its own; the others still go through', async () => {
    const { grouper } = setup(() => ({ action: 'accept', content: { '0:n': 'a', '1:n': 'b' } }));
    const bad = grouper.add({ ...question(0), requestedSchema: schema({ x: { type: 'object' } }) });
    const good = Promise.all([grouper.add(question(1)), grouper.add(question(2))]);
    await assert.rejects(bad, InvalidRequestError);
    assert.deepEqual(
      (await good).map((r) => r.action),
      ['accept', 'accept'],
    );
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
      return {
        action: 'accept',
        content: request.mode === 'group' ? Object.fromEntries(request.sections.map((_, i) => [`${i}:n`, 'x'])) : {},
      };
    });
    const all = Promise.allSettled(Array.from({ length: 3 * MAX_GROUP_SECTIONS }, (_, i) => grouper.add(question(i))));
    await new Promise((r) => setTimeout(r, 40));
    release();
    const outcomes = await all;
    assert.equal(asked.filter((r) => r.mode === 'group').length, 3, 'three groups of ten');
    // The limit is 2 open questions: two groups are shown, the third is refused whole.
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 2 * MAX_GROUP_SECTIONS);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    assert.equal(refused.length, MAX_GROUP_SECTIONS);
    assert.match(String(refused[0]!.reason), /Too many open questions from busy: 2 are waiting/);
  });

  it('keeps a group within the field limit of one form: a burst of big forms becomes several groups', async () => {
    const big = (n: number): FormRequest => ({
      ...question(n),
      requestedSchema: schema(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, { type: 'string' }]))),
    });
    const { grouper, asked } = setup(() => ({ action: 'accept', content: {} }), 5);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => grouper.add(big(i))));
    assert.deepEqual(
      results.map((r) => r.action),
      Array(5).fill('accept'),
    );
    const groups = asked.filter((r): r is GroupRequest => r.mode === 'group');
    assert.ok(
      groups.every((g) => g.sections.length <= 2),
      JSON.stringify(groups.map((g) => g.sections.length)),
    );
  });
});

describe('composeGroup: section messages', () => {
  it('shows each question without the bidi controls and invisible characters it was sent with', () => {
    const form = composeGroup([
      { key: 'a', message: 'Delete \u202eexe.txt?\u200b\nReally?', requestedSchema: schema({ ok: { type: 'boolean' } }) },
      { key: 'b', message: 'Plain', requestedSchema: schema({ ok: { type: 'boolean' } }) },
    ]);
    assert.deepEqual(form.sections, [
      { key: 'a', message: 'Delete exe.txt?\nReally?' },
      { key: 'b', message: 'Plain' },
    ]);
  });
});
