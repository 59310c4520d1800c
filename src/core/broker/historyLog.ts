/**
 * The question history's list as it is stored: newest first, at most `max` entries. Each write
 * sends the extension's whole global state (and VS Code sends it back), so a window answering
 * dozens of questions a second wrote it dozens of times a second. Entries are now written
 * together at most once per period (at once after a quiet one); they are listed at once.
 * Entries another window wrote meanwhile are kept: each write starts from what is stored.
 */
import { Pacer, type PacerClock } from '../time/pacer';
import type { HistoryEntry } from './history';

export interface HistoryStore {
  read(): HistoryEntry[];
  write(entries: HistoryEntry[]): Promise<void>;
}

export const HISTORY_WRITE_EVERY_MS = 1_000;

export class HistoryLog {
  /** Newest first, not yet written. */
  private unwritten: HistoryEntry[] = [];
  private readonly pacer: Pacer;

  constructor(
    private readonly store: HistoryStore,
    private readonly max: number,
    clock?: PacerClock,
  ) {
    this.pacer = new Pacer(() => void this.write(), HISTORY_WRITE_EVERY_MS, clock);
  }

  entries(): HistoryEntry[] {
    return [...this.unwritten, ...this.store.read()].slice(0, this.max);
  }

  add(entry: HistoryEntry): void {
    this.unwritten.unshift(entry);
    this.pacer.request();
  }

  async clear(): Promise<void> {
    this.unwritten = [];
    await this.store.write([]);
  }

  /** Writes what waits now (the window is closing) and stops. */
  dispose(): Promise<void> {
    this.pacer.dispose();
    return this.write();
  }

  private async write(): Promise<void> {
    if (this.unwritten.length === 0) return;
    const entries = this.entries();
    this.unwritten = [];
    await this.store.write(entries);
  }
}
