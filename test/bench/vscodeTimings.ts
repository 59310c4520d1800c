/**
 * The benchmark's part in a real VS Code (code-server, the e2e harness): how long
 * from the server sending `elicitation/create` until the QuickPick is visible /
 * the form's first input is enabled, the same for an ACP agent's question in an
 * agent session (agentAskMs), and how long `activate()` takes.
 *
 * One clock: the bench server writes Date.now() just before it sends; a script
 * Playwright injects into every frame (workbench and webview iframes) logs
 * Date.now() from a MutationObserver when the widget is ready. Same machine,
 * same wall clock.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Frame, type Page } from 'playwright-core';
import { pickQuickPickItem, readFirst, runCommand, waitForQuickInput, webviewFrame, whereThings } from '../e2e/harness/workbench';
import { startCodeServer } from '../e2e/harness/codeServer';
import { buildFloorVsix, FLOOR_COMMAND, FLOOR_TOOL } from './webviewFloor';
import { builtVsix } from '../e2e/elicitSession';
import { readRecords } from '../support/records';
import { agentPanel, newAgentSession, send } from '../e2e/agentPanelDriver';
import { runSeries } from './series';

/** How many of each series' questions: the cold forms and bare webviews, rounds, QuickPicks… */
interface SeriesSizes {
  series: number;
  /**
   * The cold forms and the floor's bare webviews come in alternating blocks of this many (three blocks
   * of each in a full run), so that a machine that is slower for a while slows both alike.
   */
  block: number;
  blocks: number;
  /** Rounds per `round_chain` call (under Elicit's cap of 10): three calls give the warm samples. */
  chain: number;
}

function seriesSizes(series: number): SeriesSizes {
  const block = Math.max(1, Math.ceil(series / 3));
  return { series, block, blocks: Math.ceil(series / block), chain: Math.ceil(series / 3) };
}

/** New tabs only: cold forms and the bare webviews of the floor (`npm run bench -- --cold-only`). */
export interface ColdTimings {
  formColdMs: number;
  formColdSamples: number;
  /**
   * The floor: a bare webview extension's panel (one input, a CSP like Elicit's) opened in a new tab,
   * timed as formColdMs (its extension's Date.now() before it creates the panel → the input enabled and painted),
   * in the same window, in blocks alternating with the cold forms'.
   */
  webviewFloorMs: number;
  webviewFloorSamples: number;
  /** formColdMs ÷ webviewFloorMs. */
  formFloorRatio: number;
  /** Where a cold form's and a bare webview's time goes: each stage's median, ms after the send (see STAGES). */
  coldStages: Array<{ stage: string; formMs: number | undefined; floorMs: number | undefined }>;
}

export interface VscodeTimings extends ColdTimings {
  quickPickMs: number;
  quickPickSamples: number;
  /** The very first form of the window, in a fresh browser profile: the first webview VS Code creates there. */
  formFirstMs: number;
  /** The first form of a new window, in a browser profile that has shown a webview before. */
  formFirstWarmProfileMs: number;
  /** Of those two, how long VS Code's webview page waited for its service worker (its own marks). */
  formFirstWorkerWaitMs: number | undefined;
  formFirstWarmProfileWorkerWaitMs: number | undefined;
  /** Submit pressed → the server has the answer. */
  answerMs: number;
  answerSamples: number;
  formWarmMs: number;
  formWarmSamples: number;
  /** A 2026-07-28 server returns a round of four questions → the form's first input is enabled (a new tab each). */
  roundFormMs: number;
  roundFormSamples: number;
  /** The next round of the same request, drawn in the tab just answered. */
  roundWarmMs: number;
  roundWarmSamples: number;
  /** An ACP agent (in an agent session) sends `elicitation/create` → the question's first input is enabled. */
  agentAskMs: number;
  agentAskSamples: number;
  activationMs: number | undefined;
}

/**
 * Runs in every frame before its own scripts. Logs "elicit-bench <event> <Date.now()>". `trace`
 * (BENCH_DEBUG): the workbench also logs where the focus goes, the quick input showing and hiding,
 * and the active tab, so a step that waited in vain can be read in time order.
 *
 * A webview's content frame is the exception: VS Code loads fake.html into it, where Playwright's
 * init script does not run, and writes the page with document.open/write; a probe installed when
 * Playwright reports the frame comes a few ms after the page is written, which is after a page
 * that is ready as written (the bare webview) was ready. So VS Code's webview page (pre/index.html)
 * installs it into each content frame it creates, at that frame's DOMContentLoaded, before VS Code
 * writes the page there: `win` is that frame's window (the probe's code runs in the outer realm).
 */
