/**
 * An agent's choice question and the free-text field it sends beside it, asked
 * as ONE question with Elicit's own "Other…" answer instead of two unrelated
 * fields. Only the exact shapes today's agents send are recognised (names and
 * `_meta` both), so an ordinary server's fields are never merged:
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
 *
 * The answer stays keyed by the agent's own field names, so both checks (the
 * webview's and the host's ajv), drafts and groups work on it unchanged.
 */
import type { ChoiceField, Field, FormModel, MultiChoiceField, TextField } from './fields';
import type { ElicitContent } from '../request';

/** The option codex adds to a question that takes an own answer. */
export const CODEX_OTHER_OPTION = 'None of the above';
/** What a choice widget holds while "Other…" is chosen; never sent (a NUL cannot be typed into a form). */
export const OTHER_CHOICE = '\u0000elicit:other';
/** What a person reads when "Other…" is chosen and nothing is typed. */
export const OTHER_TEXT_MISSING = 'Type your answer, or choose one of the options';

type Json = Record<string, unknown>;

/** Marks each recognised pair in place: the choice gets `other`, its text field `otherOf`. */
export function pairOtherAnswers(fields: Field[], properties: Json): void {
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const text of fields) {
    if (text.kind !== 'text' || !isPlainOptionalText(text)) continue;
    const pair = codexPair(text, properties, byName) ?? claudePair(text, byName);
    if (!pair || pair.owner.other !== undefined) continue;
    if (pair.owner.options.some((o) => o.value === OTHER_CHOICE)) continue;
    pair.owner.other = pair.option === undefined ? { text: text.name } : { text: text.name, option: pair.option };
    text.otherOf = pair.owner.name;
  }
}

interface Pair {
  owner: ChoiceField | MultiChoiceField;
  option?: string;
}

function codexPair(text: TextField, properties: Json, byName: Map<string, Field>): Pair | undefined {
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

function claudePair(text: TextField, byName: Map<string, Field>): Pair | undefined {
  const match = /^(question_\d+)_custom$/.exec(text.name);
  if (!match || text.label !== 'Other') return undefined;
  const owner = byName.get(match[1]!);
  if (owner?.kind !== 'choice' && owner?.kind !== 'multiChoice') return undefined;
  return { owner };
}

/** A companion is free text and optional on its own: anything stricter is a question of its own. */
function isPlainOptionalText(field: TextField): boolean {
  return (
    !field.required &&
    field.format === undefined &&
    field.pattern === undefined &&
    (field.minLength ?? 0) === 0 &&
    field.default === undefined &&
    field.otherOf === undefined
  );
}

/** `_meta.codex` of a property, when it has one. */
export function codexMeta(property: unknown): Json | undefined {
  if (!isObject(property) || !isObject(property._meta)) return undefined;
  const codex = property._meta.codex;
  return isObject(codex) ? codex : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields a person answers as questions: a companion text is part of its choice's question. */
export function questionFields(form: FormModel): Field[] {
  return form.fields.filter((f) => !(f.kind === 'text' && f.otherOf !== undefined));
}

/** The text field of a choice's "Other…" answer. */
export function otherTextField(form: FormModel, field: Field): TextField | undefined {
  if ((field.kind !== 'choice' && field.kind !== 'multiChoice') || !field.other) return undefined;
  const text = form.fields.find((f) => f.name === field.other!.text);
  return text?.kind === 'text' ? text : undefined;
}

/** The choice field a companion text belongs to. */
export function otherOwner(form: FormModel, field: Field): ChoiceField | MultiChoiceField | undefined {
  if (field.kind !== 'text' || field.otherOf === undefined) return undefined;
  const owner = form.fields.find((f) => f.name === field.otherOf);
  return owner?.kind === 'choice' || owner?.kind === 'multiChoice' ? owner : undefined;
}

/** Whether a choice widget's raw value has "Other…" chosen. */
export function isOtherChosen(field: Field, raw: unknown): boolean {
  if (field.kind === 'choice') return field.other !== undefined && raw === OTHER_CHOICE;
  if (field.kind === 'multiChoice') return field.other !== undefined && Array.isArray(raw) && raw.includes(OTHER_CHOICE);
  return false;
}

/** The options a person is offered beside "Other…": codex's "None of the above" is what Other… sends. */
export function listedOptions(field: ChoiceField | MultiChoiceField): ChoiceField['options'] {
  const hidden = field.other?.option;
  return hidden === undefined ? field.options : field.options.filter((o) => o.value !== hidden);
}

/**
 * The host's check of the pair in an answer: "None of the above" sent without
 * the text that explains it is no answer to the agent.
 */
export function otherAnswerProblems(form: FormModel, content: ElicitContent): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of form.fields) {
    if (field.kind !== 'choice' || field.other?.option === undefined) continue;
    if (!Object.hasOwn(content, field.name) || content[field.name] !== field.other.option) continue;
    const text = Object.hasOwn(content, field.other.text) ? content[field.other.text] : undefined;
    if (typeof text !== 'string' || text.trim() === '') problems[field.other.text] = OTHER_TEXT_MISSING;
  }
  return problems;
}

/** Names recomposed when a form is put into a group (group.ts). */
export function renamePair(field: Field, rename: (name: string) => string): Field {
  if ((field.kind === 'choice' || field.kind === 'multiChoice') && field.other) {
    return { ...field, other: { ...field.other, text: rename(field.other.text) } };
  }
  if (field.kind === 'text' && field.otherOf !== undefined) return { ...field, otherOf: rename(field.otherOf) };
  return field;
}
