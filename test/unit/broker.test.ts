/** The broker: queueing, limits, deadlines, cancellation and answer completion, with a fake renderer. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OTHER_WINDOW_IDS_FROM } from '../../src/core/windows/otherWindowQuestions';
import { AnswerMemory } from '../../src/core/memory/answerMemory';
import {
  Broker,
  LATER,
  type AnsweredQuestion,
  type BrokerOptions,
  type Question,
  type RenderOutcome,
  type Renderer,
} from '../../src/core/broker/broker';
import { InvalidRequestError } from '../../src/core/errors';
import { toHistoryEntry } from '../../src/core/broker/history';
import type { PresentationSetting } from '../../src/core/form/presentation';
import type { Asker, ElicitRequest, FormRequest } from '../../src/core/request';
import { everythingSchema } from '../support/everythingSchema';

/** One render call, answered when the test says so. */
interface Shown {
  question: Question;
  signal: AbortSignal;
  answer(result: RenderOutcome): void;
  fail(error: Error): void;
}

/** A renderer whose answers the test controls; it closes (resolves cancel) when its signal aborts, as real renderers do. */
class FakeRenderer implements Renderer {
  readonly shown: Shown[] = [];
  private waiters: Array<() => void> = [];

  render(question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    return new Promise<RenderOutcome>((resolve, reject) => {
      signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
      this.shown.push({ question, signal, answer: resolve, fail: reject });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves once `count` questions have been rendered. */
  async rendered(count: number, timeoutMs = 500): Promise<Shown> {
    const deadline = Date.now() + timeoutMs;
    while (this.shown.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} renders, saw ${this.shown.length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 10);
      });
    }
    return this.shown[count - 1]!;
  }
}

function setup(options: Partial<{ timeoutMs: number; maxPendingPerAsker: number; presentation: PresentationSetting }> = {}): {
  broker: Broker;
  renderer: FakeRenderer;
} {
  const renderer = new FakeRenderer();
  const resolved: BrokerOptions = {
    timeoutMs: () => options.timeoutMs ?? 5_000,
    maxPendingPerAsker: () => options.maxPendingPerAsker ?? 3,
    presentation: () => options.presentation ?? 'auto',
  };
  return { broker: new Broker(renderer, resolved), renderer };
}

const server: Asker = { kind: 'mcp', name: 'weather-server', detail: 'tool get_forecast' };
const other: Asker = { kind: 'mcp', name: 'other-server' };

/** A one-field question: a native quick input under "auto". */
function quick(message: string, extra: Partial<FormRequest> = {}): FormRequest {
  return {
    mode: 'form',
    asker: server,
    message,
    requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    ...extra,
  };
}

/** A 13-field question: a webview form under "auto". */
function form(message: string, extra: Partial<FormRequest> = {}): FormRequest {
  return { mode: 'form', asker: server, message, requestedSchema: structuredClone(everythingSchema), ...extra };
}

/** Settles within a few turns of the event loop, or reports "pending". */
async function state<T>(promise: Promise<T>): Promise<'pending' | { value: T } | { error: unknown }> {
  const timeout = new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 20));
  return Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    timeout,
  ]);
}

