/**
 * A question that appears on its own takes the keyboard from wherever the person was typing (the
 * editor, or the question before it, gone a moment earlier). An Enter or a click in its first moments
 * was meant for what was on screen before, so it does not answer it; browsers hold off their
 * permission prompts' buttons for the same reason. Found by the soak: the person's
 * answer to one asker's last step, typed again while the screen lagged, went to the next asker's
 * question, which took that step's place in the same moment.
 */

/** How long a question that just appeared takes no Enter or click. Nobody reads a question faster. */
export const ARRIVAL_GUARD_MS = 750;

/** From now: whether an answer given at this moment comes too soon to be one. */
export function arrivalGuard(now: () => number = Date.now, guardMs = ARRIVAL_GUARD_MS): () => boolean {
  const shownAt = now();
  return () => now() - shownAt < guardMs;
}

/**
 * What a question that just appeared tells the person: `refused` when an answer came in its first
 * moments (so a click or a key that did nothing says why, instead of reading as a broken button),
 * `ready` when those moments are over and that word can go.
 */
export type ArrivalNotice = 'refused' | 'ready';

export interface ArrivalHold {
  /** Whether an answer given now comes too soon; each such answer shows `refused`. */
  tooSoon(): boolean;
  dispose(): void;
}

/** Runs `run` after `ms`; returns how to call it off. */
export type Schedule = (run: () => void, ms: number) => () => void;

const scheduleTimeout: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/**
 * The guard, saying so: each answer refused in the first moments shows `refused` at once (typing
 * may have put something else on the line since the last), and `ready` follows when the moments
 * are over (only after a `refused`: nothing to take back otherwise).
 */
export function arrivalHold(
  show: (notice: ArrivalNotice) => void,
  now: () => number = Date.now,
  schedule: Schedule = scheduleTimeout,
  guardMs = ARRIVAL_GUARD_MS,
): ArrivalHold {
  const shownAt = now();
  let refused = false;
  let cancelReady: (() => void) | undefined;
  return {
    tooSoon() {
      const left = guardMs - (now() - shownAt);
      if (left <= 0) return false;
      show('refused');
      if (!refused) {
        refused = true;
        cancelReady = schedule(() => {
          cancelReady = undefined;
          show('ready');
        }, left);
      }
      return true;
    },
    dispose() {
      cancelReady?.();
      cancelReady = undefined;
    },
  };
}
