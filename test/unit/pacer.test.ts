import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Pacer } from '../../src/core/time/pacer';
import { manualClock } from './manualClock';
import { REDRAW_EVERY_MS, RENEW_AFTER_ROWS, redrawPeriod, renewalDue } from '../../src/vscode/treeRedraw';

describe('Pacer', () => {
  it('runs at once when it has been quiet, then at most once per period, the last request served at the period’s end', () => {
    const clock = manualClock();
    const runs: number[] = [];
    const pacer = new Pacer(() => runs.push(clock.now()), 1000, clock);
    pacer.request();
    assert.deepEqual(runs, [0], 'the first change shows at once');
    for (let i = 0; i < 50; i++) {
      clock.advance(10);
      pacer.request();
    }
    assert.deepEqual(runs, [0], 'fifty changes within the period wait');
    clock.advance(500);
    assert.deepEqual(runs, [0, 1000], 'and are shown once, when the period ends');
    clock.advance(5000);
    assert.deepEqual(runs, [0, 1000], 'nothing more without a request');
    pacer.request();
    assert.deepEqual(runs, [0, 1000, 6000], 'quiet again: at once');
  });

  it('runs nothing once disposed, not even a request already waiting', () => {
    const clock = manualClock();
    let runs = 0;
    const pacer = new Pacer(() => runs++, 1000, clock);
    pacer.request();
    pacer.request();
    pacer.dispose();
    clock.advance(2000);
    pacer.request();
    assert.equal(runs, 1);
  });

  it('waits as long as the period is when it is asked: a longer list, a longer wait', () => {
    const clock = manualClock();
    const runs: number[] = [];
    let rows = 10;
    const pacer = new Pacer(
      () => runs.push(clock.now()),
      () => redrawPeriod(rows),
      clock,
    );
    pacer.request();
    pacer.request();
    clock.advance(REDRAW_EVERY_MS);
    assert.deepEqual(runs, [0, 1000]);
    rows = 250;
    pacer.request();
    clock.advance(1000);
    assert.deepEqual(runs, [0, 1000], 'a list of 250 rows waits 2.5 s');
    clock.advance(1500);
    assert.deepEqual(runs, [0, 1000, 3500]);
  });
});

describe('redrawPeriod', () => {
  it('draws at most 100 rows a second, and a short list at most once a second', () => {
    assert.equal(redrawPeriod(0), 1000);
    assert.equal(redrawPeriod(12), 1000);
    assert.equal(redrawPeriod(200), 2000);
    for (const rows of [1, 50, 100, 150, 400, 5000]) assert.ok(rows / (redrawPeriod(rows) / 1000) <= 100, String(rows));
  });
});

describe('renewalDue', () => {
  it('makes a view anew out of sight once over its budget, in sight only once twice over', () => {
    assert.equal(renewalDue(RENEW_AFTER_ROWS - 1, false), false);
    assert.equal(renewalDue(RENEW_AFTER_ROWS, false), true);
    assert.equal(renewalDue(RENEW_AFTER_ROWS, true), false, 'a view in sight is not redrawn from scratch at the first chance');
    assert.equal(renewalDue(2 * RENEW_AFTER_ROWS - 1, true), false);
    assert.equal(renewalDue(2 * RENEW_AFTER_ROWS, true), true);
    assert.equal(renewalDue(5, false, 5), true);
  });

  it('keeps what the host holds for a view to a few megabytes', () => {
    // About 300 bytes a row (the soak's heap profile): at most twice the budget is held at once.
    assert.ok(2 * RENEW_AFTER_ROWS * 300 <= 15 * 1024 * 1024, String(RENEW_AFTER_ROWS));
  });
});