describe('Broker: native quick inputs', () => {
  it('shows them one at a time in arrival order', async () => {
    const { broker, renderer } = setup();
    const first = broker.ask(quick('first'));
    const second = broker.ask(quick('second', { asker: other }));
    const third = broker.ask(quick('third'));
    const one = await renderer.rendered(1);
    assert.equal(one.question.request.message, 'first');
    assert.equal(one.question.presentation, 'quickInput');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(renderer.shown.length, 1, 'the second was rendered before the first was answered');
    assert.equal(await state(second), 'pending');

    one.answer({ action: 'accept', content: { city: 'Oslo' } });
    assert.deepEqual(await first, { action: 'accept', content: { city: 'Oslo' } });
    const two = await renderer.rendered(2);
    assert.equal(two.question.request.message, 'second');
    assert.equal(renderer.shown.length, 2);

    two.answer({ action: 'decline' });
    assert.deepEqual(await second, { action: 'decline' });
    const three = await renderer.rendered(3);
    assert.equal(three.question.request.message, 'third');
    three.answer({ action: 'cancel' });
    assert.deepEqual(await third, { action: 'cancel' });
    assert.deepEqual(broker.pending(), []);
  });

  it('URL consent prompts queue with the quick inputs and pass their result through', async () => {
    const { broker, renderer } = setup();
    const first = broker.ask(quick('first'));
    const url = broker.ask({ mode: 'url', asker: server, message: 'Sign in', url: 'https://example.com/auth', elicitationId: 'e1' });
    const one = await renderer.rendered(1);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(renderer.shown.length, 1);
    one.answer({ action: 'decline' });
    await first;
    const two = await renderer.rendered(2);
    assert.equal(two.question.presentation, 'url');
    assert.equal(two.question.form, undefined);
    two.answer({ action: 'accept' });
    assert.deepEqual(await url, { action: 'accept' });
  });

  it('a renderer failure rejects that question and the queue moves on', async () => {
    const { broker, renderer } = setup();
    const first = broker.ask(quick('first'));
    const second = broker.ask(quick('second'));
    (await renderer.rendered(1)).fail(new Error('quick input broke'));
    await assert.rejects(first, /quick input broke/);
    const two = await renderer.rendered(2);
    two.answer({ action: 'accept', content: { city: 'Rome' } });
    assert.deepEqual(await second, { action: 'accept', content: { city: 'Rome' } });
    assert.deepEqual(broker.pending(), []);
  });

  it('the "quickInput" setting queues even a 13-field question', async () => {
    const { broker, renderer } = setup({ presentation: 'quickInput' });
    const first = broker.ask(form('big one'));
    broker.ask(form('big two')).catch(() => undefined);
    const one = await renderer.rendered(1);
    assert.equal(one.question.presentation, 'quickInput');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(renderer.shown.length, 1);
    one.answer({ action: 'decline' });
    await first;
    (await renderer.rendered(2)).answer({ action: 'decline' });
  });
});

describe('Broker: forms', () => {
  it('renders forms at once, side by side, even while a quick input is showing', async () => {
    const { broker, renderer } = setup();
    const q = broker.ask(quick('native'));
    const a = broker.ask(form('form a'));
    const b = broker.ask(form('form b', { asker: other }));
    await renderer.rendered(3);
    const byMessage = new Map(renderer.shown.map((s) => [s.question.request.message, s]));
    assert.equal(byMessage.get('form a')!.question.presentation, 'form');
    assert.equal(byMessage.get('form b')!.question.presentation, 'form');
    assert.equal(broker.pending().filter((p) => p.state === 'showing').length, 3);

    byMessage.get('form b')!.answer({ action: 'decline' });
    assert.deepEqual(await b, { action: 'decline' });
    byMessage.get('form a')!.answer({ action: 'cancel' });
    assert.deepEqual(await a, { action: 'cancel' });
    byMessage.get('native')!.answer({ action: 'decline' });
    await q;
  });

  it('the "form" setting renders even a one-field question as a form, concurrently', async () => {
    const { broker, renderer } = setup({ presentation: 'form' });
    const one = broker.ask(quick('one'));
    const two = broker.ask(quick('two'));
    await renderer.rendered(2);
    assert.deepEqual(
      renderer.shown.map((s) => s.question.presentation),
      ['form', 'form'],
    );
    for (const s of renderer.shown) s.answer({ action: 'decline' });
    await Promise.all([one, two]);
  });
});

