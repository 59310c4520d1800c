/**
 * The benchmark's series and its table, at a size: the full `npm run bench` (bench.ts, which judges
 * the figures against their goals) and the short bench of `npm test` (test/e2e/benchShort.test.ts,
 * a few of each series, which only has to finish) run the same code. Each series that cannot run
 * fails naming itself and what it waited for (runSeries).
 *
 * - overheadRatio: 1000 form elicitations (server-everything's schema) from one SDK
 *   server over stdio, answered by McpConnection + Broker (normalize, validate) + a
 *   scripted answerer, divided by a bare client of the same SDK (the official v2
 *   client package) answering the same requests; alternated over several rounds,
 *   median ratio.
 * - concurrent: 20 servers × 50 questions at once through one Broker (each server's
 *   burst grouped into forms of ten).
 * - roundFormMs / roundWarmMs: a 2026-07-28 server's round of four questions, in a new
 *   tab / in the tab just answered.
 * - quickPickMs / formColdMs / formWarmMs / activationMs: in code-server, timed on one
 *   clock (the server's Date.now() when it sends, the browser's when the widget is ready).
 * - webviewFloorMs / formFloorRatio: a bare webview extension (webviewFloor.ts, built at bench time)
 *   opens a panel with one input in a new tab, timed as formColdMs, in the same window right after
 *   the cold forms; the ratio is formColdMs ÷ webviewFloorMs of this run (goal ≤ 1.25). Below the table,
 *   where a new tab's time goes: for both, each stage's median time after the send, from VS Code's own
 *   performance marks (the workbench's webview element, its webview page pre/index.html) and the page's
 *   (written, first and last custom element defined, `ready`, the question arrived, built, ready).
 * - formPageReadyMs / formPagePaintMs: the form page alone in Chromium, without VS Code
 *   (formPageTimings.ts): its script run, and server-everything's form built and painted.
 * - formFirstMs: the first form of a window, in a fresh browser profile and in one that has
 *   shown webviews before (a new window on the same profile).
 * - agentAskMs: an ACP agent in an agent session (the fixture agent, written with the ACP SDK)
 *   sends codex-acp's blocking question as `elicitation/create` (its clock) → the question's first
 *   input is enabled, whether drawn as quick input or as a form (the browser's clock).
 * - answerMs: Submit pressed in a form (the page's clock) → the server has the answer (its clock).
 * - patternWorstMs: the longest one pattern check takes, for the worst of several families of
 *   adversarial patterns at the engine's caps on 10,000-character inputs (patternTimings.ts);
 *   the unit tests bound its steps, this turns them into time on this machine. patternWorstMB:
 *   the most memory one compile and check of them took.
 * - hostBlockWorstMs: the longest any asker's input blocked the event loop (issue #33): the stall
 *   server's costly forms, rounds and results on both revisions, and 100 batches of the hostile
 *   generator (hostBlockTimings.ts), each after a warm-up; names the request that caused it.
 * - deviceAnswerMs: an answer sent by a paired device (an HTTPS POST on loopback with its cookie,
 *   deviceTimings.ts) → the asker has it; median of 21.
 * - extensionKB / webviewKB / vsixKB: the production bundles (extensionKB is what activation
 *   loads: extension.js and the shared files it requires; the other bundles load when first used) and the VSIX. webviewKB is what one
 *   webview page loads: the heavier of the form's and the agent panel's bundles (each page loads
 *   only its own, stylesheet included; the sum of the two is printed beside it).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Broker, type Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import { McpConnection } from '../../src/mcp/connection';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { ScriptedRenderer } from '../support/scriptedRenderer';
import type { ColdTimings } from './vscodeTimings';
import { measureFormPage, type FormPageTimings } from './formPageTimings';
import { deviceAnswer } from './deviceTimings';
import { worstPattern } from './patternTimings';
import { worstHostBlock } from './hostBlockTimings';
import { runSeries } from './series';

const root = path.join(__dirname, '..', '..');
const benchServer = path.join(__dirname, 'bench-server.mjs');

/** How many of each series a run takes. */
export interface BenchSize {
  /** Forms per overhead round, and the rounds (Elicit and the bare client alternate). */
  requests: number;
  rounds: number;
  /** Servers asking at once, and questions each. */
  servers: number;
  perServer: number;
  /** Questions per series in code-server. */
  series: number;
  /** Timed runs of the costliest pattern. */
  patternRuns: number;
  /** Batches of the hostile generator. */
  hostBatches: number;
  deviceAnswers: number;
  formPages: number;
}

