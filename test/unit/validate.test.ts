/**
 * Field rules as sentences (fieldRules.ts, the webview's live check) and the
 * host's authoritative ajv check (ajvAnswerCheck.ts), which must agree.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerAjv, toJsonSchema, validateAnswer } from '../../src/core/form/ajvAnswerCheck';
import type { Field, FormModel, MultiChoiceField, TextFormat } from '../../src/core/form/fields';
import { normalize } from '../../src/core/form/normalize';
import type { AnswerValue, ElicitContent } from '../../src/core/request';
import {
  checkAnswer,
  checkField,
  compilePattern,
  completeAnswer,
  FORMAT_HINTS,
  MAX_PATTERN_INPUT,
  multiChoiceRule,
  PATTERN_MISMATCH,
  parseTextInput,
} from '../../src/core/form/fieldRules';
import { everythingSchema } from '../support/everythingSchema';

/** One field from one property schema, named "f". */
function field(prop: Record<string, unknown>, required = false): Field {
  return normalize({ type: 'object', properties: { f: prop }, required: required ? ['f'] : [] }).fields[0]!;
}

/** Values a person cannot produce but an answer may still contain. */
function odd(value: unknown): AnswerValue {
  return value as AnswerValue;
}

describe('checkField sentences', () => {
  it('"Required" for a missing or empty required value, nothing for an optional one', () => {
    for (const prop of [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { enum: ['a'] },
      { type: 'array', items: { enum: ['a'] } },
    ]) {
      assert.equal(checkField(field(prop, true), undefined), 'Required', JSON.stringify(prop));
      assert.equal(checkField(field(prop, true), ''), 'Required', JSON.stringify(prop));
      assert.equal(checkField(field(prop), undefined), undefined, JSON.stringify(prop));
      assert.equal(checkField(field(prop), ''), undefined, JSON.stringify(prop));
    }
  });

  it('false, 0 and an empty list are answers, not "Required"', () => {
    assert.equal(checkField(field({ type: 'boolean' }, true), false), undefined);
    assert.equal(checkField(field({ type: 'number' }, true), 0), undefined);
    assert.equal(checkField(field({ type: 'array', items: { enum: ['a'] } }, true), []), undefined);
  });

  it('text lengths, singular and plural', () => {
    const f = field({ type: 'string', minLength: 3, maxLength: 5 });
    assert.equal(checkField(f, 'ab'), 'Must be at least 3 characters');
    assert.equal(checkField(f, 'abcdef'), 'Must be at most 5 characters');
    assert.equal(checkField(f, 'abc'), undefined);
    assert.equal(checkField(f, 'abcde'), undefined);
    assert.equal(checkField(field({ type: 'string', minLength: 2, maxLength: 2 }), 'a'), 'Must be at least 2 characters');
    assert.equal(checkField(field({ type: 'string', maxLength: 1 }), 'ab'), 'Must be at most 1 character');
    assert.equal(checkField(field({ type: 'string', minLength: 1 }), ' '), undefined);
  });

  it('counts code points, not UTF-16 units: an emoji is one character', () => {
    const f = field({ type: 'string', minLength: 2, maxLength: 2 });
    assert.equal('😀😀'.length, 4);
    assert.equal(checkField(f, '😀😀'), undefined);
    assert.equal(checkField(f, '😀'), 'Must be at least 2 characters');
    assert.equal(checkField(f, '😀😀😀'), 'Must be at most 2 characters');
    assert.equal(checkField(field({ type: 'string', maxLength: 1 }), '𝒳'), undefined);
  });

  it('a format hint for each format', () => {
    const bad: Record<TextFormat, string> = {
      email: 'not-an-email',
      uri: 'example.com',
      date: '31/01/2026',
      'date-time': '2026-01-31 09:30',
    };
    const good: Record<TextFormat, string> = {
      email: 'ada@example.com',
      uri: 'https://example.com/x?y=1',
      date: '2026-01-31',
      'date-time': '2026-01-31T09:30:00Z',
    };
    for (const format of ['email', 'uri', 'date', 'date-time'] as const) {
      const f = field({ type: 'string', format });
      assert.equal(checkField(f, bad[format]), FORMAT_HINTS[format], format);
      assert.equal(checkField(f, good[format]), undefined, format);
    }
    assert.equal(FORMAT_HINTS.email, 'Must look like name@example.com');
    assert.equal(FORMAT_HINTS.uri, 'Must be a URL such as https://example.com');
    assert.equal(FORMAT_HINTS.date, 'Must be a date such as 2026-01-31');
    assert.equal(FORMAT_HINTS['date-time'], 'Must be a date and time such as 2026-01-31T09:30:00Z');
  });

  it('a multi-select states its rule, and one with minItems asks for that many when nothing is chosen', () => {
    const rule = (prop: Record<string, unknown>): string =>
      multiChoiceRule(field({ type: 'array', items: { enum: ['a', 'b', 'c'] }, ...prop }) as MultiChoiceField);
    assert.equal(rule({ minItems: 1, maxItems: 2 }), 'Choose 1 to 2');
    assert.equal(rule({ minItems: 2, maxItems: 2 }), 'Choose 2');
    assert.equal(rule({ minItems: 1 }), 'Choose at least 1');
    assert.equal(rule({ maxItems: 2 }), 'Choose at most 2');
    assert.equal(rule({ minItems: 0 }), '');
    assert.equal(rule({}), '');
    const atLeastTwo = field({ type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 2 });
    assert.equal(checkField(atLeastTwo, undefined), 'Choose at least 2 options');
    assert.equal(checkField(atLeastTwo, ['a']), 'Choose at least 2 options');
  });

  // Issue #25 item 11: the description is printed right beside the error (above the form's field, on
  // the input box's prompt line), so the error does not say it a second time.
  it("a pattern mismatch does not repeat the field's description, which is shown beside it", () => {
    const code = field({
      type: 'string',
      description: 'Three capital letters, a hyphen and three digits, e.g. SNG-042',
      pattern: '^[A-Z]{3}-\\d{3}$',
      examples: ['SNG-042'],
    });
    assert.equal(checkField(code, 'SNG042'), 'Not in the form this field asks for');
    assert.equal(checkField(code, 'SNG-042'), undefined);
  });

  it("a pattern mismatch gives the first of the schema's examples that fits", () => {
    const code = field({ type: 'string', pattern: '^[A-Z]{3}-\\d{3}$', examples: [42, 'sng-042', 'SNG-042', 'ABC-123'] });
    assert.equal(checkField(code, 'x'), 'Not in the form this field asks for, e.g. SNG-042');
    const both = field({ type: 'string', description: 'Your catalog code', pattern: '^[A-Z]{3}-\\d{3}$', examples: ['SNG-042'] });
    assert.equal(checkField(both, 'x'), 'Not in the form this field asks for, e.g. SNG-042');
    // An example that breaks the field's own rules (here its length) would mislead: none is given.
    const misfit = field({ type: 'string', pattern: '^[A-Z]+$', maxLength: 3, examples: ['ABCD'] });
    assert.equal(checkField(misfit, 'x'), PATTERN_MISMATCH);
  });

  it('a length problem is reported before a format problem', () => {
    assert.equal(checkField(field({ type: 'string', format: 'email', minLength: 20 }), 'x'), 'Must be at least 20 characters');
  });

  it('a pattern mismatch is described, never shown as the asker wrote it', () => {
    const hostile = field({ type: 'string', pattern: '^[A-Z]{3}$ [see help](command:workbench.action.openSettings) $(shield)' });
    assert.equal(checkField(hostile, 'abc'), 'Not in the form this field asks for');
    assert.equal(PATTERN_MISMATCH, 'Not in the form this field asks for');
    const f = field({ type: 'string', pattern: '^[A-Z]{3}$' });
    assert.equal(checkField(f, 'abc'), PATTERN_MISMATCH);
    assert.equal(checkField(f, 'ABC'), undefined);
    // Patterns are unanchored unless they say otherwise, as in JSON Schema.
    assert.equal(checkField(field({ type: 'string', pattern: '[0-9]' }), 'abc1def'), undefined);
    // Compiled with the u flag, as ajv does.
    assert.equal(checkField(field({ type: 'string', pattern: '^\\p{Lu}+$' }), 'ÄÖÜ'), undefined);
    assert.equal(checkField(field({ type: 'string', pattern: '^.$' }), '😀'), undefined);
  });

  it('refuses to run a pattern on very long text', () => {
    const f = field({ type: 'string', pattern: '^a*$' });
    assert.equal(checkField(f, 'a'.repeat(MAX_PATTERN_INPUT)), undefined);
    assert.equal(checkField(f, 'a'.repeat(MAX_PATTERN_INPUT + 1)), 'Too long to check against the required pattern');
  });

  it('numbers: whole number, bounds, not a number', () => {
    const f = field({ type: 'integer', minimum: 60, maximum: 180 });
    assert.equal(checkField(f, 90.5), 'Must be a whole number');
    assert.equal(checkField(f, 59), 'Must be at least 60');
    assert.equal(checkField(f, 181), 'Must be at most 180');
    assert.equal(checkField(f, 60), undefined);
    assert.equal(checkField(f, 180), undefined);
    assert.equal(checkField(f, 120.0), undefined);
    assert.equal(checkField(f, '90'), 'Must be a number');
    assert.equal(checkField(f, NaN), 'Must be a number');
    assert.equal(checkField(field({ type: 'number' }), Infinity), 'Must be a number');
    assert.equal(checkField(field({ type: 'number', minimum: 0.5 }), 0.25), 'Must be at least 0.5');
    assert.equal(checkField(field({ type: 'number' }), -1e300), undefined);
  });

  it('wrong value types', () => {
    assert.equal(checkField(field({ type: 'string' }), 5), 'Must be text');
    assert.equal(checkField(field({ type: 'string' }), ['a']), 'Must be text');
    assert.equal(checkField(field({ type: 'boolean' }), 'true'), 'Must be yes or no');
    assert.equal(checkField(field({ type: 'boolean' }), 1), 'Must be yes or no');
  });

  it('single choice: a value not among the options', () => {
    const f = field({ type: 'string', oneOf: [{ const: 'r', title: 'Red' }] });
    assert.equal(checkField(f, 'Red'), 'Choose one of the listed options');
    assert.equal(checkField(f, ['r']), 'Choose one of the listed options');
    assert.equal(checkField(f, 'r'), undefined);
  });

  it('multiple choice: unknown options, duplicates, too few, too many', () => {
    const f = field({ type: 'array', items: { enum: ['a', 'b', 'c', 'd', 'e'] }, minItems: 1, maxItems: 3 });
    assert.equal(checkField(f, []), 'Choose at least 1 option');
    assert.equal(checkField(f, ['a', 'b', 'c', 'd']), 'Choose at most 3 options');
    assert.equal(checkField(f, ['a', 'a']), 'Choose each option once');
    assert.equal(checkField(f, ['a', 'z']), 'Choose from the listed options');
    assert.equal(checkField(f, 'a'), 'Choose from the listed options');
    assert.equal(checkField(f, odd([1])), 'Choose from the listed options');
    assert.equal(checkField(f, ['e', 'a']), undefined);
    const two = field({ type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 2, maxItems: 2 });
    assert.equal(checkField(two, ['a']), 'Choose at least 2 options');
    assert.equal(checkField(field({ type: 'array', items: { enum: ['a', 'b'] }, maxItems: 1 }), ['a', 'b']), 'Choose at most 1 option');
  });
});

