/**
 * The broker: every asker's question goes through here. It normalizes the
 * schema, applies the per-asker limit and the deadline, shows native quick
 * inputs one at a time in arrival order (VS Code has only one quick input),
 * lets webview forms open side by side, lets the person put a question off
 * ("Later") and come back to it, and checks every accepted answer before it
 * leaves.
 */
import { ajvChecks, preloadAjvChecks } from '../form/loadAjvChecks';
import { InvalidRequestError } from '../errors';
import { OpenPrompts } from './openPrompts';
import { Emitter } from '../events';
import { answeredOnlyHere, hasFileField, hasSecret, type FormModel } from '../form/fields';
import { composeGroup } from '../form/group';
import { normalize } from '../form/normalize';
import { choosePresentation, type Presentation, type PresentationContext, type PresentationSetting } from '../form/presentation';
import {
  CANCELLED,
  DECLINED,
  WITHDRAWN,
  asksOnBehalf,
  turnHasEnded,
  type ElicitContent,
  type ElicitRequest,
  type ElicitResult,
} from '../request';
import { timerDelay } from '../settingLimits';
import type { TurnLane } from '../time/turnLane';
import { reviewUrl, type UrlReview } from './urlSafety';
import { completeAnswer } from '../form/fieldRules';
import { readOutsideAnswer } from '../form/outsideAnswer';
import type { AnswerMemory, RememberedAnswer } from '../memory/answerMemory';
import type { MemoryScope } from '../memory/askerIdentity';
import type { AskerRule } from '../memory/askerRules';

/** waiting: queued behind another quick input · showing: on screen · later: put off by the person. */
export type QuestionState = 'waiting' | 'showing' | 'later';

export interface Question {
  id: number;
  request: ElicitRequest;
  /** Present for form and group requests. */
  form?: FormModel;
  /** Present for URL requests: the checked URL, its host and warnings. */
  url?: UrlReview;
  /** How it is drawn; URL consent is a native prompt too. */
  presentation: Presentation | 'url';
  receivedAt: number;
  state: QuestionState;
  /** A remembered answer that is not sent as it is (no longer valid, or past the limit): the values to start from. */
  prefill?: ElicitContent;
  /** The longest the person may have this answer remembered; absent when it is never remembered. */
  rememberOffer?: MemoryScope;
  /** Set by the renderer when the person chose "Remember this answer". */
  remember?: MemoryScope;
}

/** A renderer may also report that the person chose "Later". */
export type RenderOutcome = ElicitResult | { action: 'later' };
export const LATER: RenderOutcome = Object.freeze({ action: 'later' });

/** Draws a question and resolves with the person's answer; closes its UI when `signal` aborts. */
export interface Renderer {
  render(question: Question, signal: AbortSignal): Promise<RenderOutcome>;
}

export interface BrokerOptions {
  timeoutMs: () => number;
  maxPendingPerAsker: () => number;
  presentation: () => PresentationSetting;
  /** Remembered answers (core/memory): questions answered without any UI. */
  memory?: AnswerMemory;
  /**
   * One request read per turn of the event loop (turnLane.ts), shared with the burst
   * groupers: the extension passes the host's readingLane. Without it (unit tests of
   * the queue) every request is read at once.
   */
  readingLane?: TurnLane;
  /**
   * Whether this asker's question may have a file field (fileFields.ts): only an MCP server's,
   * with `elicit.experimental.fileFields` on. Without it no file field is answered.
   */
  acceptsFiles?: (request: ElicitRequest) => boolean;
}

export interface AnsweredQuestion {
  question: Question;
  result: ElicitResult;
  answeredAt: number;
  /** Why it ended without the person: timeout, the asker aborting, an error. */
  reason?: 'timeout' | 'aborted' | 'error';
  /** Answered from memory, without the person: the remembered answers it used. */
  automatic?: RememberedAnswer[];
  /** Declined without the person by their rule for this asker (always decline, never open links). */
  rule?: AskerRule;
  /** Answered by the person on a paired device: its name. */
  device?: string;
}

interface NativeJob {
  run(): void;
  abandon(): void;
}

/** Reasons the broker aborts a render attempt, so it can tell them from the asker's abort. */
const DEFER = 'elicit:defer';
const DECLINE = 'elicit:decline';
const DISMISS = 'elicit:dismiss';
/** A non-blocking question makes way for one its asker waits on, and comes back after it. */
const YIELD = 'elicit:yield';
/** Answered in another window: the entry holds the answer. */
const ELSEWHERE = 'elicit:elsewhere';

