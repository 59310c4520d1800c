/**
 * The one check of an answer that comes from outside the host's own quick inputs: the
 * form page, a paired phone, another window. Each is an untrusted client, so the check
 * is the same for all three:
 *
 * 1. its shape: a plain object of answer values (text, numbers, yes/no, lists of text; answerShape.ts);
 * 2. completed: the default of every field left untouched, nothing the form did not ask;
 * 3. its cost counted before any pattern runs (formBudget.ts), so a long text against a
 *    costly pattern cannot stall the host;
 * 4. the field rules and ajv (ajvAnswerCheck.ts).
 */
import type { ElicitContent } from '../request';
import { isAnswerContent } from './answerShape';
import { completeAnswer, patternCheckCost, type FieldErrors } from './fieldRules';
import type { FormModel } from './fields';
import { MAX_FORM_PATTERN_STEPS } from './formBudget';
import { ajvChecks } from './loadAjvChecks';

export type OutsideAnswer =
  | { ok: true; content: ElicitContent }
  /** Not field values at all. */
  | { ok: false; malformed: true }
  /** Too long to check against its pattern here: `field` costs the most. */
  | { ok: false; tooCostly: string }
  | { ok: false; errors: FieldErrors };

export function readOutsideAnswer(form: FormModel, given: unknown): OutsideAnswer {
  if (!isAnswerContent(given)) return { ok: false, malformed: true };
  const content = completeAnswer(form, given);
  let total = 0;
  let costliest = { name: '', steps: -1 };
  for (const field of form.fields) {
    const steps = 2 * patternCheckCost(field, Object.hasOwn(content, field.name) ? content[field.name] : undefined);
    total += steps;
    if (steps > costliest.steps) costliest = { name: field.name, steps };
  }
  if (total > MAX_FORM_PATTERN_STEPS) return { ok: false, tooCostly: costliest.name };
  const errors = ajvChecks().validateAnswer(form, content);
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}

/** What a field says when its text is too long to check here. */
export const TOO_COSTLY = 'Too long to check against its pattern here: shorten it';
