/**
 * `npm run bench`: how fast and how small Elicit is, judged against its goals. Not part of `npm test`
 * (timings on a shared machine are not assertions; `npm test` runs a short bench that only has to
 * finish, test/e2e/benchShort.test.ts). Prints a table, and as its last line `BENCH {json}`. The
 * series and what each figure means: benchRun.ts.
 *
 *   npm run bench                      everything (builds the VSIX, starts code-server)
 *   npm run bench -- --skip-vscode     only what runs in Node (overhead, concurrency, sizes)
 *   npm run bench -- --cold-only       only the cold forms and the floor's bare webviews, with where their time goes
 *   BENCH_SERIES=n                     samples per series in code-server (21)
 *   BENCH_DEBUG=1                      every frame, request, page event, focus change and quick input, with its time
 *   BENCH_TRACE=<folder>               Chrome traces of the renderer while the cold forms and the bare webviews
 *                                      open (<folder>/cold-forms.json, bare-webviews.json; tracing slows them)
 */
import { FULL_BENCH, printBench, runBench } from './benchRun';

const args = process.argv.slice(2);

runBench(FULL_BENCH, { skipVscode: args.includes('--skip-vscode'), coldOnly: args.includes('--cold-only') }).then(
  (result) => {
    printBench(result);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
