/**
 * The linear-time `pattern` engine: it means what V8's RegExp (u flag) means,
 * and no pattern and input can make it slow. Backreferences and lookaround,
 * which no automaton can run, are refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compileLinearPattern, MAX_PATTERN_STATES, UnsupportedPatternError } from '../../src/core/form/linearPattern';
import { fastestOfThree } from '../support/timing';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_122;

/** Pattern, inputs: each input is judged by the engine as by `new RegExp(pattern, 'u').test`. */
const corners: Array<[string, string[]]> = [
  ['^[A-Z]{3}-\\d{3}$', ['ABC-123', 'ABC-1234', 'abc-123', 'ABC-12']],
  ['\\bfoo\\b', ['foo', 'a foo b', 'afoo', 'foo_', 'foo!', '']],
  ['\\Bo\\B', ['foo', 'o', 'boo', 'oo']],
  ['^$', ['', 'a', '\n']],
  ['^a$|^b$', ['a', 'b', 'ab', '']],
  ['a|', ['', 'x']],
  ['(|a)+$', ['', 'aaa', 'b']],
  ['^(a?){3}$', ['', 'a', 'aaa', 'aaaa']],
  ['^a+?b', ['aab', 'b', 'aa']],
  ['^a{2,}$', ['a', 'aa', 'aaaaa']],
  ['^a{2,3}$', ['a', 'aa', 'aaa', 'aaaa']],
  ['^.$', ['a', '\n', '\r', '\u2028', '😀', '\ud800', 'ab']],
  ['^[^]$', ['\n', 'x', '']],
  ['^\\s+$', [' ', '\t', '\u00a0', '\u3000', '\ufeff', 'x']],
  ['^\\S\\w\\W\\D$', ['x_ 1', 'xa!a', 'é_-x']],
  ['^\\p{Lu}\\p{Ll}+$', ['Éa', 'Ab', 'ab', 'AB']],
  ['^\\P{L}$', ['1', 'a']],
  ['^\\u{1F600}$', ['😀', '😁']],
  ['^\\uD83D\\uDE00$', ['😀', '\ud83d']],
  ['^[😀-😂]+$', ['😀😁😂', '😃']],
  ['^\\x41\\u0042\\cJ\\0$', ['AB\n\0', 'AB\n0']],
  ['^(?<year>\\d{4})-(?<month>\\d{2})$', ['2026-01', '2026-1']],
  ['^[\\]\\-\\\\]+$', [']-\\', 'a']],
  ['^\\/\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$$', ['/.*+?()[]{}|^$']],
  ['colou?r', ['my color', 'my colour', 'colr']],
  ['^(?:(?:a|b)c)*$', ['acbc', 'acb', '']],
  ['x{0}y', ['y', 'xy', '']],
  ['(?:)*', ['', 'q']],
  ['^😀{2}$', ['😀😀', '😀\ude00']],
  ['', ['', 'anything']],
];

