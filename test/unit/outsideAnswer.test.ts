/**
 * The one check of an answer from outside the host (issue #35): the form page, a phone and
 * another window all read an answer through readOutsideAnswer, so they agree on it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalize } from '../../src/core/form/normalize';
import { readOutsideAnswer } from '../../src/core/form/outsideAnswer';

const form = normalize({
  type: 'object',
  properties: {
    code: { type: 'string', pattern: '^(a|b|c|d|e|f|g|h)*x$' },
    bars: { type: 'integer', minimum: 4, maximum: 64, default: 16 },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
  },
  required: ['code'],
});

describe('readOutsideAnswer', () => {
  it('takes field values, adds the defaults left untouched and drops what the form did not ask', () => {
    assert.deepEqual(readOutsideAnswer(form, { code: 'abx', extra: 'dropped' }), { ok: true, content: { code: 'abx', bars: 16 } });
    assert.deepEqual(readOutsideAnswer(form, { code: 'x', bars: 8, tags: ['b'] }), {
      ok: true,
      content: { code: 'x', bars: 8, tags: ['b'] },
    });
  });

  it('refuses what is not field values at all', () => {
    for (const given of [null, 'text', ['x'], { code: { nested: true } }, { code: 'x', tags: [1] }, { bars: Number.NaN }]) {
      assert.deepEqual(readOutsideAnswer(form, given), { ok: false, malformed: true }, JSON.stringify(given));
    }
  });

  it('names each field that breaks its rules', () => {
    const read = readOutsideAnswer(form, { code: 'abc', bars: 65 });
    assert.equal(read.ok, false);
    assert.deepEqual(Object.keys('errors' in read ? read.errors : {}).sort(), ['bars', 'code']);
  });

  it('counts long texts against costly patterns before any of them runs, naming the costliest field', () => {
    // Each text is within what one field may hold (MAX_PATTERN_INPUT); together they cost more than a request may spend.
    // About 500 steps a character; 999 characters a field, four fields: about four million, twice the budget.
    const costly = '^((a|b|c|d|e|f|g|h|i|j){1,9})*$';
    const fields = Object.fromEntries(['one', 'two', 'three', 'four'].map((name) => [name, { type: 'string', pattern: costly }]));
    const wide = normalize({ type: 'object', properties: fields });
    const text = (n: number): string => 'a'.repeat(n);
    const read = readOutsideAnswer(wide, { one: text(900), two: text(999), three: text(998), four: text(600) });
    assert.deepEqual(read, { ok: false, tooCostly: 'two' });
    assert.deepEqual(readOutsideAnswer(wide, { one: text(5), two: text(5) }), { ok: true, content: { one: text(5), two: text(5) } });
  });
});
