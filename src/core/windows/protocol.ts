/**
 * The messages Elicit windows of one user exchange: newline-delimited
 * JSON, each line capped in size and checked against its schema before it is
 * used. A peer is another process of the same user, but it is still treated as
 * untrusted input: a malformed or unknown message is refused, never trusted.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AskerKind, AnswerValue, EarlierAnswer, GroupSection } from '../request';
import type { EditorOnlyReason } from '../protocols/phoneProtocol';
import { isObject } from '../json';
import { isAnswerContent } from '../form/answerShape';

export const PROTOCOL = 'elicit-windows/1';
/** One message at most (a list of questions with their schemas). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Questions one window lists at most; the rest stay in their own window. */
export const MAX_LISTED = 100;
const MAX_TEXT = 64 * 1024;
const MAX_NAME = 1024;
/** Fields an answer carries at the most. */
const MAX_ANSWER_FIELDS = 1000;

export interface WindowInfo {
  /** Random per window, also its socket's name. */
  id: string;
  /** The folder name shown as "in <folder>". */
  folder: string;
}

/** What another window is told of a question: enough to list it and, when it may, to draw it. */
export interface QuestionSummary {
  id: number;
  asker: { kind: AskerKind; name: string; detail?: string };
  message: string;
  receivedAt: number;
  state: 'waiting' | 'showing' | 'later';
  /** Absent: the question is answered only in its own window (a secret field, a URL, Elicit's own prompt). */
  answerable?: RemoteForm;
  /**
   * Why a paired device may not answer it, by the asking window's rule (devicePolicy.ts); absent when it may.
   * That window checks it again when an answer comes from a device.
   */
  editorOnly?: EditorOnlyReason;
}

/** The asker's form as sent, for the other window to draw with its own renderers. */
export type RemoteForm =
  { mode: 'form'; requestedSchema: unknown; submitLabel?: string } | { mode: 'group'; sections: GroupSection[]; earlier?: EarlierAnswer[] };

/** What another window may answer: never cancel (closing its UI just leaves the question open). */
export type RemoteAnswer = { action: 'accept'; content: Record<string, AnswerValue> } | { action: 'decline' };

export type Message =
  | { type: 'challenge'; nonce: string }
  | { type: 'hello'; window: WindowInfo; nonce: string; proof: string }
  | { type: 'welcome'; window: WindowInfo; proof: string }
  | { type: 'questions'; questions: QuestionSummary[] }
  /** `device`: the paired device the person answered on, for the asking window's history. */
  | { type: 'answer'; requestId: number; questionId: number; answer: RemoteAnswer; device?: string }
  | { type: 'answered'; requestId: number; error?: string }
  | { type: 'ping' }
  | { type: 'pong' }
  | { type: 'error'; message: string };

export class ProtocolError extends Error {}

export function encode(message: Message): string {
  const line = JSON.stringify(message);
  if (Buffer.byteLength(line) > MAX_MESSAGE_BYTES) throw new ProtocolError('message too large');
  return `${line}\n`;
}

/** Splits a byte stream into lines; throws ProtocolError once a line passes the cap. */
export class LineReader {
  private buffered: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, i));
      lines.push(Buffer.concat(this.buffered).toString('utf8'));
      this.buffered = [];
      this.size = 0;
      start = i + 1;
    }
    this.append(chunk.subarray(start));
    return lines;
  }

  private append(part: Buffer): void {
    this.size += part.length;
    if (this.size > MAX_MESSAGE_BYTES) throw new ProtocolError('message too large');
    if (part.length > 0) this.buffered.push(part);
  }
}

/** Parses and checks one line; throws ProtocolError for anything that is not a well-formed message. */
export function decode(line: string): Message {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ProtocolError('not JSON');
  }
  if (!isObject(value)) throw new ProtocolError('not an object');
  switch (value.type) {
    case 'challenge':
      return { type: 'challenge', nonce: nonceOf(value.nonce) };
    case 'hello':
      return { type: 'hello', window: windowOf(value.window), nonce: nonceOf(value.nonce), proof: proofOf(value.proof) };
    case 'welcome':
      return { type: 'welcome', window: windowOf(value.window), proof: proofOf(value.proof) };
    case 'questions': {
      if (!Array.isArray(value.questions) || value.questions.length > MAX_LISTED) throw new ProtocolError('bad question list');
      return { type: 'questions', questions: value.questions.map(summaryOf) };
    }
    case 'answer': {
      const answer = {
        type: 'answer' as const,
        requestId: idOf(value.requestId),
        questionId: idOf(value.questionId),
        answer: answerOf(value.answer),
      };
      return value.device === undefined ? answer : { ...answer, device: text(value.device, MAX_NAME) };
    }
    case 'answered': {
      const error = value.error === undefined ? undefined : text(value.error, MAX_TEXT);
      return error === undefined
        ? { type: 'answered', requestId: idOf(value.requestId) }
        : { type: 'answered', requestId: idOf(value.requestId), error };
    }
    case 'ping':
    case 'pong':
      return { type: value.type };
    case 'error':
      return { type: 'error', message: text(value.message, MAX_TEXT) };
    default:
      throw new ProtocolError('unknown message type');
  }
}

function text(value: unknown, max: number): string {
  if (typeof value !== 'string' || value.length > max) throw new ProtocolError('bad text');
  return value;
}

function idOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new ProtocolError('bad id');
  return value;
}

const HEX = /^[0-9a-f]+$/;