describe('Broker: answers', () => {
  it('accept fills the defaults of untouched fields and drops unknown keys', async () => {
    const { broker, renderer } = setup();
    const answer = broker.ask(form('everything'));
    (await renderer.rendered(1)).answer({ action: 'accept', content: { name: 'Ada', integer: 7, stray: 'x' } });
    assert.deepEqual(await answer, {
      action: 'accept',
      content: {
        name: 'Ada',
        firstLine: 'It was a dark and stormy night.',
        integer: 7,
        number: 3.14,
        untitledSingleSelectEnum: 'Monica',
        untitledMultipleSelectEnum: ['Guitar'],
        titledSingleSelectEnum: 'hero-1',
        titledMultipleSelectEnum: ['fish-1'],
        legacyTitledEnum: 'pet-1',
      },
    });
  });

  it('accept without content still gets the defaults', async () => {
    const { broker, renderer } = setup();
    const answer = broker.ask({
      ...quick('defaults only'),
      requestedSchema: { type: 'object', properties: { units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' } } },
    });
    (await renderer.rendered(1)).answer({ action: 'accept' });
    assert.deepEqual(await answer, { action: 'accept', content: { units: 'metric' } });
  });

  it('an untouched optional field whose default is "" is left out, not sent as ""', async () => {
    const { broker, renderer } = setup();
    const answer = broker.ask({
      ...quick('optional email'),
      requestedSchema: { type: 'object', properties: { email: { type: 'string', format: 'email', default: '' } } },
    });
    (await renderer.rendered(1)).answer({ action: 'accept', content: {} });
    assert.deepEqual(await answer, { action: 'accept', content: {} });
  });

  it('an accept that breaks the schema is rejected, never sent', async () => {
    const { broker, renderer } = setup();
    const missing = broker.ask(form('missing name'));
    (await renderer.rendered(1)).answer({ action: 'accept', content: { integer: 500 } });
    await assert.rejects(missing, (error: Error) => {
      assert.ok(!(error instanceof InvalidRequestError));
      assert.match(error.message, /^Answer rejected before sending: /);
      assert.match(error.message, /name: Required/);
      assert.match(error.message, /integer: Must be at most 100/);
      return true;
    });
    assert.deepEqual(broker.pending(), []);

    const wrongType = broker.ask(quick('wrong type'));
    (await renderer.rendered(2)).answer({ action: 'accept', content: { city: 42 } });
    await assert.rejects(wrongType, /city: Must be text/);
  });

  it('decline and cancel carry no content', async () => {
    const { broker, renderer } = setup();
    const declined = broker.ask(form('d'));
    (await renderer.rendered(1)).answer({ action: 'decline' });
    assert.deepEqual(await declined, { action: 'decline' });
  });
});

describe('Broker: limits and invalid requests', () => {
  it('refuses more than maxPendingPerAsker from one asker, naming it; other askers are unaffected', async () => {
    const { broker, renderer } = setup({ maxPendingPerAsker: 2 });
    const a1 = broker.ask(form('a1'));
    const a2 = broker.ask(quick('a2'));
    await assert.rejects(broker.ask(form('a3')), (error: unknown) => {
      assert.ok(error instanceof InvalidRequestError);
      assert.match(error.message, /weather-server/);
      assert.match(error.message, /limit 2/);
      return true;
    });
    const b1 = broker.ask(form('b1', { asker: other }));
    await renderer.rendered(3);
    assert.deepEqual(
      broker.pending().map((q) => q.request.message),
      ['a1', 'a2', 'b1'],
    );

    // Once one is answered, the asker may ask again.
    renderer.shown.find((s) => s.question.request.message === 'a1')!.answer({ action: 'decline' });
    await a1;
    const a3 = broker.ask(form('a3 again'));
    await renderer.rendered(4);
    for (const s of renderer.shown.slice(1)) s.answer({ action: 'decline' });
    await Promise.all([a2, a3, b1]);
  });

  it('counts askers by kind and name together', async () => {
    const { broker, renderer } = setup({ maxPendingPerAsker: 1 });
    const mcp = broker.ask(form('mcp'));
    const acp = broker.ask(form('acp', { asker: { kind: 'acp', name: server.name } }));
    await renderer.rendered(2);
    for (const s of renderer.shown) s.answer({ action: 'decline' });
    await Promise.all([mcp, acp]);
  });

  it('an invalid schema rejects with InvalidRequestError before anything is rendered', async () => {
    const { broker, renderer } = setup();
    let changes = 0;
    broker.onDidChange(() => changes++);
    await assert.rejects(
      broker.ask(quick('bad', { requestedSchema: { type: 'object', properties: { address: { type: 'object' } } } })),
      (error: unknown) => error instanceof InvalidRequestError && /property "address" is a nested object/.test(error.message),
    );
    await assert.rejects(broker.ask(quick('bad', { requestedSchema: null })), InvalidRequestError);
    assert.equal(renderer.shown.length, 0);
    assert.deepEqual(broker.pending(), []);
    assert.equal(changes, 0);
  });
});

describe('Broker: deadlines and cancellation', () => {
  it("a timeout answers cancel and aborts the renderer's signal", async () => {
    const { broker, renderer } = setup({ timeoutMs: 30 });
    const started = Date.now();
    const answer = broker.ask(form('slow person'));
    const shown = await renderer.rendered(1);
    assert.equal(shown.signal.aborted, false);
    assert.deepEqual(await answer, { action: 'cancel' });
    assert.ok(Date.now() - started >= 25, 'cancelled before the deadline');
    assert.equal(shown.signal.aborted, true);
    assert.match(String((shown.signal.reason as Error).message), /timeout/);
    assert.deepEqual(broker.pending(), []);
  });

  it('a deadline too long for setTimeout (about 25 days and more) is held at the longest timeout, not fired at once', async () => {
    for (const timeoutMs of [2_200_000 * 1000, Number.MAX_SAFE_INTEGER, Infinity]) {
      const { broker, renderer } = setup({ timeoutMs });
      const answer = broker.ask(quick('a patient question'));
      const shown = await renderer.rendered(1);
      assert.equal(await state(answer), 'pending', `cancelled at once with ${timeoutMs} ms`);
      assert.equal(shown.signal.aborted, false);
      shown.answer({ action: 'decline' });
      assert.deepEqual(await answer, { action: 'decline' });
    }
  });

  it('a timeout while queued cancels without ever rendering, and the queue goes on', async () => {
    const renderer = new FakeRenderer();
    const deadlines = [5_000, 30, 5_000];
    const broker = new Broker(renderer, { timeoutMs: () => deadlines.shift()!, maxPendingPerAsker: () => 3, presentation: () => 'auto' });
    const first = broker.ask(quick('first'));
    const second = broker.ask(quick('second', { asker: other }));
    const third = broker.ask(quick('third'));
    const one = await renderer.rendered(1);
    assert.deepEqual(await second, { action: 'cancel' });
    assert.equal(renderer.shown.length, 1);
    assert.deepEqual(
      broker.pending().map((q) => q.request.message),
      ['first', 'third'],
    );
    one.answer({ action: 'decline' });
    await first;
    (await renderer.rendered(2)).answer({ action: 'decline' });
    await third;
    assert.deepEqual(
      renderer.shown.map((s) => s.question.request.message),
      ['first', 'third'],
    );
  });

  it('an answer that arrives after the signal aborted is replaced by cancel', async () => {
    const renderer: Renderer = {
      render: (_question, signal) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'accept', content: { city: 'late' } }))),
    };
    const broker = new Broker(renderer, { timeoutMs: () => 20, maxPendingPerAsker: () => 3, presentation: () => 'form' });
    assert.deepEqual(await broker.ask(quick('late')), { action: 'cancel' });
  });

  it("the asker aborting while its question shows answers cancel and aborts the renderer's signal", async () => {
    const { broker, renderer } = setup();
    const asker = new AbortController();
    const answer = broker.ask(form('abort me', { signal: asker.signal }));
    const shown = await renderer.rendered(1);
    asker.abort(new Error('client went away'));
    assert.deepEqual(await answer, { action: 'cancel' });
    assert.equal(shown.signal.aborted, true);
    assert.equal((shown.signal.reason as Error).message, 'client went away');
    assert.deepEqual(broker.pending(), []);
  });

  it('the asker aborting a showing quick input lets the next one show', async () => {
    const { broker, renderer } = setup();
    const asker = new AbortController();
    const first = broker.ask(quick('first', { signal: asker.signal }));
    const second = broker.ask(quick('second'));
    await renderer.rendered(1);
    asker.abort();
    assert.deepEqual(await first, { action: 'cancel' });
    const two = await renderer.rendered(2);
    assert.equal(two.question.request.message, 'second');
    two.answer({ action: 'decline' });
    assert.deepEqual(await second, { action: 'decline' });
  });

  it('aborted while queued: cancel at once, never rendered, and the queue continues with the next', async () => {
    const { broker, renderer } = setup();
    const middle = new AbortController();
    const first = broker.ask(quick('first'));
    const second = broker.ask(quick('second', { signal: middle.signal }));
    const third = broker.ask(quick('third'));
    const one = await renderer.rendered(1);
    middle.abort();
    assert.deepEqual(await state(second), { value: { action: 'cancel' } });
    assert.deepEqual(
      broker.pending().map((q) => q.request.message),
      ['first', 'third'],
    );

    one.answer({ action: 'decline' });
    await first;
    const next = await renderer.rendered(2);
    assert.equal(next.question.request.message, 'third');
    next.answer({ action: 'decline' });
    await third;
    assert.deepEqual(
      renderer.shown.map((s) => s.question.request.message),
      ['first', 'third'],
    );
  });

  it('an already-aborted signal answers cancel immediately, without a question', async () => {
    const { broker, renderer } = setup();
    let changes = 0;
    broker.onDidChange(() => changes++);
    const answer = broker.ask(form('too late', { signal: AbortSignal.abort() }));
    assert.deepEqual(await state(answer), { value: { action: 'cancel' } });
    assert.equal(renderer.shown.length, 0);
    assert.equal(changes, 0);
    assert.deepEqual(broker.pending(), []);
  });

  it('an already-aborted signal with an invalid schema still rejects as invalid', async () => {
    const { broker } = setup();
    await assert.rejects(broker.ask(quick('x', { requestedSchema: { type: 'array' }, signal: AbortSignal.abort() })), InvalidRequestError);
  });
});

