/**
 * The soak's ledger (issue #37): every question's fate, from what the askers logged (each soak
 * server writes a line when it asks and one when its question ends), what the harness did to them
 * (a server killed, hung, its connection dropped) and what the person gave (the scripted phone,
 * remembered answers, the answers typed in the editor). It judges the run:
 *
 * - every question asked has exactly one fate: answered, declined, cancelled, withdrawn by its
 *   asker, reported to its asker as an error, or gone with its asker (the asker's process was
 *   killed while it waited);
 * - no asker got a fate for a question it never asked;
 * - an answer reached the asker that asked it (each answer carries its question's token);
 * - a recurring question (the same each time: remembered answers) is answered only with what the
 *   person chose to have remembered for its asker;
 * - every answer an asker got is one the person gave for that question, and every answer the
 *   person gave (and Elicit took) reached its asker, unless that asker went first;
 * - a task's question (MCP's tasks extension) gets its fate at its server: when the call that
 *   started the task ends early, Elicit cancels the task there (a server would otherwise keep it
 *   waiting for ever), unless the server was faulted shortly before (hung, cut off) or went;
 * - a round kept across Reload Window (of a tool the person ran) gets its fate at its asker, even
 *   though the reload ended the asker's process: the restarted server finishes the round;
 * - no asker fell silent: each configured asker asked within the last `silenceMs` before the
 *   askers were told to stop (the harness never kills one so often that crash recovery may
 *   rightly give up on it, so a silent asker is one Elicit stopped hearing).
 *
 * Pure: the harness reads the log files and hands the lines over.
 */

/** Each question's token: its asker's name and a number, "s07-123"; an answer carries it back. */
export type QuestionToken = string;

export type Fate = 'answered' | 'declined' | 'cancelled' | 'withdrawn' | 'error';

export type LedgerEvent =
  /**
   * An asker sent a question. `recurring`: the same question each time (no token), for remembered
   * answers: its answer must be the one the person chose to have remembered for that asker. `task`:
   * asked by a task of the tasks extension, whose server must hear its fate.
   */
  | { event: 'asked'; asker: string; question: QuestionToken; recurring?: boolean; task?: boolean; at: number }
  /** An asker's question ended, as the asker saw it. `content`: what an answered one carried. */
  | { event: 'fate'; asker: string; question: QuestionToken; fate: Fate; content?: Record<string, unknown>; message?: string; at: number }
  /** The harness killed an asker's process: what it still waited for went with it. */
  | { event: 'died'; asker: string; at: number }
  /**
   * The person answered (Elicit took the answer): `content` for accept. `uncertain`: the phone went
   * away before Elicit's reply came, so whether Elicit took it is not known (it may reach the asker,
   * and need not).
   */
  | {
      event: 'gave';
      question: QuestionToken;
      via: string;
      action: 'accept' | 'decline';
      content?: Record<string, unknown>;
      uncertain?: boolean;
      at: number;
    }
  /**
   * The person answered an asker's recurring question in the editor with Remember: always on, so
   * that Elicit answers it from memory from then on; `content` is the answer.
   */
  | { event: 'remembered'; asker: string; content: Record<string, unknown>; at: number }
  /** A fault the harness injected, for the report. */
  | { event: 'fault'; kind: string; asker?: string; at: number }
  /**
   * A 2026-07-28 round's caller (the soak's CLI agent) saw its tool call end in an error: the
   * round's fate as its asker saw it, when the server never heard of an answer.
   */
  | { event: 'call failed'; question: QuestionToken; message?: string; at: number }
  /** A round of a tool the person ran was open at Reload Window: it is kept, and must be finished after it. */
  | { event: 'kept round'; question: QuestionToken; at: number }
  /** An asker the run configured (it should ask until the end). */
  | { event: 'asker'; asker: string; at: number }
  /** The askers were told to ask no more. */
  | { event: 'stopped asking'; at: number };

export type ProblemKind =
  'no fate' | 'task left waiting' | 'two fates' | 'never asked' | 'wrong asker' | 'not given' | 'given, not delivered' | 'silenced';

/** How long an asker may go without asking before the stop, by default (it asks every 1.5 s on average). */
export const SILENCE_MS = 45_000;
/** A fault to a task's server this long before its call failed may have kept the task's cancel from it. */
export const TASK_FAULT_EXCUSE_MS = 10_000;

