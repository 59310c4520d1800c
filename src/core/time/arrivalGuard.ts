/**
 * A question that appears on its own takes the keyboard from wherever the person was typing (the
 * editor, or the question before it, gone a moment earlier). An Enter or a click in its first moments
 * was meant for what was on screen before, so it does not answer it; browsers hold off their
 * permission prompts' buttons for the same reason. Found by the soak (issue #37): the person's
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