function readinessProbe(trace: boolean, win: Window = window): void {
  const log = (event: string): void => console.log(`elicit-bench ${event} ${Date.now()}`);
  const doc = win.document;
  // Once per document: VS Code writes webview content with document.open/write, which keeps the window.
  const probed = doc as unknown as { __elicitBenchProbe?: boolean };
  if (probed.__elicitBenchProbe) return;
  probed.__elicitBenchProbe = true;
  if (window === window.top) {
    if (trace) {
      const describe = (el: EventTarget | null): string =>
        el instanceof Element
          ? `${el.localName}${el.classList.length ? `.${Array.from(el.classList).slice(0, 2).join('.')}` : ''}`
          : 'none';
      window.addEventListener('focusin', (e) => log(`trace:focus-in:${describe(e.target)}`), true);
      window.addEventListener('blur', () => log(`trace:window-blur:${describe(document.activeElement)}`));
      window.addEventListener('keydown', (e) => log(`trace:keydown:${e.key}:${e.isTrusted ? 'typed' : 'forwarded'}`), true);
    }
    let traced = '';
    const traceState = (): void => {
      const widget = document.querySelector<HTMLElement>('.quick-input-widget');
      const shown = !!widget && widget.style.display !== 'none' && !widget.classList.contains('quick-input-widget-closing');
      const input = shown ? `"${widget!.querySelector<HTMLInputElement>('.quick-input-box input')?.placeholder ?? ''}"` : 'none';
      const tab = document.querySelector('.tabs-container .tab.active .label-name')?.textContent ?? 'none';
      const state = `trace:quick-input:${input.replace(/\s+/g, '_')}:tab:${tab.replace(/\s+/g, '_')}`;
      if (state !== traced) log(state);
      traced = state;
    };
    // Each pick's placeholder is numbered: a new one counts even when the widget never hid in between.
    let shown: string | null = null;
    let agentShown = false;
    const check = (): void => {
      const widget = document.querySelector<HTMLElement>('.quick-input-widget');
      const visible =
        !!widget &&
        widget.style.display !== 'none' &&
        !widget.classList.contains('quick-input-widget-closing') &&
        (widget.querySelector('.quick-input-title')?.textContent ?? '').includes('bench-server asks') &&
        widget.querySelectorAll('.quick-input-list .monaco-list-row').length > 0;
      const which = visible ? (widget!.querySelector<HTMLInputElement>('.quick-input-box input')?.placeholder ?? '') : null;
      if (which !== null && which !== shown) log('pick-shown');
      shown = which;
      // An agent's question drawn as quick input: ready once its input box can be typed in.
      const agentInput =
        !!widget &&
        widget.style.display !== 'none' &&
        !widget.classList.contains('quick-input-widget-closing') &&
        (widget.querySelector('.quick-input-title')?.textContent ?? '').includes('bench-agent') &&
        widget.querySelector<HTMLInputElement>('.quick-input-box input')?.disabled === false;
      if (agentInput && !agentShown) log('agent-input-ready');
      agentShown = agentInput;
      if (trace) traceState();
    };
    const start = (): void =>
      new MutationObserver(check).observe(document.documentElement, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    if (document.documentElement) start();
    else document.addEventListener('DOMContentLoaded', start);
    return;
  }
  // VS Code's webview page: put the probe into each content frame as it loads (see above).
  if (win === window && window.parent === window.top && /\/pre\/(index\.html)?$/.test(location.pathname)) {
    const hooked = new WeakSet<HTMLIFrameElement>();
    const hook = (): void => {
      const frame = document.getElementById('pending-frame') as HTMLIFrameElement | null;
      const inner = frame?.contentWindow;
      if (!frame || !inner || hooked.has(frame)) return;
      hooked.add(frame);
      // Added just after VS Code's own listener, which writes the page a timer later.
      inner.addEventListener('DOMContentLoaded', () => readinessProbe(trace, inner));
    };
    // On the document: the init script runs before it has an element.
    new MutationObserver(hook).observe(document, { subtree: true, childList: true, attributes: true });
    // Its `ready`, relayed to the workbench (a stage of the breakdown).
    const post = MessagePort.prototype.postMessage as (this: MessagePort, ...args: unknown[]) => void;
    MessagePort.prototype.postMessage = function (this: MessagePort, ...args: unknown[]): void {
      const message = args[0] as { channel?: string; data?: { message?: { type?: string } } } | null;
      if (message?.channel === 'onmessage' && message.data?.message?.type === 'ready') log('stage:page-said-ready');
      post.apply(this, args);
    };
    return;
  }
  // Stages of a webview's page, for where a cold form's time goes (stageMedians): the page written
  // into its frame, its script's first and last custom element defined, the question arriving. The
  // window outlives document.open(), so its custom elements registry is wrapped once.
  const at = (event: string, time: number): void => console.log(`elicit-bench ${event} ${Math.round(time)}`);
  const realm = win as unknown as { __elicitBenchDefines?: number[] };
  if (!realm.__elicitBenchDefines) {
    const defines: number[] = (realm.__elicitBenchDefines = []);
    const registry = win.customElements;
    const define = registry.define.bind(registry);
    registry.define = (name, constructor, options): void => {
      defines.push(Date.now());
      define(name, constructor, options);
    };
  }
  const written = new WeakSet<Element>();
  const stages = (): void => {
    const page = doc.querySelector('#app, #floor');
    if (!page || written.has(page)) return;
    written.add(page);
    log('stage:page-written');
    // Added after the write: document.open() drops a window's listeners.
    win.addEventListener(
      'message',
      (event) => {
        if ((event.data as { type?: string } | null)?.type === 'show') log('stage:question-arrived');
      },
      true,
    );
  };
  const definesSoFar = (): void => {
    const defines = realm.__elicitBenchDefines!;
    if (defines.length === 0) return;
    at('stage:first-define', defines[0]!);
    at('stage:last-define', defines.at(-1)!);
    defines.length = 0;
  };

  // Logged once what is ready has been painted: the frame's next animation frame, then a task after
  // it (a frame's paint follows its animation frame callbacks). The same for the floor and the form,
  // so whatever the page still renders before that paint counts.
  const painted = (event: string): void => {
    win.requestAnimationFrame(() => win.setTimeout(() => log(event), 0));
  };
  // A webview's content frame: interactive once the first field's input exists and is enabled.
  // A panel may show several questions one after another: each new question id counts once.
  let readyFor: string | null = null;
  let builtFor: string | null = null;
  // The bare webview of the floor (webviewFloor.ts): its one input is in the page as written.
  let floorFor: string | null = null;
  const check = (): void => {
    stages();
    const floor = doc.querySelector<HTMLInputElement>('input[data-bench-floor]');
    const panel = floor?.dataset.benchFloor ?? null;
    if (panel !== null && panel !== floorFor && !floor!.disabled) {
      floorFor = panel;
      painted('floor-ready');
    }
    const form = doc.querySelector<HTMLElement>('#app:not([aria-busy]) .form[data-question]');
    const question = form?.dataset.question ?? null;
    if (question === null || question === readyFor) return;
    if (question !== builtFor) {
      builtFor = question;
      definesSoFar();
      log('form-built');
    }
    const input = form!.querySelector<HTMLInputElement>('.fields input.text-input');
    if (input && !input.disabled) {
      readyFor = question;
      painted('form-ready');
    }
  };
  if (doc.querySelector('#app')) log('form-page');
  new MutationObserver(check).observe(doc, { subtree: true, childList: true, attributes: true });
  check();
  // The moment Submit is pressed (answerMs runs from here to the server having the answer). On the
  // page's #app, not the document: VS Code writes the page with document.open(), which drops the
  // document's listeners and may come after this probe ran.
  const listening = new WeakSet<Element>();
  const onClick = (event: Event): void => {
    // By name, not instanceof: the nodes may belong to another realm than this code.
    const submit = event
      .composedPath()
      .some((node) => (node as Element).localName === 'button' && (node as Element).textContent?.trim() === 'Submit');
    if (submit) log('submit-pressed');
  };
  const listen = (): void => {
    const app = doc.querySelector('#app');
    if (!app || listening.has(app)) return;
    listening.add(app);
    app.addEventListener('click', onClick, true);
  };
  new MutationObserver(listen).observe(doc, { subtree: true, childList: true });
  listen();
}

/** The fixture agent that asks in an agent session (its name marks its questions' titles). */
const AGENT = 'bench-agent';

/** `series`: questions per series (21 in a full run: QuickPicks, cold forms, warm forms, rounds…). */
export function measureInVscode(benchServer: string, options: { series: number }): Promise<VscodeTimings>;
export function measureInVscode(benchServer: string, options: { coldOnly: true; series: number }): Promise<ColdTimings>;
export async function measureInVscode(
  benchServer: string,
  options: { coldOnly?: boolean; series: number },
): Promise<VscodeTimings | ColdTimings> {
  const { series, block: blockSize, blocks, chain } = seriesSizes(options.series);
  const workspaceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-bench-ws-'));
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-bench-profile-'));
  const record = path.join(workspaceDir, '..', `${path.basename(workspaceDir)}-record.jsonl`);
  fs.mkdirSync(path.join(workspaceDir, '.vscode'));
  const server = {
    type: 'stdio',
    command: process.execPath,
    args: [benchServer],
    env: { RECORD_FILE: record, BENCH_SERIES: String(series), BENCH_BLOCK: String(blockSize) },
  };
  const roundServer = {
    type: 'stdio',
    command: process.execPath,
    args: [path.join(path.dirname(benchServer), 'bench-round-server.mjs')],
    env: { RECORD_FILE: record, BENCH_CHAIN: String(chain) },
  };
  fs.writeFileSync(
    path.join(workspaceDir, '.vscode', 'mcp.json'),
    JSON.stringify({ servers: { 'bench-server': server, 'round-server': roundServer } }),
  );

  const agents = {
    [AGENT]: {
      command: process.execPath,
      args: [path.join(path.dirname(benchServer), '..', 'fixtures', 'acp-agent.mjs')],
      env: { RECORD_FILE: record, FIXTURE_NAME: AGENT },
    },
  };
  // The bare webview extension (the floor), built here and installed next to Elicit.
  const floorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-bench-floor-'));
  const floorRecord = path.join(floorDir, 'record.jsonl');
  const floorVsix = await buildFloorVsix(floorDir);
  const codeServer = await startCodeServer({
    vsixPaths: [builtVsix(), floorVsix],
    workspaceDir,
    userSettings: { 'elicit.agents': agents },
    env: { ELICIT_BENCH_FLOOR_RECORD: floorRecord, ELICIT_BENCH_FLOOR_SERIES: String(blockSize) },
  });
  let window: BenchWindow | undefined;
  try {
    // A fresh browser profile: its first webview waits for VS Code's webview service worker to start.
    const first = await openWindow(codeServer.url, profileDir, record);
    window = first;
    const { page, waitCount, frame } = first;
    // Forms, cold, and the floor's bare webviews, in alternating blocks. Each cold form is cancelled,
    // which closes its tab, so the next one opens a new tab (the server sends it 0.3 s later, once the
    // window has closed the last one: see bench-server.mjs). Each bare webview is closed by its button,
    // which closes its tab; the next opens 0.3 s later. The cold forms come first, so the first of them
    // is the window's first webview (formFirstMs): a tool's result is a webview too.
    let forms = 0;
    let floors = 0;
    let firstWorkerWait: number | undefined;
    // A series that waits in vain says what the page saw last.
    const inSeries = <T>(name: string, questions: number, run: () => Promise<T>): Promise<T> =>
      runSeries(name, questions, run, () => (window?.events ?? []).slice(-20).map((e) => `${e.event} ${e.at}`));
    await inSeries('cold forms and bare webviews', series * 2, async () => {
      for (let block = 0; block < blocks; block++) {
        await runBenchTool(first, 'cold_forms');
        const formsTrace = block === 0 ? await startTrace(page) : undefined;
        for (let i = 0; i < blockSize; i++) {
          await waitCount('form-ready', ++forms);
          if (forms === 1) firstWorkerWait = await serviceWorkerWait(page);
          await readWebviewMarks(first);
          await (await frame()).getByRole('button', { name: 'Cancel' }).click();
        }
        await formsTrace?.stop('cold-forms');
        await waitForResult(first, 'bench-server', 'cold_forms');
        // The floor, on the same empty editor area.
        await closeAllEditors(first);
        await runCommand(page, FLOOR_COMMAND);
        const floorTrace = block === 0 ? await startTrace(page) : undefined;
        for (let i = 0; i < blockSize; i++) {
          await waitCount('floor-ready', ++floors);
          await readWebviewMarks(first);
          await (await frame()).getByRole('button', { name: 'Close' }).click();
        }
        await floorTrace?.stop('bare-webviews');
        await waitForRecordCount(floorRecord, floors);
        await waitUntilTrue(
          page,
          'the last bare webview to close',
          async () => (await page.locator('iframe.webview:visible').count()) === 0,
        );
      }
    });
    if (options.coldOnly) {
      await readWorkbenchMarks(first);
      return coldTimings(record, floorRecord, first.events, series);
    }
    // Forms, warm: each is declined (an answer), so the next one is drawn in the same tab.
    await inSeries('warm forms', series, async () => {
      await runBenchTool(first, 'series_form');
      for (let i = 1; i <= series; i++) {
        await waitCount('form-ready', ++forms);
        await (await frame()).getByRole('button', { name: 'Decline' }).click();
      }
      await waitForResult(first, 'bench-server', 'series_form');
    });
    // QuickPicks, on an empty editor area: each one is cancelled with Escape, and the server sends the next.
    // Escape once the pick has been read, as a person does: a question takes no key in its first moments
    // (src/core/time/arrivalGuard.ts), so an Escape at once is lost and the next pick never comes.
    await inSeries('QuickPick', series, async () => {
      await closeAllEditors(first);
      await runBenchTool(first, 'series_pick');
      for (let i = 1; i <= series; i++) {
        await waitCount('pick-shown', i);
        await readFirst(page);
        await page.keyboard.press('Escape');
      }
      await waitForResult(first, 'bench-server', 'series_pick');
    });
    // Answers: Submit pressed → the server has the answer (every field has a default). Each form's
    // buttons are drawn unavailable for its first moments: the click waits for them, as a person does.
    await inSeries('answer', series, async () => {
      await runBenchTool(first, 'series_answer');
      for (let i = 1; i <= series; i++) {
        await waitCount('form-ready', ++forms);
        await (await frame()).getByRole('button', { name: 'Submit' }).click();
        await waitForRecordCount(record, i, (r) => r.tool === 'series_answer');
      }
      await waitForResult(first, 'bench-server', 'series_answer');
    });
    // 2026-07-28 rounds, cold: one round per call, cancelled, so each call's round opens a new tab.
    await inSeries('cold rounds', series, async () => {
      for (let i = 1; i <= series; i++) {
        // Its last result closed first: waitForResult would otherwise see the old one (the same text).
        await closeAllEditors(first);
        await runBenchTool(first, 'round_once', 'round-server');
        await waitCount('form-ready', ++forms);
        await (await frame()).getByRole('button', { name: 'Cancel' }).click();
        await waitForResult(first, 'round-server', 'round_once');
      }
    });
    // Rounds, warm: each is declined (an answer), so the request's next round is drawn in the same tab.
    await inSeries('warm rounds', 3 * chain, async () => {
      for (let call = 0; call < 3; call++) {
        await closeAllEditors(first);
        await runBenchTool(first, 'round_chain', 'round-server');
        for (let i = 0; i < chain; i++) {
          await waitCount('form-ready', ++forms);
          await (await frame()).getByRole('button', { name: 'Decline' }).click();
        }
        await waitForResult(first, 'round-server', 'round_chain');
      }
    });
    // An agent's questions: the fixture agent (ACP SDK) asks codex's blocking question in a session,
    // one after another; each is cancelled (Escape in a quick input, Cancel in a form).
    const formsBeforeAgent = first.events.filter((e) => e.event === 'form-ready').length;
    await inSeries('agent question', series, async () => {
      await newAgentSession(page, AGENT, false);
      await send(await agentPanel(page, AGENT, 60_000), `ask-series codex-blocking ${series}`);
      for (let i = 1; i <= series; i++) {
        await first.waitUntil(`agent question ${i}`, (events) => agentReadyEvents(events, formsBeforeAgent).length >= i);
        await cancelAgentQuestion(page);
        // The agent has the answer (its record), so the next question is its own.
        await waitForRecordCount(record, i, (r) => r.agent === AGENT && r.kind === 'agent-question');
      }
    });
    const agentAsks = firstAfter(record, agentReadyEvents(first.events, formsBeforeAgent), 'agent_ask');

    await readWorkbenchMarks(first);
    const seen = first.events;
    await first.close();
    window = undefined;

    // The same browser profile, a new window: as a person's browser (or desktop VS Code) that has shown webviews before.
    let warmProfile: number[] = [];
    let warmProfileWorkerWait: number | undefined;
    const second = await openWindow(codeServer.url, profileDir, record);
    window = second;
    await inSeries("a new window's first form", 1, async () => {
      await runBenchTool(second, 'one_form');
      await second.waitCount('form-ready', 1);
      warmProfile = latencies(record, second.events, 'one_form', 'form-ready');
      warmProfileWorkerWait = await serviceWorkerWait(second.page);
    });
    await second.close();
    window = undefined;

    if (process.env.BENCH_DEBUG) {
      const sends = [...readRecords(record), ...readRecords(floorRecord)].map((r) => `${r.tool} sent ${r.sentAt ?? r.answeredAt}`);
      console.error(
        [...sends, ...seen.map((e) => `${e.event} ${e.at}`)]
          .sort((a, b) => Number(a.split(' ').at(-1)) - Number(b.split(' ').at(-1)))
          .join('\n'),
      );
    }
    const picks = latencies(record, seen, 'series_pick', 'pick-shown');
    const coldForms = latencies(record, seen, 'cold_forms', 'form-ready');
    // The warm series' first form opens a tab of its own: only the handed-over ones count.
    const warm = latencies(record, seen, 'series_form', 'form-ready').slice(1);
    const answers = answerLatencies(record, seen);
    const roundsCold = latencies(record, seen, 'round_once', 'form-ready');
    // Each chain's first round opens a tab of its own.
    const roundsWarm = latencies(record, seen, 'round_chain', 'form-ready').filter((_, i) => i % chain !== 0);
    return {
      quickPickMs: median(picks),
      quickPickSamples: picks.length,
      formFirstMs: coldForms[0]!,
      formFirstWarmProfileMs: warmProfile[0]!,
      formFirstWorkerWaitMs: firstWorkerWait,
      formFirstWarmProfileWorkerWaitMs: warmProfileWorkerWait,
      ...coldTimings(record, floorRecord, seen, series),
      formWarmMs: median(warm),
      formWarmSamples: warm.length,
      answerMs: median(answers),
      answerSamples: answers.length,
      roundFormMs: median(roundsCold),
      roundFormSamples: roundsCold.length,
      roundWarmMs: median(roundsWarm),
      roundWarmSamples: roundsWarm.length,
      agentAskMs: median(agentAsks),
      agentAskSamples: agentAsks.length,
      activationMs: activationFromLogs(codeServer.userDataDir),
    };
  } finally {
    await window?.close().catch(() => undefined);
    await codeServer.stop();
    await codeServer.removeDirs();
    fs.rmSync(workspaceDir, { recursive: true, force: true });
    fs.rmSync(profileDir, { recursive: true, force: true });
    fs.rmSync(record, { force: true });
    fs.rmSync(floorDir, { recursive: true, force: true });
  }
}

/** The cold forms against the floor's bare webviews. */
function coldTimings(record: string, floorRecord: string, events: BenchEvent[], series: number): ColdTimings {
  const cold = latencies(record, events, 'cold_forms', 'form-ready');
  const floor = latencies(floorRecord, events, FLOOR_TOOL, 'floor-ready');
  return {
    formColdMs: median(cold),
    formColdSamples: cold.length,
    webviewFloorMs: median(floor),
    webviewFloorSamples: floor.length,
    formFloorRatio: median(cold) / median(floor),
    coldStages: stageMedians(record, floorRecord, events, series),
  };
}

interface BenchEvent {
  event: string;
  at: number;
}

interface BenchWindow {
  page: Page;
  events: BenchEvent[];
  waitCount(event: string, n: number): Promise<void>;
  /** Waits (30 s at most) until `done` holds of the events seen so far. */
  waitUntil(what: string, done: (events: BenchEvent[]) => boolean): Promise<void>;
  /** The visible webview's content frame. */
  frame(): ReturnType<typeof webviewFrame>;
  close(): Promise<void>;
}

/** A browser on `profileDir` with the readiness probe in every frame, showing a new VS Code window. */
async function openWindow(url: string, profileDir: string, record: string): Promise<BenchWindow> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.ELICIT_E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 900 },
  });
  // As a string: tsx's keepNames wraps inner functions in __name(), which the page lacks.
  const probe = `(() => { const __name = (f) => f; (${readinessProbe.toString()})(${String(!!process.env.BENCH_DEBUG)}); })();`;
  await context.addInitScript({ content: probe });
  const page = context.pages()[0] ?? (await context.newPage());
  const events: BenchEvent[] = [];
  // Webview content frames are written with document.write, where init scripts may not run:
  // install the probe as soon as a frame appears or navigates, long before its form is drawn.
  const install = (frame: Frame): void => void frame.evaluate(probe).catch(() => undefined);
  page.on('frameattached', install);
  page.on('framenavigated', install);
  if (process.env.BENCH_DEBUG) {
    const short = (u: string): string => u.replace(/^.*?\/\/[^/]+/, '').slice(0, 90);
    page.on('frameattached', (frame) => events.push({ event: `frame-attached ${short(frame.url())}`, at: Date.now() }));
    page.on(
      'framenavigated',
      (frame) => frame !== page.mainFrame() && events.push({ event: `frame-navigated ${short(frame.url())}`, at: Date.now() }),
    );
    page.on(
      'request',
      (request) =>
        /webview|form\.(js|css)/.test(request.url()) && events.push({ event: `request ${short(request.url())}`, at: Date.now() }),
    );
    page.on(
      'requestfinished',
      (request) => /webview|form\.(js|css)/.test(request.url()) && events.push({ event: `loaded ${short(request.url())}`, at: Date.now() }),
    );
  }
  page.on('console', (message) => {
    const m = /^elicit-bench (\S+) (\d+)$/.exec(message.text());
    if (m) events.push({ event: m[1]!, at: Number(m[2]) });
  });
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await page.waitForSelector('.statusbar-item', { timeout: 60_000 });
  await page
    .locator('.part.editor')
    .first()
    .click({ position: { x: 200, y: 200 } });
  const count = (event: string): number => events.filter((e) => e.event === event).length;
  return {
    page,
    events,
    frame: () => webviewFrame(page),
    close: () => context.close(),
    async waitUntil(what, done) {
      const deadline = Date.now() + 30_000;
      while (!done(events)) {
        if (Date.now() > deadline) {
          const seen = events.slice(-20).map((e) => `${e.event} ${e.at}`);
          throw new Error(`bench: waited 30 s for ${what}; last events:\n${seen.join('\n')}`);
        }
        await page.waitForTimeout(20);
      }
    },
    async waitCount(event, n) {
      const deadline = Date.now() + 30_000;
      while (count(event) < n) {
        if (Date.now() > deadline) {
          // Says what happened: the server's sends and what the page saw, in time order.
          const sends = readRecords(record).map((r) => `${String(r.tool)} #${String(r.i)} sent ${String(r.sentAt ?? r.answeredAt)}`);
          const seen = events.map((e) => `${e.event} ${e.at}`);
          const timeline = [...sends, ...seen].sort((a, b) => Number(a.split(' ').at(-1)) - Number(b.split(' ').at(-1)));
          throw new Error(`bench: ${event} seen ${count(event)} times, expected ${n}; timeline:\n${timeline.slice(-20).join('\n')}`);
        }
        await page.waitForTimeout(20);
      }
    },
  };
}

