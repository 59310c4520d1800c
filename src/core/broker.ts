/**
 * The broker: every asker's question goes through here. It normalizes the
 * schema, applies the per-asker limit and the deadline, shows native quick
 * inputs one at a time in arrival order (VS Code has only one quick input),
 * lets webview forms open side by side, and checks every accepted answer before
 * it leaves.
 */
import { validateAnswer } from './answerValidator';
import { InvalidRequestError } from './errors';
import { Emitter } from './events';
import type { FormModel } from './fields';
import { normalize } from './normalize';
import { choosePresentation, type Presentation, type PresentationSetting } from './presentation';
import { CANCELLED, type ElicitRequest, type ElicitResult } from './request';
import { reviewUrl, type UrlReview } from './urlSafety';
import { completeAnswer } from './validate';

export interface Question {
  id: number;
  request: ElicitRequest;
  /** Present for form requests. */
  form?: FormModel;
  /** Present for URL requests: the checked URL, its host and warnings. */
  url?: UrlReview;
  /** How it is drawn; URL consent is a native prompt too. */
  presentation: Presentation | 'url';
  receivedAt: number;
  /** Set while a renderer shows it. */
  showing: boolean;
}

/** Draws a question and resolves with the person's answer; closes its UI when `signal` aborts. */
export interface Renderer {
  render(question: Question, signal: AbortSignal): Promise<ElicitResult>;
}

export interface BrokerOptions {
  timeoutMs: () => number;
  maxPendingPerAsker: () => number;
  presentation: () => PresentationSetting;
}

export class Broker {
  private nextId = 1;
  private readonly questions = new Map<number, Question>();
  private nativeTail: Promise<unknown> = Promise.resolve();
  private readonly changes = new Emitter<void>();
  /** Fires when a question arrives, starts showing or is answered. */
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly renderer: Renderer,
    private readonly options: BrokerOptions,
  ) {}

  /** Questions not yet answered, oldest first. */
  pending(): Question[] {
    return [...this.questions.values()];
  }

  /**
   * Ask a person. Resolves with accept / decline / cancel; rejects with
   * InvalidRequestError for a request that cannot be drawn or exceeds a limit.
   */
  async ask(request: ElicitRequest): Promise<ElicitResult> {
    const form = request.mode === 'form' ? normalize(request.requestedSchema) : undefined;
    const url = request.mode === 'url' ? checkedUrl(request.url, request.elicitationId) : undefined;
    this.checkLimit(request);
    if (request.signal?.aborted) return CANCELLED;

    const question: Question = {
      id: this.nextId++,
      request,
      form,
      url,
      presentation: form ? choosePresentation(form, this.options.presentation()) : 'url',
      receivedAt: Date.now(),
      showing: false,
    };
    const closer = new AbortController();
    const timeout = setTimeout(() => closer.abort(new Error('timeout')), this.options.timeoutMs());
    const onAbort = (): void => closer.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    this.questions.set(question.id, question);
    this.changed();
    try {
      const result = await this.show(question, closer.signal);
      return form && result.action === 'accept' ? this.finishAnswer(form, result) : result;
    } finally {
      clearTimeout(timeout);
      request.signal?.removeEventListener('abort', onAbort);
      this.questions.delete(question.id);
      this.changed();
    }
  }

  private checkLimit(request: ElicitRequest): void {
    const limit = this.options.maxPendingPerAsker();
    const mine = this.pending().filter(
      (q) => q.request.asker.kind === request.asker.kind && q.request.asker.name === request.asker.name,
    ).length;
    if (mine >= limit) {
      throw new InvalidRequestError(
        `Too many open questions from ${request.asker.name}: ${mine} are waiting for an answer (limit ${limit})`,
      );
    }
  }

  private show(question: Question, signal: AbortSignal): Promise<ElicitResult> {
    if (question.presentation === 'form') return this.renderNow(question, signal);
    return this.inNativeTurn((turnSignal) => this.renderNow(question, turnSignal), signal, CANCELLED);
  }

  /**
   * Runs a native prompt that is not an elicitation (an ACP permission request,
   * say) in the same one-at-a-time queue, so it never hides another quick input.
   * Resolves with `onAbort` if `signal` aborts while it waits or shows.
   */
  exclusive<T>(task: (signal: AbortSignal) => Promise<T>, signal: AbortSignal, onAbort: T): Promise<T> {
    return this.inNativeTurn(task, signal, onAbort);
  }

  private inNativeTurn<T>(task: (signal: AbortSignal) => Promise<T>, signal: AbortSignal, onAbort: T): Promise<T> {
    // Waits its turn; an abort while waiting resolves at once and the task never runs.
    const turn = this.nativeTail.then(() => (signal.aborted ? onAbort : task(signal)));
    this.nativeTail = turn.catch(() => undefined);
    return new Promise<T>((resolve, reject) => {
      const aborted = (): void => resolve(onAbort);
      signal.addEventListener('abort', aborted, { once: true });
      turn.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
    });
  }

  private async renderNow(question: Question, signal: AbortSignal): Promise<ElicitResult> {
    if (signal.aborted) return CANCELLED;
    question.showing = true;
    this.changed();
    const result = await this.renderer.render(question, signal);
    return signal.aborted ? CANCELLED : result;
  }

  private finishAnswer(form: FormModel, result: ElicitResult): ElicitResult {
    const content = completeAnswer(form, result.content ?? {});
    const errors = validateAnswer(form, content);
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

function checkedUrl(raw: unknown, elicitationId: unknown): UrlReview {
  if (typeof elicitationId !== 'string' || elicitationId === '') {
    throw new InvalidRequestError('A URL elicitation needs an elicitationId string');
  }
  const verdict = reviewUrl(String(raw));
  if (!verdict.ok) throw new InvalidRequestError(`Refused to open the URL: ${verdict.reason}`);
  return verdict.review;
}
