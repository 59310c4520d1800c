/**
 * An asker's own timer on a question (codex's `_meta.codex.autoResolutionMs`:
 * when it runs out, the agent goes on without the person's answer). Elicit
 * shows it as a countdown in its own words, naming whose timer it is, and has
 * screen readers told only at coarse steps, not every second. Pure: shared by
 * the quick input and the form webview.
 */

/** The longest timer shown; anything longer (or not a positive number) is no timer. */
export const MAX_AUTO_RESOLUTION_MS = 24 * 60 * 60 * 1000;

/** Time left at which a screen reader is told (seconds), besides when the countdown first shows. */
const ANNOUNCE_AT_SECONDS = [600, 300, 120, 60, 30, 10];

/** A timer in milliseconds an asker sent, if it is one Elicit can show. */
export function autoResolutionMs(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_AUTO_RESOLUTION_MS
    ? Math.round(value)
    : undefined;
}

/** "0:45", "12:03", "1:05:00": whole seconds left, rounded up, so 0:00 shows only when the time is up. */
export function formatCountdown(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}

/**
 * What the person reads: the asker's timer, in Elicit's words, naming the asker
 * ("codex answers for you in 0:45 (its timer)"). `asker` is made inert by the caller's surface.
 */
export function countdownText(asker: string, msLeft: number): string {
  return msLeft > 0
    ? `${asker} answers for you in ${formatCountdown(msLeft)} (its own timer)`
    : `${asker}'s time for this question is up: it goes on without your answer`;
}

/**
 * Whether going from `before` to `now` milliseconds left crosses a coarse step
 * (10 min, 5, 2, 1, 30 s, 10 s, and the end), so a polite live region is
 * updated then and not every second.
 */
export function crossesAnnounceStep(before: number, now: number): boolean {
  if (now >= before) return false;
  if (now <= 0) return before > 0;
  return ANNOUNCE_AT_SECONDS.some((step) => before > step * 1000 && now <= step * 1000);
}