/**
 * The stages of a new webview tab, in the order they come: VS Code's own performance marks (the
 * workbench's webview element, then its webview page, pre/index.html), then the page's (the probe's
 * `stage:` events). A bare webview has no custom elements, no `ready` and no question.
 */
const STAGES = [
  'mark:webviewElement/init/set-src',
  'mark:webviewElement/set-content',
  'mark:webviewElement/mounted',
  'mark:index.html/scriptStart',
  'mark:webviewElement/webview-ready',
  'mark:index.html/content/started',
  'mark:index.html/content/workerReady',
  'mark:index.html/content/innerFrameLoaded',
  'stage:page-written',
  'mark:index.html/content/wroteInnerContent',
  'stage:first-define',
  'stage:last-define',
  'stage:page-said-ready',
  'stage:question-arrived',
  'form-built',
  'ready',
];

/** VS Code's marks in the shown webview's page (pre/index.html), as events on the bench's clock; read before its tab closes. */
async function readWebviewMarks(window: BenchWindow): Promise<void> {
  const outer = await window.page
    .locator('iframe.webview:visible')
    .first()
    .elementHandle({ timeout: 1000 })
    .catch(() => null);
  const frame = await outer?.contentFrame();
  const marks = await frame?.evaluate(markList, 'webview/index.html/').catch(() => undefined);
  for (const mark of marks ?? []) window.events.push({ event: `mark:${mark.name.replace('webview/', '')}`, at: mark.at });
}

