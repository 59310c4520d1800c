/**
 * Form questions from one asker that arrive together — the 2025-era requests a
 * 2026-07-28 server's compatibility layer sends for one round, or the questions
 * of parallel tool calls — become one grouped question instead of a queue of
 * separate prompts (or a refusal for going over the per-asker limit). A short
 * window after the first question collects the others; a question the asker
 * withdraws is answered `cancel` at once while the rest stay open.
 */
import { splitGroupAnswer, composeGroup, groupMessage, MAX_GROUP_SECTIONS } from './group';
import { tryNormalize } from './normalize';
import { CANCELLED, type ElicitRequest, type ElicitResult, type FormRequest, type GroupRequest } from './request';

/** How long the first question waits for others to join it. */
export const BURST_WINDOW_MS = 20;

interface Member {
  request: FormRequest;
  resolve: (result: ElicitResult) => void;
  reject: (error: unknown) => void;
  settled: boolean;
}

export class BurstGrouper {
  private batch: Member[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ask: (request: ElicitRequest) => Promise<ElicitResult>,
    private readonly windowMs = BURST_WINDOW_MS,
  ) {}

  /** Asks `request`, alone or together with the questions that arrive with it. */
  add(request: FormRequest): Promise<ElicitResult> {
    // A request that cannot be drawn is refused on its own, never spoiling the others.
    const checked = tryNormalize(request.requestedSchema);
    if ('error' in checked) return Promise.reject(checked.error);
    if (request.signal?.aborted) return Promise.resolve(CANCELLED);
    return new Promise<ElicitResult>((resolve, reject) => {
      this.batch.push({ request, resolve, reject, settled: false });
      if (this.batch.length >= MAX_GROUP_SECTIONS) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const members = this.batch;
    this.batch = [];
    if (members.length === 1) {
      const only = members[0]!;
      this.ask(only.request).then(only.resolve, only.reject);
    } else if (members.length > 1) {
      void this.askTogether(members);
    }
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
      signal?.addEventListener('abort', onAbort, { once: true });
      return () => signal?.removeEventListener('abort', onAbort);
    });
    const sections = members.map((m, index) => ({ key: String(index), message: m.request.message, requestedSchema: m.request.requestedSchema }));
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
