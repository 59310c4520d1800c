/**
 * MCP 2026-07-28 multi round-trip requests, client side. A `tools/call`,
 * `prompts/get` or `resources/read` may answer `input_required` with a map of
 * embedded requests and an opaque `requestState`; Elicit answers the whole
 * round at once — every form question in one grouped question, each link
 * through the URL consent, `roots/list` from the workspace folders without
 * asking — and retries the same request with `inputResponses` and the state
 * echoed byte for byte, round after round, up to a cap. The state is never
 * read, logged or shown.
 */
import { InvalidRequestError } from '../core/errors';
import { composeGroup, groupMessage, splitGroupAnswer, summarizeAnswers } from '../core/form/group';
import type { RawValues } from '../core/form/formState';
import type { Asker, EarlierAnswer, ElicitRequest, ElicitResult, GroupSection } from '../core/request';
import { delay } from '../core/time/delay';
import { contentLanguageIn } from '../core/language';
import type { AppRef } from '../core/apps/appQuestion';

/** Rounds one request may take before Elicit stops asking (the SDK's default cap too). */
export const MAX_ROUNDS = 10;
/** Embedded requests one round may carry. */
export const MAX_INPUT_REQUESTS = 50;
/** A round with nothing to ask (the server only hands back state) is retried after this pause. */
const STATE_ONLY_PAUSE_MS = 250;

export type RoundMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** One round waiting for the person: plain data, so it can outlive a window reload. */
export interface OpenRound {
  server: string;
  /**
   * The origin of the server that asked (serverOrigin.ts). A kept round is
   * answered only on a server of this origin: after a reload another server may
   * have the name, and the state, arguments and answers are not its to read.
   */
  origin: string;
  method: RoundMethod;
  /** The original request's params (without inputResponses / requestState). */
  params: Record<string, unknown>;
  inputRequests: Record<string, unknown>;
  /** Opaque to Elicit: kept and echoed exactly as the server sent it. */
  requestState?: string;
  /** 1 for the first round. */
  round: number;
  earlier: EarlierAnswer[];
  /** What the person had typed so far (never a secret), kept with the round. */
  draft?: RawValues;
  /**
   * A round of a task (the tasks extension, taskExtension.ts) rather than of a request: answered
   * with tasks/update, after which the task is followed on. `asked`: every key asked in the task's
   * life so far, this round's included.
   */
  task?: { taskId: string; asked: string[] };
  /** The language the server says the round's text is in (its contentLanguage), for the form's `lang`. */
  language?: string;
  /** Who the call is for when an agent made it ("claude, session 1a2b3c4d"), named again when it is answered after a reload. */
  caller?: string;
}

/** A round kept while the person answers it; its draft is saved under `id`. */
export interface KeptRound {
  id: string;
  release(): void;
}

/** Keeps open rounds somewhere that survives a reload (the extension's storage). */
export interface RoundKeeper {
  /** Undefined when the round is not kept (too large): it ends with the window, and the keeper has told the person. */
  keep(round: OpenRound): KeptRound | undefined;
}

export interface RoundContext {
  server: string;
  /** The server's origin, kept with each round (OpenRound.origin). */
  origin: string;
  asker: Asker;
  ask: (request: ElicitRequest) => Promise<ElicitResult>;
  /** The workspace folders as MCP roots; without it `roots/list` gets an empty list. */
  roots?: () => Array<{ uri: string; name?: string }>;
  signal?: AbortSignal;
  keeper?: RoundKeeper;
  /** Who the call is for (an agent's session), kept with each round. */
  caller?: string;
  maxRounds?: number;
  /** The server's own app for a question's params, when app questions are on (core/apps/appQuestion.ts). */
  appFor?: (params: Record<string, unknown>) => AppRef | undefined;
}

/**
 * The person opened a kept round: the first question of its flow goes next in line
 * (ElicitRequest.nextInLine), not behind every question that arrived since. Later ones wait their turn.
 */
export function firstNextInLine(context: RoundContext): RoundContext {
  let first = true;
  return {
    ...context,
    ask: (request) => {
      const asked = first ? { ...request, nextInLine: true as const } : request;
      first = false;
      return context.ask(asked);
    },
  };
}

/** One leg of the request: the original params plus this round's answers and state. */
export type Leg = (extra: { inputResponses?: Record<string, unknown>; requestState?: string }) => Promise<Record<string, unknown>>;

/** The person ended the flow (Cancel while waiting for a browser step): nothing is retried. */
export class FlowCancelled extends Error {
  override readonly name = 'FlowCancelled';
}

/** A kept round is the server's only if the server has the origin that asked it (an older record has none). */
export function isRoundOf(round: Pick<OpenRound, 'origin'>, origin: string): boolean {
  return typeof round.origin === 'string' && round.origin === origin;
}