describe('Broker: pending() and onDidChange', () => {
  it('reflect arrival, showing and answering', async () => {
    const { broker, renderer } = setup();
    const snapshots: string[] = [];
    const subscription = broker.onDidChange(() =>
      snapshots.push(
        broker
          .pending()
          .map((q) => `${q.request.message}${q.state === 'showing' ? '*' : ''}`)
          .join(','),
      ),
    );
    assert.deepEqual(broker.pending(), []);

    const first = broker.ask(quick('q1'));
    const second = broker.ask(quick('q2'));
    const pending = broker.pending();
    assert.deepEqual(
      pending.map((q) => q.request.message),
      ['q1', 'q2'],
    );
    assert.ok(pending[0]!.id < pending[1]!.id);
    assert.ok(pending.every((q) => typeof q.receivedAt === 'number' && q.receivedAt <= Date.now()));
    assert.deepEqual(
      pending[0]!.form?.fields.map((f) => f.name),
      ['city'],
    );

    (await renderer.rendered(1)).answer({ action: 'decline' });
    await first;
    (await renderer.rendered(2)).answer({ action: 'decline' });
    await second;
    // Arrival, and q1 shows at once (nothing else is on screen); q2 shows once q1's quick input has closed.
    assert.deepEqual(snapshots.slice(0, 3), ['q1', 'q1*', 'q1*,q2']);
    assert.ok(snapshots.includes('q2*'), snapshots.join(' | '));
    assert.equal(snapshots.at(-1), '');
    const count = snapshots.length;

    subscription.dispose();
    await broker.ask(form('unobserved', { signal: AbortSignal.abort() }));
    const third = broker.ask(form('q3'));
    (await renderer.rendered(3)).answer({ action: 'decline' });
    await third;
    assert.equal(snapshots.length, count, 'a disposed listener was still called');
  });

  it('pending() is a copy', async () => {
    const { broker, renderer } = setup();
    const answer = broker.ask(form('copy'));
    broker.pending().length = 0;
    assert.equal(broker.pending().length, 1);
    (await renderer.rendered(1)).answer({ action: 'decline' });
    await answer;
  });
});

