/**
 * A question kept across a window reload keeps its draft as the form's raw
 * widget values (formState.ts), whichever way it is drawn. These turn the
 * quick input's steps (answers given so far, and what the open step holds)
 * into that draft and back, so a round answered in quick-input steps comes
 * back after a reload with what was typed or ticked. Never a secret's value.
 */
import type { AnswerValue, ElicitContent } from '../request';
import type { FormModel } from './fields';
import { fromRaw, makeDraft, readDraft, toRaw, type RawValues } from './formState';

/**
 * The draft of quick-input steps: `content` holds the steps answered, `partial`
 * what the open step `open` holds (the text in its box, the ticked options).
 */
export function stepDraft(form: FormModel, content: ElicitContent, open?: { name: string; partial?: AnswerValue }): RawValues {
  const raws: RawValues = {};
  for (const field of form.fields) {
    const holding = open?.name === field.name && open.partial !== undefined;
    const value = holding ? open.partial : Object.hasOwn(content, field.name) ? content[field.name] : undefined;
    if (value === undefined) continue;
    // A box's text is kept as typed, even when it does not read as a number yet.
    raws[field.name] = (field.kind === 'text' || field.kind === 'number') && typeof value === 'string' ? value : toRaw(field, value);
  }
  // makeDraft leaves out secret fields and values that do not fit their field.
  return makeDraft(form, 0, raws).values;
}

/** What each step starts from when the question comes back with a draft: a box's text as typed, a choice's value. */
export function stepsFromDraft(form: FormModel, draft: RawValues | undefined): Map<string, AnswerValue> {
  const start = new Map<string, AnswerValue>();
  if (!draft) return start;
  // Read as the form reads its own: known, non-secret fields, options the field has.
  const kept = readDraft(form, 0, { questionId: 0, values: draft }) ?? {};
  for (const field of form.fields) {
    if (!Object.hasOwn(kept, field.name)) continue;
    const raw = kept[field.name]!;
    if ((field.kind === 'text' || field.kind === 'number') && typeof raw === 'string') {
      if (raw !== '') start.set(field.name, raw);
      continue;
    }
    const { value } = fromRaw(field, raw);
    if (value !== undefined) start.set(field.name, value);
  }
  return start;
}
