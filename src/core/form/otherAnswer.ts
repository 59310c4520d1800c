/**
 * A choice question and the free-text field sent beside it, asked as ONE
 * question with Elicit's own "Other…" answer instead of two unrelated fields.
 * A pair is named by Elicit's own annotation on the choice's property (so an
 * ordinary server's fields are never merged by their names alone):
 *
 *   `_meta["elicit/otherAnswer"]: { text: "<its text field>", option?: "<an option of the choice>" }`
 *
 * `option`, where given, is what "Other…" sends beside the text (and is not
 * listed beside it); without it the text alone is the answer. An asker may send
 * the annotation itself; the ACP side writes it for the agents' own
 * conventions (src/acp/agentConventions.ts). Here is what a pair is to the
 * form: one question, its "Other…" choice, the text it needs, and the answer.
 *
 * The answer stays keyed by the asker's own field names, so both checks (the
 * webview's and the host's ajv), drafts and groups work on it unchanged.
 */
import type { ChoiceField, Field, FormModel, MultiChoiceField, OtherAnswer, TextField } from './fields';
import type { ElicitContent } from '../request';
import { isObject } from '../json';

/** The `_meta` key of a choice's property that names its companion text (see above). */
export const OTHER_ANSWER_META = 'elicit/otherAnswer';
/** What a choice widget holds while "Other…" is chosen; never sent (a NUL cannot be typed into a form). */
export const OTHER_CHOICE = '\u0000elicit:other';
/** What a person reads when "Other…" is chosen and nothing is typed. */
export const OTHER_TEXT_MISSING = 'Type your answer, or choose one of the options';

type Json = Record<string, unknown>;

/** Marks each annotated pair in place: the choice gets `other`, its text field `otherOf`. */
export function pairOtherAnswers(fields: Field[], properties: Json): void {
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const owner of fields) {
    if (owner.kind !== 'choice' && owner.kind !== 'multiChoice') continue;
    const mark = otherAnswerMark(properties[owner.name]);
    if (!mark || owner.other !== undefined) continue;
    const text = byName.get(mark.text);
    if (text?.kind !== 'text' || !isPlainOptionalText(text)) continue;
    if (owner.options.some((o) => o.value === OTHER_CHOICE)) continue;
    // An option sent beside the text is one value: a single choice's, and one it offers.
    if (mark.option !== undefined && (owner.kind !== 'choice' || !owner.options.some((o) => o.value === mark.option))) continue;
    owner.other = mark;
    text.otherOf = owner.name;
  }
}

/** The annotation on a property, when it is well formed. */
function otherAnswerMark(property: unknown): OtherAnswer | undefined {
  if (!isObject(property) || !isObject(property._meta)) return undefined;
  const mark = property._meta[OTHER_ANSWER_META];
  if (!isObject(mark) || typeof mark.text !== 'string') return undefined;
  if (mark.option === undefined) return { text: mark.text };
  return typeof mark.option === 'string' ? { text: mark.text, option: mark.option } : undefined;
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

/** The options a person is offered beside "Other…": the option that stands for an own answer is what Other… sends. */
export function listedOptions(field: ChoiceField | MultiChoiceField): ChoiceField['options'] {
  const hidden = field.other?.option;
  return hidden === undefined ? field.options : field.options.filter((o) => o.value !== hidden);
}

/**
 * The host's check of the pair in an answer: the option that stands for an own
 * answer sent without the text that explains it is no answer to the asker.
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