export const FULL_BENCH: BenchSize = {
  requests: 1000,
  rounds: 7,
  servers: 20,
  perServer: 50,
  series: Number(process.env.BENCH_SERIES ?? 21),
  patternRuns: 7,
  hostBatches: 100,
  deviceAnswers: 21,
  formPages: 15,
};

/** A few of each: every series runs, in a minute or two (`npm test`). */
export const SHORT_BENCH: BenchSize = {
  requests: 100,
  rounds: 3,
  servers: 5,
  perServer: 10,
  series: 4,
  patternRuns: 3,
  hostBatches: 10,
  deviceAnswers: 5,
  formPages: 3,
};

export interface BenchOptions {
  /** Only what runs in Node (overhead, concurrency, sizes). */
  skipVscode?: boolean;
  /** Only the cold forms and the floor's bare webviews. */
  coldOnly?: boolean;
  /** Build the VSIX first (`npm run package`); without it, the one built last is measured. */
  build?: boolean;
}

/** A valid answer to the everything form: what a person fills in; the rest are defaults. */
const ANSWER = { name: 'Bench', check: true, email: 'bench@example.com', untitledMultipleSelectEnum: ['Guitar', 'Drums'] };
/** What the bare client sends: the same answer with the defaults Elicit fills in. */
const FULL_ANSWER = {
  ...ANSWER,
  firstLine: 'It was a dark and stormy night.',
  integer: 42,
  number: 3.14,
  untitledSingleSelectEnum: 'Monica',
  titledSingleSelectEnum: 'hero-1',
  titledMultipleSelectEnum: ['fish-1'],
  legacyTitledEnum: 'pet-1',
};

function stdio(name: string, env: Record<string, string> = {}): ServerConfig {
  return { name, source: 'bench', transport: { type: 'stdio', command: process.execPath, args: [benchServer], env } };
}

/** The highest RSS seen while questions were answered (sampled by the answerer itself). */
let peakRss = 0;

/** The answer for each question of a group, under its composed field names. */
function answerFor(question: Question): ElicitResult {
  const sections = question.form?.sections;
  if (!sections) return { action: 'accept', content: { ...ANSWER } };
  const content = Object.fromEntries(sections.flatMap((_, i) => Object.entries(ANSWER).map(([name, value]) => [`${i}:${name}`, value])));
  return { action: 'accept', content };
}

function elicitBroker(maxPending: number): Broker {
  const renderer = new ScriptedRenderer((question): ElicitResult => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    return answerFor(question);
  }, 0);
  return new Broker(renderer, { timeoutMs: () => 600_000, maxPendingPerAsker: () => maxPending, presentation: () => 'auto' });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function outcomesOf(result: unknown): Record<string, number> {
  const text = ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '{}';
  return JSON.parse(text) as Record<string, number>;
}

// ─── overhead ───────────────────────────────────────────────────────────────