interface Entry {
  question: Question;
  /** Aborts the current render attempt (defer / decline from outside the UI). */
  attempt?: AbortController;
  /** Resolves a question that is waiting in "later". */
  wake?: (next: 'resume' | 'decline' | 'dismiss' | 'elsewhere') => void;
  /** The answer another window gave, once the broker took it. */
  elsewhere?: ElicitResult;
  /** The paired device that gave it, if one did. */
  answeredOn?: string;
}

/**
 * Where a broker's question ids start: a random place, so that a window's ids do not repeat after a
 * reload. A phone page still showing a question from before it would otherwise send its answer to
 * whatever new question took the same number (found by the soak).
 */
export function firstQuestionId(): number {
  // Below 4e9, well under the phone's numbers for other windows' questions (OTHER_WINDOW_IDS_FROM, 5e9).
  return 1 + Math.floor(Math.random() * 4_000_000_000);
}

export class Broker {
  private nextId = firstQuestionId();
  private readonly entries = new Map<number, Entry>();
  private readonly nativeQueue: NativeJob[] = [];
  private nativeBusy = false;
  /** The question drawn in the quick input now, if one is. */
  private nativeShowing: Entry | undefined;
  private readonly changes = new Emitter<void>();
  private readonly answers = new Emitter<AnsweredQuestion>();
  /** Fires when a question arrives, changes state or is answered. */
  readonly onDidChange = this.changes.event;
  /** Fires once per question with how it ended (for history). */
  readonly onDidAnswer = this.answers.event;
  private readonly fileRefusals = new Emitter<ElicitRequest>();
  /** Fires when a question is refused because it asks for a file and file fields are off for its asker. */
  readonly onDidRefuseFiles = this.fileRefusals.event;
  /** The editor's prompts a paired device may answer too (permission requests), ids shared with questions. */
  readonly prompts = new OpenPrompts(() => this.nextId++);

  constructor(
    private readonly renderer: Renderer,
    private readonly options: BrokerOptions,
  ) {
    this.prompts.onDidChange(() => this.changed());
  }

  /** Questions not yet answered, oldest first. */
  pending(): Question[] {
    return [...this.entries.values()].map((e) => e.question);
  }

  /**
   * Ask a person. Resolves with accept / decline / cancel; rejects with
   * InvalidRequestError for a request that cannot be drawn or exceeds a limit.
   */
  async ask(request: ElicitRequest): Promise<ElicitResult> {
    // The limit first: a request refused costs no reading.
    this.checkLimit(request);
    const turn = this.options.readingLane?.take();
    if (turn) {
      // Others were read in this turn: this one waits for a turn of its own, and counts again.
      await turn;
      this.checkLimit(request);
    }
    const form = formOf(request);
    if (form && hasFileField(form) && !(this.options.acceptsFiles?.(request) ?? false)) {
      this.fileRefusals.fire(request);
      throw new InvalidRequestError(fileFieldsRefused(request));
    }
    const url = request.mode === 'url' ? checkedUrl(request.url) : undefined;
    if (request.signal?.aborted) return CANCELLED;

    const question: Question = {
      id: this.nextId++,
      request,
      form,
      url,
      presentation: form ? choosePresentation(form, this.options.presentation(), presentationContext(request, form)) : 'url',
      receivedAt: Date.now(),
      state: 'waiting',
    };
    const automatic = this.fromMemory(question);
    if (automatic) return automatic;
    const entry: Entry = { question };
    const closer = new AbortController();
    // Made when the timer fires: an Error per question costs its stack trace, and nearly all are answered in time.
    let timedOut: Error | undefined;
    const timeout = setTimeout(() => closer.abort((timedOut = new Error('timeout'))), timerDelay(this.options.timeoutMs()));
    const onAbort = (): void => closer.abort(request.signal?.reason ?? new Error('aborted'));
    request.signal?.addEventListener('abort', onAbort, { once: true });
    // Its row and its UI say so when its turn ends.
    const turnEnded = request.mode === 'form' ? request.nonBlocking?.turnEnded : undefined;
    const onTurnEnded = (): void => this.changed();
    turnEnded?.addEventListener('abort', onTurnEnded, { once: true });
    this.entries.set(question.id, entry);
    this.changed();
    let result: ElicitResult = CANCELLED;
    let reason: AnsweredQuestion['reason'];
    try {
      result = await this.settle(entry, closer.signal);
      if (closer.signal.aborted) reason = timedOut !== undefined && closer.signal.reason === timedOut ? 'timeout' : 'aborted';
      if (form && result.action === 'accept') {
        result = this.finishAnswer(form, result);
        if (question.remember) await this.options.memory?.remember(request, result.content ?? {}, question.remember, form);
      }
      return result;
    } catch (error) {
      reason = 'error';
      result = CANCELLED;
      throw error;
    } finally {
      clearTimeout(timeout);
      request.signal?.removeEventListener('abort', onAbort);
      turnEnded?.removeEventListener('abort', onTurnEnded);
      this.entries.delete(question.id);
      // A question taken back to be asked again with others was never really asked.
      if (request.signal?.reason !== WITHDRAWN) {
        const answered: AnsweredQuestion = { question, result, answeredAt: Date.now(), reason };
        if (entry.answeredOn !== undefined && !reason) answered.device = entry.answeredOn;
        this.answers.fire(answered);
      }
      this.changed();
    }
  }