describe('compilePattern', () => {
  it('compiles with the u flag and reuses the compiled pattern', () => {
    const first = compilePattern('^\\p{Lu}$');
    assert.equal(first.test('Ä'), true);
    assert.equal(compilePattern('^\\p{Lu}$'), first);
  });
});

describe('parseTextInput', () => {
  const num = field({ type: 'number' });
  const int = field({ type: 'integer' });

  it('parses numbers strictly', () => {
    assert.deepEqual(parseTextInput(num, '42'), { value: 42 });
    assert.deepEqual(parseTextInput(num, ' 42 '), { value: 42 });
    assert.deepEqual(parseTextInput(num, '-0.5'), { value: -0.5 });
    assert.deepEqual(parseTextInput(num, '.5'), { value: 0.5 });
    assert.deepEqual(parseTextInput(num, '5.'), { value: 5 });
    assert.deepEqual(parseTextInput(num, '+7'), { value: 7 });
    assert.deepEqual(parseTextInput(num, '1e3'), { value: 1000 });
    assert.deepEqual(parseTextInput(num, '2.5E-1'), { value: 0.25 });
  });

  it('rejects what Number() would quietly accept or half-read', () => {
    for (const text of ['12abc', 'abc', 'Infinity', '-Infinity', 'NaN', '0x10', '0b1', '1_000', '1,5', '1e', '.', '-', '1e400', '٣']) {
      assert.deepEqual(parseTextInput(num, text), { error: 'Must be a number' }, text);
    }
    assert.deepEqual(parseTextInput(int, '12abc'), { error: 'Must be a whole number' });
  });

  it('empty (or blank) number input is no value at all', () => {
    assert.deepEqual(parseTextInput(num, ''), {});
    assert.deepEqual(parseTextInput(num, '   '), {});
  });

  it('leaves whole-number checking of parsed values to checkField', () => {
    const parsed = parseTextInput(int, '1.5');
    assert.deepEqual(parsed, { value: 1.5 });
    assert.equal(checkField(int, parsed.value), 'Must be a whole number');
  });

  it('keeps text exactly as typed; empty text is no value', () => {
    const text = field({ type: 'string' });
    assert.deepEqual(parseTextInput(text, '  spaced  '), { value: '  spaced  ' });
    assert.deepEqual(parseTextInput(text, '12abc'), { value: '12abc' });
    assert.deepEqual(parseTextInput(text, ''), {});
  });
});