async function overhead(size: BenchSize): Promise<{ ratio: number; oursMs: number; bareMs: number; rounds: number[] }> {
  const broker = elicitBroker(3);
  const ours = new McpConnection(stdio('bench-server'), { ask: (r) => broker.ask(r), log: () => undefined });
  const bare = new Client({ name: 'bare', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  bare.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ...FULL_ANSWER } }));
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [benchServer], stderr: 'ignore' }));
  const callOurs = async (count: number): Promise<void> => {
    const outcomes = outcomesOf(await ours.callTool('ask_many', { count }));
    if (outcomes.accept !== count) throw new Error(`ours: ${JSON.stringify(outcomes)}`);
  };
  const callBare = async (count: number): Promise<void> => {
    const outcomes = outcomesOf(await bare.callTool({ name: 'ask_many', arguments: { count } }, { timeout: 600_000 }));
    if (outcomes.accept !== count) throw new Error(`bare: ${JSON.stringify(outcomes)}`);
  };
  // Warm up both (JIT, ajv's compiled validator, the servers' own warm-up).
  await callOurs(Math.min(100, size.requests));
  await callBare(Math.min(100, size.requests));
  const ratios: number[] = [];
  const oursTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let round = 0; round < size.rounds; round++) {
    // Alternate which goes first, so neither always runs on a warmer machine.
    const order = round % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
    const times: Record<string, number> = {};
    for (const which of order) {
      const started = performance.now();
      await (which === 'ours' ? callOurs(size.requests) : callBare(size.requests));
      times[which] = performance.now() - started;
    }
    oursTimes.push(times.ours!);
    bareTimes.push(times.bare!);
    ratios.push(times.ours! / times.bare!);
  }
  await ours.stop();
  await bare.close();
  return { ratio: median(ratios), oursMs: median(oursTimes), bareMs: median(bareTimes), rounds: ratios };
}

// ─── concurrency ────────────────────────────────────────────────────────────

async function concurrent(size: BenchSize): Promise<{ answered: number; lost: number; refused: number; rssGrowthMB: number; ms: number }> {
  const broker = elicitBroker(size.perServer);
  const connections = Array.from(
    { length: size.servers },
    (_, i) => new McpConnection(stdio(`bench-${i + 1}`), { ask: (r) => broker.ask(r), log: () => undefined }),
  );
  await Promise.all(connections.map((c) => c.connect()));
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage.rss();
  peakRss = baseline;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  const started = performance.now();
  const results = await Promise.all(
    connections.map((c) => c.callTool('ask_many', { count: size.perServer, parallel: true }).then(outcomesOf)),
  );
  const ms = performance.now() - started;
  clearInterval(sampler);
  const peak = Math.max(peakRss, process.memoryUsage.rss());
  const answered = results.reduce((sum, r) => sum + (r.accept ?? 0), 0);
  const refused = results.reduce(
    (sum, r) =>
      sum +
      Object.entries(r)
        .filter(([k]) => k.startsWith('error'))
        .reduce((s, [, v]) => s + v, 0),
    0,
  );
  const stillPending = broker.pending().length;
  await Promise.all(connections.map((c) => c.stop()));
  return {
    answered,
    refused,
    lost: size.servers * size.perServer - answered - refused + stillPending,
    rssGrowthMB: (peak - baseline) / 1024 / 1024,
    ms,
  };
}

// ─── sizes ──────────────────────────────────────────────────────────────────

/** Files of their own that every bundle requires (esbuild.mjs `sharedBundles`): extension.js loads them at activation. */
const ACTIVATION_SHARED = ['origin', 'host-watchdog'];

function sizes(build: boolean): {
  extensionKB: number;
  webviewKB: number;
  vsixKB: number;
  lazyKB: Record<string, number>;
  pageKB: Record<string, number>;
} {
  if (build) {
    const built = spawnSync('npm', ['run', '--silent', 'package'], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`npm run package failed:\n${built.stdout}\n${built.stderr}`);
  }
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const kb = (file: string): number => fs.statSync(file).size / 1024;
  const webviewDir = path.join(root, 'dist', 'webview');
  // Source maps left by a development build are not shipped (the production build writes none).
  const webview = fs.readdirSync(webviewDir).filter((f) => !f.endsWith('.map'));
  // Bundles loaded when first used (the MCP SDK when a server starts, the gateway when it starts).
  const lazy = fs.readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.js') && f !== 'extension.js');
  return {
    lazyKB: Object.fromEntries(lazy.map((f) => [f.replace(/\.js$/, ''), kb(path.join(root, 'dist', f))])),
    // What activation loads: extension.js and the shared files it requires.
    extensionKB: [`extension`, ...ACTIVATION_SHARED].reduce((sum, name) => sum + kb(path.join(root, 'dist', `${name}.js`)), 0),
    webviewKB: Math.max(...webview.map((f) => kb(path.join(webviewDir, f)))),
    pageKB: Object.fromEntries(webview.map((f) => [f.replace(/\.js$/, ''), kb(path.join(webviewDir, f))])),
    vsixKB: kb(path.join(root, `elicit-${version}.vsix`)),
  };
}