  /**
   * A question remembered whole is answered at once, without any UI, and told
   * to onDidAnswer as automatic; otherwise what memory knows of it is filled in
   * and the person is offered to have it remembered.
   */
  private fromMemory(question: Question): ElicitResult | undefined {
    const memory = this.options.memory;
    const { request, form } = question;
    if (!memory) return undefined;
    const rule = memory.declineRule(request, form);
    if (rule) {
      const result: ElicitResult = { action: 'decline' };
      this.answers.fire({ question, result, answeredAt: Date.now(), rule });
      this.changed();
      return result;
    }
    if (!form) return undefined;
    const recalled = memory.recall(request, form);
    if (recalled?.kind === 'answer') {
      try {
        const result = this.finishAnswer(form, { action: 'accept', content: recalled.content });
        this.answers.fire({ question, result, answeredAt: Date.now(), automatic: recalled.used });
        this.changed();
        return result;
      } catch {
        // The request as a whole refuses it (a grouped form's own limits): asked, with it filled in.
      }
    }
    if (recalled) question.prefill = recalled.content;
    const offer = memory.offer(request, form);
    if (offer) question.rememberOffer = offer;
    return undefined;
  }

  /** Puts a waiting or showing question off: its UI closes, it stays pending. */
  later(id: number): void {
    const entry = this.entries.get(id);
    if (entry && entry.question.state !== 'later') entry.attempt?.abort(DEFER);
  }

  /** Shows a question the person put off (next in line for the quick input). */
  resume(id: number): void {
    this.entries.get(id)?.wake?.('resume');
  }

  /** Declines a question without showing it (from the pending list). */
  decline(id: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    if (entry.wake) entry.wake('decline');
    else entry.attempt?.abort(DECLINE);
  }

  /**
   * Closes a question without an answer (cancel): what Dismiss does for a
   * non-blocking question whose turn has ended, whose asker would drop any answer.
   */
  dismiss(id: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    if (entry.wake) entry.wake('dismiss');
    else entry.attempt?.abort(DISMISS);
  }

