/**
 * patternWorstMs: the longest one check of a hostile pattern takes. For each family of
 * adversarial patterns the largest instance the bounded engine accepts (cost ≤ MAX_PATTERN_COST,
 * length ≤ MAX_PATTERN_LENGTH) is run on 10,000-character inputs (the longest text a pattern
 * ever sees); each pattern and input is timed (median of several runs) and the slowest is reported.
 * The unit tests bound the steps on any machine; this turns steps into milliseconds on this one.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compileLinearPattern, MAX_BOUNDED_INPUT, type LinearPattern } from '../../src/core/form/linearPattern';

const RUNS = 7;

/** Each family grows with n; the largest accepted n is used. */
const FAMILIES: Array<[string, (n: number) => string]> = [
  ['empty alternatives', (n) => `(?:${'|'.repeat(n)}){${n}}b`],
  // Unanchored: a search starts a thread at every position, so each stays alive across the input.
  ['counted any', (n) => `.{1,${n}}!`],
  ['optional then counted', (n) => `(?:a?){${n}}a{${n}}!`],
  ['nested alternatives', (n) => `(?:(?:a|a)|(?:a|b)){${n}}!`],
  ['many classes', (n) => `(?:${Array.from({ length: n }, (_, i) => `[${String.fromCharCode(97 + (i % 26))}-z${i}]`).join('|')}){2,}!`],
  ['word boundaries', (n) => `(?:\\b\\w+\\b\\s?){1,${n}}!`],
  // Assertions and empty branches: steps that test no character, the dearest per step.
  ['boundary alternatives', (n) => `(?:\\b|\\B){${n}}!`],
  ['nested boundary alternatives', (n) => `(?:(?:\\B|\\B)|(?:\\b|\\b)){${n}}!`],
  ['classes counted', (n) => `[\\w\\u4e00-\\u9fff]{1,${n}}[^a]{1,${n}}!`],
];

const INPUTS = [
  'a'.repeat(MAX_BOUNDED_INPUT),
  'ab'.repeat(MAX_BOUNDED_INPUT / 2),
  'a b-'.repeat(MAX_BOUNDED_INPUT / 4),
  Array.from({ length: MAX_BOUNDED_INPUT }, (_, i) => String.fromCharCode(0x4e00 + (i % 20_000))).join(''),
];

function largest(make: (n: number) => string): { pattern: string; compiled: LinearPattern } | undefined {
  let best: { pattern: string; compiled: LinearPattern } | undefined;
  for (let n = 1; n <= 1_000; n = Math.ceil(n * 1.25)) {
    const pattern = make(n);
    try {
      best = { pattern, compiled: compileLinearPattern(pattern) };
    } catch {
      break;
    }
  }
  return best;
}

export interface PatternTiming {
  worstMs: number;
  family: string;
  pattern: string;
  steps: number;
  cost: number;
  nsPerStep: number;
  /** The most memory one compile and check took, over every family's largest pattern and every input. */
  worstMB: number;
}

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Heap and array buffers gained by compiling a pattern and checking one input, after a full collection. */
function memoryMB(pattern: string, input: string): number {
  collectGarbage();
  const used = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = used();
  const compiled = compileLinearPattern(pattern);
  compiled.test(input);
  const after = used();
  return Math.max(0, after - before) / (1024 * 1024);
}

export function worstPattern(runs = RUNS): PatternTiming {
  // Every family on every input is timed: the most steps is not always the slowest (a step of a
  // word boundary or an empty branch costs more than a step of a class).
  const cases: Array<{ family: string; pattern: string; compiled: LinearPattern; input: string; steps: number; ms: number }> = [];
  let worstMB = 0;
  for (const [family, make] of FAMILIES) {
    const found = largest(make);
    if (!found) continue;
    for (const input of INPUTS) {
      worstMB = Math.max(worstMB, memoryMB(found.pattern, input));
      const { steps } = found.compiled.measure(input);
      cases.push({ family, ...found, input, steps, ms: medianMs(found.compiled, input, runs) });
    }
  }
  if (cases.length === 0) throw new Error('no adversarial pattern was accepted');
  // The slowest few are timed again, longer: the slowest of many short medians is partly the
  // machine's noise, and the figure should be the pattern's.
  const slowest = cases.sort((x, y) => y.ms - x.ms).slice(0, 3);
  for (const one of slowest) one.ms = medianMs(one.compiled, one.input, runs * 2 + 1);
  const worst = slowest.sort((x, y) => y.ms - x.ms)[0]!;
  return {
    worstMs: worst.ms,
    family: worst.family,
    pattern: worst.pattern.length > 60 ? `${worst.pattern.slice(0, 57)}…` : worst.pattern,
    steps: worst.steps,
    cost: worst.compiled.cost,
    nsPerStep: (worst.ms * 1e6) / worst.steps,
    worstMB,
  };
}

function medianMs(compiled: LinearPattern, input: string, runs: number): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    compiled.test(input);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}
