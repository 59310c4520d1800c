/**
 * The questions of a request that may be remembered, each on its own: a form
 * is one question; a round or a grouped form is one question per section.
 * Never remembered: a URL question, a question Elicit asks for the person
 * itself (a tool's arguments), one with nothing to answer (the "Done" step
 * after a browser), and any question with a secret field (format password,
 * writeOnly, which an agent's own secret mark becomes): those have SecretStorage and grants of
 * their own.
 */
import { composedName } from '../form/group';
import { answeredOnlyHere, type FormModel } from '../form/fields';
import { normalize } from '../form/normalize';
import type { ElicitContent, ElicitRequest } from '../request';
import { questionFingerprint } from './fingerprint';

export interface QuestionUnit {
  message: string;
  /** The question's own model, under the asker's property names. */
  form: FormModel;
  fingerprint: string;
  /** false: shown, but never remembered nor answered from memory. */
  rememberable: boolean;
  /** The name of a property of this question in the request's answer (composed in a group). */
  answerName(property: string): string;
}

/** Each request's units, worked out once: the broker asks for them up to three times per question (rule, recall, offer). */
const known = new WeakMap<ElicitRequest, { form: FormModel | undefined; units: QuestionUnit[] }>();

/** The request's questions, or [] when nothing of it may be remembered. `form`: the broker's model of a form request. */
export function questionUnits(request: ElicitRequest, form?: FormModel): QuestionUnit[] {
  const cached = known.get(request);
  if (cached && cached.form === form) return cached.units;
  const units = unitsOf(request, form);
  known.set(request, { form, units });
  return units;
}

function unitsOf(request: ElicitRequest, form?: FormModel): QuestionUnit[] {
  if (request.mode === 'url' || request.noMemory) return [];
  if (request.mode === 'form') {
    if (request.onBehalf !== undefined) return [];
    const model = form ?? normalize(request.requestedSchema);
    return [unit(request.message, model, (property) => property, request.asker.detail)];
  }
  return request.sections.map((section, index) =>
    unit(section.message, normalize(section.requestedSchema), (property) => composedName(index, property), request.asker.detail),
  );
}

function unit(message: string, form: FormModel, answerName: (property: string) => string, detail: string | undefined): QuestionUnit {
  return {
    message,
    form,
    fingerprint: questionFingerprint(message, form.fields, detail),
    rememberable: form.fields.length > 0 && !answeredOnlyHere(form),
    answerName,
  };
}

/** The question's part of the request's answer, under its own property names. */
export function unitContent(unit: QuestionUnit, content: ElicitContent): ElicitContent {
  const own: ElicitContent = {};
  for (const field of unit.form.fields) {
    const name = unit.answerName(field.name);
    if (Object.hasOwn(content, name)) own[field.name] = content[name]!;
  }
  return own;
}

/** The question's own answer put back under the request's names. */
export function requestContent(unit: QuestionUnit, own: ElicitContent): ElicitContent {
  const content: ElicitContent = {};
  for (const field of unit.form.fields) if (Object.hasOwn(own, field.name)) content[unit.answerName(field.name)] = own[field.name]!;
  return content;
}
