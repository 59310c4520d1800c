/**
 * Form questions from one asker that arrive together — the 2025-era requests a
 * 2026-07-28 server's compatibility layer sends for one round, or the questions
 * of parallel tool calls — become one grouped question instead of a queue of
 * separate prompts (or a refusal for going over the per-asker limit).
 *
 * A question that arrives alone is asked at once: nothing delays the usual
 * one-question-after-another conversation. If another arrives while the first
 * is still fresh (asked a moment ago, unanswered), a burst is under way: the
 * first is withdrawn from the screen before the person could act on it, and
 * both wait a short moment for the rest of the burst, then are asked as one.
 * A question the asker withdraws is answered `cancel` at once while the rest
 * stay open.
 */
import { splitGroupAnswer, composeGroup, groupMessage, MAX_GROUP_SECTIONS } from '../form/group';
import { alreadyRead, LIMITS, tryNormalize } from '../form/normalize';
import { joinSignals } from '../joinSignals';
import type { TurnLane } from '../time/turnLane';
import { CANCELLED, WITHDRAWN, type ElicitRequest, type ElicitResult, type FormRequest, type GroupRequest } from '../request';

/**
 * A question asked this recently is still fresh: one arriving now joins it. The time counts
 * only while the extension host is free to show it: a burst read slowly by a busy host in one
 * turn of the event loop is still one burst (a timer cannot fire in between).
 */
export const FRESH_MS = 25;
/** Never later than this after it was asked: a person may have started to answer it. */
export const FRESH_MAX_MS = 500;
/** A burst is complete once no question came for this long… */
export const BURST_SETTLE_MS = 15;
/** …or at the latest after this long. */
export const BURST_MAX_WAIT_MS = 100;

interface Member {
  request: FormRequest;
  /** How many fields it brings to a group. */
  fields: number;
  resolve: (result: ElicitResult) => void;
  reject: (error: unknown) => void;
  settled: boolean;
}

/** The question last asked alone, while it may still join a burst. */
interface Fresh {
  member: Member;
  askedAt: number;
  /** Set by a FRESH_MS timer, which runs only once the host has finished what it was reading. */
  expired: boolean;
  withdraw: AbortController;
}

export class BurstGrouper {
  private batch: Member[] = [];
  private batchStarted = 0;
  private batchFields = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fresh: Fresh | undefined;

  constructor(
    private readonly ask: (request: ElicitRequest) => Promise<ElicitResult>,
    private readonly now: () => number = () => performance.now(),
    /** The host's readingLane (turnLane.ts), as the broker's; none in unit tests of the grouping. */
    private readonly lane?: TurnLane,
  ) {}

  /** Asks `request`, alone or together with the questions that arrive with it. */
  add(request: FormRequest): Promise<ElicitResult> {
    if (request.signal?.aborted) return Promise.resolve(CANCELLED);
    return new Promise<ElicitResult>((resolve, reject) => {
      const member: Member = { request, fields: 0, resolve, reject, settled: false };
      // Alone, the broker reads it, after its per-asker limit: a refused request costs no reading.
      if (!this.mayJoin()) return this.askAlone(member);
      const turn = this.lane?.take();
      if (turn) void turn.then(() => this.place(member));
      else this.place(member);
    });
  }

  /** Whether a question arriving now could join others (there is a batch, or a fresh question). */
  private mayJoin(): boolean {
    return this.batch.length > 0 || this.openFresh() !== undefined;
  }

  /** The question last asked alone, while a question arriving now may still join it. */
  private openFresh(): Fresh | undefined {
    const fresh = this.fresh;
    return fresh && !fresh.member.settled && !fresh.expired && this.now() - fresh.askedAt < FRESH_MAX_MS ? fresh : undefined;
  }

