/**
 * Field rules as human sentences. Pure and eval-free, so the webview (strict
 * CSP, no `unsafe-eval`) runs exactly this code for live feedback, and the host
 * runs it too before its authoritative ajv check (see ajvAnswerCheck.ts).
 */
import { oneLine } from '../display';
import { compileLinearPattern, type LinearPattern } from './linearPattern';
import type { FormBudget } from './formBudget';
import { matchesTextFormat } from './textFormats';
import { otherAnswerProblems } from './otherAnswer';
import type { AnswerValue, ElicitContent } from '../request';
import type { ChoiceOption, Field, FileField, FormModel, MultiChoiceField, NumberField, TextField, TextFormat } from './fields';

export type FieldErrors = Record<string, string>;

export const FORMAT_HINTS: Record<TextFormat, string> = {
  email: 'Must look like name@example.com',
  uri: 'Must be a URL such as https://example.com',
  date: 'Must be a date such as 2026-01-31',
  'date-time': 'Must be a date and time such as 2026-01-31T09:30:00Z',
};

/**
 * Longest answer a pattern is run against. Patterns run in bounded time
 * (linearPattern.ts), at most MAX_PATTERN_COST steps a character: this keeps
 * one check of an answer within a few milliseconds, per keystroke in the webview.
 */
export const MAX_PATTERN_INPUT = 1_000;

const patternCache = new Map<string, LinearPattern>();

