/**
 * Property fuzzing (fast-check) of everything that reads asker input:
 * - generated requested schemas, valid and broken in every way we could think
 *   of, through normalize(): a field model or an InvalidRequestError, nothing else;
 * - generated answers through the webview's path (collectAnswer / fieldProblem,
 *   exactly what webview/form calls) and the host's (completeAnswer, then
 *   validateAnswer, as the broker and the form panel do): they agree per field;
 * - the quick input's path (parseTextInput + checkField): what it accepts the host accepts;
 * - accepted `pattern`s stay fast on the longest input they are ever run on.
 *
 * Seeded for reproducibility; `FC_SEED=123 npm test -- test/unit/fuzz.test.ts` tries another seed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { validateAnswer } from '../../src/core/form/ajvAnswerCheck';
import { InvalidRequestError } from '../../src/core/errors';
import type { Field, FormModel } from '../../src/core/form/fields';
import {
  collectAnswer,
  errorOf,
  fieldProblem,
  readDraft,
  startingValues,
  initialValues,
  type RawValue,
  type RawValues,
} from '../../src/core/form/formState';
import { normalize, tryNormalize } from '../../src/core/form/normalize';
import { choosePresentation } from '../../src/core/form/presentation';
import type { AnswerValue, ElicitContent } from '../../src/core/request';
import { checkAnswer, checkField, compilePattern, completeAnswer, MAX_PATTERN_INPUT, parseTextInput } from '../../src/core/form/fieldRules';
import { MAX_PATTERN_COST } from '../../src/core/form/linearPattern';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_260_907;
const SCHEMA_RUNS = 10_000;
const ANSWER_RUNS = 1_500;

type Json = Record<string, unknown>;

// ─── Schemas ────────────────────────────────────────────────────────────────

/** Anything an asker may put where a keyword's value belongs. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, '', 'x', [], {}, ['a'], { $ref: '#/definitions/x' }, { type: 'object' }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 6 }),
  fc.double(),
);

const sometimes = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> =>
  fc.oneof({ weight: 30, arbitrary: good }, { weight: 1, arbitrary: oddValue });

const propertyName: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,10}$/) },
  { weight: 2, arbitrary: fc.string({ maxLength: 8, unit: 'grapheme' }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'prototype',
      '__defineGetter__',
      '',
      ' ',
      'a/b',
      '~0',
      '~1',
      'a.b',
      '$ref',
      '0',
      'length',
      'x'.repeat(201),
      '\u202e\u0645',
      '<img src=x onerror=alert(1)>',
    ),
  },
);

const shortText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('<script>window.__pwned=1</script>', '\u202egnp.exe', '$(alert)', 'a\nb', '😀', ''),
);

const quantifierArb = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '{0,40}', '*?');

/** Well-formed regexes built from atoms, quantifiers, groups and alternatives: many pass the safety check. */
const structuredPattern: fc.Arbitrary<string> = fc
  .letrec<{ term: string; sequence: string }>((tie) => ({
    term: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc
        .tuple(fc.constantFrom('a', 'b', '1', '\\d', '\\s', '\\w', '.', '[ab]', '[^a]', '[a-z0-9]', '-', '\\.', '@'), quantifierArb)
        .map(([a, q]) => a + q),
      fc.tuple(fc.constantFrom('(', '(?:'), tie('sequence'), quantifierArb).map(([open, body, q]) => `${open}${body})${q}`),
      fc.tuple(tie('sequence'), tie('sequence')).map(([x, y]) => `(?:${x}|${y})`),
    ),
    sequence: fc.array(tie('term'), { minLength: 1, maxLength: 4 }).map((terms) => terms.join('')),
  }))
  .sequence.chain((body) => fc.tuple(fc.constantFrom('', '^'), fc.constantFrom('', '$')).map(([start, end]) => start + body + end));