describe('Broker: questions', () => {
  it('asks with the request it was given', async () => {
    const { broker, renderer } = setup();
    const request: ElicitRequest = form('identity');
    const answer = broker.ask(request);
    const shown = await renderer.rendered(1);
    assert.equal(shown.question.request, request);
    assert.equal(shown.question.form?.fields.length, 13);
    shown.answer({ action: 'decline' });
    await answer;
  });
});

describe('Broker: Later, resume and decline from the pending list', () => {
  it('a renderer\'s "later" parks the question; resume shows it again and its answer is sent', async () => {
    const { broker, renderer } = setup();
    const answer = broker.ask(quick('side quest'));
    (await renderer.rendered(1)).answer(LATER);
    await tick();
    assert.equal(broker.pending()[0]!.state, 'later');
    broker.resume(broker.pending()[0]!.id);
    const again = await renderer.rendered(2);
    assert.equal(again.question.state, 'showing');
    again.answer({ action: 'accept', content: { city: 'Oslo' } });
    assert.deepEqual(await answer, { action: 'accept', content: { city: 'Oslo' } });
  });

  it("later() closes a showing question's UI and lets the next quick input show", async () => {
    const { broker, renderer } = setup();
    const first = broker.ask(quick('first'));
    const second = broker.ask(quick('second'));
    const shown = await renderer.rendered(1);
    broker.later(shown.question.id);
    assert.equal(shown.signal.aborted, true);
    shown.answer({ action: 'cancel' });
    const next = await renderer.rendered(2);
    assert.equal(next.question.request.message, 'second');
    assert.equal(broker.pending().find((q) => q.request.message === 'first')!.state, 'later');
    next.answer({ action: 'decline' });
    assert.deepEqual(await second, { action: 'decline' });
    broker.decline(shown.question.id);
    assert.deepEqual(await first, { action: 'decline' });
    assert.deepEqual(broker.pending(), []);
  });

  it('a resumed question goes before others waiting in line', async () => {
    const { broker, renderer } = setup();
    const a = broker.ask(quick('a'));
    (await renderer.rendered(1)).answer(LATER);
    await tick();
    const b = broker.ask(quick('b'));
    const c = broker.ask(quick('c'));
    const showingB = await renderer.rendered(2);
    broker.resume(broker.pending().find((q) => q.request.message === 'a')!.id);
    showingB.answer({ action: 'decline' });
    const third = await renderer.rendered(3);
    assert.equal(third.question.request.message, 'a', 'the resumed question is next, before c');
    third.answer({ action: 'decline' });
    (await renderer.rendered(4)).answer({ action: 'decline' });
    await Promise.all([a, b, c]);
  });

  it('a question the person asked for (a kept round opened after a reload) goes before others waiting in line', async () => {
    // Issue #37 (the soak): opened from Pending Questions while fifty servers asked, it came after all of them.
    const { broker, renderer } = setup();
    const a = broker.ask(quick('a'));
    const b = broker.ask(quick('b'));
    const showingA = await renderer.rendered(1);
    const kept = broker.ask(quick('kept', { nextInLine: true }));
    showingA.answer({ action: 'decline' });
    const second = await renderer.rendered(2);
    assert.equal(second.question.request.message, 'kept', 'the question the person asked for is next, before b');
    second.answer({ action: 'decline' });
    const third = await renderer.rendered(3);
    assert.equal(third.question.request.message, 'b');
    third.answer({ action: 'decline' });
    await Promise.all([a, b, kept]);
  });

  it('a question put off still times out, and decline() answers one that is showing', async () => {
    const { broker, renderer } = setup({ timeoutMs: 40 });
    const parked = broker.ask(quick('parked'));
    (await renderer.rendered(1)).answer(LATER);
    assert.deepEqual(await parked, { action: 'cancel' });
    const showing = broker.ask(form('declined from the list'));
    const shown = await renderer.rendered(2);
    broker.decline(shown.question.id);
    assert.equal(shown.signal.aborted, true);
    shown.answer({ action: 'cancel' });
    assert.deepEqual(await showing, { action: 'decline' });
  });

  it('onDidAnswer reports every outcome once, with timeouts and aborts told apart', async () => {
    const { broker, renderer } = setup({ timeoutMs: 40 });
    const seen: string[] = [];
    broker.onDidAnswer((a) => seen.push(`${a.question.request.message}:${a.result.action}:${a.reason ?? ''}`));
    const controller = new AbortController();
    const aborted = broker.ask(form('aborted', { signal: controller.signal }));
    await renderer.rendered(1);
    controller.abort();
    await aborted;
    await broker.ask(form('timed out'));
    const declined = broker.ask(form('declined'));
    (await renderer.rendered(3)).answer({ action: 'decline' });
    await declined;
    assert.deepEqual(seen, ['aborted:cancel:aborted', 'timed out:cancel:timeout', 'declined:decline:']);
  });
});

