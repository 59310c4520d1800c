/**
 * One piece of work on an asker's data per turn of the event loop.
 * Reading a request is bounded (formBudget.ts), but a server can send many
 * requests in one chunk of its output, and the SDK hands them all over in the
 * same turn: twenty bounded reads in a row are one long stall. Each reader takes
 * a turn first; the first in a turn goes at once, the others wait for later
 * turns, in the order they came, so timers, input and other servers run in between.
 */
export class TurnLane {
  private takenThisTurn = false;
  private readonly waiting: Array<() => void> = [];

  /**
   * undefined when the caller may go now (nothing was read in this turn), else a
   * promise that resolves in a later turn of its own. Callers that go now stay
   * synchronous, so a lone request is handled exactly as before.
   */
  take(): Promise<void> | undefined {
    if (!this.takenThisTurn && this.waiting.length === 0) {
      this.takenThisTurn = true;
      this.nextTurn();
      return undefined;
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** How many readers wait for a turn (for tests). */
  get queued(): number {
    return this.waiting.length;
  }

  private nextTurn(): void {
    // A timer, not a microtask: input, I/O and other timers run before the next reader.
    setTimeout(() => this.release(), 0);
  }

  private release(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.takenThisTurn = false;
      return;
    }
    next(); // its work runs in this turn's microtasks
    this.nextTurn();
  }
}

/** The host's one lane for reading askers' requests (the broker and the burst grouper share it). */
export const readingLane = new TurnLane();
