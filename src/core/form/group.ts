/**
 * Several questions of one asker answered as one form: a round of an MCP
 * 2026-07-28 multi round-trip request, or a burst of `elicitation/create`
 * requests. Each section is normalized on its own (a refusal names the
 * section), then the fields are put into one model under composed names, so
 * every renderer, both validators and the webview work on it unchanged; the
 * accepted answer is split back into one result per section.
 */
import { fileValueText } from './fileFields';
import { cleanText } from '../display';
import { InvalidRequestError, errorText } from '../errors';
import type { Field, FormModel } from './fields';
import { alreadyRead, normalize, readOnce, LIMITS } from './normalize';
import { FormBudget } from './formBudget';
import { renamePair } from './otherAnswer';
import type { AnswerValue, EarlierAnswer, ElicitContent, ElicitResult, GroupSection } from '../request';

/** More sections than this are not one question any more. */
export const MAX_GROUP_SECTIONS = 10;

/** `"2:name"`: the section's index, then the asker's own property name. */
export function composedName(section: number, property: string): string {
  return `${section}:${property}`;
}

/** A group's form, read once per sections list (the grouper, the broker and the memory all ask). */
const composed = new WeakMap<readonly GroupSection[], FormModel | InvalidRequestError>();

export function composeGroup(sections: readonly GroupSection[]): FormModel {
  return readOnce(composed, sections, () => composeSections(sections));
}

/** Whether a sections list was composed already (into a form, or refused): composeGroup() of it costs nothing now. */
export function wasComposed(sections: readonly GroupSection[]): boolean {
  return composed.has(sections);
}

function composeSections(sections: readonly GroupSection[]): FormModel {
  if (sections.length === 0) throw new InvalidRequestError('a group of questions needs at least one question');
  if (sections.length > MAX_GROUP_SECTIONS) {
    throw new InvalidRequestError(`${sections.length} questions at once are too many; at most ${MAX_GROUP_SECTIONS} are shown together`);
  }
  const fields: Field[] = [];
  // One budget for the whole group (formBudget.ts): ten sections cost what one form may.
  const budget = new FormBudget();
  sections.forEach((section, index) => {
    let model: FormModel;
    try {
      model = alreadyRead(section.requestedSchema) ?? normalize(section.requestedSchema, budget);
    } catch (error) {
      const reason = errorText(error);
      throw new InvalidRequestError(`question "${section.key}": ${reason}`);
    }
    for (const field of model.fields) {
      const composed = renamePair(field, (name) => composedName(index, name));
      fields.push({ ...composed, name: composedName(index, field.name), property: field.name, section: index });
    }
  });
  if (fields.length > LIMITS.maxFields) {
    throw new InvalidRequestError(`the questions have ${fields.length} fields together; at most ${LIMITS.maxFields} are supported`);
  }
  // Each section's message is asker text shown as a heading: cleaned like a field's title.
  return { fields, sections: sections.map((s) => ({ key: s.key, message: cleanText(s.message) })) };
}

/** One result per section key: accepted content under the asker's own names, or everyone's decline / cancel. */
export function splitGroupAnswer(form: FormModel, result: ElicitResult): Record<string, ElicitResult> {
  const sections = form.sections ?? [];
  const results: Record<string, ElicitResult> = {};
  for (const [index, section] of sections.entries()) {
    if (result.action !== 'accept') {
      results[section.key] = { action: result.action };
      continue;
    }
    const content: ElicitContent = {};
    for (const field of form.fields) {
      if (field.section !== index) continue;
      const value = result.content?.[field.name];
      if (value !== undefined) content[field.property ?? field.name] = value;
    }
    results[section.key] = { action: 'accept', content };
  }
  return results;
}

/** The name a field has in the asker's own schema. */
export function propertyOf(field: Field): string {
  return field.property ?? field.name;
}

/**
 * What was answered, for the next round's form to show as context: one line per
 * field, secrets hidden. Only the person's own answers; nothing is sent anywhere.
 */
export function summarizeAnswers(form: FormModel, result: ElicitResult, fallbackMessage: string): EarlierAnswer[] {
  const sections = form.sections ?? [{ key: '', message: fallbackMessage }];
  return sections.map((section, index) => {
    const fields = form.fields.filter((f) => (form.sections ? f.section === index : true));
    if (result.action !== 'accept') return { message: section.message, lines: [result.action === 'decline' ? 'Declined' : 'Cancelled'] };
    // An "Other…" text left out (a listed option was chosen) is no line of its own.
    const shown = fields.filter((f) => !(f.kind === 'text' && f.otherOf !== undefined && result.content?.[f.name] === undefined));
    const lines = shown.map((field) => `${field.label}: ${describeValue(field, result.content?.[field.name])}`);
    return { message: section.message, lines: lines.length > 0 ? lines : ['Answered'] };
  });
}

function describeValue(field: Field, value: AnswerValue | undefined): string {
  if (value === undefined) return '(empty)';
  if (field.kind === 'text' && field.secret) return '(hidden)';
  // The file's name and size, never its bytes.
  if (field.kind === 'file') return fileValueText(value);
  if (field.kind === 'boolean') return value === true ? 'Yes' : 'No';
  const label = (v: string): string =>
    field.kind === 'choice' || field.kind === 'multiChoice' ? (field.options.find((o) => o.value === v)?.label ?? v) : v;
  return Array.isArray(value) ? value.map(label).join(', ') : label(String(value));
}

/** The message a group shows as its own: the one question's, or how many there are. */
export function groupMessage(sections: readonly GroupSection[]): string {
  if (sections.length === 1) return sections[0]!.message;
  return `${sections.length} questions`;
}
