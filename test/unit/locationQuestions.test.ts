/**
 * The location question: its input rules, the rounding of low accuracy, the phone's report read back
 * from untrusted JSON, what the asker receives for each ending, what the phone is shown, and that the
 * history keeps only "location shared (about N m)".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  LOW_ACCURACY_ROUNDING_METRES,
  LOW_ACCURACY_STEP_DEGREES,
  askLocationQuestion,
  locationHistory,
  locationToolAnswer,
  placeProblem,
  positionToSend,
  readLocationOutcome,
  type LocationAccess,
  type LocationReply,
  type LocationRequest,
} from '../../src/core/askUser/locationQuestions';
import { askToolQuestion, readToolQuestion } from '../../src/core/askUser/toolQuestions';
import { Broker, type Question, type RenderOutcome, type Renderer } from '../../src/core/broker/broker';
import { promptHistoryEntry } from '../../src/core/broker/history';
import type { EndedPrompt } from '../../src/core/broker/openPrompts';
import { brokerDeviceQuestions } from '../../src/core/device/deviceQuestions';
import type { PairedDevice } from '../../src/core/device/devices';
import { InvalidRequestError } from '../../src/core/errors';
import type { Asker } from '../../src/core/request';

const asker: Asker = { kind: 'gateway', name: 'gateway · claude-code' };
const BERLIN = { lat: 52.516275, lng: 13.377704, accuracy: 12.4 };

function refuses(input: unknown, message: RegExp): void {
  assert.throws(
    () => readToolQuestion(input),
    (e: unknown) => e instanceof InvalidRequestError && message.test(e.message),
    JSON.stringify(input),
  );
}

describe('a location question’s input', () => {
  it('needs an accuracy, high or low, and a reason the phone can show whole', () => {
    assert.deepEqual(readToolQuestion({ kind: 'location', question: 'For the weather where you are', accuracy: 'low' }), {
      kind: 'location',
      question: 'For the weather where you are',
      accuracy: 'low',
    });
    refuses({ kind: 'location', question: 'Where are you?' }, /needs "accuracy": "high" or "low"/);
    refuses({ kind: 'location', question: 'Where are you?', accuracy: 'exact' }, /"accuracy" must be "high" or "low"/);
    refuses({ kind: 'location', question: 'Where are you?', accuracy: 1 }, /"accuracy" must be "high" or "low"/);
    refuses({ kind: 'location', question: '  ', accuracy: 'high' }, /"question" must be a non-empty string/);
    refuses({ kind: 'location', question: 'x'.repeat(501), accuracy: 'high' }, /at most 500 characters \(it has 501\)/);
    assert.equal(readToolQuestion({ kind: 'location', question: 'x'.repeat(500), accuracy: 'high' }).question.length, 500);
  });

  it('is refused where nothing can answer it', async () => {
    const q = readToolQuestion({ kind: 'location', question: 'Why', accuracy: 'high' });
    const deps = { ask: () => Promise.reject(new Error('not a form')), saveSecret: () => Promise.resolve() };
    await assert.rejects(askToolQuestion(deps, asker, q), /location is not available here/);
  });
});

describe('positionToSend', () => {
  it('keeps a high-accuracy position as the phone gave it, the accuracy in whole metres', () => {
    assert.deepEqual(positionToSend(BERLIN, 'high'), { lat: 52.516275, lng: 13.377704, accuracy: 12 });
  });

  it('rounds low accuracy to 0.01° and widens the accuracy by what rounding may move it', () => {
    assert.deepEqual(positionToSend(BERLIN, 'low'), { lat: 52.52, lng: 13.38, accuracy: 12 + LOW_ACCURACY_ROUNDING_METRES });
    assert.deepEqual(positionToSend({ lat: -33.86882, lng: 151.209296, accuracy: 3000 }, 'low'), {
      lat: -33.87,
      lng: 151.21,
      accuracy: 3000 + LOW_ACCURACY_ROUNDING_METRES,
    });
    // No minus zero: JSON would show it as 0 anyway, but equality checks and the phone's text must agree.
    assert.ok(Object.is(positionToSend({ lat: -0.001, lng: -0.004, accuracy: 5 }, 'low').lat, 0));
  });

  it('rounds to the step the editor’s prompt names', () => {
    assert.equal(`${LOW_ACCURACY_STEP_DEGREES}°`, '0.01°');
    for (const place of [BERLIN, { lat: -33.86882, lng: 151.209296, accuracy: 1 }, { lat: 0.004999, lng: -179.995, accuracy: 1 }]) {
      const sent = positionToSend(place, 'low');
      for (const [got, was] of [
        [sent.lat, place.lat],
        [sent.lng, place.lng],
      ] as const) {
        const steps = got / LOW_ACCURACY_STEP_DEGREES;
        assert.ok(Math.abs(steps - Math.round(steps)) < 1e-9, `${got} is a whole number of steps`);
        assert.ok(Math.abs(got - was) <= LOW_ACCURACY_STEP_DEGREES / 2 + 1e-12, `${was} moved to ${got}, at most half a step`);
      }
    }
  });

  it('gives the same answer when the phone rounded already (the editor rounds again, trusting no phone)', () => {
    const once = positionToSend(BERLIN, 'low');
    assert.deepEqual(positionToSend(once, 'low'), once);
    // A phone that sends a precise position for a low-accuracy question still has it rounded.
    assert.deepEqual(locationToolAnswer({ outcome: 'shared', ...BERLIN }, 'low').answer, once);
  });
});

describe('readLocationOutcome (a phone’s report, untrusted)', () => {
  it('takes a position, a refusal or a failure, rebuilt from its own parts only', () => {
    assert.deepEqual(readLocationOutcome({ outcome: 'shared', lat: 1.5, lng: -2, accuracy: 30, extra: 'x' }), {
      outcome: 'shared',
      lat: 1.5,
      lng: -2,
      accuracy: 30,
    });
    assert.deepEqual(readLocationOutcome({ outcome: 'denied', by: 'browser' }), { outcome: 'denied', by: 'browser' });
    assert.deepEqual(readLocationOutcome({ outcome: 'denied', by: 'person' }), { outcome: 'denied', by: 'person' });
    assert.deepEqual(readLocationOutcome({ outcome: 'failed', why: 'timeout' }), { outcome: 'failed', why: 'timeout' });
  });

  it('refuses what is not a place on Earth, or not one of its shapes', () => {
    for (const bad of [
      null,
      'shared',
      { outcome: 'shared', lat: 91, lng: 0, accuracy: 1 },
      { outcome: 'shared', lat: 0, lng: -180.5, accuracy: 1 },
      { outcome: 'shared', lat: Number.NaN, lng: 0, accuracy: 1 },
      { outcome: 'shared', lat: '52.5', lng: 13.4, accuracy: 1 },
      { outcome: 'shared', lat: 0, lng: 0, accuracy: -1 },
      { outcome: 'shared', lat: 0, lng: 0 },
      { outcome: 'denied', by: 'agent' },
      { outcome: 'failed', why: 'bored' },
      { outcome: 'accept', content: {} },
    ]) {
      assert.equal(readLocationOutcome(bad), undefined, JSON.stringify(bad));
    }
  });
});

describe('what the asker receives', () => {
  it('a position, a typed place it can tell apart, denied (an answer, not an error), or cancel with the reason', () => {
    assert.deepEqual(locationToolAnswer({ outcome: 'shared', ...BERLIN }, 'high'), {
      action: 'accept',
      answer: { lat: 52.516275, lng: 13.377704, accuracy: 12 },
      note: "Shared from the phone; accuracy is the phone's own estimate, in metres.",
    });
    assert.match(locationToolAnswer({ outcome: 'shared', ...BERLIN }, 'low').note!, /rounded to 0\.01° \(about 1 km\)/);
    assert.deepEqual(locationToolAnswer({ outcome: 'place', place: '  Lisbon, Alfama \u202e ' }, 'high'), {
      action: 'accept',
      answer: { place: 'Lisbon, Alfama' },
      note: 'The person typed a place instead of sharing a position.',
    });
    const denied = locationToolAnswer({ outcome: 'denied', by: 'person' }, 'low');
    assert.equal(denied.action, 'denied');
    assert.match(denied.note!, /chose not to share .* Ask for a city/);
    assert.match(locationToolAnswer({ outcome: 'denied', by: 'browser' }, 'low').note!, /browser refused/);
    assert.deepEqual(locationToolAnswer({ outcome: 'failed', why: 'timeout' }, 'high'), {
      action: 'cancel',
      note: 'The phone found no position in time.',
    });
    assert.deepEqual(locationToolAnswer({ outcome: 'closed' }, 'high'), { action: 'cancel' });
  });

  it('asks through the access it is given, and an answer after the asker gave up is cancel', async () => {
    const seen: LocationRequest[] = [];
    const access = (reply: LocationReply, onAsk?: () => void): LocationAccess => ({
      ask: (request) => {
        seen.push(request);
        onAsk?.();
        return Promise.resolve(reply);
      },
    });
    const q = readToolQuestion({ kind: 'location', question: 'To find a café near you', accuracy: 'low' });
    const deps = (location: LocationAccess) => ({
      ask: () => Promise.reject(new Error('no form')),
      saveSecret: () => Promise.resolve(),
      location,
    });
    const answer = await askToolQuestion(deps(access({ outcome: 'shared', ...BERLIN })), asker, q);
    assert.deepEqual(answer.answer, { lat: 52.52, lng: 13.38, accuracy: 799 });
    assert.deepEqual(seen, [{ asker, reason: 'To find a café near you', accuracy: 'low' }]);
    const gaveUp = new AbortController();
    const late = await askLocationQuestion(
      access({ outcome: 'shared', ...BERLIN }, () => gaveUp.abort()),
      asker,
      q,
      gaveUp.signal,
    );
    assert.deepEqual(late, { action: 'cancel' });
  });

  it('a typed place: one line, not empty, at most 200 characters', () => {
    assert.match(placeProblem('   ')!, /Type a place/);
    assert.match(placeProblem('x'.repeat(201))!, /At most 200/);
    assert.equal(placeProblem(' Porto '), undefined);
  });
});

describe('the history of a location question', () => {
  it('keeps “location shared (about N m)” and never the position nor a typed place', () => {
    const ended = (reply: LocationReply, device?: string): EndedPrompt => ({
      view: { kind: 'location', asker, reason: 'For the weather', accuracy: 'high' },
      receivedAt: 1,
      endedAt: 2,
      ending: { ...locationHistory(reply, 'high'), ...(device ? { device } : {}) },
    });
    const shared = promptHistoryEntry(ended({ outcome: 'shared', ...BERLIN }, 'Ada’s Pixel'))!;
    assert.deepEqual(shared, {
      askedAt: 1,
      answeredAt: 2,
      asker,
      message: 'For the weather',
      mode: 'location',
      action: 'accept',
      answers: [{ label: 'Location', value: 'location shared (about 12 m)' }],
      device: 'Ada’s Pixel',
    });
    assert.ok(!JSON.stringify(shared).includes('52.5') && !JSON.stringify(shared).includes('13.3'));
    const place = promptHistoryEntry(ended({ outcome: 'place', place: 'Rua Augusta 12, Lisbon' }))!;
    assert.ok(!JSON.stringify(place).includes('Augusta'), JSON.stringify(place));
    assert.equal(promptHistoryEntry(ended({ outcome: 'denied', by: 'browser' }))!.action, 'decline');
    assert.equal(promptHistoryEntry(ended({ outcome: 'failed', why: 'timeout' }))!.action, 'cancel');
  });
});

/** A person away from the desk: nothing is answered in the editor. */
class AwayRenderer implements Renderer {
  render(_question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
  }
}