/** The workbench's own webview marks (webview/webviewElement/…), kept for every webview of the window. */
async function readWorkbenchMarks(window: BenchWindow): Promise<void> {
  const marks = await window.page.evaluate(markList, 'webview/webviewElement/').catch(() => []);
  for (const mark of marks) window.events.push({ event: `mark:${mark.name.replace('webview/', '')}`, at: mark.at });
}

/** In a page: its performance marks whose names start with `prefix`, at Date.now() time. */
function markList(prefix: string): Array<{ name: string; at: number }> {
  return performance
    .getEntriesByType('mark')
    .filter((m) => m.name.startsWith(prefix))
    .map((m) => ({ name: m.name, at: Math.round(performance.timeOrigin + m.startTime) }));
}

/** For the cold forms and the bare webviews: each stage's median time after the send, over the samples that have it. */
function stageMedians(record: string, floorRecord: string, events: BenchEvent[], series: number): VscodeTimings['coldStages'] {
  const stagesOf = (file: string, tool: string, ready: string, count: number): Map<string, number[]> => {
    const sends = readRecords(file)
      .filter((r) => r.tool === tool && typeof r.sentAt === 'number')
      .map((r) => r.sentAt as number)
      .slice(0, count);
    const byStage = new Map<string, number[]>();
    for (const sent of sends) {
      const readyAt = events.find((e) => e.event === ready && e.at >= sent)?.at;
      if (readyAt === undefined) continue;
      for (const stage of STAGES) {
        const name = stage === 'ready' ? ready : stage;
        const hit = events.find((e) => e.event === name && e.at >= sent && e.at <= readyAt);
        if (hit) byStage.set(stage, [...(byStage.get(stage) ?? []), hit.at - sent]);
      }
    }
    return byStage;
  };
  const form = stagesOf(record, 'cold_forms', 'form-ready', series);
  const floor = stagesOf(floorRecord, FLOOR_TOOL, 'floor-ready', series);
  const med = (values: number[] | undefined): number | undefined => (values && values.length > 0 ? median(values) : undefined);
  return STAGES.map((stage) => ({ stage, formMs: med(form.get(stage)), floorMs: med(floor.get(stage)) })).filter(
    (s) => s.formMs !== undefined || s.floorMs !== undefined,
  );
}