// ─── main ───────────────────────────────────────────────────────────────────

export interface Row {
  metric: string;
  value: number | undefined;
  unit: string;
  goal: string;
  ok: boolean | undefined;
  note?: string;
}

/** What a run found: the table's rows, where a new tab's time goes, and the `BENCH` line's figures. */
export interface BenchResult {
  rows: Row[];
  stages: ColdTimings['coldStages'];
  bench: Record<string, unknown>;
}

export async function runBench(size: BenchSize, options: BenchOptions = {}): Promise<BenchResult> {
  const { skipVscode = false, coldOnly = false, build = true } = options;
  const rows: Row[] = [];
  const bench: Record<string, unknown> = {};
  /** `goal` undefined: a reference figure, not one of Elicit's goals (no goal, no ok). */
  const row = (
    metric: string,
    value: number | undefined,
    unit: string,
    goal: number | undefined,
    note?: string,
    lowerIsBetter = true,
  ): void => {
    rows.push({
      metric,
      value,
      unit,
      goal: goal === undefined ? '' : `${lowerIsBetter ? '≤' : '='} ${goal}`,
      ok: value === undefined || goal === undefined ? undefined : lowerIsBetter ? value <= goal : value === goal,
      note,
    });
  };

  let stages: ColdTimings['coldStages'] = [];
  if (coldOnly) {
    const { measureInVscode } = await import('./vscodeTimings');
    const v = await measureInVscode(benchServer, { coldOnly: true, series: size.series });
    stages = v.coldStages;
    Object.assign(bench, round({ formColdMs: v.formColdMs, webviewFloorMs: v.webviewFloorMs }));
    bench.formFloorRatio = round(v.formFloorRatio, 3);
    coldRows(row, v);
    pageRows(row, bench, await runSeries('form page', size.formPages, () => measureFormPage(root, size.formPages)));
    return { rows, stages, bench };
  }

  const built = sizes(build);
  Object.assign(bench, round(built));

  const o = await runSeries('overhead', size.rounds * 2, () => overhead(size));
  bench.overheadRatio = round(o.ratio, 3);
  row(
    'overheadRatio',
    o.ratio,
    '×',
    1.05,
    `${size.requests} forms: Elicit ${o.oursMs.toFixed(0)} ms, bare SDK ${o.bareMs.toFixed(0)} ms (median of ${size.rounds} rounds: ${o.rounds.map((r) => r.toFixed(2)).join(', ')})`,
  );

  const p = await runSeries('pattern', size.patternRuns, () => Promise.resolve(worstPattern(size.patternRuns)));
  bench.patternWorstMs = round(p.worstMs);
  bench.patternWorstMB = round(p.worstMB, 2);
  row(
    'patternWorstMs',
    p.worstMs,
    'ms',
    50,
    `median of ${size.patternRuns}: ${p.family} \`${p.pattern}\` (cost ${p.cost}) on 10,000 characters, ${(p.steps / 1e6).toFixed(1)} M steps, ${p.nsPerStep.toFixed(1)} ns a step`,
  );
  row('patternWorstMB', p.worstMB, 'MB', 16, 'the most heap and buffer memory one compile and check of those patterns took');

  const block = await runSeries('host block', size.hostBatches, () => worstHostBlock(size.hostBatches));
  bench.hostBlockWorstMs = round(block.worstMs);
  row(
    'hostBlockWorstMs',
    block.worstMs,
    'ms',
    50,
    `the longest event-loop block by any asker's input (${size.hostBatches} generated batches): ${block.cause} (stall server worst ${block.serverWorstMs.toFixed(1)} ms, generated batches worst ${block.generatedWorstMs.toFixed(1)} ms)`,
  );

  const device = await runSeries('device answer', size.deviceAnswers, () => deviceAnswer(size.deviceAnswers));
  bench.deviceAnswerMs = round(device.medianMs);
  row(
    'deviceAnswerMs',
    device.medianMs,
    'ms',
    100,
    `median of ${size.deviceAnswers}: an answer POSTed over HTTPS on loopback by a paired device → the asker has it`,
  );

  if (!skipVscode) {
    const { measureInVscode } = await import('./vscodeTimings');
    const v = await measureInVscode(benchServer, { series: size.series });
    stages = v.coldStages;
    Object.assign(
      bench,
      round({
        quickPickMs: v.quickPickMs,
        formColdMs: v.formColdMs,
        webviewFloorMs: v.webviewFloorMs,
        formWarmMs: v.formWarmMs,
        formFirstMs: v.formFirstMs,
        formFirstWarmProfileMs: v.formFirstWarmProfileMs,
        formFirstWorkerWaitMs: v.formFirstWorkerWaitMs,
        formFirstWarmProfileWorkerWaitMs: v.formFirstWarmProfileWorkerWaitMs,
        answerMs: v.answerMs,
        roundFormMs: v.roundFormMs,
        roundWarmMs: v.roundWarmMs,
        agentAskMs: v.agentAskMs,
        activationMs: v.activationMs,
      }),
    );
    bench.formFloorRatio = round(v.formFloorRatio, 3);
    row('quickPickMs', v.quickPickMs, 'ms', 100, `median of ${v.quickPickSamples}: elicitation/create sent → QuickPick visible`);
    coldRows(row, v);
    pageRows(row, bench, await runSeries('form page', size.formPages, () => measureFormPage(root, size.formPages)));
    const waited = (ms: number | undefined): string =>
      ms === undefined ? '' : ` (VS Code's webview page waiting for its service worker: ${ms} ms)`;
    row(
      'formFirstMs',
      v.formFirstWarmProfileMs,
      'ms',
      1000,
      `the window's first form, in a browser profile that has shown webviews before${waited(v.formFirstWarmProfileWorkerWaitMs)}; in a fresh profile: ${Math.round(v.formFirstMs)} ms${waited(v.formFirstWorkerWaitMs)}`,
    );
    row('formWarmMs', v.formWarmMs, 'ms', 80, `median of ${v.formWarmSamples} follow-up forms, each drawn in the tab just answered`);
    row('answerMs', v.answerMs, 'ms', 50, `median of ${v.answerSamples}: Submit pressed in a form → the server has the answer`);
    row(
      'roundFormMs',
      v.roundFormMs,
      'ms',
      300,
      `median of ${v.roundFormSamples}: a 2026-07-28 round of four questions returned → the form's first input enabled and painted, a new tab each`,
    );
    row('roundWarmMs', v.roundWarmMs, 'ms', 80, `median of ${v.roundWarmSamples}: the request's next round drawn in the tab just answered`);
    row(
      'agentAskMs',
      v.agentAskMs,
      'ms',
      250,
      `median of ${v.agentAskSamples}: an ACP agent in a session (the fixture agent, ACP SDK) sends codex's blocking question as elicitation/create → its first input enabled (a form's: and painted)`,
    );
    row('activationMs', v.activationMs, 'ms', 15, 'activate(), from the "Elicit" log');
  }

  row(
    'extensionKB',
    built.extensionKB,
    'KB',
    450,
    `what activation loads, minified: dist/extension.js and ${ACTIVATION_SHARED.map((name) => `${name}.js`).join(' and ')}; loaded when first used: ${Object.entries(
      built.lazyKB,
    )
      .filter(([name]) => !ACTIVATION_SHARED.includes(name))
      .map(([name, kb]) => `${name}.js ${kb.toFixed(0)} KB`)
      .join(', ')}`,
  );
  const pages = Object.entries(built.pageKB);
  row(
    'webviewKB',
    built.webviewKB,
    'KB',
    150,
    `the heavier page, minified, stylesheet included: ${pages.map(([name, kb]) => `${name}.js ${kb.toFixed(1)} KB`).join(', ')} (${pages
      .reduce((sum, [, kb]) => sum + kb, 0)
      .toFixed(1)} KB together; a page loads only its own)`,
  );
  row('vsixKB', built.vsixKB, 'KB', 800);

  const c = await runSeries('concurrent', size.servers, () => concurrent(size));
  bench.concurrent = { answered: c.answered, lost: c.lost, rssGrowthMB: round(c.rssGrowthMB, 1) };
  row(
    'concurrent.answered',
    c.answered,
    '',
    size.servers * size.perServer,
    `${size.servers} servers × ${size.perServer} at once, ${c.ms.toFixed(0)} ms; ${c.refused} refused`,
    false,
  );
  row('concurrent.lost', c.lost, '', 0, undefined, false);
  row('concurrent.rssGrowthMB', c.rssGrowthMB, 'MB', 30, `peak RSS over the baseline with the ${size.servers} servers connected`);

  return { rows, stages, bench };
}

