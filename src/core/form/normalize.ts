/**
 * normalize(): a requested schema (MCP 2025-11-25 restricted form schema, also
 * used by ACP) → a FormModel, or an InvalidRequestError naming the property and
 * the problem. It never throws anything else, whatever the input.
 */
import { cleanText } from '../display';
import { InvalidRequestError } from '../errors';
import { UnsupportedPatternError } from './linearPattern';
import { checkField, compilePattern, patternCheckCost } from './fieldRules';
import { FormBudget, MAX_FORM_SIZE } from './formBudget';
import type {
  ChoiceField,
  ChoiceOption,
  Field,
  FileField,
  FormModel,
  MultiChoiceField,
  NumberField,
  TextField,
  TextFormat,
} from './fields';
import { FILE_KEYWORD, fileRule, readFileKeyword } from './fileFields';
import { pairOtherAnswers } from './otherAnswer';
import { isPlainObject } from './answerShape';

/** Beyond these a request is refused rather than drawn: nobody answers it. */
export const LIMITS = Object.freeze({
  maxFields: 100,
  maxOptions: 10_000,
  maxPatternLength: 1_000,
  maxNameLength: 200,
  /** `examples` looked at for a text field's example, and how long one may be. */
  maxExamples: 20,
  maxExampleLength: 200,
  /** An option's preview is only shown: a longer one is cut, not refused. */
  maxPreviewLength: 20_000,
});

const TEXT_FORMATS: ReadonlySet<string> = new Set<TextFormat>(['email', 'uri', 'date', 'date-time']);
const SECRET_FORMATS: ReadonlySet<string> = new Set(['password']);

type Json = Record<string, unknown>;

/**
 * `budget`: what the whole request may still cost (formBudget.ts); a group passes
 * one budget to each of its sections. The size is counted before anything else.
 */
export function normalize(requestedSchema: unknown, budget?: FormBudget): FormModel {
  if (budget !== undefined || typeof requestedSchema !== 'object' || requestedSchema === null) {
    return readSchema(requestedSchema, budget ?? new FormBudget());
  }
  // Read once per request: the burst grouper, the broker, memory and the phone list all ask for it.
  return readOnce(readForms, requestedSchema, () => readShared(requestedSchema));
}

/** Schemas up to this size (formBudget.ts units) are kept by their JSON text once read; larger ones are read each time. */
export const MAX_SHARED_SIZE = 50_000;
/** How many such forms are kept (the least recently asked goes first). */
const MAX_SHARED_FORMS = 100;
const sharedForms = new Map<string, FormModel>();

/**
 * An asker sends the same form again and again (a tool that asks on every call): a schema's form is
 * kept by its JSON text, so the same text costs its size walk, a walk that checks it is plain JSON
 * data and one JSON.stringify, instead of its reading and the checks built per form (ajvAnswerCheck.ts,
 * fieldRules.ts) made again. The form is read from that text, so it is exactly the text's form, and
 * frozen, since every question with that text shares it. Only forms are kept: a refusal is made
 * again, since what the budget refused once (compiling patterns new to the session) may fit later.
 * What is not plain data (an API caller's object with a getter of its own or a prototype, say) is
 * read as it is, each time.
 */
function readShared(requestedSchema: object): FormModel {
  const budget = new FormBudget();
  checkSize(requestedSchema, budget);
  if (budget.spent().size > MAX_SHARED_SIZE || !isPlainData(requestedSchema)) return readSized(requestedSchema, budget);
  let text: string;
  try {
    text = JSON.stringify(requestedSchema);
  } catch {
    // A getter that throws, a proxy: read as it is.
    return readSized(requestedSchema, budget);
  }
  const known = sharedForms.get(text);
  if (known !== undefined) {
    sharedForms.delete(text);
    sharedForms.set(text, known);
    return known;
  }
  const form = deepFreeze(readSized(JSON.parse(text) as unknown, budget));
  if (sharedForms.size >= MAX_SHARED_FORMS) sharedForms.delete(sharedForms.keys().next().value as string);
  sharedForms.set(text, form);
  return form;
}