/** Patterns: everyday, catastrophic, polynomial, invalid, and random strings of regex syntax. */
const patternArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '^[A-Z]{3}-\\d{3}$',
    '^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$',
    '^(\\d+\\.)+\\d+$',
    '^(?:[a-z0-9]+-)*[a-z0-9]+$',
    '^https?://',
    '^(a+)+$',
    '(a|aa)+',
    '(\\w)\\1',
    'a*a*b',
    '.*x.*y',
    '\\s*\\s*$',
    '(',
    '[',
    '\\',
    'a{2,1}',
    '(?<n>a)\\k<n>',
    '\\p{L}+',
    '^\\p{Lu}',
    '[\\u{1F600}-\\u{1F64F}]',
    'x'.repeat(1001),
    '',
    '^$',
    '.',
    '(?=a)a',
    '(?<!b)a+',
  ),
  fc.string({ unit: fc.constantFrom(...'ab1.()[]*+?|\\d{},^$-'.split('')), maxLength: 10 }),
  fc.constant(null).chain(() => structuredPattern),
);

const textProp = fc.record(
  {
    type: fc.constant('string'),
    title: sometimes(shortText),
    description: sometimes(shortText),
    minLength: sometimes(fc.nat(12)),
    maxLength: sometimes(fc.nat(40)),
    format: sometimes(fc.constantFrom('email', 'uri', 'date', 'date-time', 'password', 'hostname', 'EMAIL', '')),
    pattern: sometimes(patternArb),
    default: sometimes(shortText),
    writeOnly: sometimes(fc.boolean()),
  },
  { requiredKeys: ['type'] },
);

const finiteNumber = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e4, max: 1e4, noNaN: true }));

const numberProp = fc.record(
  {
    type: fc.constantFrom('number', 'integer'),
    title: sometimes(shortText),
    minimum: sometimes(finiteNumber),
    maximum: sometimes(finiteNumber),
    default: sometimes(finiteNumber),
  },
  { requiredKeys: ['type'] },
);

const booleanProp = fc.record(
  { type: fc.constant('boolean'), title: sometimes(shortText), description: sometimes(shortText), default: sometimes(fc.boolean()) },
  { requiredKeys: ['type'] },
);

const optionValues = fc.uniqueArray(fc.oneof(fc.stringMatching(/^[a-z]{1,6}$/), shortText), { minLength: 1, maxLength: 8 });

/** One option list in each of the styles askers use: enum, enum + enumNames, oneOf / anyOf of {const, title}. */
const options: fc.Arbitrary<{ keywords: Json; values: string[] }> = optionValues.chain((values) =>
  fc.oneof(
    fc.constant({ keywords: { enum: values }, values }),
    fc
      .array(shortText, { minLength: values.length, maxLength: values.length })
      .map((names) => ({ keywords: { enum: values, enumNames: names }, values })),
    fc
      .tuple(
        fc.constantFrom('oneOf', 'anyOf'),
        fc.array(fc.option(shortText, { nil: undefined }), { minLength: values.length, maxLength: values.length }),
      )
      .map(([key, titles]) => ({
        keywords: { [key]: values.map((v, i) => (titles[i] === undefined ? { const: v } : { const: v, title: titles[i] })) },
        values,
      })),
  ),
);

const choiceProp = fc
  .tuple(options, fc.boolean(), sometimes(shortText), fc.option(fc.nat(9), { nil: undefined }))
  .map(([{ keywords, values }, typed, title, pick]) => {
    const prop: Json = { ...(typed ? { type: 'string' } : {}), ...keywords };
    if (title !== undefined) prop.title = title;
    if (pick !== undefined) prop.default = pick < values.length ? values[pick] : pick === 9 ? 'not-an-option' : values[0];
    return prop;
  });

const multiProp = fc
  .tuple(
    options,
    fc.option(fc.nat(4), { nil: undefined }),
    fc.option(fc.nat(6), { nil: undefined }),
    fc.option(fc.nat(255), { nil: undefined }),
    fc.boolean(),
  )
  .map(([{ keywords, values }, minItems, maxItems, defaultMask, typedItems]) => {
    const prop: Json = { type: 'array', items: { ...(typedItems ? { type: 'string' } : {}), ...keywords } };
    if (minItems !== undefined) prop.minItems = minItems;
    if (maxItems !== undefined) prop.maxItems = maxItems;
    if (defaultMask !== undefined) prop.default = values.filter((_, i) => (defaultMask >> i) & 1);
    return prop;
  });