export interface Problem {
  kind: ProblemKind;
  question: QuestionToken;
  detail: string;
}

export interface LedgerReport {
  asked: number;
  /** Questions per fate, "gone with its asker" included. */
  fates: Record<Fate | 'gone with its asker', number>;
  /** Faults injected, by kind. */
  faults: Record<string, number>;
  /** Answers the person gave, by the way they were given. */
  given: Record<string, number>;
  /** Rounds kept across a reload, and how many of them were answered after it. */
  keptRounds: { kept: number; answered: number };
  problems: Problem[];
}

export function judge(events: readonly LedgerEvent[], silenceMs = SILENCE_MS): LedgerReport {
  const report: LedgerReport = {
    asked: 0,
    fates: { answered: 0, declined: 0, cancelled: 0, withdrawn: 0, error: 0, 'gone with its asker': 0 },
    faults: {},
    given: {},
    keptRounds: { kept: 0, answered: 0 },
    problems: [],
  };
  const problem = (kind: ProblemKind, question: QuestionToken, detail: string): void =>
    void report.problems.push({ kind, question, detail });
  const asked = new Map<QuestionToken, { asker: string; at: number; recurring?: boolean; task?: boolean }>();
  /** What the person chose to have remembered, per asker, and how often it was given in the editor. */
  const remembered = new Map<string, Record<string, unknown>[]>();
  const fates = new Map<QuestionToken, Extract<LedgerEvent, { event: 'fate' }>[]>();
  const deaths = new Map<string, number[]>();
  const gave = new Map<QuestionToken, Extract<LedgerEvent, { event: 'gave' }>[]>();
  const lastAsked = new Map<string, number>();
  const callFailed = new Map<QuestionToken, number>();
  const keptRounds = new Set<QuestionToken>();
  /** When the harness faulted each asker (killed, hung, cut off). */
  const faultedAt = new Map<string, number[]>();
  let startedAt: number | undefined;
  let stoppedAt: number | undefined;
  for (const e of events) {
    if (e.event === 'asker') {
      if (!lastAsked.has(e.asker)) lastAsked.set(e.asker, -Infinity);
      startedAt = Math.min(startedAt ?? e.at, e.at);
    } else if (e.event === 'stopped asking') stoppedAt = e.at;
    else if (e.event === 'asked') {
      asked.set(e.question, { asker: e.asker, at: e.at, recurring: e.recurring, task: e.task });
      lastAsked.set(e.asker, Math.max(lastAsked.get(e.asker) ?? -Infinity, e.at));
    } else if (e.event === 'fate') fates.set(e.question, [...(fates.get(e.question) ?? []), e]);
    else if (e.event === 'call failed') callFailed.set(e.question, e.at);
    else if (e.event === 'kept round') keptRounds.add(e.question);
    else if (e.event === 'died') deaths.set(e.asker, [...(deaths.get(e.asker) ?? []), e.at]);
    else if (e.event === 'gave') {
      gave.set(e.question, [...(gave.get(e.question) ?? []), e]);
      report.given[e.via] = (report.given[e.via] ?? 0) + 1;
    } else if (e.event === 'remembered') {
      remembered.set(e.asker, [...(remembered.get(e.asker) ?? []), e.content]);
      report.given.editor = (report.given.editor ?? 0) + 1;
    } else if (e.event === 'fault') {
      report.faults[e.kind] = (report.faults[e.kind] ?? 0) + 1;
      if (e.asker) faultedAt.set(e.asker, [...(faultedAt.get(e.asker) ?? []), e.at]);
    }
  }
  report.asked = asked.size;
  let answeredRecurring = 0;
  /** Whether the asker's process was killed after the question was asked (its fate, if any, went with it). */
  const diedAfter = (asker: string, at: number): boolean => (deaths.get(asker) ?? []).some((death) => death >= at);

  /** Whether the harness faulted the asker in the moments before `at`, or killed it after `since`. */
  const faultedBefore = (asker: string, since: number, at: number): boolean =>
    diedAfter(asker, since) || (faultedAt.get(asker) ?? []).some((fault) => fault <= at && at - fault <= TASK_FAULT_EXCUSE_MS);

  for (const [question, { asker, at, recurring, task }] of asked) {
    const ended = fates.get(question) ?? [];
    if (ended.length > 1) problem('two fates', question, ended.map((f) => f.fate).join(', '));
    const fate = ended[0];
    const failedAt = callFailed.get(question);
    const kept = keptRounds.has(question);
    if (kept) {
      report.keptRounds.kept++;
      if (fate?.fate === 'answered') report.keptRounds.answered++;
    }
    if (!fate) {
      if (kept) problem('no fate', question, `a round kept across the reload, never finished at ${asker}`);
      else if (failedAt !== undefined && task && !faultedBefore(asker, at, failedAt)) {
        problem('task left waiting', question, `its call ended and ${asker} was never told: its task still waits for an answer`);
      } else if (failedAt !== undefined) report.fates.error++;
      else if (diedAfter(asker, at)) report.fates['gone with its asker']++;
      else problem('no fate', question, `${asker} asked it and never heard of it again`);
    } else report.fates[fate.fate]++;
    const given = gave.get(question) ?? [];
    if (recurring) {
      if (fate?.fate !== 'answered') continue;
      answeredRecurring++;
      const chosen = remembered.get(asker) ?? [];
      if (!chosen.some((content) => sameContent(content, fate.content))) {
        problem(
          'not given',
          question,
          `${asker} got ${JSON.stringify(fate.content)} for its recurring question, which the person never chose`,
        );
      }
      continue;
    }
    if (fate?.fate === 'answered') {
      const token = fate.content?.token;
      if (token !== question) {
        problem('wrong asker', question, `${asker} got the answer to ${String(token)}`);
        continue;
      }
      if (!given.some((g) => g.action === 'accept' && sameContent(g.content, fate.content))) {
        problem('not given', question, `${asker} got ${JSON.stringify(fate.content)}, which the person never gave it`);
      }
    }
    // What the person gave and Elicit took reaches the asker, unless the asker went first.
    for (const g of given) {
      if (g.uncertain) continue;
      const delivered =
        (g.action === 'accept' && fate?.fate === 'answered' && sameContent(g.content, fate.content)) ||
        (g.action === 'decline' && fate?.fate === 'declined');
      const askerWent =
        fate?.fate === 'withdrawn' || fate?.fate === 'error' || (!fate && !kept && (diedAfter(asker, at) || failedAt !== undefined));
      if (!delivered && !askerWent && ended.length <= 1) {
        problem('given, not delivered', question, `the person's ${g.action} (${g.via}) ended as ${fate?.fate ?? 'nothing'}`);
      }
    }
  }
  // Recurring questions answered and not by the person in the editor: Elicit answered them from memory.
  const byHand = [...remembered.values()].reduce((sum, list) => sum + list.length, 0);
  if (answeredRecurring > 0) report.given.memory = Math.max(0, answeredRecurring - byHand);
  for (const [question, ended] of fates) {
    if (!asked.has(question)) problem('never asked', question, `${ended[0]!.asker} got a fate (${ended[0]!.fate}) for it`);
  }
  for (const [question, given] of gave) {
    if (!asked.has(question)) problem('never asked', question, `the person answered it (${given[0]!.via}), and no asker had asked it`);
  }
  if (startedAt !== undefined && stoppedAt !== undefined && stoppedAt - startedAt > silenceMs) {
    for (const [asker, last] of lastAsked) {
      if (stoppedAt - last > silenceMs) {
        const since = last === -Infinity ? 'never asked' : `asked nothing in the last ${Math.round((stoppedAt - last) / 1000)} s`;
        problem('silenced', asker, `${since} before the stop`);
      }
    }
  }
  return report;
}

/** Content compared by value, keys in any order. */
function sameContent(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** The report as the soak prints it: counts per fate, faults, answers given, and each problem. */
export function formatReport(report: LedgerReport): string {
  const counts = (record: Record<string, number>): string =>
    Object.entries(record)
      .map(([key, n]) => `${key} ${n}`)
      .join(' · ') || 'none';
  const lines = [
    `questions asked: ${report.asked}`,
    `fates: ${counts(report.fates)}`,
    `faults injected: ${counts(report.faults)}`,
    `answers given: ${counts(report.given)}`,
    `rounds kept across a reload: ${report.keptRounds.kept}, answered after it: ${report.keptRounds.answered}`,
    report.problems.length === 0 ? 'problems: none' : `problems: ${report.problems.length}`,
    ...report.problems.slice(0, 50).map((p) => `  ${p.kind}: ${p.question}: ${p.detail}`),
  ];
  return lines.join('\n');
}