type AddRow = (metric: string, value: number | undefined, unit: string, goal: number | undefined, note?: string) => void;

function coldRows(row: AddRow, v: ColdTimings): void {
  row(
    'formColdMs',
    v.formColdMs,
    'ms',
    250,
    `median of ${v.formColdSamples} forms, each in a new tab, sent 0.3 s after the last tab closed: sent → first input enabled and painted`,
  );
  row(
    'webviewFloorMs',
    v.webviewFloorMs,
    'ms',
    undefined,
    `median of ${v.webviewFloorSamples}: a bare webview extension's panel (one input, a CSP like Elicit's), each in a new tab, opened 0.3 s after the last tab closed, in blocks of seven alternating with the cold forms': its extension creates it → input enabled and painted (VS Code's own cost: no goal)`,
  );
  row(
    'formFloorRatio',
    v.formFloorRatio,
    '×',
    1.25,
    `formColdMs ÷ webviewFloorMs, measured in this run: ${Math.round(v.formColdMs)} ms ÷ ${Math.round(v.webviewFloorMs)} ms`,
  );
}

/** The form page by itself, without VS Code (formPageTimings.ts): reference figures, no goal. */
function pageRows(row: AddRow, bench: Record<string, unknown>, p: FormPageTimings): void {
  bench.formPageReadyMs = round(p.formPageReadyMs);
  bench.formPagePaintMs = round(p.formPagePaintMs);
  row(
    'formPageReadyMs',
    p.formPageReadyMs,
    'ms',
    undefined,
    `median of ${p.samples}: the form page alone in Chromium (no VS Code), navigation start → its script has run and says ready`,
  );
  row(
    'formPagePaintMs',
    p.formPagePaintMs,
    'ms',
    undefined,
    `median of ${p.samples}: the same page, server-everything's form handed over → built and painted (the frame after it)`,
  );
}

