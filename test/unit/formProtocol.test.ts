/**
 * The form webview's message guard and its pure state helpers: what crosses
 * postMessage, how widget values become answers, what a draft may hold, and
 * that the webview's checks agree with the host's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateAnswer } from '../../src/core/form/ajvAnswerCheck';
import type { FormModel } from '../../src/core/form/fields';
import {
  collectAnswer,
  errorOf,
  fieldProblem,
  fromRaw,
  initialValues,
  makeDraft,
  readDraft,
  splitLongText,
  startingValues,
  toRaw,
  type RawValues,
} from '../../src/core/form/formState';
import { normalize } from '../../src/core/form/normalize';
import { completeAnswer } from '../../src/core/form/fieldRules';
import { isFormToHost } from '../../src/core/protocols/formProtocol';

const form: FormModel = normalize({
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    token: { type: 'string', format: 'password' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    ratio: { type: 'number', default: 0.5 },
    agree: { type: 'boolean' },
    subscribe: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'green'] },
    size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
    langs: { type: 'array', items: { type: 'string', enum: ['en', 'fr'] }, default: ['en'] },
  },
  required: ['name', 'agree', 'color'],
});
const field = (name: string) => form.fields.find((f) => f.name === name)!;

describe('isFormToHost', () => {
  it('accepts every message the webview sends', () => {
    assert.ok(isFormToHost({ type: 'ready' }));
    assert.ok(isFormToHost({ type: 'decline' }));
    assert.ok(isFormToHost({ type: 'later' }));
    assert.ok(isFormToHost({ type: 'later', values: { name: 'Ada', agree: true, langs: ['fr'] } }));
    assert.ok(isFormToHost({ type: 'cancel' }));
    assert.ok(isFormToHost({ type: 'submit', content: {} }));
    assert.ok(isFormToHost({ type: 'submit', content: { a: 'x', b: 2, c: true, d: ['x', 'y'], e: [] } }));
    assert.ok(isFormToHost({ type: 'submit', content: { a: 'x' }, useSaved: ['token'] }));
    assert.ok(isFormToHost({ type: 'submit', content: {}, useSaved: [] }));
    assert.ok(isFormToHost({ type: 'submit', content: { a: 'x' }, remember: 'session' }));
    assert.ok(isFormToHost({ type: 'submit', content: { a: 'x' }, remember: 'always' }));
  });

  it('rejects a "Remember this answer" that is not a scope', () => {
    assert.ok(!isFormToHost({ type: 'submit', content: {}, remember: 'forever' }));
    assert.ok(!isFormToHost({ type: 'submit', content: {}, remember: true }));
  });

  it('rejects anything else', () => {
    for (const value of [
      { type: 'later', values: 'Ada' },
      { type: 'later', values: { name: { html: '<b>' } } },
      undefined,
      null,
      'ready',
      42,
      [],
      [{ type: 'ready' }],
      {},
      { type: 'show' },
      { type: 'errors', errors: {} },
      { type: 'READY' },
      { type: 'submit' },
      { type: 'submit', content: null },
      { type: 'submit', content: 'x' },
      { type: 'submit', content: ['x'] },
      { type: 'submit', content: { a: null } },
      { type: 'submit', content: { a: { nested: 1 } } },
      { type: 'submit', content: { a: [1, 2] } },
      { type: 'submit', content: { a: ['x', null] } },
      { type: 'submit', content: new Date() },
      { type: 'submit', content: {}, useSaved: 'token' },
      { type: 'submit', content: {}, useSaved: [1] },
    ]) {
      assert.equal(isFormToHost(value), false, JSON.stringify(value) ?? String(value));
    }
  });
});

describe('initialValues', () => {
  it('holds the defaults and nothing else', () => {
    assert.deepEqual(initialValues(form), { ratio: 0.5, size: 'm', langs: ['en'] });
  });
});

describe('toRaw / fromRaw', () => {
  it('keeps typed text for text and number fields and parses numbers strictly', () => {
    assert.equal(toRaw(field('age'), 42), '42');
    assert.equal(toRaw(field('age'), undefined), '');
    assert.deepEqual(fromRaw(field('age'), '42'), { value: 42 });
    assert.deepEqual(fromRaw(field('ratio'), ' 3.14 '), { value: 3.14 });
    assert.deepEqual(fromRaw(field('age'), '12abc'), { error: 'Must be a whole number' });
    assert.deepEqual(fromRaw(field('ratio'), '1e'), { error: 'Must be a number' });
    assert.deepEqual(fromRaw(field('age'), ''), {});
    assert.deepEqual(fromRaw(field('name'), 'Ada'), { value: 'Ada' });
    assert.deepEqual(fromRaw(field('name'), ''), {});
  });

  it('answers a required yes/no with the box as it stands, an optional one only once touched', () => {
    assert.equal(toRaw(field('agree'), undefined), false);
    assert.equal(toRaw(field('subscribe'), undefined), null);
    assert.deepEqual(fromRaw(field('agree'), null), { value: false });
    assert.deepEqual(fromRaw(field('subscribe'), null), {});
    assert.deepEqual(fromRaw(field('subscribe'), false), { value: false });
  });

  it('drops choices the field does not offer', () => {
    assert.equal(toRaw(field('color'), 'blue'), '');
    assert.equal(toRaw(field('color'), 'red'), 'red');
    assert.deepEqual(toRaw(field('tags'), ['a', 'z', 'a', 'c']), ['a', 'c']);
    assert.equal(toRaw(field('tags'), undefined), null);
    assert.deepEqual(fromRaw(field('color'), ''), {});
    assert.deepEqual(fromRaw(field('tags'), null), {});
    assert.deepEqual(fromRaw(field('tags'), []), { value: [] });
  });
});

describe('collectAnswer', () => {
  const filled: RawValues = {
    name: 'Ada',
    email: 'ada@example.com',
    token: 's3cret',
    age: '36',
    ratio: '',
    agree: true,
    subscribe: null,
    color: 'green',
    size: 'l',
    tags: ['b'],
    langs: ['en', 'fr'],
  };

  it('gives numbers as numbers, booleans as booleans and arrays for multiple choice', () => {
    const { content, errors } = collectAnswer(form, filled);
    assert.deepEqual(errors, {});
    assert.deepEqual(content, {
      name: 'Ada',
      email: 'ada@example.com',
      token: 's3cret',
      age: 36,
      agree: true,
      color: 'green',
      size: 'l',
      tags: ['b'],
      langs: ['en', 'fr'],
    });
  });

  it('names every problem in the words of fieldRules.ts', () => {
    const { errors } = collectAnswer(form, { ...filled, name: '', email: 'nope', age: '200', color: '', tags: ['a', 'b', 'c'] });
    assert.deepEqual(errors, {
      name: 'Required',
      email: 'Must look like name@example.com',
      age: 'Must be at most 150',
      color: 'Required',
      tags: 'Choose at most 2 options',
    });
    assert.equal(fieldProblem(field('age'), 'x'), 'Must be a whole number');
    assert.equal(fieldProblem(field('name'), 'A'), 'Must be at least 2 characters');
  });

  it('neither reads nor checks fields the host fills in', () => {
    const { content, errors } = collectAnswer(form, { ...filled, token: '' }, new Set(['token', 'name']));
    assert.equal('token' in content, false);
    assert.equal('name' in content, false);
    assert.deepEqual(errors, {});
  });

  it('agrees with the host: no webview error exactly when the host check passes', () => {
    const cases: RawValues[] = [
      filled,
      { ...filled, name: '' },
      { ...filled, email: 'a@b' },
      { ...filled, age: '-1' },
      { ...filled, age: '1.5' },
      { ...filled, ratio: '' },
      { ...filled, color: '' },
      { ...filled, size: '' },
      { ...filled, tags: [] },
      { ...filled, tags: ['a', 'b', 'c'] },
      { ...filled, langs: null },
      { ...filled, langs: [] },
      startingValues(form, initialValues(form), undefined),
    ];
    for (const raws of cases) {
      const { content, errors } = collectAnswer(form, raws);
      const host = validateAnswer(form, completeAnswer(form, content));
      assert.deepEqual(Object.keys(errors).sort(), Object.keys(host).sort(), JSON.stringify(raws));
    }
  });
});

describe('drafts', () => {
  const raws: RawValues = { name: 'Ada', token: 'hunter2', age: '4x', agree: true, color: 'red', tags: ['a'], subscribe: null };

  it('never keep a secret', () => {
    const draft = makeDraft(form, 7, raws);
    assert.equal(draft.questionId, 7);
    assert.equal('token' in draft.values, false);
    assert.equal(JSON.stringify(draft).includes('hunter2'), false);
    assert.deepEqual(draft.values, { name: 'Ada', age: '4x', agree: true, color: 'red', tags: ['a'], subscribe: null });
  });

  it('come back only for the same question and only with well-formed values', () => {
    const saved = JSON.parse(JSON.stringify(makeDraft(form, 7, raws))) as unknown;
    assert.deepEqual(readDraft(form, 7, saved), { name: 'Ada', age: '4x', agree: true, color: 'red', tags: ['a'], subscribe: null });
    assert.equal(readDraft(form, 8, saved), undefined);
    for (const junk of [undefined, null, 'x', 7, { questionId: 7 }, { questionId: '7', values: {} }]) {
      assert.equal(readDraft(form, 7, junk), undefined);
    }
    const tampered = {
      questionId: 7,
      values: { token: 'x', color: 'blue', age: 5, agree: null, tags: ['a', 'zz', 'a'], unknown: 'x', name: ['Ada'] },
    };
    assert.deepEqual(readDraft(form, 7, tampered), { tags: ['a'] });
  });

  it('start from the draft where it has a value, else from the defaults', () => {
    const start = startingValues(form, initialValues(form), { name: 'Ada', size: 's' });
    assert.equal(start.name, 'Ada');
    assert.equal(start.size, 's');
    assert.equal(start.ratio, '0.5');
    assert.deepEqual(start.langs, ['en']);
    assert.equal(start.agree, false);
    assert.equal(start.subscribe, null);
    assert.equal(start.token, '');
  });
});

describe('splitLongText', () => {
  it('leaves short text whole', () => {
    assert.deepEqual(splitLongText('hello', 10), { head: 'hello', rest: '' });
  });

  it('cuts long text near the limit at a space, losing nothing', () => {
    const text = 'word '.repeat(1000);
    const { head, rest } = splitLongText(text, 2000);
    assert.ok(head.length <= 2000 && head.length > 1500);
    assert.ok(head.endsWith(' '));
    assert.equal(head + rest, text);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(1500);
    const { head, rest } = splitLongText(text, 2001);
    assert.equal(head + rest, text);
    assert.equal(head.length % 2, 0);
  });
});

describe('errorOf (found by test/unit/fuzz.test.ts)', () => {
  it('reads only own entries: a field named "toString" or "constructor" has no inherited error', () => {
    // The form used errors[name], so a valid field called "toString" showed its error line
    // with the text of Object.prototype.toString and was marked invalid.
    const form = normalize({ type: 'object', properties: { toString: { type: 'string' }, constructor: { type: 'number' } } });
    const { errors } = collectAnswer(form, { toString: 'fine', constructor: '3' });
    assert.deepEqual(errors, {});
    assert.equal(errorOf(errors, 'toString'), undefined);
    assert.equal(errorOf(errors, 'constructor'), undefined);
    assert.equal(errorOf({ toString: 'Required' }, 'toString'), 'Required');
  });
});
