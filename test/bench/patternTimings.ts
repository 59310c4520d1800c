/**
 * patternWorstMs: the longest one check of a hostile pattern takes. For each family of
 * adversarial patterns the largest instance the bounded engine accepts (cost ≤ MAX_PATTERN_COST,
 * length ≤ MAX_PATTERN_LENGTH) is run on 10,000-character inputs (the longest text a pattern
 * ever sees); the pattern and input with the most steps are timed, median of several runs.
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
  let worst: { family: string; pattern: string; compiled: LinearPattern; input: string; steps: number } | undefined;
  let worstMB = 0;
  for (const [family, make] of FAMILIES) {
    const found = largest(make);
    if (!found) continue;
    for (const input of INPUTS) {
      worstMB = Math.max(worstMB, memoryMB(found.pattern, input));
      const { steps } = found.compiled.measure(input);
      if (!worst || steps > worst.steps) worst = { family, ...found, input, steps };
    }
  }
  if (!worst) throw new Error('no adversarial pattern was accepted');
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    worst.compiled.test(worst.input);
    times.push(performance.now() - started);
  }
  const worstMs = times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
  return {
    worstMs,
    family: worst.family,
    pattern: worst.pattern.length > 60 ? `${worst.pattern.slice(0, 57)}…` : worst.pattern,
    steps: worst.steps,
    cost: worst.compiled.cost,
    nsPerStep: (worstMs * 1e6) / worst.steps,
    worstMB,
  };
}