describe('checkAnswer and completeAnswer', () => {
  const form = normalize(structuredClone(everythingSchema));

  it('checkAnswer lists only the fields with a problem', () => {
    const errors = checkAnswer(form, { email: 'nope', integer: 500, untitledMultipleSelectEnum: [] });
    assert.deepEqual(errors, {
      name: 'Required',
      email: FORMAT_HINTS.email,
      integer: 'Must be at most 100',
      untitledMultipleSelectEnum: 'Choose at least 1 option',
      titledMultipleSelectEnum: 'Choose at least 1 option',
    });
    // The multi-selects (minItems 1) ask for a choice; their defaults, filled in by completeAnswer, give one.
    const chosen = { untitledMultipleSelectEnum: ['Guitar'], titledMultipleSelectEnum: ['fish-1'] };
    assert.deepEqual(checkAnswer(form, { name: 'Ada', ...chosen }), {});
    assert.deepEqual(checkAnswer(form, completeAnswer(form, { name: 'Ada' })), {});
  });

  it('checkAnswer ignores keys the form did not ask for and inherited values', () => {
    const chosen = { untitledMultipleSelectEnum: ['Guitar'], titledMultipleSelectEnum: ['fish-1'] };
    assert.deepEqual(checkAnswer(form, { name: 'Ada', extra: 'x', ...chosen }), {});
    const inherited = Object.create({ name: 'Ada', ...chosen }) as ElicitContent;
    assert.deepEqual(checkAnswer(form, inherited), {
      name: 'Required',
      untitledMultipleSelectEnum: 'Choose at least 1 option',
      titledMultipleSelectEnum: 'Choose at least 1 option',
    });
  });

  it('completeAnswer fills the default of every untouched field', () => {
    assert.deepEqual(completeAnswer(form, { name: 'Ada' }), {
      name: 'Ada',
      firstLine: 'It was a dark and stormy night.',
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: 'Monica',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      titledMultipleSelectEnum: ['fish-1'],
      legacyTitledEnum: 'pet-1',
    });
  });

  it('completeAnswer keeps what was given (also false, 0 and []), treats "" as untouched and drops unknown keys', () => {
    const answer = completeAnswer(form, {
      name: 'Ada',
      check: false,
      firstLine: '',
      integer: 7,
      number: 0,
      untitledMultipleSelectEnum: [],
      legacyTitledEnum: 'pet-3',
      surprise: 'dropped',
    });
    assert.equal(answer.check, false);
    assert.equal(answer.firstLine, 'It was a dark and stormy night.');
    assert.equal(answer.integer, 7);
    assert.equal(answer.number, 0);
    assert.deepEqual(answer.untitledMultipleSelectEnum, []);
    assert.equal(answer.legacyTitledEnum, 'pet-3');
    assert.equal(Object.hasOwn(answer, 'surprise'), false);
    assert.equal(Object.hasOwn(answer, 'email'), false);
  });

  it('completeAnswer does not fill a default of "" (no value, like a given "")', () => {
    // Was a bug: {format: "email", default: ""} untouched became "" and failed the host check.
    const f: FormModel = { fields: [field({ type: 'string', format: 'email', default: '' }), field({ type: 'string', default: '' })] };
    assert.deepEqual(completeAnswer(f, {}), {});
    const email: FormModel = { fields: [field({ type: 'string', format: 'email', minLength: 3, default: '' })] };
    assert.deepEqual(validateAnswer(email, completeAnswer(email, {})), {});
  });

  it('completeAnswer leaves an untouched field without default out', () => {
    const f: FormModel = { fields: [field({ type: 'string' })] };
    assert.deepEqual(completeAnswer(f, {}), {});
    assert.deepEqual(completeAnswer(f, { f: '' }), {});
  });
});

