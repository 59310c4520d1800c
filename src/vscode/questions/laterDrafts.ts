/**
 * What a question put off with Later held, by question id, until it comes back: in memory only, so a
 * draft never reaches a state file (callers leave secret fields out). Few wait at a time; past
 * MAX_LATER_DRAFTS the oldest goes first.
 */
const MAX_LATER_DRAFTS = 50;

export class LaterDrafts<T> {
  private readonly drafts = new Map<number, T>();

  keep(questionId: number, draft: T): void {
    this.drafts.delete(questionId);
    this.drafts.set(questionId, draft);
    while (this.drafts.size > MAX_LATER_DRAFTS) this.drafts.delete(this.drafts.keys().next().value!);
  }

  /** The draft, once: the question shown with it takes it over. */
  take(questionId: number): T | undefined {
    const draft = this.drafts.get(questionId);
    this.drafts.delete(questionId);
    return draft;
  }
}