/**
 * BENCH_TRACE=<folder>: a Chrome trace of the window's renderer (the workbench and its webviews share
 * its main thread) while the cold forms, and then the bare webviews, open: <folder>/<name>.json, for
 * Perfetto or chrome://tracing. Tracing slows what it watches: the figures of such a run are not the bench's.
 */
async function startTrace(page: Page): Promise<{ stop(name: string): Promise<void> } | undefined> {
  const folder = process.env.BENCH_TRACE;
  if (!folder) return undefined;
  const cdp = await page.context().newCDPSession(page);
  const categories = [
    'devtools.timeline',
    'disabled-by-default-devtools.timeline',
    'v8.execute',
    'blink.user_timing',
    'toplevel',
    'loading',
  ];
  await cdp.send('Tracing.start', { categories: categories.join(','), transferMode: 'ReturnAsStream' });
  return {
    async stop(name) {
      const complete = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream!)));
      await cdp.send('Tracing.end');
      const stream = await complete;
      const chunks: string[] = [];
      for (;;) {
        const { data, eof } = await cdp.send('IO.read', { handle: stream });
        chunks.push(data);
        if (eof) break;
      }
      await cdp.send('IO.close', { handle: stream });
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `${name}.json`), chunks.join(''));
      await cdp.detach();
    },
  };
}

