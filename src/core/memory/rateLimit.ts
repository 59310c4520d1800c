/**
 * At most so many automatic answers per asker in a sliding minute: an asker
 * that repeats a remembered question in a loop is asked again, in person,
 * past the limit.
 */
export const AUTOMATIC_ANSWERS_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

export class AutomaticAnswerLimit {
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limit = AUTOMATIC_ANSWERS_PER_MINUTE,
  ) {}

  /** Takes one automatic answer for `asker` if it is under the limit; false when it must be asked. */
  take(asker: string): boolean {
    const now = this.now();
    const recent = (this.times.get(asker) ?? []).filter((time) => now - time < WINDOW_MS);
    if (recent.length >= this.limit) {
      this.times.set(asker, recent);
      return false;
    }
    recent.push(now);
    this.times.set(asker, recent);
    return true;
  }
}