const fieldProp: fc.Arbitrary<Json> = fc.oneof(textProp, numberProp, booleanProp, choiceProp, multiProp);

/** An own property, even for "__proto__" (as JSON.parse makes it). */
function objectOf(entries: Array<[string, unknown]>): Json {
  const object: Json = {};
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

const wellFormedSchema: fc.Arbitrary<Json> = fc
  .uniqueArray(fc.tuple(propertyName, fieldProp), { selector: ([name]) => name, maxLength: 6 })
  .chain((entries) =>
    fc.tuple(fc.constant(entries), fc.subarray(entries.map(([name]) => name)), fc.boolean(), fc.nat(9)).map(([, required, typed, odd]) => {
      const extraRequired = odd === 0;
      const schema: Json = { properties: objectOf(entries) };
      if (typed) schema.type = 'object';
      if (required.length > 0 || extraRequired) schema.required = extraRequired ? [...required, 'not-a-property'] : required;
      return schema;
    }),
  );

/** Where a mutation lands and what it does there. */
const KEYWORDS = [
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'enumNames',
  'oneOf',
  'anyOf',
  'const',
  'default',
  'title',
  'description',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'writeOnly',
  '$ref',
  '$dynamicRef',
  'allOf',
  'not',
  'if',
  'patternProperties',
  'additionalProperties',
  '$defs',
  '__proto__',
];
const HUGE_ENUM = Array.from({ length: 10_000 }, (_, i) => `option-${i}`);
const TOO_HUGE_ENUM = [...HUGE_ENUM, 'one-too-many'];

const mutation = fc.record({
  where: fc.constantFrom('root', 'field', 'items'),
  key: fc.constantFrom(...KEYWORDS),
  change: fc.oneof(
    { weight: 6, arbitrary: oddValue.map((value) => ({ set: value })) },
    { weight: 2, arbitrary: fc.constant({ remove: true }) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom<unknown>(
          { type: 'object', properties: { inner: { type: 'string' } } },
          ['string', 'null'],
          'object',
          'null',
          'array',
          'any',
          'String',
          HUGE_ENUM,
          TOO_HUGE_ENUM,
          { $ref: '#/$defs/x' },
        )
        .map((value) => ({ set: value })),
    },
  ),
});

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(schema: Json, mutations: Mutation[]): unknown {
  const root: unknown = JSON.parse(JSON.stringify(schema));
  for (const m of mutations) {
    if (typeof root !== 'object' || root === null || Array.isArray(root)) break;
    let target = root as Json;
    if (m.where !== 'root') {
      const props = target.properties as Json | undefined;
      const names = props && typeof props === 'object' ? Object.keys(props) : [];
      const field = names.length > 0 ? props![names[0]!] : undefined;
      if (typeof field !== 'object' || field === null) continue;
      target = field as Json;
      if (m.where === 'items') {
        if (typeof target.items !== 'object' || target.items === null) continue;
        target = target.items as Json;
      }
    }
    if ('remove' in m.change) delete target[m.key];
    else Object.defineProperty(target, m.key, { value: m.change.set, enumerable: true, writable: true, configurable: true });
  }
  // Over the wire: what JSON can carry, own "__proto__" keys included.
  return JSON.parse(JSON.stringify(root) ?? 'null');
}

const anySchema: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: wellFormedSchema.map((s) => JSON.parse(JSON.stringify(s)) as unknown) },
  { weight: 5, arbitrary: fc.tuple(wellFormedSchema, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([s, ms]) => mutate(s, ms)) },
  // Not even JSON: what a buggy in-process asker could pass.
  {
    weight: 1,
    arbitrary: fc.anything({
      maxDepth: 3,
      withNullPrototype: true,
      withMap: true,
      withSet: true,
      withBigInt: true,
      withDate: true,
      withTypedArray: true,
      withSparseArray: true,
    }),
  },
);

