/**
 * A request that failed with -32042 (URLElicitationRequiredError) carries the
 * URL-mode elicitations that must happen first. Each goes through the normal
 * consent flow; once every one was accepted, the caller retries the request
 * when the server reports them complete (`notifications/elicitation/complete`)
 * — or when the person says they are done, since the spec does not promise the
 * notification: a short question, closed by itself when completion arrives.
 */
import type { Disposable } from '../core/events';
import type { Asker, ElicitRequest, ElicitResult, UrlRequest } from '../core/request';
import { joinSignals } from '../core/joinSignals';

export type AskFunction = (request: ElicitRequest) => Promise<ElicitResult>;

export interface UrlElicitationRequiredOptions {
  ask: AskFunction;
  /** Who asks: the server, naming the tool call. */
  asker: Asker;
  /** What would be retried, for the person ("get_forecast"). */
  what: string;
  /** Subscribes to the server's `notifications/elicitation/complete` ids. */
  onDidComplete: (listener: (elicitationId: string) => void) => Disposable;
  signal?: AbortSignal;
  /** How long completion may take before the person is asked whether to retry. */
  graceMs?: number;
}

/** Thrown when the person did not go through with it: the request is not retried. */
export class UrlElicitationNotCompleted extends Error {
  override readonly name = 'UrlElicitationNotCompleted';
}

type UrlElicitation = Pick<UrlRequest, 'message' | 'url'> & { elicitationId: string };

/** Resolves when the request may be retried; throws UrlElicitationNotCompleted otherwise. */
export async function satisfyUrlElicitations(errorData: unknown, options: UrlElicitationRequiredOptions): Promise<void> {
  const elicitations = readElicitations(errorData);
  const completed = new Set<string>();
  const allDone = new AbortController();
  const ids = elicitations.map((e) => e.elicitationId);
  const subscription = options.onDidComplete((id) => {
    completed.add(id);
    if (ids.every((each) => completed.has(each))) allDone.abort();
  });
  try {
    for (const elicitation of elicitations) {
      const result = await options.ask({ mode: 'url', asker: options.asker, ...elicitation, signal: options.signal });
      if (result.action !== 'accept') {
        throw new UrlElicitationNotCompleted(
          `${options.what} needs a step in your browser first (${hostOf(elicitation.url)}), which was ${result.action === 'decline' ? 'declined' : 'cancelled'}`,
        );
      }
    }
    if (allDone.signal.aborted || (await settlesWithin(allDone.signal, options.graceMs ?? 1500, options.signal))) return;
    if (options.signal?.aborted) throw new UrlElicitationNotCompleted(`${options.what} was cancelled`);
    const hosts = [...new Set(elicitations.map((e) => hostOf(e.url)))].join(', ');
    const waiting = joinSignals([allDone.signal, options.signal]);
    const ready = await options
      .ask({
        mode: 'form',
        asker: options.asker,
        message: `Finish in your browser (${hosts}), then choose Submit to run ${options.what} again. Elicit retries by itself as soon as the server reports it is done.`,
        requestedSchema: { type: 'object', properties: {} },
        signal: waiting.signal,
      })
      .finally(waiting.dispose);
    if (allDone.signal.aborted || ready.action === 'accept') return;
    throw new UrlElicitationNotCompleted(`${options.what} was not run again: you chose ${ready.action} while waiting for ${hosts}`);
  } finally {
    subscription.dispose();
  }
}

function readElicitations(data: unknown): UrlElicitation[] {
  const list = (data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list) || list.length === 0) throw new Error('the server asked for URL elicitations but sent none');
  return list.map((entry) => {
    const e = entry as Record<string, unknown>;
    if (typeof e !== 'object' || e === null || (e.mode !== undefined && e.mode !== 'url')) {
      throw new Error('the server asked for an elicitation that is not in URL mode');
    }
    if (typeof e.url !== 'string' || typeof e.elicitationId !== 'string' || e.elicitationId === '') {
      throw new Error('a URL elicitation needs a "url" and an "elicitationId"');
    }
    return {
      message: typeof e.message === 'string' ? e.message : 'Open this link to continue.',
      url: e.url,
      elicitationId: e.elicitationId,
    };
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** True when `done` aborts within `ms`; false on timeout or when `cancel` aborts. */
function settlesWithin(done: AbortSignal, ms: number, cancel?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (value: boolean): void => {
      clearTimeout(timer);
      done.removeEventListener('abort', onDone);
      cancel?.removeEventListener('abort', onCancel);
      resolve(value);
    };
    const onDone = (): void => finish(true);
    const onCancel = (): void => finish(false);
    const timer = setTimeout(() => finish(false), ms);
    done.addEventListener('abort', onDone, { once: true });
    cancel?.addEventListener('abort', onCancel, { once: true });
  });
}
