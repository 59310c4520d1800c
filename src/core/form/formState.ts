/**
 * The form webview's state, kept pure so it is tested without a browser: what
 * each widget holds ("raw" values) ↔ answer values, the draft kept across a
 * webview reload (never with secrets), and long text cut for a first look.
 * The rules themselves are fieldRules.ts's, so webview and host agree.
 */
import type { Field, FileField, FormModel } from './fields';
import type { AnswerValue, ElicitContent, RawValue, RawValues } from '../request';

// The raw values are request types (a draft travels with a request); the form's modules import them from here too.
export type { RawValue, RawValues } from '../request';
import { checkField, parseTextInput, type FieldErrors } from './fieldRules';
import { isOtherChosen, OTHER_CHOICE, OTHER_TEXT_MISSING, otherOwner } from './otherAnswer';

/** The draft saved with the webview's setState. */
export interface FormDraft {
  questionId: number;
  values: RawValues;
}

/** Every field's default: what the form starts from. */
export function initialValues(form: FormModel): ElicitContent {
  const initial: ElicitContent = {};
  for (const field of form.fields) {
    if (field.default !== undefined) initial[field.name] = field.default;
  }
  return initial;
}

/** An answer value → what the widget shows. Values that do not fit the field are dropped. */
export function toRaw(field: Field, value: AnswerValue | undefined): RawValue {
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? value : '';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
    case 'boolean':
      // A required yes/no is answered by the box as it stands; an optional one only once touched.
      return typeof value === 'boolean' ? value : field.required ? false : null;
    case 'choice':
      // The option that stands for an own answer is what the "Other…" answer sends.
      if (field.other?.option !== undefined && value === field.other.option) return OTHER_CHOICE;
      return typeof value === 'string' && field.options.some((o) => o.value === value) ? value : '';
    case 'multiChoice': {
      if (!Array.isArray(value)) return null;
      const known = new Set(field.options.map((o) => o.value));
      return [...new Set(value.filter((v) => known.has(v) || (field.other !== undefined && v === OTHER_CHOICE)))];
    }
    case 'file':
      // What the page shows of the files the host holds (see FormView.files): never a value.
      return null;
  }
}

/** What a widget holds → the field's value (undefined = no answer), or why it is not one. */
export function fromRaw(field: Field, raw: RawValue | undefined): { value?: AnswerValue; error?: string } {
  switch (field.kind) {
    case 'text':
    case 'number':
      return typeof raw === 'string' ? parseTextInput(field, raw) : {};
    case 'boolean':
      if (typeof raw === 'boolean') return { value: raw };
      return field.required ? { value: false } : {};
    case 'choice':
      if (raw === OTHER_CHOICE && field.other) return field.other.option === undefined ? {} : { value: field.other.option };
      return typeof raw === 'string' && raw !== '' ? { value: raw } : {};
    case 'multiChoice': {
      if (!Array.isArray(raw)) return {};
      const picks = raw.filter((v) => v !== OTHER_CHOICE);
      // "Other…" alone: the typed text is the whole answer, as in the quick input.
      return picks.length === 0 && picks.length !== raw.length ? {} : { value: picks };
    }
    case 'file':
      // The files themselves never reach the page: the host adds them to the answer.
      return {};
  }
}

/**
 * A file field's problem on the page, from the names of the files chosen (the host holds
 * the files and checks them when they are picked and again when the answer is sent).
 */
export function fileChoiceProblem(field: FileField, raw: RawValue | undefined): string | undefined {
  const names = Array.isArray(raw) ? raw : [];
  // The field rules judge the names as they would the files: by how many there are.
  return checkField(field, names.length === 0 ? undefined : field.multiple ? names : names[0]);
}

/**
 * The sentence to show under a field, or undefined when it is fine. An empty
 * field is checked as its default, which is what the host will send for it
 * (completeAnswer), so webview and host agree.
 */
export function fieldProblem(field: Field, raw: RawValue | undefined): string | undefined {
  if (field.kind === 'file') return fileChoiceProblem(field, raw);
  const { value, error } = fromRaw(field, raw);
  return error ?? checkField(field, value ?? field.default);
}

/**
 * The answer from the widgets, with every field's problem. Fields named in
 * `skip` (secrets the host fills in from storage) are neither read nor checked.
 */