/**
 * The table, where a new tab's time goes, and last the `BENCH {json}` line. `judged: false` (the short
 * bench) leaves out whether each figure met its goal: a few samples on a shared machine say nothing of that.
 */
export function printBench({ rows, stages, bench }: BenchResult, judged = true): void {
  const cpu = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}`;
  console.log(`\nElicit benchmark — Node ${process.version}, ${cpu}\n`);
  console.log(`| metric | value | goal | | notes |\n| --- | --: | --- | --- | --- |`);
  for (const r of rows) {
    const value =
      r.value === undefined ? 'n/a' : `${Number.isInteger(r.value) ? r.value : r.value.toFixed(r.unit === '×' ? 3 : 1)} ${r.unit}`.trim();
    console.log(
      `| ${r.metric} | ${value} | ${r.goal ? `${r.goal} ${r.unit}`.trim() : ''} | ${r.ok === undefined || !judged ? '' : r.ok ? 'ok' : 'MISSED'} | ${r.note ?? ''} |`,
    );
  }
  if (stages.length > 0) {
    // Medians of each stage's time after the send: a stage's cost is its step from the one above.
    console.log(`\nWhere a new tab's time goes (median ms after the send; VS Code's marks, then the page's):\n`);
    console.log(`| stage | Elicit's cold form | bare webview |\n| --- | --: | --: |`);
    const ms = (value: number | undefined): string => (value === undefined ? '' : String(Math.round(value)));
    for (const s of stages) console.log(`| ${s.stage} | ${ms(s.formMs)} | ${ms(s.floorMs)} |`);
  }
  console.log(`BENCH ${JSON.stringify(bench)}`);
}

function round<T>(value: T, digits = 1): T {
  if (typeof value === 'number') return (Math.round(value * 10 ** digits) / 10 ** digits) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, round(v, digits)])) as T;
  }
  return value;
}