/** For each send of `tool`, the time to the first `event` at or after it. */
function latencies(record: string, events: BenchEvent[], tool: string, event: string): number[] {
  const sends = readRecords(record)
    .filter((r) => r.tool === tool && typeof r.sentAt === 'number')
    .map((r) => r.sentAt as number);
  const seen = events.filter((e) => e.event === event).map((e) => e.at);
  return sends.map((sent) => {
    const ready = seen.find((at) => at >= sent);
    if (ready === undefined) throw new Error(`bench: no ${event} after a send at ${sent}`);
    return ready - sent;
  });
}

/** The moments an agent's question became ready: as quick input, or as a form (those after the first `formsBefore`). */
function agentReadyEvents(events: BenchEvent[], formsBefore: number): BenchEvent[] {
  const forms = events.filter((e) => e.event === 'form-ready').slice(formsBefore);
  return [...events.filter((e) => e.event === 'agent-input-ready'), ...forms].sort((a, b) => a.at - b.at);
}

/** For each send of `tool`, the time to the first of `ready` at or after it. */
function firstAfter(record: string, ready: BenchEvent[], tool: string): number[] {
  return readRecords(record)
    .filter((r) => r.tool === tool && typeof r.sentAt === 'number')
    .map((r) => {
      const sent = r.sentAt as number;
      const at = ready.find((e) => e.at >= sent)?.at;
      if (at === undefined) throw new Error(`bench: no ready question after a send of ${tool} at ${sent}`);
      return at - sent;
    });
}