// ─── Answers ────────────────────────────────────────────────────────────────

const dateText = fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true });

/** What a widget can hold for the field: valid and invalid. */
function rawFor(field: Field): fc.Arbitrary<RawValue> {
  switch (field.kind) {
    case 'file':
      // The schema generators make no file fields (they are a draft's, behind a setting): the page holds no value for one.
      return fc.constant(null);
    case 'text': {
      const candidates: Array<fc.Arbitrary<string>> = [
        fc.string({ maxLength: 45 }),
        fc.constantFrom(
          '',
          ' ',
          'a@b.co',
          'https://example.com/x',
          'not a url',
          '2026-02-30',
          '2026-01-31',
          '2026-01-31T09:30:00Z',
          '2026-01-31T09:30:00',
          '😀😀',
          'A'.repeat(MAX_PATTERN_INPUT + 1),
        ),
        fc.emailAddress(),
        fc.webUrl(),
        dateText.map((d) => d.toISOString().slice(0, 10)),
        dateText.map((d) => d.toISOString()),
      ];
      if (field.default !== undefined) candidates.push(fc.constant(field.default));
      if (field.pattern !== undefined) candidates.push(matching(field.pattern));
      return fc.oneof(...candidates);
    }
    case 'number':
      return fc.oneof(
        fc.integer({ min: -2000, max: 2000 }).map(String),
        fc.double({ noNaN: true }).map(String),
        fc.constantFrom('', ' ', ' 12 ', '1e400', '-1e400', '0x10', '1,5', 'abc', '-0', '.5', '5.', '+3', '1e3', 'Infinity', 'NaN', '1 2'),
      );
    case 'boolean':
      return fc.constantFrom(true, false, null);
    case 'choice':
      return fc.oneof(fc.constantFrom('', ...field.options.map((o) => o.value)), fc.string({ maxLength: 5 }));
    case 'multiChoice': {
      const values = field.options.map((o) => o.value);
      return fc.oneof(
        fc.constant(null),
        fc.subarray(values),
        fc.array(fc.constantFrom(...values), { maxLength: 5 }),
        fc.array(fc.oneof(fc.constantFrom(...values), fc.string({ maxLength: 3 })), { maxLength: 4 }),
      );
    }
  }
}

/** Strings the pattern matches, when fast-check can generate them; else any string. */
function matching(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern, 'u'), { size: 'xsmall' });
  } catch {
    return fc.string({ maxLength: 10 });
  }
}

/** Any value an answer may carry, whatever the field: a buggy or hostile renderer's content. */
const anyAnswerValue = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 4 }),
  fc.constantFrom<unknown>(null, {}, [1], ['a', 'a'], '', 0, -0, Number.NaN, Infinity),
) as fc.Arbitrary<AnswerValue>;

/** Forms normalize() accepts, with raw widget values and direct answer values per field. */
const formWithAnswers = wellFormedSchema
  .map((schema) => tryNormalize(JSON.parse(JSON.stringify(schema))))
  .filter((r): r is { form: FormModel } => 'form' in r)
  .chain(({ form }) =>
    fc.record({
      form: fc.constant(form),
      raws: fc.tuple(...form.fields.map((f) => rawFor(f))),
      values: fc.tuple(...form.fields.map(() => fc.option(anyAnswerValue, { nil: undefined }))),
    }),
  );

/** The quick input's verdict for one field's raw value (quickInputRenderer.ts: askText/askOne/askMany). */
function quickInputValue(field: Field, raw: RawValue): { value?: AnswerValue; error?: string } {
  switch (field.kind) {
    case 'file':
      return {};
    case 'text':
    case 'number': {
      const parsed = parseTextInput(field, typeof raw === 'string' ? raw : '');
      if (parsed.error) return parsed;
      const error = checkField(field, parsed.value);
      return error ? { error } : parsed;
    }
    case 'boolean':
      return typeof raw === 'boolean' ? { value: raw } : field.required ? { value: false } : {};
    case 'choice':
      // A quick pick offers only the options (and "Leave empty" when optional).
      if (typeof raw === 'string' && field.options.some((o) => o.value === raw)) return { value: raw, error: checkField(field, raw) };
      return field.required ? { value: field.options[0]!.value } : {};
    case 'multiChoice': {
      const known = new Set(field.options.map((o) => o.value));
      const values = Array.isArray(raw) ? [...new Set(raw.filter((v) => known.has(v)))] : [];
      const error = checkField(field, values.length === 0 ? undefined : values);
      return error ? { error } : values.length === 0 ? {} : { value: values };
    }
  }
}

