import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ARRIVAL_GUARD_MS, arrivalGuard } from '../../src/core/time/arrivalGuard';

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