/**
 * Whether JSON.stringify says all there is to read: strings, finite numbers, booleans, null, plain
 * arrays, and objects of Object's own prototype (or none) with no hidden properties. Bounded by the
 * size check before it.
 */
function isPlainData(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string' || typeof item === 'boolean' || item === null) continue;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return false;
      continue;
    }
    if (typeof item !== 'object') return false;
    if (Array.isArray(item)) {
      if (Object.getPrototypeOf(item) !== Array.prototype) return false;
      for (let i = 0; i < item.length; i++) stack.push(item[i]);
      continue;
    }
    if (!isPlainObject(item)) return false;
    const keys = Object.keys(item);
    if (Object.getOwnPropertyNames(item).length !== keys.length) return false;
    for (const key of keys) stack.push((item as Json)[key]);
  }
  return true;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/**
 * What `read` makes of `key` (a form, or the InvalidRequestError refusing it), made once
 * per object and kept while the object lives: reading it again costs nothing.
 */
export function readOnce<K extends object>(cache: WeakMap<K, FormModel | InvalidRequestError>, key: K, read: () => FormModel): FormModel {
  let known = cache.get(key);
  if (known === undefined) {
    try {
      known = read();
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error;
      known = error;
    }
    cache.set(key, known);
  }
  if (known instanceof InvalidRequestError) throw known;
  return known;
}

/** A schema object's form (or why it has none), once read with a budget of its own. */
const readForms = new WeakMap<object, FormModel | InvalidRequestError>();

/** Whether a schema object was read already (into a form, or refused): normalize() of it costs nothing now. */
export function wasRead(requestedSchema: unknown): boolean {
  return typeof requestedSchema === 'object' && requestedSchema !== null && readForms.has(requestedSchema);
}

/** The form a schema object was already read into on its own, if it was: reading it again costs nothing. */
export function alreadyRead(requestedSchema: unknown): FormModel | undefined {
  if (typeof requestedSchema !== 'object' || requestedSchema === null) return undefined;
  const known = readForms.get(requestedSchema);
  return known instanceof InvalidRequestError ? undefined : known;
}

function readSchema(requestedSchema: unknown, budget: FormBudget): FormModel {
  checkSize(requestedSchema, budget);
  return readSized(requestedSchema, budget);
}

/** The size is counted before anything else is read. */
function checkSize(requestedSchema: unknown, budget: FormBudget): void {
  if (!budget.addSchema(requestedSchema)) {
    throw invalid(`the form is too large to read (more than ${MAX_FORM_SIZE.toLocaleString('en')} values and characters)`);
  }
}

function readSized(requestedSchema: unknown, budget: FormBudget): FormModel {
  const schema = asObject(requestedSchema, 'requestedSchema');
  rejectRef(schema, 'requestedSchema');
  if (schema.type !== undefined && schema.type !== 'object') {
    throw invalid(`requestedSchema must have type "object", not ${describe(schema.type)}`);
  }
  const properties = schema.properties === undefined ? {} : asObject(schema.properties, 'requestedSchema.properties');
  const names = Object.keys(properties);
  if (names.length > LIMITS.maxFields) {
    throw invalid(`requestedSchema has ${names.length} properties; at most ${LIMITS.maxFields} are supported`);
  }
  const required = readRequired(schema.required, properties);
  const fields = names.map((name) => {
    if (name.length === 0 || name.length > LIMITS.maxNameLength) {
      throw invalid(`property names must be 1 to ${LIMITS.maxNameLength} characters long`);
    }
    // JSON.parse makes "__proto__" an own key, but no answer or error object can carry it.
    if (name === '__proto__') throw invalid(`property "__proto__" cannot be used as a field name`);
    return normalizeField(name, properties[name], required.has(name), budget);
  });
  // A choice and its annotated free-text companion become one question with an "Other…" answer.
  pairOtherAnswers(fields, properties);
  return { fields };
}

