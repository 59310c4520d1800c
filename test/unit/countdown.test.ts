/**
 * An asker's own timer on a question (codex's `_meta.codex.autoResolutionMs`)
 * as Elicit shows it: the time left formatted, the words naming whose timer it
 * is, and the coarse steps at which a screen reader is told.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  autoResolutionMs,
  countdownText,
  crossesAnnounceStep,
  formatCountdown,
  MAX_AUTO_RESOLUTION_MS,
} from '../../src/core/time/countdown';

describe('countdown', () => {
  it('formats the time left in whole seconds, rounded up, with hours only when there are some', () => {
    assert.equal(formatCountdown(45_000), '0:45');
    assert.equal(formatCountdown(44_001), '0:45', 'rounded up: 0:00 only once the time is up');
    assert.equal(formatCountdown(60_000), '1:00');
    assert.equal(formatCountdown(12 * 60_000 + 3_000), '12:03');
    assert.equal(formatCountdown(3_900_000), '1:05:00');
    assert.equal(formatCountdown(0), '0:00');
    assert.equal(formatCountdown(-5_000), '0:00');
  });

  it('says whose timer it is, and that the asker goes on once it is up', () => {
    assert.equal(countdownText('codex', 45_000), 'codex answers for you in 0:45 (its own timer)');
    assert.equal(countdownText('codex', 0), "codex's time for this question is up: it goes on without your answer");
  });

  it('tells a screen reader only at coarse steps, not every second', () => {
    const told: number[] = [];
    let before = 125_000;
    for (let now = 124_000; now >= -1_000; now -= 1_000) {
      if (crossesAnnounceStep(before, now)) told.push(now / 1000);
      before = now;
    }
    assert.deepEqual(told, [120, 60, 30, 10, 0]);
    assert.equal(crossesAnnounceStep(30_000, 30_000), false, 'no time passed');
    assert.equal(crossesAnnounceStep(0, -1_000), false, 'told once at the end');
  });

  it('takes only a positive, finite timer of at most a day', () => {
    assert.equal(autoResolutionMs(45_000), 45_000);
    assert.equal(autoResolutionMs(1500.4), 1500);
    for (const value of [null, undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, '45000', MAX_AUTO_RESOLUTION_MS + 1]) {
      assert.equal(autoResolutionMs(value), undefined, String(value));
    }
  });
});