/** The problem with one field's value in a sentence, or undefined when it is fine. */
export function checkField(field: Field, value: AnswerValue | undefined): string | undefined {
  if (value === undefined || value === '') {
    if (!field.required) return undefined;
    if (field.kind === 'file') return field.multiple ? 'Choose at least one file' : 'Choose a file';
    return field.kind === 'multiChoice' && field.minItems ? `Choose at least ${plural(field.minItems, 'option')}` : 'Required';
  }
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? checkText(field, value) : 'Must be text';
    case 'number':
      return typeof value === 'number' ? checkNumber(field, value) : 'Must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Must be yes or no';
    case 'choice':
      return typeof value === 'string' && optionValues(field.options).has(value) ? undefined : 'Choose one of the listed options';
    case 'multiChoice': {
      const offered = optionValues(field.options);
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && offered.has(v))) {
        return 'Choose from the listed options';
      }
      if (new Set(value).size !== value.length) return 'Choose each option once';
      if (field.minItems !== undefined && value.length < field.minItems) return `Choose at least ${plural(field.minItems, 'option')}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `Choose at most ${plural(field.maxItems, 'option')}`;
      return undefined;
    }
    case 'file':
      // The files themselves are checked on the host only (validateAnswer, fileFields.ts): the page never holds one.
      return fileCountProblem(field, value);
  }
}

/** A file field's value by its shape and count alone. */
function fileCountProblem(field: FileField, value: AnswerValue): string | undefined {
  if (!field.multiple) return typeof value === 'string' ? undefined : 'Must be a file';
  if (!Array.isArray(value)) return 'Must be a list of files';
  if (value.length === 0) return field.required ? 'Choose at least one file' : undefined;
  if (field.minItems !== undefined && value.length < field.minItems) return `Choose at least ${field.minItems} files`;
  if (field.maxItems !== undefined && value.length > field.maxItems) return `Choose at most ${field.maxItems} files`;
  return undefined;
}

/** A multi-select's rule before the person errs: "Choose 1 to 3", or "" when it has none. */
export function multiChoiceRule(field: MultiChoiceField): string {
  const { minItems: min, maxItems: max } = field;
  if (min !== undefined && max !== undefined) return min === max ? `Choose ${min}` : `Choose ${min} to ${max}`;
  if (min !== undefined && min > 0) return `Choose at least ${min}`;
  if (max !== undefined) return `Choose at most ${max}`;
  return '';
}

/** Option values as a set, made once per options list: 10 000 options × 10 000 chosen must not be 10⁸ steps. */
const optionSets = new WeakMap<readonly ChoiceOption[], Set<string>>();

export function optionValues(options: readonly ChoiceOption[]): Set<string> {
  let values = optionSets.get(options);
  if (!values) {
    values = new Set(options.map((o) => o.value));
    optionSets.set(options, values);
  }
  return values;
}

function checkText(field: TextField, value: string): string | undefined {
  const length = [...value].length; // JSON Schema counts code points, as ajv does.
  if (field.minLength !== undefined && length < field.minLength) return `Must be at least ${plural(field.minLength, 'character')}`;
  if (field.maxLength !== undefined && length > field.maxLength) return `Must be at most ${plural(field.maxLength, 'character')}`;
  if (field.format !== undefined && !matchesTextFormat(field.format, value)) return FORMAT_HINTS[field.format];
  if (field.pattern !== undefined) {
    if (value.length > MAX_PATTERN_INPUT) return `Too long to check against the required pattern`;
    if (!compilePattern(field.pattern).test(value)) return patternMismatch(field);
  }
  return undefined;
}

function checkNumber(field: NumberField, value: number): string | undefined {
  if (!Number.isFinite(value)) return 'Must be a number';
  if (field.integer && !Number.isInteger(value)) return 'Must be a whole number';
  if (field.minimum !== undefined && value < field.minimum) return `Must be at least ${field.minimum}`;
  if (field.maximum !== undefined && value > field.maximum) return `Must be at most ${field.maximum}`;
  return undefined;
}

/** What a person reads when the text does not match the field's `pattern`, when the field says no more. */
export const PATTERN_MISMATCH = 'Not in the form this field asks for';

/**
 * The mismatch with an example when the field gives one. Never the pattern: it is
 * the asker's text, and a regex tells a person little. Never the description
 * either: every place that shows this shows the description right beside it
 * (above the form's field, on the input box's prompt line).
 */
export function patternMismatch(field: TextField): string {
  if (field.example === undefined) return PATTERN_MISMATCH;
  if (field.description?.includes(field.example)) return PATTERN_MISMATCH;
  return `${PATTERN_MISMATCH}, e.g. ${oneLine(field.example, 80)}`;
}

/**
 * The most steps checkField() can spend on `value`'s pattern (linearPattern.ts):
 * what a budget (formBudget.ts) reserves before the check runs. Zero when no pattern runs.
 */
export function patternCheckCost(field: Field, value: unknown): number {
  if (field.kind !== 'text' || field.pattern === undefined || typeof value !== 'string') return 0;
  if (value.length > MAX_PATTERN_INPUT) return 0; // refused unread
  return (value.length + 1) * compilePattern(field.pattern).cost;
}

/**
 * The field's pattern, compiled once; normalize() has already refused what cannot compile.
 * `budget`: the request's, charged what compiling a pattern not compiled before costs.
 */
export function compilePattern(pattern: string, budget?: Pick<FormBudget, 'reserveCompile'>): LinearPattern {
  let compiled = patternCache.get(pattern);
  if (!compiled) {
    compiled = compileLinearPattern(pattern, budget && ((units) => budget.reserveCompile(units)));
    if (patternCache.size > 200) patternCache.clear();
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

/** Every field's problem; an empty object means the answer can be sent. */
export function checkAnswer(form: FormModel, content: ElicitContent): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of form.fields) {
    const problem = checkField(field, Object.hasOwn(content, field.name) ? content[field.name] : undefined);
    if (problem !== undefined) errors[field.name] = problem;
  }
  for (const [name, problem] of Object.entries(otherAnswerProblems(form, content))) errors[name] ??= problem;
  return errors;
}

/**
 * The answer to send: what the person gave, plus the default of every field they
 * left untouched (SEP-1034), and nothing the form did not ask for.
 */
export function completeAnswer(form: FormModel, given: ElicitContent): ElicitContent {
  const answer: ElicitContent = {};
  for (const field of form.fields) {
    const value = Object.hasOwn(given, field.name) ? given[field.name] : undefined;
    if (value !== undefined && value !== '') answer[field.name] = value;
    // A default of "" is no value either (as everywhere here): sending it would break format/minLength.
    else if (field.default !== undefined && field.default !== '') answer[field.name] = field.default;
  }
  return answer;
}

/**
 * Text typed into an input → the field's value: numbers parsed strictly
 * ("12abc" is not 12), text kept as typed. Errors are sentences.
 */
export function parseTextInput(field: Field, text: string): { value?: AnswerValue; error?: string } {
  if (field.kind === 'number') {
    const trimmed = text.trim();
    if (trimmed === '') return {};
    const value = Number(trimmed);
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed) || !Number.isFinite(value)) {
      return { error: field.integer ? 'Must be a whole number' : 'Must be a number' };
    }
    return { value };
  }
  return text === '' ? {} : { value: text };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