function readRequired(value: unknown, properties: Json): Set<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value)) throw invalid(`requestedSchema.required must be an array of property names`);
  for (const name of value) {
    if (typeof name !== 'string') throw invalid(`requestedSchema.required must contain only strings`);
    if (!Object.hasOwn(properties, name)) {
      throw invalid(`requestedSchema.required names "${clip(name)}", which is not a property`);
    }
  }
  return new Set(value as string[]);
}

function normalizeField(name: string, raw: unknown, required: boolean, budget: FormBudget): Field {
  const where = `property "${clip(name)}"`;
  const prop = asObject(raw, where);
  rejectRef(prop, where);
  const base = {
    name,
    label: cleanText(optionalString(prop.title, `${where}: title`) ?? name),
    description: optionalText(prop.description, `${where}: description`),
    required,
  };
  if (base.description === undefined) delete base.description;

  const field = fieldOfType(prop, base, where, budget);
  if (field.default !== undefined) {
    if (!budget.reserveSteps(patternCheckCost(field, field.default))) {
      throw invalid(`${where}: the form's defaults are too costly to check against their patterns`);
    }
    // A default the field's own rules refuse would be sent for an untouched field and rejected.
    const problem = checkField({ ...field, required: false }, field.default);
    if (problem !== undefined) throw invalid(`${where}: default ${describe(field.default)} breaks its own rule (${problem})`);
  }
  if (field.kind === 'text' && field.pattern !== undefined) {
    const example = firstExample(field, prop.examples, budget);
    if (example !== undefined) field.example = example;
  }
  return field;
}

/**
 * The first of the schema's `examples` that the field accepts: an example that breaks the rule would mislead.
 * Examples past the request's budget are not looked at: the field then shows none.
 */
function firstExample(field: TextField, examples: unknown, budget: FormBudget): string | undefined {
  if (!Array.isArray(examples)) return undefined;
  return examples
    .slice(0, LIMITS.maxExamples)
    .find(
      (e): e is string =>
        typeof e === 'string' &&
        e.length <= LIMITS.maxExampleLength &&
        cleanText(e) === e &&
        budget.reserveSteps(patternCheckCost(field, e)) &&
        checkField({ ...field, required: false }, e) === undefined,
    );
}

function fieldOfType(prop: Json, base: Base, where: string, budget: FormBudget): Field {
  const type = prop.type;
  if (Array.isArray(type)) throw invalid(`${where} has a list of types; one type is required`);
  const items = prop.items;
  if (type === 'array' && typeof items === 'object' && items !== null && Object.hasOwn(items, FILE_KEYWORD)) {
    return fileField(prop, base, where, true);
  }
  if (Object.hasOwn(prop, FILE_KEYWORD)) {
    if (type !== 'string') throw invalid(`${where}: ${FILE_KEYWORD} marks a string field (or a list of them), not ${describe(type)}`);
    return fileField(prop, base, where, false);
  }
  if (type === 'array') return multiChoice(prop, base, where);
  if (type === undefined || type === 'string') {
    if (prop.enum !== undefined || prop.oneOf !== undefined || prop.anyOf !== undefined) {
      return choice(prop, base, where);
    }
    if (type === undefined) throw invalid(`${where} has no type`);
    return text(prop, base, where, budget);
  }
  if (type === 'number' || type === 'integer') return number(prop, base, where, type === 'integer');
  if (type === 'boolean') {
    const def = prop.default;
    if (def !== undefined && typeof def !== 'boolean') throw invalid(`${where}: default must be a boolean`);
    return def === undefined ? { kind: 'boolean', ...base } : { kind: 'boolean', ...base, default: def };
  }
  if (type === 'object') throw invalid(`${where} is a nested object; elicitation forms support only flat fields`);
  throw invalid(`${where} has unsupported type ${describe(type)}`);
}