function nonceOf(value: unknown): string {
  if (typeof value !== 'string' || value.length !== 64 || !HEX.test(value)) throw new ProtocolError('bad nonce');
  return value;
}

function proofOf(value: unknown): string {
  if (typeof value !== 'string' || value.length !== 64 || !HEX.test(value)) throw new ProtocolError('bad proof');
  return value;
}

/** Window ids name socket files: only hex, so a peer cannot name a path. */
export function isWindowId(value: unknown): value is string {
  return typeof value === 'string' && value.length === 16 && HEX.test(value);
}

function windowOf(value: unknown): WindowInfo {
  if (!isObject(value) || !isWindowId(value.id)) throw new ProtocolError('bad window');
  return { id: value.id, folder: text(value.folder, MAX_NAME) };
}

const ASKER_KINDS: readonly AskerKind[] = ['mcp', 'acp', 'tool', 'extension', 'gateway'];
const STATES: readonly QuestionSummary['state'][] = ['waiting', 'showing', 'later'];

const EDITOR_ONLY_REASONS: readonly EditorOnlyReason[] = ['secret', 'file', 'key', 'signIn', 'elicitOwn', 'prompt', 'window'];

function summaryOf(value: unknown): QuestionSummary {
  if (!isObject(value) || !isObject(value.asker)) throw new ProtocolError('bad question');
  const { asker } = value;
  if (!ASKER_KINDS.includes(asker.kind as AskerKind)) throw new ProtocolError('bad asker');
  if (!STATES.includes(value.state as QuestionSummary['state'])) throw new ProtocolError('bad state');
  const receivedAt = value.receivedAt;
  if (typeof receivedAt !== 'number' || !Number.isFinite(receivedAt)) throw new ProtocolError('bad time');
  const summary: QuestionSummary = {
    id: idOf(value.id),
    asker: { kind: asker.kind as AskerKind, name: text(asker.name, MAX_NAME) },
    message: text(value.message, MAX_TEXT),
    receivedAt,
    state: value.state as QuestionSummary['state'],
  };
  if (asker.detail !== undefined) summary.asker.detail = text(asker.detail, MAX_NAME);
  if (value.answerable !== undefined) summary.answerable = remoteFormOf(value.answerable);
  if (value.editorOnly !== undefined) {
    if (!EDITOR_ONLY_REASONS.includes(value.editorOnly as EditorOnlyReason)) throw new ProtocolError('bad device rule');
    summary.editorOnly = value.editorOnly as EditorOnlyReason;
  }
  return summary;
}

function remoteFormOf(value: unknown): RemoteForm {
  if (!isObject(value)) throw new ProtocolError('bad form');
  if (value.mode === 'form') {
    // The schema itself is checked by normalize() where it is drawn, as for any asker's.
    if (!isObject(value.requestedSchema)) throw new ProtocolError('bad schema');
    const form: RemoteForm = { mode: 'form', requestedSchema: value.requestedSchema };
    if (value.submitLabel !== undefined) form.submitLabel = text(value.submitLabel, MAX_NAME);
    return form;
  }
  if (value.mode === 'group') {
    if (!Array.isArray(value.sections) || value.sections.length === 0 || value.sections.length > 10)
      throw new ProtocolError('bad sections');
    const sections = value.sections.map((section: unknown): GroupSection => {
      if (!isObject(section) || !isObject(section.requestedSchema)) throw new ProtocolError('bad section');
      return { key: text(section.key, MAX_NAME), message: text(section.message, MAX_TEXT), requestedSchema: section.requestedSchema };
    });
    const form: RemoteForm = { mode: 'group', sections };
    if (value.earlier !== undefined) {
      if (!Array.isArray(value.earlier) || value.earlier.length > 50) throw new ProtocolError('bad earlier answers');
      form.earlier = value.earlier.map((earlier: unknown): EarlierAnswer => {
        if (!isObject(earlier) || !Array.isArray(earlier.lines) || earlier.lines.length > 100)
          throw new ProtocolError('bad earlier answer');
        return { message: text(earlier.message, MAX_TEXT), lines: earlier.lines.map((line: unknown) => text(line, MAX_TEXT)) };
      });
    }
    return form;
  }
  throw new ProtocolError('bad form mode');
}

function answerOf(value: unknown): RemoteAnswer {
  if (!isObject(value)) throw new ProtocolError('bad answer');
  if (value.action === 'decline') return { action: 'decline' };
  if (value.action !== 'accept') throw new ProtocolError('bad answer');
  // The one shape check of an outside answer (answerShape.ts), as the form page's and a phone's.
  const { content } = value;
  if (!isAnswerContent(content) || Object.keys(content).length > MAX_ANSWER_FIELDS) throw new ProtocolError('bad answer');
  return { action: 'accept', content };
}

export function newNonce(): string {
  return randomBytes(32).toString('hex');
}

export function newWindowId(): string {
  return randomBytes(8).toString('hex');
}

/**
 * Proofs of the shared key, each bound to both nonces and to the side and
 * window that makes it, so none can be replayed on another connection or
 * reflected back.
 */
export function proof(key: Buffer, side: 'client' | 'server', windowId: string, ownNonce: string, peerNonce: string): string {
  return createHmac('sha256', key).update(`${PROTOCOL}|${side}|${windowId}|${ownNonce}|${peerNonce}`).digest('hex');
}

export function sameProof(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A question waiting in another window, as the mesh lists it. */
export interface RemoteQuestion {
  window: WindowInfo;
  question: QuestionSummary;
}