  /**
   * Another Elicit window's answer to this window's question,
   * checked here as the person's own answer would be: a question with a secret
   * field, a URL, Elicit's own prompt or a question whose turn has ended is
   * answered only here, and content that breaks the form is refused. Returns
   * why it is refused; otherwise the question ends with the answer. `device`:
   * the paired device it came from, named in its history.
   */
  answerFromElsewhere(id: number, answer: ElicitResult, device?: string): string | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.elsewhere) return 'This question is no longer waiting.';
    const { form, request } = entry.question;
    if (!form || answeredOnlyHere(form) || asksOnBehalf(request) || turnHasEnded(request) || request.signal?.aborted) {
      return 'This question can only be answered in the window that asked it.';
    }
    let result: ElicitResult;
    if (answer.action === 'decline') result = DECLINED;
    else if (answer.action === 'accept') {
      // The one check of an outside answer (outsideAnswer.ts): counted before it is checked.
      const read = readOutsideAnswer(form, answer.content ?? {});
      if (read.ok) result = { action: 'accept', content: read.content };
      else if ('tooCostly' in read) return 'The answer is too long to check here: answer it in the window that asked.';
      else if ('malformed' in read) return 'The answer was refused: it is not a set of field values.';
      else
        return `The answer was refused: ${Object.entries(read.errors)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ')}`;
    } else return 'Only an answer or a decline can come from another window.';
    entry.elsewhere = result;
    if (device !== undefined) entry.answeredOn = device;
    if (entry.wake) entry.wake('elsewhere');
    else entry.attempt?.abort(ELSEWHERE);
    return undefined;
  }

  /**
   * Runs a native prompt that is not an elicitation (an ACP permission request,
   * say) in the same one-at-a-time queue, so it never hides another quick input.
   * Resolves with `onAbort` if `signal` aborts while it waits or shows.
   */
  exclusive<T>(task: (signal: AbortSignal) => Promise<T>, signal: AbortSignal, onAbort: T): Promise<T> {
    return this.inNativeTurn(task, signal, onAbort, false, true);
  }

  /** Shows the question until it is answered; "Later" parks it until resumed or declined. */
  private async settle(entry: Entry, closer: AbortSignal): Promise<ElicitResult> {
    // Next in line: a question the person asked for, or brought back from Later.
    let atFront = entry.question.request.nextInLine === true;
    for (;;) {
      if (closer.aborted) return CANCELLED;
      if (entry.elsewhere) return entry.elsewhere;
      const attempt = new AbortController();
      entry.attempt = attempt;
      // The attempt ends with the question too, so it is the one signal the renderer needs.
      const endAttempt = (): void => attempt.abort(closer.reason);
      closer.addEventListener('abort', endAttempt, { once: true });
      let outcome: RenderOutcome;
      try {
        outcome = await this.show(entry.question, attempt.signal, atFront);
      } finally {
        closer.removeEventListener('abort', endAttempt);
      }
      entry.attempt = undefined;
      if (closer.aborted) return CANCELLED;
      if (attempt.signal.reason === DECLINE) return DECLINED;
      if (attempt.signal.reason === DISMISS) return CANCELLED;
      if (entry.elsewhere) return entry.elsewhere;
      if (attempt.signal.reason === YIELD) continue; // in line again, behind the prompt it made way for
      if (outcome.action !== 'later' && attempt.signal.reason !== DEFER) return outcome;
      const next = await this.parkUntilWoken(entry, closer);
      if (next === 'decline') return DECLINED;
      if (next === 'dismiss') return CANCELLED;
      if (next === 'closed') return CANCELLED;
      if (next === 'elsewhere') return entry.elsewhere ?? CANCELLED;
      atFront = true;
    }
  }

  private parkUntilWoken(entry: Entry, closer: AbortSignal): Promise<'resume' | 'decline' | 'dismiss' | 'elsewhere' | 'closed'> {
    entry.question.state = 'later';
    this.changed();
    return new Promise((resolve) => {
      const onClose = (): void => finish('closed');
      const finish = (next: 'resume' | 'decline' | 'dismiss' | 'elsewhere' | 'closed'): void => {
        entry.wake = undefined;
        closer.removeEventListener('abort', onClose);
        entry.question.state = 'waiting';
        this.changed();
        resolve(next);
      };
      entry.wake = finish;
      if (closer.aborted) return finish('closed');
      closer.addEventListener('abort', onClose, { once: true });
    });
  }

  private checkLimit(request: ElicitRequest): void {
    const limit = this.options.maxPendingPerAsker();
    // A question its asker has given up on is closing: it no longer counts.
    const mine = this.pending().filter((q) => sameLimit(q.request.asker, request.asker) && !q.request.signal?.aborted).length;
    if (mine >= limit) {
      throw new InvalidRequestError(
        `Too many open questions from ${request.asker.name}: ${mine} are waiting for an answer (limit ${limit})`,
      );
    }
  }

  private show(question: Question, signal: AbortSignal, atFront: boolean): Promise<RenderOutcome> {
    if (question.presentation === 'form') return this.renderNow(question, signal);
    const entry = this.entries.get(question.id);
    return this.inNativeTurn(
      async (turn) => {
        this.nativeShowing = entry;
        try {
          return await this.renderNow(question, turn);
        } finally {
          if (this.nativeShowing === entry) this.nativeShowing = undefined;
        }
      },
      signal,
      CANCELLED as RenderOutcome,
      atFront,
      !isNonBlocking(question.request),
    );
  }

  /** `urgent`: its asker waits on it, so a non-blocking question on screen makes way (put off, to Pending Questions). */
  private inNativeTurn<T>(
    task: (signal: AbortSignal) => Promise<T>,
    signal: AbortSignal,
    onAbort: T,
    atFront: boolean,
    urgent: boolean,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const done = (): void => {
        settled = true;
        signal.removeEventListener('abort', aborted);
      };
      const job: NativeJob = {
        run: () => {
          if (settled) return this.nextNative();
          if (signal.aborted) {
            done();
            resolve(onAbort);
            return this.nextNative();
          }
          task(signal)
            .then(
              (value) => resolve(signal.aborted ? onAbort : value),
              (error: unknown) => reject(error),
            )
            .finally(() => {
              done();
              this.nextNative();
            });
        },
        abandon: () => {
          done();
          resolve(onAbort);
        },
      };
      // Aborted while waiting in line: leave the line and answer at once.
      const aborted = (): void => {
        const index = this.nativeQueue.indexOf(job);
        if (index >= 0) {
          this.nativeQueue.splice(index, 1);
          job.abandon();
        }
      };
      signal.addEventListener('abort', aborted, { once: true });
      // A question the person resumed or asked for goes next; everything else in arrival order.
      if (atFront) this.nativeQueue.unshift(job);
      else this.nativeQueue.push(job);
      const showing = this.nativeShowing;
      if (urgent && showing && isNonBlocking(showing.question.request)) showing.attempt?.abort(YIELD);
      this.pumpNative();
    });
  }

  private pumpNative(): void {
    if (this.nativeBusy) return;
    const job = this.nativeQueue.shift();
    if (!job) return;
    this.nativeBusy = true;
    job.run();
  }

  private nextNative(): void {
    this.nativeBusy = false;
    this.pumpNative();
  }

  private async renderNow(question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    if (signal.aborted) return CANCELLED;
    question.state = 'showing';
    this.changed();
    try {
      const rendered = this.renderer.render(question, signal);
      if (question.form) preloadAjvChecks();
      return await rendered;
    } finally {
      if (question.state === 'showing') question.state = 'waiting';
    }
  }

  private finishAnswer(form: FormModel, result: ElicitResult): ElicitResult {
    const content = completeAnswer(form, result.content ?? {});
    const errors = ajvChecks().validateAnswer(form, content);
    const problems = Object.entries(errors);
    if (problems.length > 0) {
      // Renderers validate live, so this is a defect: never send an answer that breaks the schema.
      throw new Error(`Answer rejected before sending: ${problems.map(([k, v]) => `${k}: ${v}`).join('; ')}`);
    }
    return { action: 'accept', content };
  }

  private changed(): void {
    this.changes.fire();
  }
}