describe('linear pattern engine: the same verdicts as RegExp with the u flag', () => {
  for (const [pattern, inputs] of corners) {
    it(`${pattern}`, () => {
      const linear = compileLinearPattern(pattern);
      const native = new RegExp(pattern, 'u');
      for (const input of inputs) assert.equal(linear.test(input), native.test(input), `${JSON.stringify(input)}`);
    });
  }

  it('agrees with RegExp on generated patterns and inputs', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      '1',
      '\\d',
      '\\s',
      '\\w',
      '\\W',
      '.',
      '[ab]',
      '[^a]',
      '[a-z0-9]',
      '-',
      '\\.',
      '😀',
      '\\b',
      '\\B',
      '^',
      '$',
    );
    const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '{0,2}', '*?', '+?');
    const pattern = fc
      .letrec<{ term: string; sequence: string }>((tie) => ({
        term: fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          fc.tuple(atom, quantifier).map(([a, q]) => (/^[\\^$]/.test(a) && /^\\[bB]$|^[\^$]$/.test(a) ? a : a + q)),
          fc.tuple(fc.constantFrom('(', '(?:', '(?<g>'), tie('sequence'), quantifier).map(([open, body, q]) => `${open}${body})${q}`),
          fc.tuple(tie('sequence'), tie('sequence')).map(([x, y]) => `(?:${x}|${y})`),
        ),
        sequence: fc.array(tie('term'), { minLength: 0, maxLength: 4 }).map((terms) => terms.join('')),
      }))
      .sequence.filter((p) => !/\(\?<g>.*\(\?<g>/.test(p)); // a group name once
    const input = fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', '-', '.', '_', '😀', '\n', 'é'), maxLength: 8 });
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 6 }), (p, inputs) => {
        const linear = compileLinearPattern(p);
        const native = new RegExp(p, 'u');
        for (const text of inputs) {
          // V8 also tries \B between the two halves of an emoji (/\B/u.test('a😀a') is true at index 2);
          // the spec, and this engine, start a match only at whole characters.
          if (p.includes('\\B') && /[\ud800-\udfff]/.test(text)) continue;
          assert.equal(linear.test(text), native.test(text), `${p} on ${JSON.stringify(text)}`);
        }
      }),
      { seed, numRuns: Number(process.env.FC_RUNS ?? 3_000) },
    );
  });
});

describe('linear pattern engine: never slow', () => {
  // The first four were accepted by the old safety check and are exponential in V8.
  const hostile = [
    '^(a|a){1,32}$',
    '^(\\w|\\d){35}$',
    '^((a|a){2}){20}$',
    '^(?:[a-z]|\\p{Ll}){40}$',
    '^(a|a){40}$',
    '^(a+)+$',
    '(x+x+)+y',
    '^(\\w+\\s?)*$',
    'a*a*b',
    '.*x.*y.*z',
    '(.*){2,}',
  ];
  for (const pattern of hostile) {
    it(`${pattern} on 10 000 characters`, () => {
      const linear = compileLinearPattern(pattern);
      for (const unit of ['a', '1', 'x', 'a ']) {
        const input = unit.repeat(10_000 / unit.length) + '!';
        assert.ok(fastestOfThree(() => linear.test(input)) < 200, `${pattern} took too long`);
      }
    });
  }

  it(`refuses a pattern that would compile to more than ${MAX_PATTERN_STATES} states`, () => {
    for (const pattern of ['a{2001}', '(?:a{100}){100}', '(?:){100000000}', '(?:(?:(?:a{20}){20}){20})', `a{${'9'.repeat(30)}}`]) {
      assert.throws(
        () => compileLinearPattern(pattern),
        (e: unknown) => e instanceof UnsupportedPatternError && /too large/.test(e.message),
        pattern,
      );
    }
    assert.ok(compileLinearPattern('^[a-z]{1,255}$').test('abc'));
  });
});

describe('linear pattern engine: what an automaton cannot run', () => {
  const refusals: Array<[string, RegExp]> = [
    ['(\\w)\\1', /backreference/],
    ['(?<x>a)\\k<x>', /backreference/],
    ['(?=a)a', /lookahead or lookbehind/],
    ['a(?!b)', /lookahead or lookbehind/],
    ['(?<=a)b', /lookahead or lookbehind/],
    ['(?<!a)b', /lookahead or lookbehind/],
  ];
  for (const [pattern, reason] of refusals) {
    it(`refuses ${pattern}`, () => {
      assert.throws(
        () => compileLinearPattern(pattern),
        (e: unknown) => e instanceof UnsupportedPatternError && reason.test(e.message),
      );
    });
  }
  it('throws SyntaxError for what RegExp cannot read', () => {
    for (const pattern of ['(', '[', '\\', 'a{2,1}', '\\_', '{']) assert.throws(() => compileLinearPattern(pattern), SyntaxError, pattern);
  });
  it('reads long group names and long counts', () => {
    assert.ok(compileLinearPattern('^(?<a_rather_long_group_name_indeed>x)$').test('x'));
    assert.ok(compileLinearPattern('^x{0000000000000000000000000000003}$').test('xxx'));
  });
});