describe('question ids across a reload', () => {
  it("a new window's broker does not hand out the ids of the one before (a phone page's old answer cannot land on a new question)", async () => {
    const before = setup();
    const after = setup();
    const ask = (broker: Broker): number => {
      void broker.ask(form('Which city?')).catch(() => undefined);
      return broker.pending().at(-1)!.id;
    };
    const earlier = [ask(before.broker), ask(before.broker), ask(before.broker)];
    await tick();
    const later = [ask(after.broker), ask(after.broker), ask(after.broker)];
    assert.equal(new Set([...earlier, ...later]).size, 6, `${earlier} then ${later}`);
    // Below the phone's numbers for other windows' questions.
    for (const id of [...earlier, ...later]) assert.ok(Number.isSafeInteger(id) && id > 0 && id < OTHER_WINDOW_IDS_FROM, String(id));
  });
});

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('Broker: non-blocking questions (an agent keeps working while they wait)', () => {
  const agent: Asker = { kind: 'acp', name: 'codex', detail: 'session 019a' };

  it('a permission prompt its agent waits on takes the quick input from a non-blocking question, which comes back after it', async () => {
    const { broker, renderer } = setup();
    const turn = new AbortController();
    const question = broker.ask(quick('Which colour?', { asker: agent, nonBlocking: { turnEnded: turn.signal } }));
    const shown = await renderer.rendered(1);
    let permissionShown = false;
    const permission = broker.exclusive(
      async () => {
        permissionShown = true;
        return 'allowed';
      },
      new AbortController().signal,
      'cancelled',
    );
    assert.equal(await permission, 'allowed', 'the permission prompt was shown without waiting for the question');
    assert.ok(permissionShown);
    assert.ok(shown.signal.aborted, "the question's quick input closed");
    assert.equal(await state(question), 'pending', 'the question is still open');
    const again = await renderer.rendered(2);
    assert.equal(again.question.id, shown.question.id, 'and is shown again once the permission prompt is done');
    again.answer({ action: 'accept', content: { city: 'Oslo' } });
    assert.deepEqual(await question, { action: 'accept', content: { city: 'Oslo' } });
  });

  it('a blocking question does not give way: a permission prompt waits behind it', async () => {
    const { broker, renderer } = setup();
    const question = broker.ask(quick('Which city?'));
    const shown = await renderer.rendered(1);
    const permission = broker.exclusive(async () => 'allowed', new AbortController().signal, 'cancelled');
    assert.equal(await state(permission), 'pending');
    shown.answer({ action: 'accept', content: { city: 'Oslo' } });
    await question;
    assert.equal(await permission, 'allowed');
  });

  it('its turn ending is reported as a change; dismiss() answers cancel, shown or put off', async () => {
    const { broker, renderer } = setup();
    const turn = new AbortController();
    let changes = 0;
    broker.onDidChange(() => changes++);
    const question = broker.ask(quick('Which colour?', { asker: agent, nonBlocking: { turnEnded: turn.signal } }));
    await renderer.rendered(1);
    const before = changes;
    turn.abort();
    assert.ok(changes > before, 'the turn ending changed the pending list');
    assert.equal(await state(question), 'pending', 'the question stays open, to be dismissed');
    broker.dismiss(broker.pending()[0]!.id);
    assert.deepEqual(await question, { action: 'cancel' });

    const later = broker.ask(quick('Which font?', { asker: agent, nonBlocking: { turnEnded: turn.signal } }));
    (await renderer.rendered(2)).answer(LATER);
    await tick();
    assert.equal(broker.pending()[0]?.state, 'later');
    broker.dismiss(broker.pending()[0]!.id);
    assert.deepEqual(await later, { action: 'cancel' });
  });
});