/** What the asker is told when its question asks for a file that is not taken. */
export function fileFieldsRefused(request: ElicitRequest): string {
  if (request.asker.kind !== 'mcp') return 'This question asks for a file (x-mcp-file): Elicit takes files only for MCP servers';
  return (
    'This question asks for a file (x-mcp-file), and file fields are off in Elicit: they follow a draft ' +
    '(SEP-2631) and are answered only with the setting elicit.experimental.fileFields on, which also declares the fileInputs capability'
  );
}

function isNonBlocking(request: ElicitRequest): boolean {
  return request.mode === 'form' && request.nonBlocking !== undefined;
}

/** Questions counted against the same per-asker limit. */
function sameLimit(a: ElicitRequest['asker'], b: ElicitRequest['asker']): boolean {
  if (a.limitGroup !== undefined || b.limitGroup !== undefined) return a.limitGroup === b.limitGroup;
  return a.kind === b.kind && a.name === b.name;
}

/** A later round lists the earlier answers (request.ts, EarlierAnswer): it stays a form. So does a question with its asker's app. */
function presentationContext(request: ElicitRequest, form: FormModel): PresentationContext {
  const followUp = request.mode === 'group' && (request.earlier?.length ?? 0) > 0;
  return { followUp, app: showsApp(request, form) };
}

/**
 * Whether the asker's own app is shown for this question: one it names, never for a
 * question with a secret field (always answered in Elicit's own form, SEP-3118's advice).
 */
export function showsApp(request: ElicitRequest, form: FormModel): boolean {
  return request.mode !== 'url' && request.app !== undefined && !hasSecret(form) && !hasFileField(form);
}

function formOf(request: ElicitRequest): FormModel | undefined {
  if (request.mode === 'form') return normalize(request.requestedSchema);
  if (request.mode === 'group') return composeGroup(request.sections);
  return undefined;
}

function checkedUrl(raw: unknown): UrlReview {
  const verdict = reviewUrl(String(raw));
  if (!verdict.ok) throw new InvalidRequestError(`Refused to open the URL: ${verdict.reason}`);
  return verdict.review;
}