  /** Reads a question that may join others (its fields decide), then places it: in the batch, with the fresh one, or alone. */
  private place(member: Member): void {
    if (member.request.signal?.aborted) return member.resolve(CANCELLED);
    // A request that cannot be drawn is refused on its own, never spoiling the others.
    const checked = tryNormalize(member.request.requestedSchema);
    if ('error' in checked) return member.reject(checked.error);
    member.fields = checked.form.fields.length;
    if (this.batch.length > 0) {
      if (this.batchFields + member.fields <= LIMITS.maxFields) return this.join(member);
      // One form holds so many fields: the group goes as it is, and this question starts anew.
      this.flush();
    }
    const fresh = this.openFresh();
    // The broker read the fresh question when it admitted it; one it has not read (yet) is not joined.
    const freshFields = fresh && alreadyRead(fresh.member.request.requestedSchema)?.fields.length;
    if (fresh && freshFields !== undefined && freshFields + member.fields <= LIMITS.maxFields) {
      // A burst: the question just asked comes back to be asked with the others.
      this.fresh = undefined;
      fresh.withdraw.abort(WITHDRAWN);
      fresh.member.fields = freshFields;
      this.batch = [fresh.member];
      this.batchFields = freshFields;
      this.batchStarted = this.now();
      return this.join(member);
    }
    this.askAlone(member);
  }

  private askAlone(member: Member): void {
    const withdraw = new AbortController();
    const ends = joinSignals([member.request.signal, withdraw.signal]);
    const fresh: Fresh = { member, askedAt: this.now(), expired: false, withdraw };
    this.fresh = fresh;
    setTimeout(() => (fresh.expired = true), FRESH_MS).unref?.();
    this.ask({ ...member.request, signal: ends.signal }).then(
      (result) => {
        ends.dispose();
        if (withdraw.signal.aborted) return; // asked again, with the burst
        member.settled = true;
        member.resolve(result);
      },
      (error: unknown) => {
        ends.dispose();
        if (withdraw.signal.aborted) return;
        member.settled = true;
        member.reject(error);
      },
    );
  }

  private join(member: Member): void {
    this.batch.push(member);
    this.batchFields += member.fields;
    if (this.batch.length >= MAX_GROUP_SECTIONS) return this.flush();
    clearTimeout(this.timer);
    const left = BURST_MAX_WAIT_MS - (this.now() - this.batchStarted);
    this.timer = setTimeout(() => this.flush(), Math.max(0, Math.min(BURST_SETTLE_MS, left)));
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const members = this.batch;
    this.batch = [];
    this.batchFields = 0;
    if (members.length > 0) void this.askTogether(members);
  }

  private async askTogether(members: Member[]): Promise<void> {
    const everyoneLeft = new AbortController();
    const finish = (member: Member, result: ElicitResult): void => {
      if (member.settled) return;
      member.settled = true;
      member.resolve(result);
    };
    const cleanups = members.map((member) => {
      const signal = member.request.signal;
      const onAbort = (): void => {
        finish(member, CANCELLED);
        if (members.every((m) => m.settled)) everyoneLeft.abort(signal?.reason);
      };
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      return () => signal?.removeEventListener('abort', onAbort);
    });
    const sections = members.map((m, index) => ({
      key: String(index),
      message: m.request.message,
      requestedSchema: m.request.requestedSchema,
    }));
    const group: GroupRequest = {
      mode: 'group',
      asker: commonAsker(members),
      message: groupMessage(sections),
      sections,
      signal: everyoneLeft.signal,
    };
    try {
      const result = await this.ask(group);
      const perSection = splitGroupAnswer(composeGroup(sections), result);
      members.forEach((member, index) => finish(member, perSection[String(index)] ?? CANCELLED));
    } catch (error) {
      for (const member of members) {
        if (member.settled) continue;
        member.settled = true;
        member.reject(error);
      }
    } finally {
      for (const cleanup of cleanups) cleanup();
    }
  }
}

/** The asker of the group: the same server; the detail only when every question shares it. */
function commonAsker(members: Member[]): GroupRequest['asker'] {
  const first = members[0]!.request.asker;
  const sameDetail = members.every((m) => m.request.asker.detail === first.detail);
  return sameDetail ? { ...first } : { kind: first.kind, name: first.name };
}