describe('broker with answer memory (issue #22)', () => {
  const remembered: Asker = { kind: 'mcp', name: 'weather-server', origin: 'weather-origin' };
  const schema = { type: 'object', properties: { region: { type: 'string', enum: ['eu-west', 'us-east'] } }, required: ['region'] };
  const question = (): FormRequest => ({ mode: 'form', asker: remembered, message: 'Which region?', requestedSchema: schema });

  function withMemory(): { broker: Broker; renderer: FakeRenderer; memory: AnswerMemory } {
    let text: string | undefined;
    const memory = new AnswerMemory({ read: async () => text, write: async (t) => void (text = t) }, () => 'always');
    const renderer = new FakeRenderer();
    const broker = new Broker(renderer, { timeoutMs: () => 5_000, maxPendingPerAsker: () => 3, presentation: () => 'auto', memory });
    return { broker, renderer, memory };
  }

  it('offers "Remember", and answers the same question again without any UI, told as automatic', async () => {
    const { broker, renderer } = withMemory();
    const answered: AnsweredQuestion[] = [];
    broker.onDidAnswer((a) => answered.push(a));
    const first = broker.ask(question());
    const shown = await renderer.rendered(1);
    assert.equal(shown.question.rememberOffer, 'always');
    shown.question.remember = 'always';
    shown.answer({ action: 'accept', content: { region: 'us-east' } });
    assert.deepEqual(await first, { action: 'accept', content: { region: 'us-east' } });
    assert.deepEqual(await broker.ask(question()), { action: 'accept', content: { region: 'us-east' } });
    assert.equal(renderer.shown.length, 1, 'the second time nothing is shown');
    assert.equal(answered[0]?.automatic, undefined);
    assert.equal(answered[1]?.automatic?.length, 1);
    assert.equal(broker.pending().length, 0);
  });

  it('declines by the asker\'s rule without any UI, told as automatic; links too with "never open links"', async () => {
    const { broker, renderer, memory } = withMemory();
    const answered: AnsweredQuestion[] = [];
    broker.onDidAnswer((a) => answered.push(a));
    await memory.rules.add(question());
    assert.deepEqual(await broker.ask(question()), { action: 'decline' });
    assert.equal(renderer.shown.length, 0, 'nothing is shown');
    assert.equal(answered[0]?.rule?.kind, 'decline');
    assert.equal(toHistoryEntry(answered[0]!).automatic, true);
    const link = { mode: 'url', asker: remembered, message: 'Sign in', url: 'https://example.com/x', elicitationId: 'e' } as const;
    await memory.rules.add(link);
    assert.deepEqual(await broker.ask(link), { action: 'decline' });
    assert.equal(answered[1]?.rule?.kind, 'noLinks');
    assert.equal(renderer.shown.length, 0);
  });

  it('asks again, with nothing remembered, when the person did not choose Remember', async () => {
    const { broker, renderer } = withMemory();
    const first = broker.ask(question());
    (await renderer.rendered(1)).answer({ action: 'accept', content: { region: 'us-east' } });
    await first;
    const second = broker.ask(question());
    const shown = await renderer.rendered(2);
    assert.equal(shown.question.prefill, undefined);
    shown.answer({ action: 'decline' });
    assert.deepEqual(await second, { action: 'decline' });
  });

  it('asks, with the remembered answer filled in, when it no longer validates', async () => {
    const { broker, renderer, memory } = withMemory();
    await memory.remember(question(), { region: 'us-east' }, 'session');
    memory.list()[0]!.content.region = 'mars';
    const asked = broker.ask(question());
    const shown = await renderer.rendered(1);
    assert.deepEqual(shown.question.prefill, { region: 'mars' });
    shown.answer({ action: 'accept', content: { region: 'eu-west' } });
    assert.deepEqual(await asked, { action: 'accept', content: { region: 'eu-west' } });
  });
});

