/** Settings read from any settings file are clamped before the broker and timers see them. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MAX_TIMER_MS, maxPendingFromSetting, timeoutMsFromSetting, timerDelay } from '../../src/core/settingLimits';

describe('setting limits', () => {
  it('keeps elicit.timeoutSeconds between 10 seconds and a week, and below what setTimeout can hold', () => {
    assert.equal(timeoutMsFromSetting(600), 600_000);
    assert.equal(timeoutMsFromSetting(1), 10_000);
    assert.equal(timeoutMsFromSetting(-5), 10_000);
    assert.equal(timeoutMsFromSetting(2_200_000), 604_800_000);
    assert.equal(timeoutMsFromSetting(Infinity), 604_800_000);
    assert.equal(timeoutMsFromSetting(Number.NaN), 600_000);
    assert.equal(timeoutMsFromSetting('9999999'), 600_000);
    assert.equal(timeoutMsFromSetting(undefined), 600_000);
    assert.ok(timeoutMsFromSetting(Number.MAX_VALUE) <= MAX_TIMER_MS);
  });

  it('keeps elicit.maxPendingPerAsker a whole number from 1 to 50', () => {
    assert.equal(maxPendingFromSetting(3), 3);
    assert.equal(maxPendingFromSetting(0), 1);
    assert.equal(maxPendingFromSetting(1e9), 50);
    assert.equal(maxPendingFromSetting(2.7), 2);
    assert.equal(maxPendingFromSetting(null), 5, 'the default');
  });

  it('gives setTimeout a delay it honours', () => {
    assert.equal(timerDelay(2 ** 40), MAX_TIMER_MS);
    assert.equal(timerDelay(Number.NaN), MAX_TIMER_MS);
    assert.equal(timerDelay(-1), 0);
    assert.equal(timerDelay(1234), 1234);
  });

  it('declares the same bounds in package.json, and keeps workspaces from setting them when untrusted', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { minimum?: number; maximum?: number; restricted?: boolean }> } };
    };
    const props = manifest.contributes.configuration.properties;
    assert.deepEqual(props['elicit.timeoutSeconds'], {
      ...props['elicit.timeoutSeconds'],
      minimum: 10,
      maximum: 604_800,
      restricted: true,
    });
    assert.deepEqual(props['elicit.maxPendingPerAsker'], {
      ...props['elicit.maxPendingPerAsker'],
      minimum: 1,
      maximum: 50,
      restricted: true,
    });
  });
});
