/**
 * The host's authoritative check of an answer before it is sent: ajv (with
 * ajv-formats) on a JSON Schema rebuilt from the field model, so ajv sees only
 * rules Elicit understood and showed to the person. Compiled once per form
 * shape and cached. The field rules (fieldRules.ts) supply the sentences.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ElicitContent } from '../request';
import type { Field, FormModel } from './fields';
import { boundedRegExp } from './ajvPatterns';
import { checkAnswer, MAX_PATTERN_INPUT, type FieldErrors } from './fieldRules';
import { checkFileValue } from './fileFields';

/**
 * ajv runs `pattern` itself too: with the same bounded engine and on no more
 * text than the field rules (MAX_PATTERN_INPUT), so host and webview agree
 * and no answer from any caller can make a pattern take long. Longer text fails,
 * as checkField already says.
 */
export const linearRegExp = boundedRegExp(MAX_PATTERN_INPUT);

/**
 * ajv as the host uses it. ownProperties: a field named like an
 * Object.prototype member ("constructor", "toString") must be judged on the
 * answer's own value, never an inherited one.
 */
export function answerAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, ownProperties: true, code: { regExp: linearRegExp } });
  addFormats(ajv, ['email', 'uri', 'date', 'date-time']);
  // ajv's own `enum` compares with each value in turn (or compiles one branch
  // per value): 10 000 options × 10 000 chosen took seconds. This is a set lookup.
  ajv.addKeyword({
    keyword: 'elicitOptions',
    schemaType: 'array',
    compile: (values: string[]) => {
      const offered = new Set(values);
      return (data: unknown) => typeof data === 'string' && offered.has(data);
    },
    error: { message: 'must be one of the options' },
  });
  return ajv;
}

const ajv = answerAjv();

const cache = new Map<string, ValidateFunction>();
const MAX_CACHED = 100;
/** A form's validator, once looked up: the same form (normalize.ts keeps one per schema text) skips building its key. */
const byForm = new WeakMap<FormModel, ValidateFunction>();

export function toJsonSchema(form: FormModel): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of form.fields) properties[field.name] = fieldSchema(field);
  return {
    type: 'object',
    properties,
    required: form.fields.filter((f) => f.required).map((f) => f.name),
    additionalProperties: false,
  };
}

function fieldSchema(field: Field): Record<string, unknown> {
  switch (field.kind) {
    case 'text':
      return pick({ type: 'string', minLength: field.minLength, maxLength: field.maxLength, format: field.format, pattern: field.pattern });
    case 'number':
      return pick({ type: field.integer ? 'integer' : 'number', minimum: field.minimum, maximum: field.maximum });
    case 'boolean':
      return { type: 'boolean' };
    case 'choice':
      return { type: 'string', elicitOptions: field.options.map((o) => o.value) };
    case 'multiChoice':
      return pick({
        type: 'array',
        uniqueItems: true,
        items: { type: 'string', elicitOptions: field.options.map((o) => o.value) },
        minItems: field.minItems,
        maxItems: field.maxItems,
      });
    case 'file':
      // The value is checked by checkFileValue, which reads only its head: no format runs over megabytes here.
      return field.multiple
        ? pick({ type: 'array', items: { type: 'string' }, minItems: field.minItems, maxItems: field.maxItems })
        : { type: 'string' };
  }
}

function pick(schema: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined));
}

function compiled(form: FormModel): ValidateFunction {
  const known = byForm.get(form);
  if (known) return known;
  const schema = toJsonSchema(form);
  const key = JSON.stringify(schema);
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, validate);
  }
  byForm.set(form, validate);
  return validate;
}

/**
 * Errors per field (empty when the answer may be sent). A field ajv rejects
 * always gets a sentence, even if the field rules found nothing to say.
 */
export function validateAnswer(form: FormModel, content: ElicitContent): FieldErrors {
  const errors = checkAnswer(form, content);
  // Files are checked here, on the host, from each value's head and length (fileFields.ts).
  for (const field of form.fields) {
    if (field.kind !== 'file' || Object.hasOwn(errors, field.name) || !Object.hasOwn(content, field.name)) continue;
    const problem = checkFileValue(field, content[field.name]);
    if (problem !== undefined) errors[field.name] = problem;
  }
  const validate = compiled(form);
  if (!validate(content)) {
    for (const error of validate.errors ?? []) {
      const name = error.instancePath.split('/')[1] ?? (error.params as { missingProperty?: string }).missingProperty;
      const key = name === undefined ? '' : name.replace(/~1/g, '/').replace(/~0/g, '~');
      if (error.keyword === 'additionalProperties') {
        errors[''] ??= `The answer has a field the form did not ask for`;
      } else if (!Object.hasOwn(errors, key)) {
        errors[key] = `Invalid value (${error.message ?? error.keyword})`;
      }
    }
  }
  return errors;
}
