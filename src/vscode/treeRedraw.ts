import { Pacer } from '../core/time/pacer';

/**
 * How often at most a tree view of Elicit's is drawn again, and how long it waits per row drawn.
 * Each time, VS Code's extension host makes a node for every row and keeps part of each (about
 * 150 bytes) until the view is disposed: its tree view registers every node's disposables on the
 * view itself. So the rows drawn per second are bounded, however many servers ask at once.
 */
export const REDRAW_EVERY_MS = 1_000;
export const REDRAW_MS_PER_ROW = 10;

/** The shortest time between two redraws of a list of `rows` rows: at most 100 rows a second. */
export function redrawPeriod(rows: number): number {
  return Math.max(REDRAW_EVERY_MS, rows * REDRAW_MS_PER_ROW);
}

/** Draws a whole tree view again: at once after a quiet period, else once when the period ends. */
export function treeRedraw(fire: () => void, rows: () => number): Pacer {
  return new Pacer(fire, () => redrawPeriod(rows()));
}

/**
 * Rows VS Code's host may keep for one of Elicit's tree views (about 300 bytes each, measured by the
 * soak's heap profile) before the view is made anew, which lets go of them all: about 3 MB (6 MB for a view in sight).
 */
export const RENEW_AFTER_ROWS = 10_000;

/**
 * Whether a tree view is made anew now, having had `rowsMade` rows made for it: out of sight as soon
 * as it is over its budget; in sight (its list is drawn afresh, its selection and scroll lost) only
 * once it is twice over, which takes many minutes of fifty servers asking at once.
 */
export function renewalDue(rowsMade: number, visible: boolean, budget = RENEW_AFTER_ROWS): boolean {
  return rowsMade >= (visible ? 2 * budget : budget);
}
