/**
 * The one decision point for how a question is drawn. Pure, so it is tested
 * without VS Code.
 *
 * The rule: a short question is asked with VS Code's quick input (up to three
 * questions as steps with Back, an agent's "Other…" text inside its question's
 * step), anything larger as a form, and two things always hold. A question's
 * text stays in view wherever it is drawn: a quick-input step shows it on its
 * prompt line (the quick input renderer), never only in a placeholder, which is
 * cut off and gone once typing starts. And a later round of a request is a
 * form: it lists the earlier answers above it, in the same tab, which a quick
 * input cannot.
 */
import type { Field, FormModel } from './fields';
import { questionFields } from './otherAnswer';

export type PresentationSetting = 'auto' | 'quickInput' | 'form';
export type Presentation = 'quickInput' | 'form';

/** What the decision needs to know besides the fields. */
export interface PresentationContext {
  /** A later round of a request, shown with the answers already given. */
  followUp?: boolean;
  /** The asker's own app is shown for it (core/apps/appQuestion.ts): in the form's tab. */
  app?: boolean;
}

/** A form with more steps than this is easier to answer on one page. */
export const MAX_QUICK_INPUT_STEPS = 3;
/** Descriptions longer than this do not fit a quick input's one-line prompt. */
export const MAX_QUICK_INPUT_DESCRIPTION = 200;

export function choosePresentation(
  form: FormModel,
  setting: PresentationSetting = 'auto',
  context: PresentationContext = {},
): Presentation {
  if (setting === 'form') return 'form';
  if (form.fields.length === 0) return 'quickInput';
  if (setting === 'quickInput') return 'quickInput';
  if (context.followUp || context.app) return 'form';
  // An agent's "Other…" text is part of its question's step, not a step of its own.
  const steps = questionFields(form);
  if (steps.length > MAX_QUICK_INPUT_STEPS) return 'form';
  return steps.every(fitsQuickInput) ? 'quickInput' : 'form';
}

function fitsQuickInput(field: Field): boolean {
  return (field.description?.length ?? 0) <= MAX_QUICK_INPUT_DESCRIPTION;
}