export function collectAnswer(
  form: FormModel,
  raws: RawValues,
  skip: ReadonlySet<string> = new Set(),
): { content: ElicitContent; errors: FieldErrors } {
  const content: ElicitContent = {};
  const errors: FieldErrors = {};
  for (const field of form.fields) {
    if (skip.has(field.name)) continue;
    const raw = Object.hasOwn(raws, field.name) ? raws[field.name] : undefined;
    const owner = otherOwner(form, field);
    // An "Other…" text is sent only with "Other…" chosen; then it is the answer, so it is needed.
    if (owner && !isOtherChosen(owner, raws[owner.name])) continue;
    if (field.kind === 'file') {
      const problem = fileChoiceProblem(field, raw);
      if (problem !== undefined) errors[field.name] = problem;
      continue;
    }
    const { value, error } = fromRaw(field, raw);
    const problem = owner && value === undefined ? OTHER_TEXT_MISSING : (error ?? checkField(field, value ?? field.default));
    if (problem !== undefined) errors[field.name] = problem;
    if (value !== undefined) content[field.name] = value;
  }
  return { content, errors };
}

/**
 * One field's problem with every widget's value at hand: an "Other…" text is
 * judged by whether its question has "Other…" chosen (see collectAnswer).
 */
export function fieldProblemIn(form: FormModel, raws: RawValues, field: Field): string | undefined {
  const owner = otherOwner(form, field);
  if (!owner) return fieldProblem(field, raws[field.name]);
  return errorOf(collectAnswer({ fields: [owner, field] }, raws).errors, field.name);
}

/**
 * One field's problem in an errors object. Never an inherited member: a field
 * may be called "toString" or "constructor", and `errors.toString` is a function.
 */
export function errorOf(errors: FieldErrors, name: string): string | undefined {
  return Object.hasOwn(errors, name) ? errors[name] : undefined;
}

/** The raw values to start from: the draft's where it has them, else the initial values. */
export function startingValues(form: FormModel, initial: ElicitContent, draft: RawValues | undefined): RawValues {
  const raws: RawValues = {};
  for (const field of form.fields) {
    if (draft && Object.hasOwn(draft, field.name)) raws[field.name] = draft[field.name]!;
    else raws[field.name] = toRaw(field, Object.hasOwn(initial, field.name) ? initial[field.name] : undefined);
  }
  return raws;
}

/** The draft to keep across a reload: raw values of the form's fields, never a secret. */
export function makeDraft(form: FormModel, questionId: number, raws: RawValues): FormDraft {
  const values: RawValues = {};
  for (const field of form.fields) {
    if (field.kind === 'text' && field.secret) continue;
    if (Object.hasOwn(raws, field.name) && isRawFor(field, raws[field.name])) values[field.name] = raws[field.name]!;
  }
  return { questionId, values };
}

/**
 * The draft saved for this question, read defensively (state from an older
 * webview, or another question's): only well-formed values of known,
 * non-secret fields come back.
 */
export function readDraft(form: FormModel, questionId: number, state: unknown): RawValues | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const draft = state as { questionId?: unknown; values?: unknown };
  if (draft.questionId !== questionId || typeof draft.values !== 'object' || draft.values === null) return undefined;
  const saved = draft.values as Record<string, unknown>;
  const values: RawValues = {};
  for (const field of form.fields) {
    if (field.kind === 'text' && field.secret) continue;
    if (!Object.hasOwn(saved, field.name)) continue;
    const raw = saved[field.name];
    if (isRawFor(field, raw)) values[field.name] = field.kind === 'multiChoice' && Array.isArray(raw) ? toRaw(field, raw) : raw;
  }
  return values;
}

function isRawFor(field: Field, raw: unknown): raw is RawValue {
  switch (field.kind) {
    case 'text':
    case 'number':
      return typeof raw === 'string';
    case 'boolean':
      return typeof raw === 'boolean' || (raw === null && !field.required);
    case 'choice':
      return (
        typeof raw === 'string' &&
        (raw === '' || (raw === OTHER_CHOICE && field.other !== undefined) || field.options.some((o) => o.value === raw))
      );
    case 'multiChoice':
      return raw === null || (Array.isArray(raw) && raw.every((v) => typeof v === 'string'));
    case 'file':
      // Never kept in a draft: the person picks the file again.
      return false;
  }
}

/**
 * Long text split for a first look: `head` is at most about `max` characters,
 * cut at a line break or space when one is near and never inside a surrogate
 * pair; `rest` is the remainder ('' when nothing was cut).
 */
export function splitLongText(text: string, max = 2000): { head: string; rest: string } {
  if (text.length <= max) return { head: text, rest: '' };
  let cut = max;
  const window = text.slice(Math.floor(max * 0.8), max);
  const lineBreak = window.lastIndexOf('\n');
  const space = window.search(/\s\S*$/);
  if (lineBreak >= 0) cut = Math.floor(max * 0.8) + lineBreak + 1;
  else if (space >= 0) cut = Math.floor(max * 0.8) + space + 1;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1; // do not split a surrogate pair
  return { head: text.slice(0, cut), rest: text.slice(cut) };
}