describe('validateAnswer (host side, ajv)', () => {
  it('toJsonSchema rebuilds exactly the rules of the model', () => {
    const form = normalize({
      type: 'object',
      properties: {
        t: { type: 'string', minLength: 1, format: 'email', title: 'ignored', default: 'a@b.co' },
        n: { type: 'integer', maximum: 3 },
        c: { type: 'string', oneOf: [{ const: 'x', title: 'X' }] },
        m: { type: 'array', items: { enum: ['p', 'q'] }, maxItems: 1 },
        b: { type: 'boolean' },
      },
      required: ['n'],
    });
    assert.deepEqual(toJsonSchema(form), {
      type: 'object',
      properties: {
        t: { type: 'string', minLength: 1, format: 'email' },
        n: { type: 'integer', maximum: 3 },
        c: { type: 'string', elicitOptions: ['x'] },
        m: { type: 'array', uniqueItems: true, items: { type: 'string', elicitOptions: ['p', 'q'] }, maxItems: 1 },
        b: { type: 'boolean' },
      },
      required: ['n'],
      additionalProperties: false,
    });
  });

  it("uses the field rules' sentences, and flags fields the form did not ask for", () => {
    const form = normalize({ type: 'object', properties: { n: { type: 'integer', minimum: 60 } }, required: ['n'] });
    assert.deepEqual(validateAnswer(form, { n: 12 }), { n: 'Must be at least 60' });
    assert.deepEqual(validateAnswer(form, {}), { n: 'Required' });
    assert.deepEqual(validateAnswer(form, { n: 60, other: 1 }), { '': 'The answer has a field the form did not ask for' });
  });

  it('maps ajv errors back to field names with / and ~ in them', () => {
    const form = normalize({ type: 'object', properties: { 'a/b~c': { type: 'string', minLength: 2 } } });
    // "" passes the field rules (it means "not answered") but not ajv.
    const errors = validateAnswer(form, { 'a/b~c': '' });
    assert.deepEqual(Object.keys(errors), ['a/b~c']);
    assert.match(errors['a/b~c']!, /^Invalid value \(/);
  });

  it('keeps an ajv error for a field named like an Object.prototype member', () => {
    // Was a bug: `key in errors` is true for "constructor", so ajv's verdict was dropped.
    const form = normalize({
      type: 'object',
      properties: { constructor: { type: 'number' }, toString: { type: 'string', format: 'email' } },
    });
    const errors = validateAnswer(form, { constructor: '', toString: '' });
    assert.deepEqual(Object.keys(errors).sort(), ['constructor', 'toString']);
    assert.deepEqual(validateAnswer(form, {}), {});
  });

  it('a required field named "constructor" is still required', () => {
    const form = normalize({ type: 'object', properties: { constructor: { type: 'string' } }, required: ['constructor'] });
    assert.deepEqual(validateAnswer(form, {}), { constructor: 'Required' });
  });

  it('accepts the completed answer to the server-everything form', () => {
    const form = normalize(structuredClone(everythingSchema));
    assert.deepEqual(validateAnswer(form, completeAnswer(form, { name: 'Ada' })), {});
  });
});

/**
 * The shared table: one field and one value per row; the webview's rules
 * (checkAnswer) and the host's ajv check (validateAnswer) must reach the same
 * verdict, and it must be the expected one.
 */
interface Row {
  prop: Record<string, unknown>;
  required?: boolean;
  /** undefined: the key is absent. */
  value: unknown;
  valid: boolean;
  /** ajv alone, where the field rules are deliberately stricter. */
  ajvAlone?: boolean;
}

const text = { type: 'string' };
const lengths = { type: 'string', minLength: 3, maxLength: 5 };
const pattern = { type: 'string', pattern: '^[A-Z]{3}$' };
const range = { type: 'integer', minimum: 60, maximum: 180 };
const decimal = { type: 'number', minimum: -1.5, maximum: 2.5 };
const choice = {
  type: 'string',
  oneOf: [
    { const: 'r', title: 'Red' },
    { const: 'g', title: 'Green' },
  ],
};
const legacy = { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'] };
const multi = { type: 'array', items: { enum: ['a', 'b', 'c', 'd', 'e'] }, minItems: 1, maxItems: 3 };
const anyMulti = {
  type: 'array',
  items: {
    anyOf: [
      { const: 'x', title: 'X' },
      { const: 'y', title: 'Y' },
    ],
  },
};

const TABLE: Row[] = [
  // Presence
  { prop: text, required: true, value: undefined, valid: false },
  { prop: text, required: true, value: '', valid: false, ajvAlone: true }, // "" is present to ajv, unanswered to a person
  { prop: text, required: true, value: 'x', valid: true },
  { prop: text, value: undefined, valid: true },
  { prop: text, value: '   ', valid: true },
  { prop: { type: 'number' }, required: true, value: undefined, valid: false },
  { prop: { type: 'boolean' }, required: true, value: undefined, valid: false },
  { prop: { type: 'boolean' }, required: true, value: false, valid: true },
  { prop: choice, required: true, value: undefined, valid: false },
  { prop: multi, required: true, value: undefined, valid: false },
  { prop: anyMulti, required: true, value: [], valid: true },
  // Text types and lengths
  { prop: text, value: 5, valid: false },
  { prop: text, value: true, valid: false },
  { prop: text, value: ['x'], valid: false },
  { prop: text, value: null, valid: false },
  { prop: lengths, value: 'ab', valid: false },
  { prop: lengths, value: 'abc', valid: true },
  { prop: lengths, value: 'abcde', valid: true },
  { prop: lengths, value: 'abcdef', valid: false },
  { prop: lengths, value: '😀😀😀', valid: true },
  { prop: lengths, value: '😀😀', valid: false },
  { prop: lengths, value: '👩‍👩‍👧', valid: true }, // 5 code points (ZWJ sequence)
  { prop: lengths, value: '😀😀😀😀😀😀', valid: false },
  { prop: lengths, value: '\ud800ab', valid: true }, // lone surrogate counts as one
  { prop: { type: 'string', maxLength: 0 }, value: 'x', valid: false },
  // Formats
  { prop: { type: 'string', format: 'email' }, value: 'ada@example.com', valid: true },
  { prop: { type: 'string', format: 'email' }, value: 'ada@', valid: false },
  { prop: { type: 'string', format: 'email' }, value: 'ada example.com', valid: false },
  { prop: { type: 'string', format: 'uri' }, value: 'https://example.com/a?b=c#d', valid: true },
  { prop: { type: 'string', format: 'uri' }, value: 'www.example.com', valid: false },
  { prop: { type: 'string', format: 'uri' }, value: 'urn:x:y', valid: true },
  { prop: { type: 'string', format: 'date' }, value: '2026-01-31', valid: true },
  { prop: { type: 'string', format: 'date' }, value: '2026-02-30', valid: false },
  { prop: { type: 'string', format: 'date' }, value: '2026-01-31T00:00:00Z', valid: false },
  { prop: { type: 'string', format: 'date-time' }, value: '2026-01-31T09:30:00Z', valid: true },
  { prop: { type: 'string', format: 'date-time' }, value: '2026-01-31t09:30:00+05:30', valid: true },
  { prop: { type: 'string', format: 'date-time' }, value: '2026-01-31T09:30:00', valid: false },
  { prop: { type: 'string', format: 'date-time' }, value: 'yesterday', valid: false },
  { prop: { type: 'string', format: 'password' }, value: 'anything at all', valid: true },
  { prop: { type: 'string', format: 'hostname' }, value: 'not a hostname!', valid: true },
  // Patterns
  { prop: pattern, value: 'ABC', valid: true },
  { prop: pattern, value: 'abc', valid: false },
  { prop: pattern, value: 'ABCD', valid: false },
  { prop: { type: 'string', pattern: 'b' }, value: 'abc', valid: true },
  { prop: { type: 'string', pattern: '^\\p{L}+$' }, value: 'Ünïcödé', valid: true },
  { prop: { type: 'string', pattern: '^\\p{L}+$' }, value: 'abc1', valid: false },
  { prop: { type: 'string', pattern: '^.{2}$' }, value: '😀😀', valid: true },
  // The field rules refuse to run a pattern on huge text; ajv alone would run it.
  { prop: { type: 'string', pattern: '^a*$' }, value: 'a'.repeat(MAX_PATTERN_INPUT + 1), valid: false },
  { prop: { type: 'string', pattern: '^[A-Z]+$', minLength: 2 }, value: 'A', valid: false },
  // Numbers
  { prop: range, value: 60, valid: true },
  { prop: range, value: 180, valid: true },
  { prop: range, value: 59, valid: false },
  { prop: range, value: 181, valid: false },
  { prop: range, value: 90.5, valid: false },
  { prop: range, value: 100.0, valid: true },
  { prop: range, value: '90', valid: false },
  { prop: { type: 'integer' }, value: 2 ** 53, valid: true },
  { prop: { type: 'integer' }, value: -3, valid: true },
  { prop: decimal, value: -1.5, valid: true },
  { prop: decimal, value: 2.5000001, valid: false },
  { prop: decimal, value: 0.1 + 0.2, valid: true },
  { prop: decimal, value: -1.50001, valid: false },
  { prop: { type: 'number' }, value: true, valid: false },
  { prop: { type: 'number' }, value: [1], valid: false },
  // Booleans
  { prop: { type: 'boolean' }, value: true, valid: true },
  { prop: { type: 'boolean' }, value: 'true', valid: false },
  { prop: { type: 'boolean' }, value: 0, valid: false },
  // Single choice
  { prop: choice, value: 'r', valid: true },
  { prop: choice, value: 'Red', valid: false },
  { prop: choice, value: 'R', valid: false },
  { prop: choice, value: ['r'], valid: false },
  { prop: legacy, value: 'p2', valid: true },
  { prop: legacy, value: 'Dogs', valid: false },
  { prop: { type: 'string', enum: ['1'] }, value: 1, valid: false },
  // Multiple choice
  { prop: multi, value: ['a'], valid: true },
  { prop: multi, value: ['a', 'b', 'c'], valid: true },
  { prop: multi, value: [], valid: false },
  { prop: multi, value: ['a', 'b', 'c', 'd'], valid: false },
  { prop: multi, value: ['a', 'a'], valid: false },
  { prop: multi, value: ['a', 'z'], valid: false },
  { prop: multi, value: 'a', valid: false },
  { prop: multi, value: [1], valid: false },
  { prop: anyMulti, value: [], valid: true },
  { prop: anyMulti, value: ['y', 'x'], valid: true },
  { prop: anyMulti, value: ['X'], valid: false },
];

function verdicts(row: Row): { form: FormModel; content: ElicitContent } {
  const form = normalize({ type: 'object', properties: { f: row.prop }, required: row.required ? ['f'] : [] });
  const content: ElicitContent = row.value === undefined ? {} : { f: odd(row.value) };
  return { form, content };
}

function label(row: Row): string {
  const value =
    typeof row.value === 'string' && row.value.length > 40 ? `${row.value.slice(0, 10)}…(${row.value.length})` : JSON.stringify(row.value);
  return `${JSON.stringify(row.prop)}${row.required ? ' required' : ''} ← ${value} is ${row.valid ? 'valid' : 'invalid'}`;
}

/**
 * validateAnswer reports the field rules' errors plus ajv's, so on its own it
 * only shows that ajv is never stricter than the field rules. ajv alone, on the
 * schema rebuilt by toJsonSchema (with the options ajvAnswerCheck.ts uses),
 * shows it is not laxer either: the rebuilt schema carries every rule.
 */
const ajvAlone = answerAjv();

describe('shared table: checkAnswer (webview) and validateAnswer (host, ajv) agree', () => {
  it(`has at least 60 rows (${TABLE.length})`, () => {
    assert.ok(TABLE.length >= 60);
  });

  for (const row of TABLE) {
    it(label(row), () => {
      const { form, content } = verdicts(row);
      const webview = checkAnswer(form, content);
      const host = validateAnswer(form, content);
      assert.equal(Object.keys(webview).length === 0, row.valid, `checkAnswer: ${JSON.stringify(webview)}`);
      assert.equal(Object.keys(host).length === 0, row.valid, `validateAnswer: ${JSON.stringify(host)}`);
      // The host never invents a second opinion where the field rules already spoke.
      if (!row.valid) assert.equal(host.f, webview.f);
      const schemaOnly = ajvAlone.validate(toJsonSchema(form), content);
      assert.equal(schemaOnly, row.ajvAlone ?? row.valid, `ajv alone: ${JSON.stringify(ajvAlone.errors)}`);
    });
  }

  it('after completeAnswer, the host agrees with the webview on every row, extra keys and "" included', () => {
    const extraRows: Row[] = [
      { prop: lengths, value: '', valid: true },
      { prop: { type: 'string', format: 'email' }, value: '', valid: true },
      { prop: pattern, value: '', valid: true },
      { prop: range, value: '', valid: true },
      { prop: choice, value: '', valid: true },
    ];
    for (const row of [...TABLE, ...extraRows]) {
      const { form, content } = verdicts(row);
      const webviewValid = Object.keys(checkAnswer(form, { ...content, unasked: 'x' })).length === 0;
      const hostValid = Object.keys(validateAnswer(form, completeAnswer(form, { ...content, unasked: 'x' }))).length === 0;
      assert.equal(webviewValid, row.valid, label(row));
      assert.equal(hostValid, row.valid, label(row));
    }
  });

  it('raw "" for an optional constrained field: the webview means "not answered", ajv refuses the literal ""', () => {
    // By design: completeAnswer removes "" before the host checks (see the test above).
    const { form, content } = verdicts({ prop: { type: 'string', format: 'email' }, value: '', valid: true });
    assert.deepEqual(checkAnswer(form, content), {});
    assert.match(validateAnswer(form, content).f ?? '', /^Invalid value/);
  });
});
