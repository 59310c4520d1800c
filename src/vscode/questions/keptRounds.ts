/**
 * MCP 2026-07-28 rounds waiting for the person, kept so they survive a window
 * reload. A round is plain data — the original request, its input requests,
 * the opaque state, the origin of the server that asked, and the person's
 * draft — so it can be answered later: Elicit then retries the original
 * request on that server only. The round and its draft go to SecretStorage
 * (the state and the request's arguments may be sensitive, and neither is ever
 * written elsewhere) under two keys, so typing rewrites the small draft and
 * never the round; a round over the size cap is not kept, and the person is
 * told. Workspace state holds only an index to list the rounds (a short
 * one-line title, no other asker text); global state lists every record with
 * its age, so records of workspaces never reopened are swept
 * (keptRoundLedger.ts). Rounds still in the index when the window starts are
 * the ones kept before the reload; Pending Questions lists them until they are
 * answered or dismissed.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { inertText, oneLine } from '../../core/display';
import type { RawValues } from '../../core/form/formState';
import { groupMessage } from '../../core/form/group';
import type { GroupSection } from '../../core/request';
import { subjectOf, type KeptRound, type OpenRound, type RoundKeeper } from '../../mcp/rounds';
import type { DraftKeeper } from './formPanel';
import { draftKey, KeptRoundLedger, roundKey } from './keptRoundLedger';

const INDEX_KEY = 'elicit.keptRounds';
/** A draft is written at most this often while the person types. */
const DRAFT_WRITE_MS = 1000;
/** The largest round kept (serialized, without its draft): beyond it a round ends with the window. */
export const MAX_KEPT_ROUND_BYTES = 256 * 1024;
/** The largest draft kept; a larger one leaves the last draft that fitted. */
export const MAX_KEPT_DRAFT_BYTES = 64 * 1024;
/** How much of the question the index keeps, on one line. */
const TITLE_CHARS = 80;

/** What the index says of a kept round: enough to list it, nothing sensitive. */
export interface KeptRoundSummary {
  id: string;
  server: string;
  /** The round's question (or what it is about), one line of at most 80 characters. */
  title: string;
  keptAt: number;
}