type Base = Pick<Field, 'name' | 'label' | 'description' | 'required'>;

function text(prop: Json, base: Base, where: string, budget: FormBudget): TextField {
  const field: TextField = { kind: 'text', ...base, secret: prop.writeOnly === true };
  if (typeof prop.format === 'string') {
    if (SECRET_FORMATS.has(prop.format)) field.secret = true;
    else if (TEXT_FORMATS.has(prop.format)) field.format = prop.format as TextFormat;
    // Other formats carry no rule we can check or explain: the field is plain text.
  } else if (prop.format !== undefined) {
    throw invalid(`${where}: format must be a string`);
  }
  const { min: minLength, max: maxLength } = readBounds(prop, 'minLength', 'maxLength', where);
  if (minLength !== undefined) field.minLength = minLength;
  if (maxLength !== undefined) field.maxLength = maxLength;
  if (prop.pattern !== undefined) field.pattern = readPattern(prop.pattern, where, budget);
  const def = prop.default;
  if (def !== undefined) {
    if (typeof def !== 'string') throw invalid(`${where}: default must be a string, not ${describe(def)}`);
    field.default = def;
  }
  return field;
}

/** A file field (fileFields.ts): the keyword on the property, or on `items` for a list of files. */
function fileField(prop: Json, base: Base, where: string, multiple: boolean): FileField {
  const marked = multiple ? asObject(prop.items, `${where}: items`) : prop;
  if (multiple) {
    rejectRef(marked, `${where}: items`);
    if (marked.type !== undefined && marked.type !== 'string') throw invalid(`${where}: items of a file list must be strings`);
  }
  const keyword = readFileKeyword(marked[FILE_KEYWORD]);
  if ('error' in keyword) throw invalid(`${where}: ${keyword.error}`);
  const field: FileField = { kind: 'file', ...base, multiple, rule: '' };
  if (keyword.accept) field.accept = keyword.accept;
  if (keyword.maxSize !== undefined) field.maxSize = keyword.maxSize;
  if (multiple) {
    const { min: minItems, max: maxItems } = readBounds(prop, 'minItems', 'maxItems', where);
    if (minItems !== undefined) field.minItems = minItems;
    if (maxItems !== undefined) field.maxItems = maxItems;
    if (minItems !== undefined && minItems > 0) field.required = true;
  }
  field.rule = fileRule(field);
  // A default (a file the asker made up) is never sent: the person picks every file.
  return field;
}

function readPattern(pattern: unknown, where: string, budget: FormBudget): string {
  if (typeof pattern !== 'string') throw invalid(`${where}: pattern must be a string`);
  if (pattern.length > LIMITS.maxPatternLength) {
    throw invalid(`${where}: pattern is longer than ${LIMITS.maxPatternLength} characters`);
  }
  try {
    compilePattern(pattern, budget);
  } catch (error) {
    if (error instanceof UnsupportedPatternError) throw invalid(`${where}: pattern is refused because ${error.message}`);
    throw invalid(`${where}: pattern is not a valid regular expression`);
  }
  return pattern;
}

function number(prop: Json, base: Base, where: string, integer: boolean): NumberField {
  const field: NumberField = { kind: 'number', ...base, integer };
  const minimum = optionalNumber(prop.minimum, `${where}: minimum`);
  const maximum = optionalNumber(prop.maximum, `${where}: maximum`);
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
    throw invalid(`${where}: minimum ${minimum} is greater than maximum ${maximum}`);
  }
  if (minimum !== undefined) field.minimum = minimum;
  if (maximum !== undefined) field.maximum = maximum;
  const def = prop.default;
  if (def !== undefined) {
    if (typeof def !== 'number' || !Number.isFinite(def)) {
      throw invalid(`${where}: default must be a number, not ${describe(def)}`);
    }
    if (integer && !Number.isInteger(def)) throw invalid(`${where}: default must be a whole number`);
    field.default = def;
  }
  return field;
}

