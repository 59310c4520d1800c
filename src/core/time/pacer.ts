/**
 * Runs a piece of work at most once per period however often it is asked for: at
 * once when it has not run for a period, else once when the period ends, so the
 * last request is always served and never more than one period late. The period
 * may change with what the work costs (read at each request).
 */
export interface PacerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: PacerClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class Pacer {
  private lastRun = -Infinity;
  private pending: unknown;
  private disposed = false;

  constructor(
    private readonly work: () => void,
    private readonly periodMs: number | (() => number),
    private readonly clock: PacerClock = realClock,
  ) {}

  request(): void {
    if (this.disposed || this.pending !== undefined) return;
    const period = typeof this.periodMs === 'number' ? this.periodMs : this.periodMs();
    const wait = this.lastRun + period - this.clock.now();
    if (wait <= 0) return this.run();
    this.pending = this.clock.setTimeout(() => {
      this.pending = undefined;
      this.run();
    }, wait);
  }

  dispose(): void {
    this.disposed = true;
    if (this.pending !== undefined) this.clock.clearTimeout(this.pending);
    this.pending = undefined;
  }

  private run(): void {
    if (this.disposed) return;
    this.lastRun = this.clock.now();
    this.work();
  }
}
