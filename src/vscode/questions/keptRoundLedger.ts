/**
 * Every kept round's record in SecretStorage, listed in global state with the
 * time it was kept. SecretStorage cannot list its keys, and a workspace's own
 * index lives in that workspace's state, out of reach of any other window: a
 * record whose workspace is never opened again would stay forever. This ledger
 * is read by every window, so whichever window starts next deletes the records
 * older than the max age, wherever they were kept. It holds ids and times only.
 */
import type * as vscode from 'vscode';

const LEDGER_KEY = 'elicit.keptRoundRecords';
/** A kept round older than this is swept: its server's state has long expired, and its workspace may be gone. */
export const KEPT_ROUND_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** The SecretStorage keys of a kept round: the round, written once, and its draft, written as the person types. */
export function roundKey(id: string): string {
  return `elicit.round:${id}`;
}
export function draftKey(id: string): string {
  return `elicit.roundDraft:${id}`;
}

export class KeptRoundLedger {
  constructor(
    private readonly state: vscode.Memento,
    private readonly secrets: vscode.SecretStorage,
    private readonly now: () => number,
  ) {}

  /** Before a record is written, so a record never exists unlisted. */
  async add(id: string, keptAt: number): Promise<void> {
    await this.state.update(LEDGER_KEY, { ...this.entries(), [id]: keptAt });
  }

  has(id: string): boolean {
    return id in this.entries();
  }

  async remove(id: string): Promise<void> {
    const entries = this.entries();
    if (!(id in entries)) return;
    delete entries[id];
    await this.state.update(LEDGER_KEY, entries);
  }

  isExpired(keptAt: number): boolean {
    return this.now() - keptAt > KEPT_ROUND_MAX_AGE_MS;
  }

  /** Deletes every record kept longer ago than the max age, from whichever workspace; returns how many. */
  async sweep(): Promise<number> {
    const entries = this.entries();
    const expired = Object.keys(entries).filter((id) => this.isExpired(entries[id]!));
    if (expired.length === 0) return 0;
    for (const id of expired) {
      await this.secrets.delete(roundKey(id));
      await this.secrets.delete(draftKey(id));
    }
    // Read again: another round may have been added while the records were deleted.
    const now = this.entries();
    for (const id of expired) delete now[id];
    await this.state.update(LEDGER_KEY, now);
    return expired.length;
  }

  private entries(): Record<string, number> {
    const value = this.state.get<unknown>(LEDGER_KEY, {});
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const entries: Record<string, number> = {};
    for (const [id, keptAt] of Object.entries(value)) if (typeof keptAt === 'number') entries[id] = keptAt;
    return entries;
  }
}
