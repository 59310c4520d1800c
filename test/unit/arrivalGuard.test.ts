import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ARRIVAL_GUARD_MS, arrivalGuard, arrivalHold, type ArrivalNotice, type Schedule } from '../../src/core/time/arrivalGuard';

describe('arrivalGuard', () => {
  it('holds a new question off for its first moments, and only then', () => {
    let now = 10_000;
    const tooSoon = arrivalGuard(() => now);
    assert.equal(tooSoon(), true, 'at once');
    now += ARRIVAL_GUARD_MS - 1;
    assert.equal(tooSoon(), true, 'a moment before the guard ends');
    now += 1;
    assert.equal(tooSoon(), false, 'once the guard ends');
    now += 60_000;
    assert.equal(tooSoon(), false, 'long after');
  });

  it('counts from when it was made, not from the first look', () => {
    let now = 0;
    const tooSoon = arrivalGuard(() => now, 500);
    now = 499;
    assert.equal(tooSoon(), true);
    now = 500;
    assert.equal(tooSoon(), false);
  });

  it('lasts long enough that no person has read a question by then, and short enough not to be in the way', () => {
    assert.ok(ARRIVAL_GUARD_MS >= 500 && ARRIVAL_GUARD_MS <= 1_000, String(ARRIVAL_GUARD_MS));
  });
});

describe('arrivalHold', () => {
  /** A clock and a timer the test moves by hand. */
  function clock(): { now: () => number; schedule: Schedule; advance(ms: number): void; pending(): number } {
    let at = 1_000;
    let timers: Array<{ due: number; run: () => void }> = [];
    return {
      now: () => at,
      schedule: (run, ms) => {
        const timer = { due: at + ms, run };
        timers.push(timer);
        return () => (timers = timers.filter((t) => t !== timer));
      },
      advance(ms) {
        at += ms;
        const due = timers.filter((t) => t.due <= at);
        timers = timers.filter((t) => t.due > at);
        for (const t of due) t.run();
      },
      pending: () => timers.length,
    };
  }

  it('says so when an answer comes too soon, and takes the word back the moment answers count', () => {
    const c = clock();
    const shown: ArrivalNotice[] = [];
    const hold = arrivalHold((n) => shown.push(n), c.now, c.schedule);
    c.advance(200);
    assert.equal(hold.tooSoon(), true);
    assert.deepEqual(shown, ['refused'], 'at the refused answer');
    c.advance(100);
    assert.equal(hold.tooSoon(), true, 'a second try is refused too');
    assert.deepEqual(shown, ['refused', 'refused'], 'and says so again (typing may have taken the words off the line)');
    c.advance(ARRIVAL_GUARD_MS - 301);
    assert.deepEqual(shown, ['refused', 'refused'], 'still held a moment before the guard ends');
    c.advance(1);
    assert.deepEqual(shown, ['refused', 'refused', 'ready'], 'when the guard ends, once, not later');
    assert.equal(hold.tooSoon(), false, 'the same answer now counts');
    assert.deepEqual(shown, ['refused', 'refused', 'ready']);
  });

  it('shows nothing to a person who answers after the moment', () => {
    const c = clock();
    const shown: ArrivalNotice[] = [];
    const hold = arrivalHold((n) => shown.push(n), c.now, c.schedule);
    c.advance(ARRIVAL_GUARD_MS);
    assert.equal(hold.tooSoon(), false);
    assert.deepEqual(shown, []);
    assert.equal(c.pending(), 0);
  });

  it('leaves no timer behind when the question goes before its moment is over', () => {
    const c = clock();
    const shown: ArrivalNotice[] = [];
    const hold = arrivalHold((n) => shown.push(n), c.now, c.schedule);
    hold.tooSoon();
    assert.equal(c.pending(), 1);
    hold.dispose();
    assert.equal(c.pending(), 0);
    c.advance(ARRIVAL_GUARD_MS);
    assert.deepEqual(shown, ['refused'], 'nothing is shown on a question that is gone');
  });
});
