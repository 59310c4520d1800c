/**
 * The short bench: a few of each of `npm run bench`'s series (test/bench/benchRun.ts at SHORT_BENCH),
 * in code-server and in Node, so that a change that stops a series is found by `npm test` and not by
 * the next person who runs the full bench. It prints the figures and its `BENCH` line and judges no
 * figure (a shared machine; the full bench judges them against their goals); it fails when a series
 * cannot run, naming the series and what it waited for (test/bench/series.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printBench, runBench, SHORT_BENCH } from '../bench/benchRun';

/** The figures of the `BENCH` line that every run has, each from a series that must have run. */
const FIGURES = [
  'extensionKB',
  'webviewKB',
  'vsixKB',
  'overheadRatio',
  'patternWorstMs',
  'hostBlockWorstMs',
  'deviceAnswerMs',
  'quickPickMs',
  'formColdMs',
  'webviewFloorMs',
  'formFloorRatio',
  'formWarmMs',
  'formFirstMs',
  'formFirstWarmProfileMs',
  'answerMs',
  'roundFormMs',
  'roundWarmMs',
  'agentAskMs',
  'formPageReadyMs',
  'formPagePaintMs',
];

describe('the short bench, in code-server', { timeout: 600_000 }, () => {
  it("runs a few of each series, and prints its table and BENCH line (the full bench's shape)", async () => {
    const started = Date.now();
    // The VSIX `npm test` built before the end-to-end files.
    const result = await runBench(SHORT_BENCH, { build: false });
    printBench(result, false);
    console.log(`short bench: ${Math.round((Date.now() - started) / 1000)} s`);
    const { bench } = result;
    const missing = FIGURES.filter((name) => typeof bench[name] !== 'number' || !Number.isFinite(bench[name]));
    assert.deepEqual(missing, [], `every series gave its figure: ${JSON.stringify(bench)}`);
    const concurrent = bench.concurrent as { answered?: unknown } | undefined;
    assert.equal(typeof concurrent?.answered, 'number', 'the concurrent series gave its figures');
  });
});