export class KeptRounds implements RoundKeeper, DraftKeeper, vscode.Disposable {
  /** Rounds of this window, by id: their drafts are added as the person types. */
  private readonly live = new Map<string, OpenRound>();
  private readonly draftTimers = new Map<string, NodeJS.Timeout>();
  private readonly ledger: KeptRoundLedger;
  private beforeReload: KeptRoundSummary[];
  /** Every round the index listed at the start, expired ones included: the sweep makes sure the ledger knows them. */
  private readonly listedAtStart: KeptRoundSummary[];
  /** Set as the window closes: questions then end only because the window does, and stay kept. */
  private frozen = false;
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    globalState: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
    private readonly now: () => number = Date.now,
  ) {
    this.ledger = new KeptRoundLedger(globalState, secrets, now);
    // Nothing of this window is kept yet: whatever the index lists was kept before the reload.
    this.listedAtStart = this.index();
    this.beforeReload = this.listedAtStart.filter((r) => !this.ledger.isExpired(r.keptAt));
    // An index written by an older version kept the whole message: rewritten with titles only.
    if (JSON.stringify(this.state.get(INDEX_KEY, [])) !== JSON.stringify(this.beforeReload)) {
      void this.state.update(INDEX_KEY, this.beforeReload);
    }
  }

  /**
   * Deletes kept records older than the max age, this workspace's and those of
   * workspaces never reopened. Run once as the window starts.
   */
  async sweepOrphans(): Promise<void> {
    // Records kept by an older version are listed only in their workspace's index: the ledger learns them here.
    for (const summary of this.listedAtStart) if (!this.ledger.has(summary.id)) await this.ledger.add(summary.id, summary.keptAt);
    const swept = await this.ledger.sweep();
    if (swept > 0) this.log.info(`swept ${swept} question(s) kept across a reload more than 30 days ago`);
  }

  keep(round: OpenRound): KeptRound | undefined {
    const { draft, ...rest } = round;
    const record = JSON.stringify(rest);
    const bytes = Buffer.byteLength(record);
    if (bytes > MAX_KEPT_ROUND_BYTES) {
      this.tooLarge(round.server, bytes);
      return undefined;
    }
    const id = randomUUID();
    this.live.set(id, round);
    void this.writeRound(id, record, draft, summaryOf(id, round, this.now()));
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
        if (current?.draft) void this.writeDraft(id, current.draft);
      }, DRAFT_WRITE_MS),
    );
  }

  /** Rounds kept before this window started, oldest first. */
  keptBeforeReload(): readonly KeptRoundSummary[] {
    return this.beforeReload;
  }

  /** A round kept before the reload, with its draft; it stays listed until it is answered or dismissed. */
  async read(id: string): Promise<OpenRound | undefined> {
    if (!this.beforeReload.some((r) => r.id === id)) return undefined;
    const record = await this.secrets.get(roundKey(id));
    if (record === undefined) return undefined;
    let round: OpenRound;
    try {
      round = JSON.parse(record) as OpenRound;
    } catch {
      this.log.warn('a kept question could not be read');
      return undefined;
    }
    const draft = await this.secrets.get(draftKey(id));
    if (draft !== undefined) {
      try {
        round.draft = JSON.parse(draft) as RawValues;
      } catch {
        // A draft that cannot be read is left out: the question is asked afresh.
      }
    }
    return round;
  }

  /** Drops a round kept before the reload without answering it (or as it is answered: it is kept again then). */
  async dismiss(id: string): Promise<void> {
    this.beforeReload = this.beforeReload.filter((r) => r.id !== id);
    await this.forget(id);
  }

  private tooLarge(server: string, bytes: number): void {
    this.log.warn(`a question from ${server} is too large to keep across a window reload (${Math.ceil(bytes / 1024)} KB)`);
    void vscode.window.showWarningMessage(
      inertText(
        vscode.l10n.t(
          'Elicit: the question from {0} is too large to keep across a window reload ({1} KB; at most {2} KB are kept). Answer it before the window reloads: a reload ends it.',
          oneLine(server, 80),
          Math.ceil(bytes / 1024),
          MAX_KEPT_ROUND_BYTES / 1024,
        ),
      ),
    );
  }

  private async forget(id: string): Promise<void> {
    clearTimeout(this.draftTimers.get(id));
    this.draftTimers.delete(id);
    this.live.delete(id);
    await this.secrets.delete(roundKey(id));
    await this.secrets.delete(draftKey(id));
    await this.ledger.remove(id);
    await this.state.update(
      INDEX_KEY,
      this.index().filter((r) => r.id !== id),
    );
    this.changes.fire();
  }

  private async writeRound(id: string, record: string, draft: RawValues | undefined, summary: KeptRoundSummary): Promise<void> {
    // All at once: each write is a round trip to the window, which takes seconds when many servers ask,
    // and nothing can be written once the window closes. One after another, a reload seconds after the
    // question showed lost the round (the soak). The ledger entry goes out with the record,
    // so a record is unlisted, and out of the sweep's reach, only if the window dies between the two.
    await Promise.all([
      this.ledger.add(id, summary.keptAt),
      this.secrets.store(roundKey(id), record),
      draft ? this.writeDraft(id, draft) : undefined,
      this.state.update(INDEX_KEY, [...this.index().filter((r) => r.id !== id), summary]),
    ]);
    // Released while it was being written: it stays out.
    if (!this.live.has(id)) return this.forget(id);
  }

  private async writeDraft(id: string, draft: RawValues): Promise<void> {
    const text = JSON.stringify(draft);
    if (Buffer.byteLength(text) > MAX_KEPT_DRAFT_BYTES) {
      this.log.warn(`a draft of a kept question is over ${MAX_KEPT_DRAFT_BYTES / 1024} KB, so the last one that fitted stays kept`);
      return;
    }
    await this.secrets.store(draftKey(id), text);
    // Answered while it was being written: the draft goes with the round.
    if (!this.live.has(id) && !this.frozen) await this.secrets.delete(draftKey(id));
  }

  private index(): KeptRoundSummary[] {
    const value = this.state.get<unknown>(INDEX_KEY, []);
    return Array.isArray(value) ? value.flatMap(readSummary) : [];
  }

  /** Drafts not yet written are written now. */
  private async flushDrafts(): Promise<void> {
    const writes: Array<Promise<void>> = [];
    for (const [id, timer] of this.draftTimers) {
      clearTimeout(timer);
      const draft = this.live.get(id)?.draft;
      if (draft) writes.push(this.writeDraft(id, draft));
    }
    this.draftTimers.clear();
    await Promise.all(writes);
  }

  dispose(): void {
    void this.freeze();
    this.changes.dispose();
  }
}

function summaryOf(id: string, round: OpenRound, keptAt: number): KeptRoundSummary {
  const forms: GroupSection[] = [];
  for (const [key, entry] of Object.entries(round.inputRequests)) {
    const params = (entry as { params?: { message?: unknown } } | undefined)?.params;
    forms.push({ key, message: typeof params?.message === 'string' ? params.message : '', requestedSchema: undefined });
  }
  const title = oneLine(groupMessage(forms), TITLE_CHARS) || oneLine(subjectOf(round), TITLE_CHARS);
  return { id, server: round.server, title, keptAt };
}

/** An index entry, as this version writes it; one from an older version loses its message but for a short title. */
function readSummary(value: unknown): KeptRoundSummary[] {
  const v = value as { id?: unknown; server?: unknown; title?: unknown; message?: unknown; subject?: unknown; keptAt?: unknown };
  if (typeof v !== 'object' || v === null || typeof v.id !== 'string' || typeof v.server !== 'string') return [];
  const text = [v.title, v.message, v.subject].find((t): t is string => typeof t === 'string' && t.trim() !== '') ?? '';
  const keptAt = typeof v.keptAt === 'number' ? v.keptAt : 0;
  return [{ id: v.id, server: v.server, title: oneLine(text, TITLE_CHARS), keptAt }];
}