/** A kept round offered to a server other than the one that asked it: nothing was sent. */
export class RoundOfAnotherServer extends Error {
  override readonly name = 'RoundOfAnotherServer';
}

/** What a request is about, for titles: "tool song_sketch", "prompt greeting", "resource notes://private". */
export function subjectOf(request: { method: RoundMethod; params: Record<string, unknown> }): string {
  if (request.method === 'resources/read') return `resource ${String(request.params.uri)}`;
  return `${request.method === 'tools/call' ? 'tool' : 'prompt'} ${String(request.params.name)}`;
}

export function isInputRequired(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { resultType?: unknown }).resultType === 'input_required';
}

/**
 * Runs rounds until the server gives a complete result. `first` is the answer to
 * the original request; `leg` sends it again with the answers.
 */
export async function completeRounds(
  first: Record<string, unknown>,
  leg: Leg,
  request: { method: RoundMethod; params: Record<string, unknown> },
  context: RoundContext,
  /** Where a resumed flow left off: its round number, what was answered, the draft of its open round. */
  resumed: { round: number; earlier: EarlierAnswer[]; draft?: RawValues } = { round: 0, earlier: [] },
): Promise<Record<string, unknown>> {
  const maxRounds = context.maxRounds ?? MAX_ROUNDS;
  let result = first;
  let round = resumed.round;
  const earlier = [...resumed.earlier];
  let draft = resumed.draft;
  while (isInputRequired(result)) {
    round++;
    if (round > maxRounds) {
      throw new Error(
        `${context.server} still asked for more input after ${maxRounds} rounds, so Elicit stopped (at most ${maxRounds} rounds per request)`,
      );
    }
    const inputRequests = readInputRequests(result, context.server);
    const requestState = typeof result.requestState === 'string' ? result.requestState : undefined;
    const language = roundLanguage(result._meta, inputRequests);
    const open: OpenRound = {
      server: context.server,
      origin: context.origin,
      ...request,
      inputRequests,
      round,
      earlier: [...earlier],
      ...(requestState !== undefined ? { requestState } : {}),
      ...(draft ? { draft } : {}),
      ...(language ? { language } : {}),
      ...(context.caller !== undefined ? { caller: context.caller } : {}),
    };
    draft = undefined;
    const kept = Object.keys(inputRequests).length > 0 ? context.keeper?.keep(open) : undefined;
    let responses: Record<string, unknown>;
    try {
      responses = await answerRound(open, context, earlier, kept?.id);
    } finally {
      kept?.release();
    }
    // The call was cancelled or the server stopped while the person answered: nothing is retried.
    if (context.signal?.aborted) throw context.signal.reason ?? new Error(`${context.server}: the request was cancelled`);
    if (Object.keys(inputRequests).length === 0) await delay(STATE_ONLY_PAUSE_MS, context.signal);
    result = await leg({
      ...(Object.keys(responses).length > 0 ? { inputResponses: responses } : {}),
      ...(requestState !== undefined ? { requestState } : {}),
    });
  }
  return result;
}

/**
 * Answers one round's embedded requests: form questions together, then links,
 * roots without asking. Appends what the person answered to `earlier`.
 */
export async function answerRound(
  round: OpenRound,
  context: RoundContext,
  earlier: EarlierAnswer[] = [],
  keptId?: string,
): Promise<Record<string, unknown>> {
  const forms: GroupSection[] = [];
  const apps = new Map<string, AppRef>();
  const links: Array<{ key: string; message: string; url: string }> = [];
  const responses: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(round.inputRequests)) {
    const { method, params } = readEntry(key, entry, context.server);
    if (method === 'roots/list') {
      responses[key] = { roots: context.roots?.() ?? [] };
    } else if (method === 'sampling/createMessage') {
      throw new Error(
        `${context.server} asked for a language-model reply (sampling/createMessage). Elicit offers no model and does not declare sampling, so this request cannot go on`,
      );
    } else if (method === 'elicitation/create') {
      const message = typeof params.message === 'string' ? params.message : '';
      const mode = params.mode ?? 'form';
      if (mode === 'url') {
        if (typeof params.url !== 'string') throw refused(context.server, key, 'a link question needs a "url" string');
        links.push({ key, message, url: params.url });
      } else if (mode === 'form') {
        forms.push({ key, message, requestedSchema: params.requestedSchema });
        const app = context.appFor?.(params);
        if (app) apps.set(key, app);
      } else {
        throw refused(context.server, key, `the question mode ${JSON.stringify(mode)} is not supported`);
      }
    } else {
      throw new Error(`${context.server} asked for "${method}", which is not an input request Elicit knows (question "${key}")`);
    }
  }

  if (forms.length > 0) {
    // A question's app is used when it is the round's only question: several are one form.
    const app = forms.length === 1 ? apps.get(forms[0]!.key) : undefined;
    const answer = await askForms(forms, round, context, keptId, app);
    const perSection = splitGroupAnswer(composeGroup(forms), answer);
    Object.assign(responses, perSection);
    earlier.push(...summarizeAnswers(composeGroup(forms), answer, groupMessage(forms)));
    if (answer.action !== 'accept') {
      // Declining or cancelling the questions answers the links the same way: nothing is opened.
      for (const link of links) responses[link.key] = { action: answer.action };
      return responses;
    }
  }
  if (links.length > 0) Object.assign(responses, await followLinks(links, context));
  return responses;
}

