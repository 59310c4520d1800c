/**
 * Text from askers is untrusted: these helpers make it safe and short enough to
 * show in native widgets, which render plain text but still honour bidi
 * controls and line breaks.
 */
import type { Asker, ElicitRequest } from './request';

/** Bidi overrides/isolates and other invisible format characters that can disguise text. */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export function cleanText(text: string): string {
  // A replace costs about 40 ns a match: half a megabyte of alternating text took 20 ms.
  return text.length < LONG_TEXT ? text.replace(INVISIBLE, '') : cleanLongText(text);
}

const LONG_TEXT = 256;

/** The same characters as INVISIBLE, by code unit. */
export function isInvisible(c: number): boolean {
  if (c <= 0x1f) return c !== 0x09 && c !== 0x0a && c !== 0x0d;
  return (
    c === 0x7f ||
    c === 0x61c ||
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x2064) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0xfeff
  );
}

/** cleanText for long text: one pass over the code units, a few milliseconds a megabyte whatever it holds. */
function cleanLongText(text: string): string {
  let first = 0;
  while (first < text.length && !isInvisible(text.charCodeAt(first))) first++;
  if (first === text.length) return text;
  const kept = new Uint16Array(text.length);
  let count = 0;
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isInvisible(c)) kept[count++] = c;
  }
  let out = text.slice(0, first);
  // In pieces: fromCharCode takes its code units as arguments. Lone surrogates are kept as they were.
  for (let at = 0; at < count; at += 8192) {
    // apply, not a spread: spreading a typed array iterates it, four times slower here.
    out += String.fromCharCode.apply(null, kept.subarray(at, Math.min(count, at + 8192)) as unknown as number[]);
  }
  return out;
}

/** One line, cleaned, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 300): string {
  return clip(
    cleanText(text)
      .replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')
      .trim(),
    max,
  );
}

export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  // Never cut a surrogate pair (an emoji) in half.
  if (end > 0 && /[\ud800-\udbff]/.test(text[end - 1]!)) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** "weather-server asks · tool get_forecast" — who asks, in every UI. */
export function askerTitle(asker: Asker): string {
  const name = oneLine(asker.name, 80);
  const detail = asker.detail ? ` · ${oneLine(asker.detail, 80)}` : '';
  return inertText(`${name} asks${detail}`);
}

/**
 * The title of a question: who asks, or, for a question Elicit asks for the
 * person (a tool's arguments), what it is for.
 */
export function questionTitle(request: ElicitRequest): string {
  if (request.mode === 'form' && request.onBehalf) return inertText(oneLine(request.onBehalf.title, 160));
  return askerTitle(request.asker);
}

/**
 * Text from an asker (server, agent, gateway client, LM tool input, API caller)
 * or from a workspace file, made inert for VS Code's own UI. A quick input's
 * prompt and validation message, notifications and dialogs turn
 * `[label](command:…)` into a link that they open with commands allowed (one
 * click on `command:workbench.action.terminal.sendSequence?…` types into a
 * terminal), and titles, labels, descriptions and details draw `$(name)` as an
 * icon. A zero-width space after each `]` before `(` and each `$` before `(`
 * leaves the characters as they are but matches neither syntax. Invisible
 * characters are removed first, so none can rebuild it.
 */
export function inertText(text: string): string {
  return cleanText(text).replace(/\$\(/g, '$\u200b(').replace(/\]\(/g, ']\u200b(');
}

/** @deprecated the same as inertText, which also breaks links: call that. */
export const noIcons = inertText;

/**
 * What may follow each Markdown opener for the link to stay: a target written
 * literally as an http(s) or file URL (a definition's after spaces, either in
 * `<…>`). Sticky, to test in place without copying the rest of the text.
 */
const SAFE_TARGET = {
  '](': /<?(?:https?|file):\/\//iy,
  ']:': /[ \t]*<?(?:https?|file):\/\//iy,
  '<': /(?:https?|file):\/\//iy,
} as const;
/**
 * Where Markdown starts a link or raw HTML: an inline link's `](`, a reference
 * definition's `]:`, and `<` before an autolink or a tag (`<command:x>`,
 * `<a href=…>`, `<!-- -->`). Every link syntax needs one of these, written
 * literally, right before its target.
 */
const LINK_OPENER = /\]\(|\]:|<(?=[A-Za-z/!?])/g;

/**
 * Text for a result document (a tool, prompt or resource result, the question
 * history), which VS Code opens as Markdown: its editor follows links on
 * Ctrl/Cmd+click and its preview on a click, `command:` ones included. The same
 * rule as inertText, for Markdown: cleaned, and every link or tag broken by a
 * zero-width space unless its target is written literally as an http(s) or
 * file URL. Checking the literal text, not what it decodes to, is what keeps
 * `command&#58;x` or `command\:x` from passing. The editor's own link detection
 * finds only http(s):// and file:// in plain text, so those are all the links
 * left.
 */
export function inertMarkdown(text: string): string {
  const clean = cleanText(text);
  return clean.replace(LINK_OPENER, (opener: string, offset: number) => {
    const safe = SAFE_TARGET[opener as keyof typeof SAFE_TARGET];
    safe.lastIndex = offset + opener.length;
    return safe.test(clean) ? opener : `${opener[0]}\u200b${opener.slice(1)}`;
  });
}