/** Cancels the agent's open question: Escape in a quick input, Cancel in a form. */
async function cancelAgentQuestion(page: Page): Promise<void> {
  const quickInput = page.locator('.quick-input-widget:visible');
  if ((await quickInput.count()) > 0) {
    // Once read: its first moments take no key (src/core/time/arrivalGuard.ts).
    await readFirst(page);
    await page.keyboard.press('Escape');
    return;
  }
  for (const frame of page.frames()) {
    const form = frame.locator('#app:not([aria-busy]) .form[data-question]');
    if ((await form.count().catch(() => 0)) === 0) continue;
    await frame.getByRole('button', { name: 'Cancel' }).click();
    return;
  }
  throw new Error('bench: the agent question is neither a quick input nor a form');
}

/** For each answer the server received, the time since the last Submit pressed before it. */
function answerLatencies(record: string, events: BenchEvent[]): number[] {
  const presses = events.filter((e) => e.event === 'submit-pressed').map((e) => e.at);
  return readRecords(record)
    .filter((r) => r.tool === 'series_answer')
    .map((r) => {
      const answeredAt = r.answeredAt as number;
      const pressed = presses.filter((at) => at <= answeredAt).at(-1);
      if (pressed === undefined) throw new Error(`bench: no Submit before an answer at ${answeredAt}`);
      return answeredAt - pressed;
    });
}

/**
 * How long the open webview's outer page (VS Code's pre/index.html) waited for its service
 * worker before it wrote our page: between its own `content/started` and `content/workerReady`
 * performance marks. Each such page registers the worker and waits for an update check; in the
 * window's first webview that wait is seconds long.
 */
async function serviceWorkerWait(page: Page): Promise<number | undefined> {
  for (const frame of page.frames()) {
    if (!/\/webview\/browser\/pre\/(index\.html)?(\?|$)/.test(frame.url())) continue;
    const wait = await frame
      // No inner named functions: tsx's keepNames would wrap them in __name(), which the page lacks.
      .evaluate(() => {
        const started = performance.getEntriesByName('webview/index.html/content/started')[0]?.startTime;
        const ready = performance.getEntriesByName('webview/index.html/content/workerReady')[0]?.startTime;
        return started === undefined || ready === undefined ? undefined : ready - started;
      })
      .catch(() => undefined);
    if (wait !== undefined) return Math.round(wait);
  }
  return undefined;
}

/** Polls `done` every 50 ms until it holds; 30 s at most. */
async function waitUntilTrue(page: Page, what: string, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`bench: waited ${timeoutMs / 1000} s for ${what}; ${await whereThings(page)}`);
    await page.waitForTimeout(50);
  }
}