// Issue #24: another Elicit window answers this window's question; the broker checks it as its own.
describe('Broker: answers from another window', () => {
  it('ends a showing question with the answer, closing its UI', async () => {
    const { broker, renderer } = setup();
    const answer = broker.ask(quick('Which city?'));
    const shown = await renderer.rendered(1);
    assert.equal(broker.answerFromElsewhere(shown.question.id, { action: 'accept', content: { city: 'Paris' } }), undefined);
    assert.deepEqual(await answer, { action: 'accept', content: { city: 'Paris' } });
    assert.ok(shown.signal.aborted);
    assert.deepEqual(broker.pending(), []);
  });

  it('ends a question put off, and a question still waiting behind another', async () => {
    const { broker, renderer } = setup();
    const first = broker.ask(quick('First?'));
    const second = broker.ask(quick('Second?'));
    const shown = await renderer.rendered(1);
    const secondId = broker.pending()[1]!.id;
    assert.equal(broker.answerFromElsewhere(secondId, { action: 'decline' }), undefined);
    assert.deepEqual(await second, { action: 'decline' });
    shown.answer(LATER);
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(broker.pending()[0]?.state, 'later');
    assert.equal(broker.answerFromElsewhere(shown.question.id, { action: 'accept', content: { city: 'Oslo' } }), undefined);
    assert.deepEqual(await first, { action: 'accept', content: { city: 'Oslo' } });
    assert.equal(renderer.shown.length, 1, 'the waiting question was never drawn');
  });

  it('refuses content that breaks the form; the question stays, and the person here still answers it', async () => {
    const { broker, renderer } = setup();
    const answer = broker.ask(
      quick('Which city?', {
        requestedSchema: { type: 'object', properties: { city: { type: 'string', minLength: 3 } }, required: ['city'] },
      }),
    );
    const shown = await renderer.rendered(1);
    const refusal = broker.answerFromElsewhere(shown.question.id, { action: 'accept', content: { city: 'X' } });
    assert.match(refusal ?? '', /^The answer was refused: city: /);
    assert.match(broker.answerFromElsewhere(shown.question.id, { action: 'accept', content: {} }) ?? '', /refused/);
    assert.equal(
      broker.answerFromElsewhere(shown.question.id, { action: 'cancel' }),
      'Only an answer or a decline can come from another window.',
    );
    assert.equal(shown.signal.aborted, false);
    assert.equal(broker.pending().length, 1);
    shown.answer({ action: 'accept', content: { city: 'Paris' } });
    assert.deepEqual(await answer, { action: 'accept', content: { city: 'Paris' } });
  });

  it('never takes an answer to a secret field, a URL, Elicit’s own prompt or a question that is gone', async () => {
    const { broker, renderer } = setup();
    const secret = broker.ask(
      quick('Token?', { requestedSchema: { type: 'object', properties: { token: { type: 'string', writeOnly: true } } } }),
    );
    await renderer.rendered(1);
    const [secretQuestion] = broker.pending();
    const onBehalf = broker.ask(quick('Arguments', { onBehalf: { title: 'Run MCP Tool' } }));
    const url = broker.ask({ mode: 'url', asker: server, message: 'Sign in', url: 'https://example.com/login' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const refused = 'This question can only be answered in the window that asked it.';
    for (const question of broker.pending()) {
      assert.equal(
        broker.answerFromElsewhere(question.id, { action: 'accept', content: { token: 't', city: 'c' } }),
        refused,
        question.request.message,
      );
      assert.equal(broker.answerFromElsewhere(question.id, { action: 'decline' }), refused, question.request.message);
    }
    assert.equal(broker.answerFromElsewhere(999, { action: 'decline' }), 'This question is no longer waiting.');
    assert.equal(broker.pending().length, 3);
    renderer.shown[0]!.answer({ action: 'cancel' });
    assert.deepEqual(await secret, { action: 'cancel' });
    assert.equal(broker.answerFromElsewhere(secretQuestion!.id, { action: 'decline' }), 'This question is no longer waiting.');
    (await renderer.rendered(2)).answer({ action: 'cancel' });
    (await renderer.rendered(3)).answer({ action: 'cancel' });
    await Promise.all([onBehalf, url]);
  });
});