// ─── Properties ─────────────────────────────────────────────────────────────

describe(`property fuzzing (fast-check, seed ${seed})`, () => {
  it(`normalize() turns ${SCHEMA_RUNS} generated schemas into a field model or a short InvalidRequestError, never anything else`, () => {
    let models = 0;
    let refusals = 0;
    fc.assert(
      fc.property(anySchema, (schema) => {
        let form: FormModel;
        try {
          form = normalize(schema);
        } catch (error) {
          assert.ok(error instanceof InvalidRequestError, `unexpected ${String(error)}`);
          assert.equal(error.code, -32602);
          assert.match(error.message, /^Invalid elicitation schema: \S/);
          assert.ok(error.message.length <= 300, `a long error: ${error.message.length} characters`);
          refusals++;
          return;
        }
        models++;
        // A model is usable as it stands: every consumer reads it without a throw.
        const props = (schema as Json).properties as Json | undefined;
        assert.deepEqual(
          form.fields.map((f) => f.name),
          props === undefined ? [] : Object.keys(props),
        );
        for (const field of form.fields) {
          assert.ok(Object.hasOwn(props!, field.name));
          if (field.default !== undefined) assert.equal(checkField({ ...field, required: false }, field.default), undefined);
          if (field.kind === 'choice' || field.kind === 'multiChoice')
            assert.ok(field.options.length >= 1 && field.options.length <= 10_000);
        }
        choosePresentation(form, 'auto');
        startingValues(form, initialValues(form), undefined);
      }),
      { seed, numRuns: SCHEMA_RUNS },
    );
    // Both outcomes were exercised in earnest.
    assert.ok(models > SCHEMA_RUNS / 5 && refusals > SCHEMA_RUNS / 3, `models ${models}, refusals ${refusals}`);
  });

  it('tryNormalize is total: even a throwing getter or a proxy is a refusal', () => {
    const hostile = [
      {
        get properties() {
          throw new Error('boom');
        },
      },
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('boom');
          },
        },
      ),
      {
        properties: new Proxy(
          {},
          {
            get: () => {
              throw new Error('boom');
            },
          },
        ),
      },
    ];
    for (const schema of hostile) {
      const result = tryNormalize(schema);
      assert.ok('form' in result || result.error instanceof InvalidRequestError);
    }
    assert.ok('error' in tryNormalize(hostile[0]));
  });

  it(`webview and host agree on every field of ${ANSWER_RUNS} generated forms and answers`, () => {
    fc.assert(
      fc.property(formWithAnswers, ({ form, raws: rawList, values }) => {
        const raws: RawValues = objectOf(form.fields.map((f, i) => [f.name, rawList[i]!])) as RawValues;

        // The webview: what webview/form/main.ts calls on submit and per field.
        const webview = collectAnswer(form, raws);
        for (const field of form.fields)
          assert.equal(fieldProblem(field, raws[field.name]), errorOf(webview.errors, field.name), field.name);

        // The host: the form panel and the broker complete the answer, then ajv has the last word.
        const host = validateAnswer(form, completeAnswer(form, webview.content));
        assert.equal(errorOf(host, ''), undefined, 'the webview only sends fields the form asked for');
        for (const field of form.fields) {
          const parseError = fromRawError(field, raws[field.name]);
          if (parseError) {
            // Text a number box cannot read never leaves the webview: it is the webview's to refuse.
            assert.equal(errorOf(webview.errors, field.name), parseError);
            continue;
          }
          assert.equal(
            Object.hasOwn(webview.errors, field.name),
            Object.hasOwn(host, field.name),
            `${JSON.stringify(field)} raw ${JSON.stringify(raws[field.name])}: webview ${webview.errors[field.name]}, host ${host[field.name]}`,
          );
        }

        // The quick input: whatever it accepts, the broker's final check accepts.
        const quick: ElicitContent = {};
        let quickOk = true;
        for (const field of form.fields) {
          const { value, error } = quickInputValue(field, raws[field.name] ?? null);
          if (error) quickOk = false;
          if (value !== undefined) quick[field.name] = value;
        }
        if (quickOk)
          assert.deepEqual(validateAnswer(form, completeAnswer(form, quick)), {}, `quick input content ${JSON.stringify(quick)}`);

        // Any content at all (wrong types included): ajv never refuses what the field rules accept, nor the reverse.
        const content: ElicitContent = {};
        form.fields.forEach((f, i) => {
          if (values[i] !== undefined) content[f.name] = values[i]!;
        });
        // As the host does: "" is no answer (completeAnswer drops it or puts the default in its place).
        const completed = completeAnswer(form, content);
        const rules = checkAnswer(form, completed);
        const ajv = validateAnswer(form, completed);
        for (const field of form.fields) {
          assert.equal(
            Object.hasOwn(rules, field.name),
            Object.hasOwn(ajv, field.name),
            `${JSON.stringify(field)} value ${JSON.stringify(content[field.name])}: rules ${rules[field.name]}, ajv ${ajv[field.name]}`,
          );
        }
      }),
      { seed, numRuns: ANSWER_RUNS, includeErrorInReport: true },
    );
  });

  it('a saved draft of any shape is read without a throw and yields only well-formed values', () => {
    fc.assert(
      fc.property(formWithAnswers, fc.anything({ maxDepth: 3 }), fc.integer({ min: 0, max: 3 }), ({ form }, state, id) => {
        const draft = readDraft(form, id, state);
        if (draft) startingValues(form, initialValues(form), draft);
        const shaped = readDraft(form, 1, { questionId: 1, values: objectOf(form.fields.map((f) => [f.name, state])) });
        for (const [name, raw] of Object.entries(shaped ?? {})) {
          const field = form.fields.find((f) => f.name === name)!;
          fieldProblem(field, raw);
        }
      }),
      { seed, numRuns: 500 },
    );
  });

  it('every pattern normalize() accepts runs in bounded steps on the longest input it is ever given', () => {
    let accepted = 0;
    fc.assert(
      fc.property(structuredPattern, (pattern) => {
        const result = tryNormalize({ type: 'object', properties: { f: { type: 'string', pattern } } });
        if ('error' in result) return;
        accepted++;
        const field = result.form.fields[0]!;
        const linear = compilePattern(pattern);
        assert.ok(linear.cost <= MAX_PATTERN_COST, `${pattern} costs ${linear.cost}`);
        for (const unit of ['a', 'b', '1', '.', ' ', 'ab', 'a1', 'a-', '1.', 'a@']) {
          const input = unit.repeat(Math.floor(MAX_PATTERN_INPUT / unit.length)).slice(0, MAX_PATTERN_INPUT - 1) + '!';
          // Counted, not timed: steps ≤ (n + 1) × cost holds on a machine of any speed (npm run bench times them).
          const { matched, steps } = linear.measure(input);
          assert.ok(steps <= (input.length + 1) * linear.cost, `${pattern}: ${steps} steps on ${unit}…`);
          assert.equal(checkField(field, input) === undefined, matched, `${pattern} on ${unit}…`);
        }
      }),
      { seed, numRuns: 1_500 },
    );
    assert.ok(accepted > 150, `only ${accepted} patterns were accepted`);
  });
});

/** The webview's own parse error for a raw value (text a number box cannot read), if any. */
function fromRawError(field: Field, raw: RawValue | undefined): string | undefined {
  return (field.kind === 'text' || field.kind === 'number') && typeof raw === 'string' ? parseTextInput(field, raw).error : undefined;
}