describe('a location question on a paired phone', () => {
  const phone: PairedDevice = { id: 'd1', name: 'Ada’s Pixel', tokenDigest: 'x', pairedAt: 0, expiresAt: Number.MAX_SAFE_INTEGER };

  it('is listed with who asks, why and how precisely; its report ends the prompt, checked first', async () => {
    const broker = new Broker(new AwayRenderer(), { timeoutMs: () => 60_000, maxPendingPerAsker: () => 10, presentation: () => 'form' });
    const devices = brokerDeviceQuestions(broker, { openOnComputer: () => undefined });
    const open = broker.prompts.open({
      kind: 'location',
      asker: { ...asker, detail: 'session 1a2b' },
      reason: 'For the \u202eweather\nnear you',
      accuracy: 'low',
    });
    const [view] = devices.list();
    assert.deepEqual(view, {
      id: open.id,
      kind: 'location',
      asker: 'gateway · claude-code',
      detail: 'session 1a2b',
      receivedAt: view!.receivedAt,
      later: false,
      reason: 'For the weather\nnear you',
      accuracy: 'low',
    });
    // A form's answer, a permission's option or a position off the Earth is refused; the prompt stays open.
    for (const body of [
      { action: 'accept', content: {} },
      { action: 'select', optionId: 'allow' },
      { action: 'location', location: { outcome: 'shared', lat: 100, lng: 0, accuracy: 1 } },
    ]) {
      const read = await devices.answer(open.id, body, phone);
      assert.ok(read !== 'gone' && !read.ok, JSON.stringify(body));
    }
    assert.equal(broker.prompts.list().length, 1);
    const read = await devices.answer(
      open.id,
      { action: 'location', location: { outcome: 'shared', lat: 52.52, lng: 13.38, accuracy: 799 } },
      phone,
    );
    assert.ok(read !== 'gone' && read.ok);
    assert.deepEqual(await open.answered, {
      location: { outcome: 'shared', lat: 52.52, lng: 13.38, accuracy: 799 },
      device: 'Ada’s Pixel',
    });
    assert.equal(broker.prompts.list().length, 0, 'no longer listed');
    assert.equal(await devices.answer(open.id, { action: 'location', location: { outcome: 'denied', by: 'person' } }, phone), 'gone');
  });

  it('a broker question takes no location report', async () => {
    const broker = new Broker(new AwayRenderer(), { timeoutMs: () => 60_000, maxPendingPerAsker: () => 10, presentation: () => 'form' });
    const devices = brokerDeviceQuestions(broker, { openOnComputer: () => undefined });
    const asked = broker.ask({
      mode: 'form',
      asker,
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { n: { type: 'string' } } },
    });
    await new Promise((resolve) => setImmediate(resolve));
    const [question] = broker.pending();
    const read = await devices.answer(question!.id, { action: 'location', location: { outcome: 'denied', by: 'person' } }, phone);
    assert.ok(read !== 'gone' && !read.ok);
    broker.decline(question!.id);
    assert.deepEqual(await asked, { action: 'decline' });
  });

  it('a prompt closed with an ending is reported once for the history; one closed without is not', () => {
    const broker = new Broker(new AwayRenderer(), { timeoutMs: () => 60_000, maxPendingPerAsker: () => 10, presentation: () => 'form' });
    const ended: EndedPrompt[] = [];
    broker.prompts.onDidEnd((e) => ended.push(e));
    const location = broker.prompts.open({ kind: 'location', asker, reason: 'r', accuracy: 'high' });
    location.close({ action: 'decline', summary: 'location denied' });
    location.close({ action: 'decline', summary: 'location denied' });
    broker.prompts.open({ kind: 'permission', asker: 'codex', title: 't', options: [] }).close();
    assert.deepEqual(
      ended.map((e) => e.ending.summary),
      ['location denied'],
    );
  });
});