function choice(prop: Json, base: Base, where: string): ChoiceField {
  const options = readOptions(prop, where);
  const field: ChoiceField = { kind: 'choice', ...base, options };
  const def = prop.default;
  if (def !== undefined) {
    if (typeof def !== 'string' || !options.some((o) => o.value === def)) {
      throw invalid(`${where}: default ${describe(def)} is not one of the options`);
    }
    field.default = def;
  }
  return field;
}

function multiChoice(prop: Json, base: Base, where: string): MultiChoiceField {
  if (prop.items === undefined) throw invalid(`${where} is an array without items`);
  const items = asObject(prop.items, `${where}: items`);
  rejectRef(items, `${where}: items`);
  if (items.type === 'object') throw invalid(`${where} is an array of objects; only arrays of options are supported`);
  if (items.type !== undefined && items.type !== 'string') {
    throw invalid(`${where}: items must be options (type "string"), not ${describe(items.type)}`);
  }
  if (items.enum === undefined && items.anyOf === undefined && items.oneOf === undefined) {
    throw invalid(`${where}: items must list options with enum or anyOf`);
  }
  const options = readOptions(items, `${where}: items`);
  const field: MultiChoiceField = { kind: 'multiChoice', ...base, options };
  const { min: minItems, max: maxItems } = readBounds(prop, 'minItems', 'maxItems', where);
  if (minItems !== undefined && minItems > options.length) {
    throw invalid(`${where}: minItems ${minItems} is more than the ${options.length} options`);
  }
  if (minItems !== undefined) field.minItems = minItems;
  if (maxItems !== undefined) field.maxItems = maxItems;
  // "Choose at least one" is how a person reads minItems, listed in `required` or not: leaving
  // the list out, the one other answer the schema allows, is not offered (Decline still is).
  if (minItems !== undefined && minItems > 0) field.required = true;
  const def = prop.default;
  if (def !== undefined) {
    const values = new Set(options.map((o) => o.value));
    if (!Array.isArray(def) || !def.every((v) => typeof v === 'string' && values.has(v))) {
      throw invalid(`${where}: default must be a list of the options`);
    }
    field.default = [...new Set(def as string[])];
  }
  return field;
}

/** Untitled `enum`, legacy `enum` + `enumNames`, or titled `oneOf`/`anyOf` of `{const, title}`. */
function readOptions(schema: Json, where: string): ChoiceOption[] {
  let options: ChoiceOption[];
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum)) throw invalid(`${where}: enum must be a list`);
    const names = schema.enumNames;
    if (names !== undefined && (!Array.isArray(names) || names.length !== schema.enum.length)) {
      throw invalid(`${where}: enumNames must be a list as long as enum`);
    }
    options = schema.enum.map((value, i) => {
      if (typeof value !== 'string') throw invalid(`${where}: enum values must be strings, not ${describe(value)}`);
      const label = names === undefined ? value : names[i];
      if (typeof label !== 'string') throw invalid(`${where}: enumNames must contain only strings`);
      return { value, label: cleanText(label) };
    });
  } else {
    const key = schema.oneOf !== undefined ? 'oneOf' : 'anyOf';
    const list = schema[key];
    if (!Array.isArray(list)) throw invalid(`${where}: ${key} must be a list`);
    options = list.map((entry, i) => {
      const option = asObject(entry, `${where}: ${key}[${i}]`);
      if (typeof option.const !== 'string') throw invalid(`${where}: ${key}[${i}] needs a string const`);
      const title = optionalString(option.title, `${where}: ${key}[${i}].title`);
      const read: ChoiceOption = { value: option.const, label: cleanText(title ?? option.const) };
      const description = optionalText(option.description, `${where}: ${key}[${i}].description`);
      if (description !== undefined && description !== '') read.description = description;
      const preview = optionPreview(option);
      if (preview !== undefined) read.preview = preview;
      return read;
    });
  }
  if (options.length === 0) throw invalid(`${where} has no options`);
  // "" is "no answer" everywhere (an untouched field, a cleared box), so an option "" could be
  // picked but never sent: a required field would be refused by the host's own check.
  if (options.some((o) => o.value === '')) throw invalid(`${where} has an empty option value`);
  if (options.length > LIMITS.maxOptions) {
    throw invalid(`${where} has ${options.length} options; at most ${LIMITS.maxOptions} are supported`);
  }
  if (new Set(options.map((o) => o.value)).size !== options.length) throw invalid(`${where} repeats an option`);
  return options;
}

