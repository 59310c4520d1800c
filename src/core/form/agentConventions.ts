/**
 * How today's agents mark a choice question's free-text companion, in their exact shapes
 * (names and `_meta` both), so an ordinary server's fields are never merged. The form
 * model (otherAnswer.ts) knows only the pair; which fields make one is these agents' own
 * convention, kept here apart from it:
 *
 * - codex-acp (`request_user_input`, blocking, or `_meta.codex.delivery: "async"`):
 *   `<id>`, a string whose `oneOf` options include "None of the above", with
 *   `_meta.codex.isOther: true`; and `<id>_note`, a plain string with
 *   `_meta.codex.role: "user_note"` and `_meta.codex.questionId: "<id>"`.
 *   Other… sends `<id>: "None of the above"` and `<id>_note: <text>`.
 * - claude-agent-acp (`AskUserQuestion`): `question_<n>`, a string with `oneOf`
 *   or an array whose items are `anyOf`; and `question_<n>_custom`, an optional
 *   plain string titled "Other". Other… sends `question_<n>_custom: <text>`
 *   (beside a multi-select's ticked options in `question_<n>`).
 */
import type { ChoiceField, Field, MultiChoiceField, TextField } from './fields';
import { isObject } from '../json';

/** The option codex adds to a question that takes an own answer. */
export const CODEX_OTHER_OPTION = 'None of the above';

type Json = Record<string, unknown>;

/** A choice and, where the agent sends one with its own answer, the option that stands for it. */
export interface AgentPair {
  owner: ChoiceField | MultiChoiceField;
  option?: string;
}

/** The choice whose own answer `text` carries, in one of the agents' shapes (`properties`: the schema's, by name). */
export function agentPair(text: TextField, properties: Json, byName: ReadonlyMap<string, Field>): AgentPair | undefined {
  return codexPair(text, properties, byName) ?? claudePair(text, byName);
}

function codexPair(text: TextField, properties: Json, byName: ReadonlyMap<string, Field>): AgentPair | undefined {
  const meta = codexMeta(properties[text.name]);
  if (meta?.role !== 'user_note' || typeof meta.questionId !== 'string') return undefined;
  const id = meta.questionId;
  // codex names the note `<id>_note`, or `<id>_note<k>` when another question already has that id.
  if (!text.name.startsWith(`${id}_note`) || !/^\d*$/.test(text.name.slice(id.length + 5))) return undefined;
  const owner = byName.get(id);
  if (owner?.kind !== 'choice' || codexMeta(properties[id])?.isOther !== true) return undefined;
  if (!owner.options.some((o) => o.value === CODEX_OTHER_OPTION)) return undefined;
  return { owner, option: CODEX_OTHER_OPTION };
}

function claudePair(text: TextField, byName: ReadonlyMap<string, Field>): AgentPair | undefined {
  const match = /^(question_\d+)_custom$/.exec(text.name);
  if (!match || text.label !== 'Other') return undefined;
  const owner = byName.get(match[1]!);
  if (owner?.kind !== 'choice' && owner?.kind !== 'multiChoice') return undefined;
  return { owner };
}

/** `_meta.codex` of a property, when it has one. */
export function codexMeta(property: unknown): Json | undefined {
  if (!isObject(property) || !isObject(property._meta)) return undefined;
  const codex = property._meta.codex;
  return isObject(codex) ? codex : undefined;
}