async function askForms(
  forms: GroupSection[],
  round: OpenRound,
  context: RoundContext,
  keptId: string | undefined,
  app: AppRef | undefined,
): Promise<ElicitResult> {
  try {
    return await context.ask({
      mode: 'group',
      asker: context.asker,
      message: groupMessage(forms),
      sections: forms,
      ...(round.earlier.length > 0 ? { earlier: round.earlier } : {}),
      ...(keptId !== undefined ? { keptRound: keptId } : {}),
      ...(round.draft ? { draft: round.draft } : {}),
      ...(round.language ? { language: round.language } : {}),
      ...(app ? { app } : {}),
      signal: context.signal,
    });
  } catch (error) {
    if (error instanceof InvalidRequestError) throw new Error(`${context.server} sent a question Elicit cannot show: ${error.message}`);
    throw error;
  }
}

/** Each link through the consent dialog; then one "Done" step before the request is retried. */
async function followLinks(
  links: Array<{ key: string; message: string; url: string }>,
  context: RoundContext,
): Promise<Record<string, unknown>> {
  const responses: Record<string, unknown> = {};
  const opened: string[] = [];
  for (const link of links) {
    let result: ElicitResult;
    try {
      result = await context.ask({ mode: 'url', asker: context.asker, message: link.message, url: link.url, signal: context.signal });
    } catch (error) {
      if (error instanceof InvalidRequestError) throw new Error(`${context.server} sent a link Elicit will not open: ${error.message}`);
      throw error;
    }
    responses[link.key] = { action: result.action };
    if (result.action === 'accept') opened.push(hostOf(link.url));
  }
  if (opened.length === 0) return responses;
  const hosts = [...new Set(opened)].join(', ');
  const done = await context.ask({
    mode: 'form',
    asker: context.asker,
    message: `Finish in your browser (${hosts}), then choose Done: Elicit asks ${context.server} again.`,
    requestedSchema: { type: 'object', properties: {} },
    submitLabel: 'Done',
    signal: context.signal,
  });
  if (done.action !== 'accept') throw new FlowCancelled(`you cancelled while ${hosts} was open in your browser`);
  return responses;
}

function readInputRequests(result: Record<string, unknown>, server: string): Record<string, unknown> {
  const requests = result.inputRequests;
  if (requests === undefined) {
    if (typeof result.requestState !== 'string') throw new Error(`${server} asked for input but sent neither questions nor state`);
    return {};
  }
  return checkInputRequests(requests, server);
}

/** The language of a round: the result's contentLanguage, else the first its questions name. */
export function roundLanguage(meta: unknown, inputRequests: Record<string, unknown>): string | undefined {
  const own = contentLanguageIn(meta);
  if (own) return own;
  for (const entry of Object.values(inputRequests)) {
    const named = contentLanguageIn((entry as { params?: { _meta?: unknown } } | null)?.params?._meta);
    if (named) return named;
  }
  return undefined;
}

/** A round's input requests as sent: an object of at most MAX_INPUT_REQUESTS entries. */
export function checkInputRequests(requests: unknown, server: string): Record<string, unknown> {
  if (typeof requests !== 'object' || requests === null || Array.isArray(requests))
    throw new Error(`${server} sent input requests that are not an object`);
  const count = Object.keys(requests).length;
  if (count > MAX_INPUT_REQUESTS)
    throw new Error(`${server} sent ${count} input requests in one round; at most ${MAX_INPUT_REQUESTS} are answered`);
  return requests as Record<string, unknown>;
}

function readEntry(key: string, entry: unknown, server: string): { method: string; params: Record<string, unknown> } {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw refused(server, key, 'it is not a request object');
  const { method, params } = entry as { method?: unknown; params?: unknown };
  if (typeof method !== 'string') throw refused(server, key, 'it names no method');
  const readable = typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
  return { method, params: readable };
}

function refused(server: string, key: string, reason: string): Error {
  return new Error(`${server} sent a question Elicit cannot show: question "${key}": ${reason}`);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