/** Each shown webview: whether its page has loaded (VS Code's frame ready, its content frame complete), and its text. */
async function shownWebviews(page: Page): Promise<Array<{ loaded: boolean; text: string }>> {
  const outers = page.locator('iframe.webview:visible');
  const shown: Array<{ loaded: boolean; text: string }> = [];
  for (let i = 0; i < (await outers.count()); i++) {
    const outer = outers.nth(i);
    const ready = ((await outer.getAttribute('class', { timeout: 1000 }).catch(() => null)) ?? '').split(/\s+/).includes('ready');
    const frame = await (await outer.elementHandle({ timeout: 1000 }).catch(() => null))?.contentFrame();
    const content = await frame
      ?.evaluate(() => {
        const active = document.getElementById('active-frame') as HTMLIFrameElement | null;
        const doc = active?.contentDocument;
        const complete = !!doc && doc.readyState === 'complete' && !document.getElementById('pending-frame');
        return { complete, text: doc?.body?.innerText ?? '' };
      })
      .catch(() => undefined);
    shown.push({ loaded: ready && !!content?.complete, text: content?.text ?? '' });
  }
  return shown;
}

/** Where the keyboard is in the workbench's own document. */
async function focusedElement(page: Page): Promise<string> {
  return page
    .evaluate(() => {
      const active = document.activeElement;
      return active ? `${active.localName}.${Array.from(active.classList).join('.')}` : 'none';
    })
    .catch(() => 'unreadable');
}

/**
 * Waits until the last tool's result is on screen, as a person does before running the next command:
 * its tab is the active one, every webview shown has loaded, one of them shows the result, and the
 * focus has not moved for 200 ms.
 *
 * The harness race this closes (issue #34 item 5): the harness ran the next command within half a
 * second of the last answer, while the result's tab was opening, or the tab VS Code shows when a
 * form's tab closes. VS Code focuses such a webview with a message it holds until the webview's page
 * is ready (and, for a loaded one, 50 ms after the focus call); the page then takes the focus from
 * whatever has it, and a quick input that loses the focus closes. Seen with BENCH_DEBUG: the palette
 * opened and ran Run MCP Tool, the server was picked, and the tool list closed 50 ms after it showed,
 * the window's focus gone into the result's webview; the harness then waited 20 s for it. Waiting for
 * the webviews to load and the focus to rest removes the race; it is no retry. A tool run again must
 * have its last result's tab closed first (closeAllEditors): that tab, showing the same text, would
 * pass for the new result before the new one opens and takes the focus (seen after `round_once`).
 */
async function waitForResult(window: BenchWindow, server: string, tool: string): Promise<void> {
  const { page } = window;
  const tab = `${server}-${tool}`;
  const heading = `${server} › ${tool}`;
  let focus = '';
  let restingSince = 0;
  await waitUntilTrue(page, `the result of ${tool} to be on screen`, async () => {
    const active = (
      await page
        .locator('.tabs-container .tab.active .label-name')
        .first()
        .textContent({ timeout: 1000 })
        .catch(() => null)
    )?.trim();
    const webviews = active === tab || active === `${tab}.md` ? await shownWebviews(page) : [];
    const shown = webviews.length > 0 && webviews.every((w) => w.loaded) && webviews.some((w) => w.text.includes(heading));
    const now = await focusedElement(page);
    if (!shown || now !== focus) {
      focus = now;
      restingSince = Date.now();
      return false;
    }
    return Date.now() - restingSince >= 200;
  });
}

/** View: Close All Editors, then waits until no tab and no webview shows. */
async function closeAllEditors(window: BenchWindow): Promise<void> {
  const { page } = window;
  await runCommand(page, 'View: Close All Editors');
  await waitUntilTrue(
    page,
    'every editor to close',
    async () => (await page.locator('.tabs-container .tab').count()) === 0 && (await page.locator('iframe.webview:visible').count()) === 0,
  );
}

async function runBenchTool(window: BenchWindow, tool: string, server = 'bench-server'): Promise<void> {
  const { page } = window;
  try {
    await runCommand(page, 'Elicit: Run MCP Tool');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === server || i.label === tool));
    // With two servers, the server is picked first.
    if ((await waitForQuickInput(page)).items.some((i) => i.label === server)) await pickQuickPickItem(page, server);
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === tool));
    await pickQuickPickItem(page, tool);
  } catch (error) {
    const seen = window.events.slice(-60).map((e) => `${e.event} ${e.at}`);
    throw new Error(`bench: running ${tool} failed; last events (BENCH_DEBUG=1 adds focus and quick input):\n${seen.join('\n')}`, {
      cause: error,
    });
  }
}

async function waitForRecordCount(file: string, n: number, counted: (r: Record<string, unknown>) => boolean = () => true): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (readRecords(file).filter(counted).length < n) {
    if (Date.now() > deadline) throw new Error(`bench: ${readRecords(file).length} of ${n} questions were sent`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** "activated in 4.2 ms" from the "Elicit" output channel's log file under the user-data dir. */
function activationFromLogs(userDataDir: string): number | undefined {
  const found: number[] = [];
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.log')) {
        const m = /activated in ([\d.]+) ms/.exec(fs.readFileSync(file, 'utf8'));
        if (m) found.push(Number(m[1]));
      }
    }
  };
  visit(path.join(userDataDir, 'logs'));
  return found.length > 0 ? Math.min(...found) : undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
