import type { PacerClock } from '../../src/core/time/pacer';

/** A clock the test moves by hand; its timers run when their time comes. */
export function manualClock(): PacerClock & { advance(ms: number): void } {
  let now = 0;
  let timers: Array<{ at: number; run: () => void; handle: number }> = [];
  let next = 1;
  return {
    now: () => now,
    setTimeout: (run, ms) => {
      const handle = next++;
      timers.push({ at: now + ms, run, handle });
      return handle;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t.handle !== handle);
    },
    advance(ms) {
      now += ms;
      for (const due of timers.filter((t) => t.at <= now)) {
        timers = timers.filter((t) => t !== due);
        due.run();
      }
    },
  };
}
