/**
 * MCP 2026-07-28 rounds waiting for the person, kept so they survive a window
 * reload. A round is plain data — the original request, its input requests,
 * the opaque state and the person's draft — so it can be answered later: Elicit
 * then retries the original request. The whole record goes to SecretStorage
 * (the state and the request's arguments may be sensitive, and neither is ever
 * written elsewhere); workspace state holds only an index to list the rounds.
 * Rounds still in the index when the window starts are the ones kept before the
 * reload; Pending Questions lists them until they are answered or dismissed.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { clip, oneLine } from '../../core/display';
import type { RawValues } from '../../core/form/formState';
import { groupMessage } from '../../core/form/group';
import type { GroupSection } from '../../core/broker/request';
import { subjectOf, type KeptRound, type OpenRound, type RoundKeeper } from '../../mcp/rounds';
import type { DraftKeeper } from './formPanel';

const INDEX_KEY = 'elicit.keptRounds';
const RECORD_PREFIX = 'elicit.round:';
/** A draft is written at most this often while the person types. */
const DRAFT_WRITE_MS = 1000;

/** What the index says of a kept round: enough to list it, nothing sensitive. */
export interface KeptRoundSummary {
  id: string;
  server: string;
  /** "tool song_sketch" */
  subject: string;
  /** The round's question, or how many there are. */
  message: string;
  keptAt: number;
}

export class KeptRounds implements RoundKeeper, DraftKeeper, vscode.Disposable {
  /** Rounds of this window, by id: their drafts are added as the person types. */
  private readonly live = new Map<string, OpenRound>();
  private readonly draftTimers = new Map<string, NodeJS.Timeout>();
  private beforeReload: KeptRoundSummary[];
  /** Set as the window closes: questions then end only because the window does, and stay kept. */
  private frozen = false;
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // Nothing of this window is kept yet: whatever the index lists was kept before the reload.
    this.beforeReload = this.index();
  }

  keep(round: OpenRound): KeptRound {
    const id = randomUUID();
    this.live.set(id, round);
    void this.write(id, round).then(() => this.addToIndex(summaryOf(id, round)));
    return { id, release: () => void (this.frozen ? undefined : this.forget(id)) };
  }

  /** The window is closing: what is kept now is kept for the next window. */
  async freeze(): Promise<void> {
    if (this.frozen) return;
    this.frozen = true;
    await this.flushDrafts();
  }

  /** DraftKeeper: the person is typing into a kept round's form. */
  save(id: string, values: RawValues): void {
    const round = this.live.get(id);
    if (!round) return;
    round.draft = values;
    if (this.draftTimers.has(id)) return;
    this.draftTimers.set(
      id,
      setTimeout(() => {
        this.draftTimers.delete(id);
        const current = this.live.get(id);
        if (current) void this.write(id, current);
      }, DRAFT_WRITE_MS),
    );
  }

  /** Rounds kept before this window started, oldest first. */
  keptBeforeReload(): readonly KeptRoundSummary[] {
    return this.beforeReload;
  }

  /** Takes a round kept before the reload, to answer it now: it leaves the list. */
  async take(id: string): Promise<OpenRound | undefined> {
    if (!this.beforeReload.some((r) => r.id === id)) return undefined;
    const record = await this.secrets.get(RECORD_PREFIX + id);
    await this.dismiss(id);
    if (record === undefined) return undefined;
    try {
      return JSON.parse(record) as OpenRound;
    } catch {
      this.log.warn('a kept question could not be read, so it was dropped');
      return undefined;
    }
  }

  /** Drops a round kept before the reload without answering it. */
  async dismiss(id: string): Promise<void> {
    this.beforeReload = this.beforeReload.filter((r) => r.id !== id);
    await this.forget(id);
  }

  private async forget(id: string): Promise<void> {
    clearTimeout(this.draftTimers.get(id));
    this.draftTimers.delete(id);
    this.live.delete(id);
    await this.secrets.delete(RECORD_PREFIX + id);
    await this.state.update(
      INDEX_KEY,
      this.index().filter((r) => r.id !== id),
    );
    this.changes.fire();
  }

  private async write(id: string, round: OpenRound): Promise<void> {
    await this.secrets.store(RECORD_PREFIX + id, JSON.stringify(round));
  }

  private async addToIndex(summary: KeptRoundSummary): Promise<void> {
    // Released while it was being written: it stays out.
    if (!this.live.has(summary.id)) return this.secrets.delete(RECORD_PREFIX + summary.id);
    await this.state.update(INDEX_KEY, [...this.index().filter((r) => r.id !== summary.id), summary]);
  }

  private index(): KeptRoundSummary[] {
    const value = this.state.get<unknown>(INDEX_KEY, []);
    return Array.isArray(value) ? (value.filter(isSummary) as KeptRoundSummary[]) : [];
  }

  /** Drafts not yet written are written now. */
  private async flushDrafts(): Promise<void> {
    const writes: Array<Promise<void>> = [];
    for (const [id, timer] of this.draftTimers) {
      clearTimeout(timer);
      const round = this.live.get(id);
      if (round) writes.push(this.write(id, round));
    }
    this.draftTimers.clear();
    await Promise.all(writes);
  }

  dispose(): void {
    void this.freeze();
    this.changes.dispose();
  }
}

function summaryOf(id: string, round: OpenRound): KeptRoundSummary {
  const forms: GroupSection[] = [];
  for (const [key, entry] of Object.entries(round.inputRequests)) {
    const params = (entry as { params?: { message?: unknown } } | undefined)?.params;
    forms.push({ key, message: typeof params?.message === 'string' ? params.message : '', requestedSchema: undefined });
  }
  return { id, server: round.server, subject: subjectOf(round), message: clip(oneLine(groupMessage(forms), 300), 300), keptAt: Date.now() };
}

function isSummary(value: unknown): boolean {
  const v = value as Partial<KeptRoundSummary> | undefined;
  return typeof v === 'object' && v !== null && typeof v.id === 'string' && typeof v.server === 'string' && typeof v.subject === 'string';
}
