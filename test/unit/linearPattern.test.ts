/**
 * The linear-time `pattern` engine: it means what V8's RegExp (u flag) means,
 * and no pattern and input can make it slow. Backreferences and lookaround,
 * which no automaton can run, are refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  compileLinearPattern,
  MAX_PATTERN_COST,
  MAX_PATTERN_LENGTH,
  PROPERTY_ESCAPE_UNITS,
  UnsupportedPatternError,
} from '../../src/core/form/linearPattern';
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
    let tooLarge = 0;
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 6 }), (p, inputs) => {
        let linear;
        try {
          linear = compileLinearPattern(p);
        } catch (error) {
          // Nested counted repeats can exceed the cost bound; that refusal has tests of its own below.
          if (error instanceof UnsupportedPatternError && /too large/.test(error.message)) return void tooLarge++;
          throw error;
        }
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
    assert.ok(tooLarge < Number(process.env.FC_RUNS ?? 3_000) / 20, `${tooLarge} generated patterns were refused as too large`);
  });
});

describe('linear pattern engine: the patterns servers use', () => {
  /** Pattern, then inputs it must accept and inputs it must refuse, as RegExp does. */
  const used: Array<[string, string[], string[]]> = [
    ['^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$', ['ada@example.org', 'a.b+c@x-y.co'], ['ada@', '@x.org', 'a@b.c']],
    [
      "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$",
      ["o'neil@mail.example.com", `x@${'a'.repeat(63)}.io`],
      ['x@-a.io', `x@${'a'.repeat(64)}.io`],
    ],
    [
      '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$',
      ['1.0.0', '2.13.4-rc.1+build.5', '0.0.1-alpha'],
      ['1.0', '01.0.0', '1.0.0-'],
    ],
    ['^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', ['2026-11-28', '1999-02-31'], ['2026-13-01', '2026-1-01']],
    [
      '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$',
      ['2026-11-28T10:40Z', '2026-11-28T10:40:07.123456789+01:00'],
      ['2026-11-28T10:40', '2026-11-28 10:40Z'],
    ],
    ['^P(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?$', ['P1Y2M', 'PT0.5S', 'P'], ['1Y', 'PT5X']],
    ['^[a-z0-9]+(?:-[a-z0-9]+)*$', ['my-slug-2', 'a'], ['-a', 'a--b', 'A']],
    ['^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$', ['k8s-node-1', 'x'.repeat(63)], ['x'.repeat(64), 'a-']],
    [
      '^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$',
      ['123e4567-e89b-12d3-a456-426614174000'],
      ['123e4567-e89b-02d3-a456-426614174000'],
    ],
    ["^\\p{L}[\\p{L}\\p{M}' .-]{0,99}$", ['Zoë', 'Nguyễn Văn A', '李小龍', "O'Brien"], ['1abc', ' Zoë']],
    ['^[\\p{Lu}\\p{Ll}\\p{Lt}\\p{Lm}\\p{Lo}]+$', ['Straße', 'Ελληνικά', 'ひらがな'], ['abc1', '']],
    ['^\\+?[1-9]\\d{1,14}$', ['+4930123456', '15551234567'], ['+0301', '+1']],
    ['^(?:\\d{1,3}\\.){3}\\d{1,3}$', ['192.168.0.1'], ['192.168.0', '1.2.3.4.5']],
    ['^[\\w.-]{1,255}$', ['file_name.v2-final', 'x'.repeat(255)], ['x'.repeat(256), 'a b']],
    ['^.{1,255}$', ['any text at all', 'é'.repeat(255)], ['', 'x'.repeat(256)]],
  ];
  for (const [pattern, accepted, refused] of used) {
    it(`${pattern.slice(0, 60)}`, () => {
      const linear = compileLinearPattern(pattern);
      assert.ok(linear.cost <= MAX_PATTERN_COST, `costs ${linear.cost}`);
      const native = new RegExp(pattern, 'u');
      for (const input of accepted) assert.ok(native.test(input) && linear.test(input), `accepts ${JSON.stringify(input)}`);
      for (const input of refused) assert.ok(!native.test(input) && !linear.test(input), `refuses ${JSON.stringify(input)}`);
    });
  }

  it('keeps apart the states of many classes, more than 32 of a class, a class that fails and one that starts the match', () => {
    // Character states are held as bits, 32 a word, each class's from a word of its own: these cross words and classes.
    const body = '(?:[a-c]{0,40}x|\\d{0,70}y|é{1,33}|[^xyz]{2,3}z)!';
    const inputs = [
      `${'abc'.repeat(13)}ax!`,
      `${'abc'.repeat(14)}x!`,
      `${'7'.repeat(70)}y!`,
      `${'7'.repeat(71)}y!`,
      `q${'7'.repeat(71)}y!`,
      `${'é'.repeat(33)}!`,
      `${'é'.repeat(34)}!`,
      'ééz!',
      'éz!',
      '😀😀z!',
      `${'a'.repeat(45)}!x!`,
      '',
    ];
    // Unanchored, a search starts at every position (the first state a character's); anchored, most inputs fail.
    for (const pattern of [body, `^${body}$`]) {
      const native = new RegExp(pattern, 'u');
      const linear = compileLinearPattern(pattern);
      for (const input of inputs) assert.equal(linear.test(input), native.test(input), `${pattern} on ${JSON.stringify(input)}`);
    }
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

  it(`refuses a pattern that would compile to more than ${MAX_PATTERN_COST} states`, () => {
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

/**
 * The bound, counted rather than timed: an accepted pattern of at most MAX_PATTERN_LENGTH characters
 * costs at most MAX_PATTERN_COST steps an input character, and `measure` counts every step the run
 * takes (each state visit, each thread moved, each native class test), so steps ≤ (n + 1) × cost holds
 * on a machine of any speed. `npm run bench` (patternWorstMs) turns the steps into milliseconds.
 */
describe('linear pattern engine: bounded steps for adversarial patterns', () => {
  const INPUT = 10_000;
  const inputs = [
    'a'.repeat(INPUT),
    'ab'.repeat(INPUT / 2),
    'a b-'.repeat(INPUT / 4),
    'é'.repeat(INPUT),
    Array.from({ length: INPUT }, (_, i) => String.fromCharCode(0x4e00 + i)).join(''),
    '😀'.repeat(INPUT / 2),
  ];
  const within = (pattern: string): void => {
    let linear;
    try {
      linear = compileLinearPattern(pattern);
    } catch (error) {
      assert.ok(error instanceof UnsupportedPatternError, `${pattern.slice(0, 60)}: ${String(error)}`);
      return;
    }
    assert.ok(linear.cost <= MAX_PATTERN_COST, `${pattern.slice(0, 60)} costs ${linear.cost}`);
    for (const input of inputs) {
      const { matched, steps } = linear.measure(input);
      assert.equal(matched, linear.test(input));
      assert.ok(steps <= (input.length + 1) * linear.cost, `${pattern.slice(0, 60)}: ${steps} steps on ${input.slice(0, 4)}…`);
    }
  };

  it("the review's empty alternatives, (?:||||…){666}b in 1,000 characters", () => {
    const pattern = `(?:${'|'.repeat(993 - 6 - 5)}){666}b`.slice(0, MAX_PATTERN_LENGTH);
    within(pattern);
    // Empty alternatives share one way out: the whole pattern costs a few steps a character, not 220,000 edges.
    const linear = compileLinearPattern(`(?:${'|'.repeat(300)}){3}b`);
    assert.ok(linear.cost < 50, `cost ${linear.cost}`);
    assert.ok(linear.measure('a'.repeat(1_000)).steps < 50 * 1_001);
  });

  it(`refuses a pattern longer than ${MAX_PATTERN_LENGTH} characters before reading it`, () => {
    for (const pattern of ['a'.repeat(MAX_PATTERN_LENGTH + 1), `(?:${'|'.repeat(1_000_000)})`, '['.repeat(2_000)]) {
      assert.throws(
        () => compileLinearPattern(pattern),
        (e: unknown) => e instanceof UnsupportedPatternError && /longer than 1000 characters/.test(e.message),
      );
    }
    assert.ok(compileLinearPattern('[ab]'.repeat(MAX_PATTERN_LENGTH / 4)).test('ab'.repeat(MAX_PATTERN_LENGTH / 4)));
  });

  it('generated adversarial patterns: empty alternatives, nested counted repeats, huge classes, many classes, assertions', () => {
    const count = fc.integer({ min: 0, max: 400 });
    const small = fc.integer({ min: 1, max: 40 });
    const klass = fc.constantFrom('a', '.', '[^b]', '\\w', '\\p{L}', '[a-z\\u00e0-\\u024f]', '[é-鿿]', '\\s', '😀', '[\\s\\S]');
    const hugeClass = fc
      .array(fc.tuple(fc.integer({ min: 0x20, max: 0xfff0 }), fc.integer({ min: 0, max: 15 })), { minLength: 1, maxLength: 60 })
      .map((ranges) => `[${ranges.map(([lo, span]) => `\\u{${lo.toString(16)}}-\\u{${(lo + span).toString(16)}}`).join('')}]`);
    const manyClasses = fc
      .integer({ min: 1, max: 120 })
      .map((n) => `(?:${Array.from({ length: n }, (_, i) => `[é${String.fromCharCode(0x100 + i)}a]`).join('|')})*`);
    const emptyAlternatives = fc.tuple(small, count).map(([pipes, times]) => `(?:${'|'.repeat(pipes * 10)}){${times}}`);
    const nested = fc.tuple(klass, small, small, small).map(([k, a, b, c]) => `(?:(?:(?:${k}{0,${a}}){${b}})?){0,${c}}`);
    const optionalRun = fc.tuple(klass, count).map(([k, n]) => `${k}{0,${n}}`);
    const assertions = fc.tuple(fc.constantFrom('\\b', '\\B', '^', '$', '\\b|\\B', '^|$'), count).map(([a, n]) => `(?:${a}){${n}}`);
    const emptyLoops = fc.tuple(count, small).map(([n, k]) => `(?:(?:){0,${k}}|(?:)*){${n}}`);
    const piece = fc.oneof(
      emptyAlternatives,
      nested,
      optionalRun,
      assertions,
      emptyLoops,
      manyClasses,
      hugeClass.map((c) => `${c}*`),
    );
    const pattern = fc
      .array(piece, { minLength: 1, maxLength: 4 })
      .map((pieces) => pieces.join(''))
      .filter((p) => p.length <= MAX_PATTERN_LENGTH);
    let accepted = 0;
    fc.assert(
      fc.property(pattern, fc.constantFrom('', '$', 'b', '!'), (body, tail) => {
        const p = body + tail;
        try {
          compileLinearPattern(p);
          accepted++;
        } catch {
          // within() checks the refusal is the engine's own
        }
        within(p);
      }),
      { seed, numRuns: Number(process.env.FC_ADVERSARIAL_RUNS ?? 150) },
    );
    assert.ok(accepted > 40, `only ${accepted} adversarial patterns were accepted: the bound was hardly tested`);
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
  it('refuses what RegExp refuses, though it never compiles a whole pattern (issue #57)', () => {
    const invalid = [
      '(?@)',
      'a**',
      ']',
      '}',
      'a{,5}',
      '^*',
      '\\b+',
      '[z-a]',
      '\\p{Nope}',
      '\\u{110000}',
      '(?<a>x)(?<a>y)',
      'a)',
      '\\c1',
      '\\-',
      '[\\p{L}',
      'x{2}{3}',
      '(?:a|b',
      '\\k',
    ];
    for (const pattern of invalid) {
      assert.throws(() => new RegExp(pattern, 'u'), SyntaxError, `RegExp refuses ${pattern}`);
      assert.throws(
        () => compileLinearPattern(pattern),
        (e: unknown) => e instanceof SyntaxError || e instanceof UnsupportedPatternError,
        pattern,
      );
    }
  });
  it('agrees with RegExp on which generated patterns are valid', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      '\\d',
      '\\p{L}',
      '\\P{N}',
      '[a-c]',
      '[^x]',
      '(',
      ')',
      '(?:',
      '(?<n>',
      '|',
      '*',
      '+',
      '?',
      '{2}',
      '{1,3}',
      '{',
      '}',
      '[',
      ']',
      '^',
      '$',
      '\\b',
      '.',
      '\\',
      '-',
      ',',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const pattern = pieces.join('');
        let native = true;
        try {
          new RegExp(pattern, 'u');
        } catch {
          native = false;
        }
        let ours: 'ok' | 'syntax' | 'unsupported' = 'ok';
        try {
          compileLinearPattern(pattern);
        } catch (error) {
          ours = error instanceof UnsupportedPatternError ? 'unsupported' : 'syntax';
        }
        // Valid: compiled, or refused for what no automaton runs; invalid: never compiled.
        return native ? ours !== 'syntax' : ours !== 'ok';
      }),
      { seed, numRuns: 3000 },
    );
  });
  it('tells what compiling its new classes costs before it compiles them, each built once for every pattern', () => {
    const own = String.fromCodePoint(0xe000 + Math.floor(Math.random() * 6000));
    const costly = `[\\p{L}\\p{N}\\p{Lu}${own}]`;
    const charged: number[] = [];
    const charge = (units: number): boolean => (charged.push(units), true);
    compileLinearPattern(`${own}${costly}${costly}`, charge);
    // The literal and the class, the class once: 1 + (1 + 3 property escapes).
    assert.deepEqual(charged, [1 + 1 + 3 * PROPERTY_ESCAPE_UNITS]);
    compileLinearPattern(`^${costly}+$`, charge);
    assert.deepEqual(charged.length, 1, 'the class was built already: nothing new to charge');
    assert.throws(
      () => compileLinearPattern(`[\\p{Ll}${own}x]`, () => false),
      (e: unknown) => e instanceof UnsupportedPatternError && /too costly to prepare/.test(e.message),
    );
  });
  it('reads long group names and long counts', () => {
    assert.ok(compileLinearPattern('^(?<a_rather_long_group_name_indeed>x)$').test('x'));
    assert.ok(compileLinearPattern('^x{0000000000000000000000000000003}$').test('xxx'));
  });
});
