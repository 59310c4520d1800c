/**
 * Questions about the person's clipboard that an agent may ask through the
 * `elicit_ask_user` tool or the gateway's `ask_user`: copying text to the
 * clipboard (the person sees the text and approves before it is copied) and
 * reading the clipboard (the person sees what it holds and approves before its
 * text is returned). Nothing touches the clipboard without an approval; a
 * refusal is `decline` and closing the approval is `cancel`, never an error.
 * Pure: the clipboard and the approval prompt are passed in.
 */
import { oneLine } from '../display';
import { InvalidRequestError } from '../errors';
import type { Asker } from '../request';
import type { QuestionKind, ToolAnswer, ToolQuestion } from './questionTypes';

export type ClipboardKind = Extract<QuestionKind, 'clipboardWrite' | 'clipboardRead'>;

/** The most clipboard text returned to an agent (an approval shows SHOWN_CHARS of it). */
export const MAX_CLIPBOARD_CHARS = 100_000;
/** How much of the text an approval shows; the rest is counted. */
export const SHOWN_CHARS = 2000;
/** The most text an agent may have copied: all of it is shown, so what is pasted is what the person approved. */
export const MAX_COPY_CHARS = SHOWN_CHARS;

/** Refuses text to copy that the approval could not show whole. */
export function checkCopyText(text: string): void {
  if (text.length > MAX_COPY_CHARS) {
    throw new InvalidRequestError(
      `"text" to copy may be at most ${MAX_COPY_CHARS} characters (it has ${text.length}): the person sees all of it before it is copied`,
    );
  }
}
/** Characters that are invisible or reorder text: shown by their code, so nothing hides in the text. */
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export interface ClipboardApproval {
  kind: ClipboardKind;
  asker: Asker;
  /** The agent's question: why it wants this. */
  question: string;
  /** clipboardWrite: the text to copy; clipboardRead: what the clipboard holds now. */
  text: string;
}

export interface ClipboardAccess {
  /** The person's choice; `cancel` when the prompt is closed. */
  approve(approval: ClipboardApproval, signal?: AbortSignal): Promise<'accept' | 'decline' | 'cancel'>;
  readClipboard(): Promise<string>;
  writeClipboard(text: string): Promise<void>;
}

export function isClipboardKind(kind: QuestionKind): kind is ClipboardKind {
  return kind === 'clipboardWrite' || kind === 'clipboardRead';
}

export async function askClipboardQuestion(
  clipboard: ClipboardAccess,
  asker: Asker,
  q: ToolQuestion,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  const kind = q.kind as ClipboardKind;
  if (kind === 'clipboardWrite') {
    const text = q.text ?? '';
    checkCopyText(text);
    const choice = await clipboard.approve({ kind, asker, question: q.question, text }, signal);
    // An approval that arrives after the agent gave up changes nothing.
    if (signal?.aborted) return { action: 'cancel' };
    if (choice !== 'accept') return { action: choice };
    await clipboard.writeClipboard(text);
    return { action: 'accept', note: `Copied ${text.length} characters to the clipboard.` };
  }
  const held = (await clipboard.readClipboard()).slice(0, MAX_CLIPBOARD_CHARS);
  const choice = await clipboard.approve({ kind, asker, question: q.question, text: held }, signal);
  if (signal?.aborted) return { action: 'cancel' };
  if (choice !== 'accept') return { action: choice };
  // Exactly what the person saw and approved, even if the clipboard changed since.
  return { action: 'accept', answer: held };
}

/** The approval's words: who wants what, why, and the text itself with its lines and hidden characters shown. */
export function describeApproval(approval: ClipboardApproval): { message: string; detail: string } {
  const who = oneLine(approval.asker.name, 80);
  const copy = approval.kind === 'clipboardWrite';
  const message = copy ? `${who} wants to copy text to your clipboard` : `${who} wants to read your clipboard`;
  const { text } = approval;
  const why = oneLine(approval.question, 500);
  if (!copy && text === '') return { message, detail: `${why}\n\nYour clipboard holds no text.` };
  const count = `${text.length} character${text.length === 1 ? '' : 's'}`;
  const cut = text.length > SHOWN_CHARS ? `, the first ${SHOWN_CHARS} shown` : '';
  const head = copy ? `The text to copy (${count}${cut}):` : `Your clipboard holds (${count}${cut}), and this is what would be returned:`;
  return { message, detail: `${why}\n\n${head}\n${visible(text.slice(0, SHOWN_CHARS))}${cut ? '\n…' : ''}` };
}

function visible(text: string): string {
  return text.replace(HIDDEN, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
