/**
 * What a permission request is for, as the agent says it: the command it wants
 * to run (from the tool call's `rawInput`, where codex-acp and claude-agent-acp
 * put it) and what each "allow always" option covers, in the option's own
 * words ("Yes, and don't ask again for commands that start with `touch x`").
 * Elicit never words the scope itself: only the agent knows what it will
 * remember. Plain text, untrusted: shown through inertText / as text only.
 */
import { isObject } from '../core/json';

/** The longest command shown; the rest is cut with an ellipsis. */
const MAX_COMMAND = 2000;

/** `rawInput.command` as one line of text: a string, or an argv array joined by spaces. */
export function commandOf(rawInput: unknown): string | undefined {
  if (!isObject(rawInput)) return undefined;
  const command = rawInput.command;
  const text =
    typeof command === 'string'
      ? command
      : Array.isArray(command) && command.length > 0 && command.every((part) => typeof part === 'string')
        ? command.join(' ')
        : undefined;
  if (text === undefined || text.trim() === '') return undefined;
  return text.length > MAX_COMMAND ? `${text.slice(0, MAX_COMMAND - 1)}…` : text;
}

/** The names of the options that allow from now on (kind `allow_always`), as the agent wrote them. */
export function alwaysCovers(options: ReadonlyArray<{ name: string; kind: string }>): string[] {
  return options.filter((o) => o.kind === 'allow_always').map((o) => o.name);
}
