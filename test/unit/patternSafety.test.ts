/** Patterns that could freeze the UI are refused; everyday ones pass and stay fast. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { polynomialDegree, unsafePatternReason } from '../../src/core/patternSafety';
import { checkField, MAX_PATTERN_INPUT } from '../../src/core/validate';
import { validateAnswer } from '../../src/core/answerValidator';
import { normalize } from '../../src/core/normalize';
import { InvalidRequestError } from '../../src/core/errors';
import { fastestOfThree } from '../support/timing';

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
        assert.ok(fastestOfThree(() => regex.test(probe)) < 200, `${pattern} took too long`);
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

describe('polynomial backtracking (found by test/unit/fuzz.test.ts)', () => {
  // Flat patterns with repetitions in a row that can match the same text: a*a*b takes n³
  // steps on a failing input (2 s for 2 000 characters here), which star height does not see.
  for (const pattern of ['a*a*b', '.*x.*y', '\\s*\\s*$', 'a{1,100}a{1,100}', '^a|a*a*', '(?=a*a*b)x', '\\d+\\d+\\d+$']) {
    it(`refuses ${pattern}`, () => {
      assert.match(unsafePatternReason(pattern) ?? '', /polynomial time/);
      assert.ok(polynomialDegree(pattern) > 2);
    });
  }
  it('refuses bounded groups nested too deep to check', () => {
    let pattern = 'a';
    for (let i = 0; i < 16; i++) pattern = `(?:${pattern}){3}`;
    // Walked in full, this took seconds (three walks per level) and then passed as degree 0.
    assert.match(unsafePatternReason(pattern) ?? '', /nest too deeply/);
    assert.equal(unsafePatternReason('^(?:(?:[a-z]{2}){3}-){2}\\d$'), undefined, 'a few levels are still checked and pass');
  });

  for (const pattern of ['^a*a*b', '^.*x.*y$', '\\d+\\.\\d+\\.\\d+', '^\\S+\\s+\\S+$', 'a*b', '^(?:[a-z0-9]+-)*[a-z0-9]+$']) {
    it(`accepts ${pattern} (degree ${polynomialDegree(pattern)}), which stays fast on ${MAX_PATTERN_INPUT} characters`, () => {
      assert.equal(unsafePatternReason(pattern), undefined);
      const regex = new RegExp(pattern, 'u');
      for (const unit of ['a', '1', ' ', 'ab', '1.', 'a-', 'x']) {
        const input = unit.repeat(MAX_PATTERN_INPUT / unit.length - 1) + '!';
        assert.ok(fastestOfThree(() => regex.test(input)) < 100, `${pattern} took too long`);
      }
    });
  }
  it('the host never runs a pattern on more than MAX_PATTERN_INPUT characters', () => {
    const field = normalize({ type: 'object', properties: { f: { type: 'string', pattern: '^a*a*b' } } }).fields[0]!;
    assert.equal(checkField(field, 'a'.repeat(MAX_PATTERN_INPUT + 1)), 'Too long to check against the required pattern');
    // ajv's own `pattern` check is capped the same way: uncapped, ^a*a*b on 200 000 characters runs for hours.
    const started = performance.now();
    assert.deepEqual(validateAnswer({ fields: [field] }, { f: 'a'.repeat(200_000) }), { f: 'Too long to check against the required pattern' });
    assert.ok(performance.now() - started < 1000);
  });
});
