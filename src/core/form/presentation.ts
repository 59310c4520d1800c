/**
 * The one decision point for how a question is drawn. Pure, so it is tested
 * without VS Code.
 */
import type { Field, FormModel } from './fields';

export type PresentationSetting = 'auto' | 'quickInput' | 'form';
export type Presentation = 'quickInput' | 'form';

/** A form with more steps than this is easier to answer on one page. */
export const MAX_QUICK_INPUT_STEPS = 3;
/** Descriptions longer than this do not fit a quick input's one-line prompt. */
export const MAX_QUICK_INPUT_DESCRIPTION = 200;

export function choosePresentation(form: FormModel, setting: PresentationSetting = 'auto'): Presentation {
  if (setting === 'form') return 'form';
  if (form.fields.length === 0) return 'quickInput';
  if (setting === 'quickInput') return 'quickInput';
  if (form.fields.length > MAX_QUICK_INPUT_STEPS) return 'form';
  return form.fields.every(fitsQuickInput) ? 'quickInput' : 'form';
}

function fitsQuickInput(field: Field): boolean {
  return (field.description?.length ?? 0) <= MAX_QUICK_INPUT_DESCRIPTION;
}
