/**
 * The one request and result shape shared by every asker (MCP server, ACP agent,
 * language-model tool, other extensions) and every renderer.
 */

import type { AppRef } from './apps/appQuestion';

export type AskerKind = 'mcp' | 'acp' | 'tool' | 'extension' | 'gateway';

export interface Asker {
  kind: AskerKind;
  /** Shown to the person: "weather-server asks…". */
  name: string;
  /** What the asker is doing when it asks, e.g. "tool call get_forecast". */
  detail?: string;
  /**
   * Askers that name themselves (gateway clients) share one per-asker limit
   * under this key, so a client cannot pass the limit by changing its name.
   */
  limitGroup?: string;
  /** Where it is configured (see origin.ts): saved answers are offered only to the same origin. */
  origin?: string;
}

export type ElicitAction = 'accept' | 'decline' | 'cancel';

export type AnswerValue = string | number | boolean | string[];
export type ElicitContent = Record<string, AnswerValue>;

export interface ElicitResult {
  action: ElicitAction;
  /** Present only when action is "accept" in form mode. */
  content?: ElicitContent;
}

interface RequestBase {
  asker: Asker;
  message: string;
  /** Aborted by the asker (cancellation, disconnect): closes the UI and answers cancel. */
  signal?: AbortSignal;
  /**
   * When the asker goes on without the person's answer (epoch ms): its own timer
   * (codex's `autoResolutionMs`), shown as a countdown. The asker closes the
   * question itself then (through `signal`).
   */
  autoResolvesAt?: number;
  /** Elicit's own question (a configuration input, say): never answered from memory (core/memory). */
  noMemory?: true;
  /**
   * Elicit's own question that gives access: a sign-in, or a key or other
   * configuration input. Answered in the editor only, never on a paired device
   * (core/device/devicePolicy.ts).
   */
  editorOnly?: 'signIn' | 'key';
  /** The language the asker says its text is in (a BCP 47 tag, core/language.ts): the form's `lang`. */
  language?: string;
  /**
   * The person asked for it just now (a round kept across a reload, opened from Pending Questions):
   * it goes next in line for the quick input, as a question brought back from Later does, not
   * behind every question that arrived meanwhile.
   */
  nextInLine?: true;
  /**
   * The asker's own app for this form question (draft SEP-3118, core/apps/appQuestion.ts), read
   * from the server that asked: shown in place of Elicit's form, which stays one click away.
   */
  app?: AppRef;
}

export interface FormRequest extends RequestBase {
  mode: 'form';
  /** The schema exactly as the asker sent it; normalized by the broker. */
  requestedSchema: unknown;
  /** What the Submit button says, when Elicit itself asks (e.g. "Done" after a browser step). */
  submitLabel?: string;
  /**
   * Set when Elicit asks this itself, for the person, before a request goes out
   * (a tool's, prompt's or resource template's arguments): titled by what it is
   * for ("Run MCP Tool · song-sketch · write_lyrics"), never "<server> asks", and
   * with no Later or Decline, which would mean nothing to the server. Escape or
   * Cancel drops the request.
   */
  onBehalf?: { title: string };
  /**
   * The asker keeps working while the person answers (codex's non-blocking
   * questions): the question never holds the quick input against one the asker
   * waits on. `turnEnded` aborts when the asker's turn has ended and it will no
   * longer use an answer: the question stays open, marked so, and its Submit
   * becomes Dismiss (answered cancel).
   */
  nonBlocking?: { turnEnded: AbortSignal };
}

export interface UrlRequest extends RequestBase {
  mode: 'url';
  url: string;
  /**
   * MCP 2025-11-25 and ACP: the id a later completion notification names. MCP
   * 2026-07-28 has none: the person says when they are done, and the request
   * is retried.
   */
  elicitationId?: string;
}

/** One of several questions answered together (see GroupRequest). */
export interface GroupSection {
  /** The asker's own key for it: an `inputRequests` key, or a request id of a burst. */
  key: string;
  message: string;
  requestedSchema: unknown;
}

/** What was answered in earlier rounds of the same flow, shown for context (never secrets). */
export interface EarlierAnswer {
  message: string;
  /** "Name: Ada", one line per field; secret fields as "Token: (hidden)". */
  lines: string[];
}

/**
 * Several form questions from one asker shown and answered as one: a round of
 * an MCP 2026-07-28 multi round-trip request, or a burst of `elicitation/create`
 * requests that arrived together. Submit answers every section; Decline and
 * Cancel apply to all of them. The accepted content is keyed by the composed
 * field names; `splitGroupAnswer` (group.ts) gives each section its own.
 */
export interface GroupRequest extends RequestBase {
  mode: 'group';
  sections: GroupSection[];
  earlier?: EarlierAnswer[];
  /** Set when the question is kept across a window reload: the id its draft is saved under. */
  keptRound?: string;
  /** Widget values to start from: the draft of a question kept across a reload (never a secret). */
  draft?: RawValues;
}

export type ElicitRequest = FormRequest | UrlRequest | GroupRequest;

/** Elicit asks it for the person (see FormRequest.onBehalf): it cannot be put off or declined. */
export function asksOnBehalf(request: ElicitRequest): boolean {
  return request.mode === 'form' && request.onBehalf !== undefined;
}

/** A non-blocking question whose turn has ended: an answer would be dropped, so it can only be dismissed. */
export function turnHasEnded(request: ElicitRequest): boolean {
  return request.mode === 'form' && request.nonBlocking?.turnEnded.aborted === true;
}

export const CANCELLED: ElicitResult = Object.freeze({ action: 'cancel' });
/**
 * The abort reason of a question taken back by Elicit itself to be asked again
 * together with the questions that came right after it (burst.ts): it closes
 * without an answer and leaves no trace in the history.
 */
export const WITHDRAWN: Error = Object.freeze(new Error('withdrawn, to be asked with the questions that came with it'));
export const DECLINED: ElicitResult = Object.freeze({ action: 'decline' });

/**
 * What a widget holds: the text typed (text, number), the checkbox state
 * (boolean; null = an optional box nobody touched), the chosen value ('' =
 * none) or the chosen values (null = nobody touched an optional list); for a
 * question with an "Other…" answer, OTHER_CHOICE among them while it is chosen.
 */
export type RawValue = string | boolean | string[] | null;
export type RawValues = Record<string, RawValue>;