/** The key claude-agent-acp forwards an AskUserQuestion option's preview under. */
export const OPTION_PREVIEW_META = '_claude/askUserQuestionOption';

/**
 * An option's preview, where its asker sends one (`_meta["_claude/askUserQuestionOption"].preview`).
 * An extension of one agent, so a malformed one is left out rather than refusing the question.
 */
function optionPreview(option: Json): string | undefined {
  const meta = option._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const claude = (meta as Json)[OPTION_PREVIEW_META];
  if (typeof claude !== 'object' || claude === null) return undefined;
  const preview = (claude as Json).preview;
  if (typeof preview !== 'string') return undefined;
  const text = cleanText(preview).replace(/\r\n?/g, '\n').trim();
  if (text === '') return undefined;
  return text.length > LIMITS.maxPreviewLength ? `${text.slice(0, LIMITS.maxPreviewLength)}…` : text;
}

function asObject(value: unknown, where: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${where} must be an object, not ${describe(value)}`);
  }
  return value as Json;
}

function rejectRef(schema: Json, where: string): void {
  for (const key of ['$ref', '$dynamicRef', 'allOf', 'not', 'if', 'patternProperties'] as const) {
    if (schema[key] !== undefined) throw invalid(`${where} uses ${key}, which elicitation forms do not support`);
  }
}

function optionalString(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${where} must be a string`);
  return value;
}

/**
 * Text that is only shown (a title, a description), without the bidi controls and invisible
 * characters that could make it read as something else: cleaned once here, so that every
 * renderer (quick input, form, phone) shows the same safe text. Values are never changed.
 */
function optionalText(value: unknown, where: string): string | undefined {
  const text = optionalString(value, where);
  return text === undefined ? undefined : cleanText(text);
}

function optionalNumber(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`${where} must be a number`);
  return value;
}

/** A pair of count bounds (minLength/maxLength, minItems/maxItems), each a whole number, the first no greater than the second. */
function readBounds(prop: Json, minKey: string, maxKey: string, where: string): { min?: number; max?: number } {
  const min = optionalCount(prop[minKey], `${where}: ${minKey}`);
  const max = optionalCount(prop[maxKey], `${where}: ${maxKey}`);
  if (min !== undefined && max !== undefined && min > max) throw invalid(`${where}: ${minKey} ${min} is greater than ${maxKey} ${max}`);
  return { min, max };
}

function optionalCount(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalid(`${where} must be a whole number of 0 or more`);
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(clip(value));
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value;
}

/** Askers are untrusted: never echo more than a short piece of their text into an error. */
function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function invalid(message: string): InvalidRequestError {
  return new InvalidRequestError(`Invalid elicitation schema: ${message}`);
}

/** normalize() as a result value, for callers that prefer not to catch. */
export function tryNormalize(requestedSchema: unknown): { form: FormModel } | { error: InvalidRequestError } {
  try {
    return { form: normalize(requestedSchema) };
  } catch (error) {
    if (error instanceof InvalidRequestError) return { error };
    // Deliberately total: any other failure is still a refusal, never a crash.
    return { error: new InvalidRequestError('Invalid elicitation schema: it could not be read') };
  }
}
