/** Patterns that could freeze the UI are refused; everyday ones pass and stay fast. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unsafePatternReason } from '../../src/core/patternSafety';
import { normalize } from '../../src/core/normalize';
import { InvalidRequestError } from '../../src/core/errors';

const refused = ['^(a+)+$', '^([a-z]+)*$', '(a|aa)+$', '(x+x+)+y', '(.*){2,}', '^(\\w+\\s?)*$', '(\\w)\\1', '(?<x>a)\\k<x>', '((ab)*)+$'];
const accepted = [
  '^[A-Z]{3}-\\d{3}$',
  '^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$',
  '^(\\d+\\.)+\\d+$',
  '^(?:[a-z0-9]+-)*[a-z0-9]+$',
  '(ab)+',
  '(a|b){1,3}',
  '^\\+?[0-9 ()-]{7,20}$',
  '^#[0-9a-fA-F]{6}$',
  '^https?://',
];

describe('unsafePatternReason', () => {
  for (const pattern of refused) {
    it(`refuses ${pattern}`, () => assert.ok(unsafePatternReason(pattern), pattern));
  }
  for (const pattern of accepted) {
    it(`accepts ${pattern}, which stays fast on hostile input`, () => {
      assert.equal(unsafePatternReason(pattern), undefined);
      const regex = new RegExp(pattern, 'u');
      for (const probe of ['a'.repeat(5000) + '!', '1.'.repeat(2500) + 'x', 'a-'.repeat(2500) + '-', ' '.repeat(5000)]) {
        const start = performance.now();
        regex.test(probe);
        assert.ok(performance.now() - start < 200, `${pattern} took too long`);
      }
    });
  }
  it('is what normalize uses: a catastrophic pattern becomes a -32602 naming the property', () => {
    assert.throws(
      () => normalize({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } }),
      (error: unknown) =>
        error instanceof InvalidRequestError && error.code === -32602 && /property "code": pattern is refused because/.test(error.message),
    );
  });
});
