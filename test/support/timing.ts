/** Milliseconds of the fastest of three runs: a pause of a shared machine does not repeat, a slow algorithm does. */
export function fastestOfThree(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}
