/**
 * Bounds for the numbers Elicit reads from settings. A settings file may hold
 * anything (the schema's minimum and maximum are only hints to the editor),
 * and a workspace may try to set them, so every value is clamped here.
 */

/** setTimeout keeps at most 2^31 - 1 ms (about 24.8 days); a longer delay fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const TIMEOUT_SECONDS = { min: 10, max: 604_800, fallback: 600 } as const;
export const MAX_PENDING_PER_ASKER = { min: 1, max: 50, fallback: 5 } as const;

/** `elicit.timeoutSeconds` → milliseconds, between 10 seconds and a week. */
export function timeoutMsFromSetting(value: unknown): number {
  return clamp(value, TIMEOUT_SECONDS) * 1000;
}

/** `elicit.maxPendingPerAsker`, a whole number between 1 and 50. */
export function maxPendingFromSetting(value: unknown): number {
  return Math.floor(clamp(value, MAX_PENDING_PER_ASKER));
}

/** A delay setTimeout honours: never negative, never past MAX_TIMER_MS. */
export function timerDelay(ms: number): number {
  return Number.isNaN(ms) ? MAX_TIMER_MS : Math.min(Math.max(0, ms), MAX_TIMER_MS);
}

function clamp(value: unknown, bounds: { min: number; max: number; fallback: number }): number {
  if (typeof value !== 'number' || Number.isNaN(value)) return bounds.fallback;
  return Math.min(Math.max(value, bounds.min), bounds.max);
}
