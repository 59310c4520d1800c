/**
 * The soak (issue #37): a real VS Code (code-server) with the built VSIX, many MCP servers asking
 * at random moments for minutes on end, a paired phone answering them through the device API, a
 * CLI agent calling tools through the gateway, and faults injected at random; at the end, the
 * ledger (ledger.ts) judges every question's fate from the askers' own logs and the phone's
 * answers, and the driver extension's measures of the extension host are read.
 *
 * Run by `npm run soak` (soak.ts) and, for one minute, by `npm test` (test/e2e/soak.test.ts).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand, screenshot } from '../e2e/harness/workbench';
import { windowsMeshDirs } from '../e2e/harness/codeServer';
import { openElicitSession } from '../e2e/elicitSession';
import { freePort } from '../support/freePort';
import { waitUntil } from '../support/waitUntil';
import { splitAskers, startAskers } from './askers';
import { buildDriverVsix, START_SERVERS } from './driverExtension';
import { copyGatewayConfig, startAgent, type SoakAgent } from './gatewayAgent';
import type { HttpAsker } from './httpAsker';
import { formatReport, judge, type LedgerEvent, type LedgerReport } from './ledger';
import { formatShares, readProfile, whoRan } from './blockProfile';
import { liveOwners, liveSites, readHeapProfile } from './heapSites';
import { readSoakLog } from './soakLog';
import { keepElicitLogs } from './elicitLogs';
import { descriptorGrowth, windowSockets, type Descriptors, type WindowSockets } from './leftBehind';
import { answerInEditor, leftToEditor } from './editor';
import { answerOnPhone, pairPhone, phoneLists, type PhoneOutcome } from './phone';
import { reloadWindow, reloadWithKeptRound, secondWindow, type WindowFaultContext } from './windowFaults';

/** A server is killed at most once in this long: crash recovery forgives a crash after a 60-s run. */
const KILL_GAP_MS = 70_000;
/** At most one Reload Window in this long: the servers need a while to start again. */
const RELOAD_GAP_MS = 40_000;
/** The first Reload Window comes no sooner: the askers get going first. */
const FIRST_RELOAD_MS = 20_000;
/** How long open questions may take to end once the servers stop asking. */
const DRAIN_MS = 60_000;

const serverScript = path.join(__dirname, 'soak-server.mjs');

export interface SoakOptions {
  minutes: number;
  servers: number;
  /** 2025-11-25 askers over Streamable HTTP (behind a proxy that drops connections). */
  http: number;
  /** 2026-07-28 askers, asking in rounds when the agent calls their tool (half over HTTP). */
  rounds: number;
  /** 2026-07-28 askers with the tasks extension: the agent's call runs as a task that asks (half over HTTP). */
  tasks: number;
  /** Mean time between one asker's questions. */
  meanMs: number;
  /** Mean time between two faults. */
  faultMs: number;
  /** The share of faults that open a second window for a while. */
  windowFaults: number;
  /** The share of faults that are Reload Window (at most one in 40 s). */
  reloadFaults: number;
  /** Keep the logs' folder. */
  keep?: boolean;
  /** A CPU profile of each host, to name whose JavaScript ran in each long block (it slows the host). */
  profile?: boolean;
  /** A sampling heap profile of the last host: where what it kept was allocated (heapSites.ts). */
  heap?: boolean;
  /** Progress lines. */
  say?: (line: string) => void;
}

/** What the host looked like, as the driver measured it inside the extension host. */
export interface HostMeasures {
  worstBlockMs: number;
  p99BlockMs: number;
  heapAtStart: number;
  heapAfterGc: number;
  rssAtStart: number;
  rssAtEnd: number;
  /** Memory outside the JavaScript heap (buffers, TLS, native objects), after a full GC at the start and at the end. */
  externalAtStart: number;
  externalAtEnd: number;
  /** What the last host's RSS was made of at its start and at the end (the driver's rssParts: the kernel's split, V8's spaces). */
  rssPartsAtStart?: Record<string, number>;
  rssPartsAtEnd?: Record<string, number>;
  /**
   * The last host's RSS at its start and at the end once V8 gave back the free pages it keeps (the
   * driver's trimmedMemory): what the host still holds, where RSS says how high its heap ever went.
   */
  trimmedAtStart?: { rss: number; rssParts?: Record<string, number> };
  trimmedAtEnd?: { rss: number; rssParts?: Record<string, number> };
  /** The last host's RSS halfway through its life (sampled every 30 s): growth after it says more than growth before. */
  rssAtHalf?: number;
  /** How long the last host (the one measured) ran, from its servers' start to the end: a reload starts another. */
  lastHostMinutes: number;
  hosts: number;
  /**
   * The host's open descriptors: at a start (of the hosts the run had, the one with the fewest
   * sockets and pipes: the same servers were connected then as at the end), and at the end.
   */
  descriptorsAtStart?: Descriptors;
  descriptorsAtEnd?: Descriptors;
}

export interface SoakResult {
  report: LedgerReport;
  /** Answers Elicit refused from the phone, and why. */
  refused: string[];
  /** What kept the phone from answering, for the report (a stall shows here). */
  phone?: Omit<PhoneOutcome, 'refused'>;
  host?: HostMeasures;
  /** The host's blocks of 100 ms or more, each with the fault that came last before it and the garbage collection in it. */
  longBlocks: string[];
  /** How many of them were garbage collection for half their time or more. */
  mostlyGc: number;
  /** With `heap`: what the last host allocated during the run and still held at the end, by owner and by site. */
  heapKept?: string[];
  /** What went wrong answering in the editor (a step that failed): for the report. */
  editorTroubles: string[];
  /** Soak processes still running once the editor closed: each is a problem. */
  leftovers: string[];
  /** The windows' socket files at the end, the one window left open: a stale one is a problem. */
  windowSockets?: WindowSockets;
  dir: string;
  minutes: number;
}

/** Whether the run passed: no ledger problem, no refused answer, nothing left running or open. */
export function passed(result: SoakResult): boolean {
  return (
    result.report.problems.length === 0 &&
    result.refused.length === 0 &&
    result.leftovers.length === 0 &&
    (result.windowSockets?.stale.length ?? 0) === 0 &&
    channelsLeftOpen(result.host) <= CHANNEL_SLACK
  );
}

/**
 * Sockets and pipes the host holds at the end beyond what it held at a start with the same servers
 * connected. A few come and go (the phone's and the agent's connections, a server's reconnect):
 * more than CHANNEL_SLACK is a leak, which grows with every fault and question.
 */
const CHANNEL_SLACK = 15;

function channelsLeftOpen(host: HostMeasures | undefined): number {
  if (!host?.descriptorsAtStart || !host.descriptorsAtEnd) return 0;
  return channels(host.descriptorsAtEnd) - channels(host.descriptorsAtStart);
}

function channels(descriptors: Descriptors): number {
  return (descriptors.kinds.socket ?? 0) + (descriptors.kinds.pipe ?? 0);
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const say = options.say ?? ((line: string) => console.log(line));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-soak-'));
  const serverLog = path.join(dir, 'servers.jsonl');
  const harnessLog = path.join(dir, 'harness.jsonl');
  const stopFile = path.join(dir, 'stop');
  const measureFile = path.join(dir, 'measure');
  const reloadFile = path.join(dir, 'reload');
  const driverDo = path.join(dir, 'driver-do.json');
  const driverRecord = path.join(dir, 'driver.jsonl');
  const serverEnv = { SOAK_LOG: serverLog, SOAK_STOP: stopFile, SOAK_MEAN_MS: String(options.meanMs) };
  const counts = splitAskers(options.servers, options.http, options.rounds, options.tasks);
  const askers = await startAskers(counts, serverScript, serverEnv);
  const { names, http: httpServers } = askers;
  const gatewayPort = await freePort();
  const log = (event: LedgerEvent): void => fs.appendFileSync(harnessLog, JSON.stringify(event) + '\n');
  const driverVsix = await buildDriverVsix(dir);
  const started = Date.now();
  say(
    `soak: ${options.servers} servers (2025-11-25: ${counts.stdio} stdio, ${counts.recurring} stdio asking one recurring question, ${counts.http} HTTP; 2026-07-28 rounds: ${counts.roundsStdio} stdio, ${counts.roundsHttp} HTTP; tasks: ${counts.tasksStdio} stdio, ${counts.tasksHttp} HTTP) for ${options.minutes} min, logs in ${dir}`,
  );
  const session = await openElicitSession(
    JSON.stringify({ servers: askers.config }),
    { 'elicit.devices.address': '127.0.0.1', 'elicit.gateway.enabled': true, 'elicit.gateway.port': gatewayPort },
    {
      SOAK_SERVERS: names.join(','),
      SOAK_DRIVER_RECORD: driverRecord,
      SOAK_MEASURE: measureFile,
      SOAK_RELOAD: reloadFile,
      SOAK_DRIVER_DO: driverDo,
      ...(options.profile ? { SOAK_PROFILE: dir } : {}),
      ...(options.heap ? { SOAK_HEAP: dir } : {}),
    },
    [driverVsix],
  ).catch(async (error: unknown) => {
    await Promise.all(httpServers.map((asker) => asker.stop()));
    throw error;
  });
  const stopPhone = new AbortController();
  let phoneDone: Promise<PhoneOutcome> | undefined;
  let agent: SoakAgent | undefined;
  let editorDone: Promise<string[]> | undefined;
  /** Rounds of a tool the person ran, back after the reload: the editor answers them. */
  const kept = new Set<string>();
  const keptTroubles: string[] = [];
  let sockets: WindowSockets | undefined;
  try {
    const { page, browser } = session.workbench;
    const phone = await pairPhone(browser, page, 'Soak phone');
    phoneDone = answerOnPhone(phone, log, stopPhone.signal, leftToEditor);
    // Before the questions come: once they do, the editor shows them and the palette loses focus.
    const gateway = askers.agentTools.length > 0 ? await copyGatewayConfig(page, session.server.url) : undefined;
    await runCommand(page, START_SERVERS);
    await waitUntil(() => driverLines(driverRecord).some((line) => 'started' in line), 'the servers to start', 120_000, 500);
    if (gateway) agent = startAgent(gateway, askers.agentTools, serverEnv, dir);
    for (const name of names) log({ event: 'asker', asker: name, at: Date.now() });
    editorDone = answerInEditor(page, log, stopPhone.signal, kept);

    // Faults at random moments until the time is up.
    const windows: WindowFaultContext = {
      page,
      workbenchUrl: session.server.url,
      reloadFile,
      driverRecord,
      stdioAskers: names.filter((name) => !httpServers.some((h) => h.name === name)),
      pidOf: serverPid,
      log,
      serverLog,
      driverDo,
      shows: (token) => phoneLists(phone, token),
    };
    // The person's own run of a round asker's tool, kept across the first reload (a stdio one's process ends with the window).
    const personRunServer = askers.agentTools.find((tool) => tool.endsWith('__soak_round'))?.split('__')[0];
    const lastKilled = new Map<string, number>();
    let lastReload = Date.now() - RELOAD_GAP_MS + FIRST_RELOAD_MS;
    let otherWindow: Promise<void> | undefined;
    const end = Date.now() + options.minutes * 60_000;
    // Reloads come in the first half only, so the last host (the one whose memory is measured) runs for
    // the second half at least. When reloads are on, a run has one by 40 % of its time, whatever the rolls said.
    const reloadsUntil = Date.now() + options.minutes * 30_000;
    const firstReloadBy = Date.now() + Math.max(FIRST_RELOAD_MS, options.minutes * 24_000);
    let reloads = 0;
    while (Date.now() < end) {
      const untilDue = options.reloadFaults > 0 && reloads === 0 ? Math.max(0, firstReloadBy - Date.now()) : Infinity;
      await sleep(Math.min(end - Date.now(), -Math.log(1 - Math.random()) * options.faultMs, untilDue));
      if (Date.now() >= end) break;
      const roll = Math.random();
      const reloadDue = options.reloadFaults > 0 && reloads === 0 && Date.now() >= firstReloadBy;
      // A second window may be open: the reloading window's gateway comes back at its own address.
      const mayReload = (reloadDue || Date.now() < reloadsUntil) && Date.now() - lastReload > RELOAD_GAP_MS;
      if ((roll < options.reloadFaults || reloadDue) && mayReload) {
        if (reloads === 0 && personRunServer) {
          const trouble = await reloadWithKeptRound(windows, personRunServer, 'p1', kept);
          if (trouble) keptTroubles.push(trouble);
        } else await reloadWindow(windows);
        lastReload = Date.now();
        reloads++;
        continue;
      }
      if (roll >= options.reloadFaults && roll < options.reloadFaults + options.windowFaults && !otherWindow) {
        otherWindow = secondWindow(windows, 5_000 + Math.random() * 10_000)
          .catch((error: unknown) => say(`soak: the second window failed: ${String(error)}`))
          .finally(() => (otherWindow = undefined));
        continue;
      }
      const name = names[Math.floor(Math.random() * names.length)]!;
      const asker = httpServers.find((h) => h.name === name);
      // Killed at most once in KILL_GAP_MS, so crash recovery never rightly gives up on it.
      const mayKill = Date.now() - (lastKilled.get(name) ?? -Infinity) > KILL_GAP_MS;
      const killed = asker ? await httpFault(asker, mayKill, log) : await stdioFault(name, mayKill, log);
      if (killed) lastKilled.set(name, Date.now());
    }

    await otherWindow;
    // No new questions; the phone answers what is still open.
    fs.writeFileSync(stopFile, '');
    log({ event: 'stopped asking', at: Date.now() });
    await waitUntil(() => openQuestions(serverLog, harnessLog) === 0, 'the open questions to end', DRAIN_MS, 500).catch(
      async (error: Error) => {
        say(`soak: ${error.message}; the editor then: ${await screenshot(page, 'soak-drain-timeout')}`);
      },
    );
    // The agent logs the calls that failed as they end: it is judged once it has exited.
    if (agent) await Promise.race([agent.exited, sleep(30_000)]);
    fs.writeFileSync(measureFile, '');
    // The last host's measures, taken at the end (a reloaded host left its own before it went).
    const atEnd = (line: Record<string, unknown>): boolean =>
      (line.measured as { heapAfterGc?: number } | undefined)?.heapAfterGc !== undefined;
    await waitUntil(() => driverLines(driverRecord).some(atEnd), 'the host measures', 20_000, 500).catch((error: Error) =>
      say(`soak: ${error.message}`),
    );
    sockets = await windowSockets(windowsMeshDirs(session.server));
  } finally {
    stopPhone.abort();
    if (options.keep) keepElicitLogs(session.server.userDataDir, path.join(dir, 'elicit-logs'));
    await session.close();
    agent?.process.kill();
    await Promise.all(httpServers.map((asker) => asker.stop()));
  }
  const phone = await phoneDone?.catch((error: unknown): PhoneOutcome => ({
    refused: [`the phone stopped: ${String(error)}`],
    unlisted: [],
    gone: 0,
  }));
  const editorTroubles = [
    ...keptTroubles,
    ...((await editorDone?.catch((error: unknown) => [`the editor stopped: ${String(error)}`])) ?? []),
  ];
  const report = judge([...readSoakLog(serverLog), ...readSoakLog(harnessLog)]);
  const host = hostMeasures(driverLines(driverRecord));
  const faultsSeen = readSoakLog(harnessLog).flatMap((e) => (e.event === 'fault' ? [e] : []));
  const { longBlocks, mostlyGc } = describeBlocks(driverLines(driverRecord), faultsSeen, started);
  const result: SoakResult = {
    report,
    refused: phone?.refused ?? ['the phone never started'],
    phone: phone && { unlisted: phone.unlisted, gone: phone.gone },
    host,
    longBlocks,
    mostlyGc,
    heapKept: describeHeapKept(driverLines(driverRecord)),
    editorTroubles,
    leftovers: soakProcesses(),
    windowSockets: sockets,
    dir,
    minutes: (Date.now() - started) / 60_000,
  };
  if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
  return result;
}

/** The result as the soak prints it. */
export function formatResult(result: SoakResult): string {
  const lines = [formatReport(result.report), `answers Elicit refused from the phone: ${result.refused.length}`];
  for (const why of result.refused.slice(0, 10)) lines.push(`  ${why}`);
  if (result.phone) {
    const when = result.phone.unlisted.length > 0 ? ', when:' : ': never';
    lines.push(`phone's answers to questions already gone: ${result.phone.gone}; its list could not be read${when}`);
    for (const why of result.phone.unlisted.slice(0, 5)) lines.push(`  ${why}`);
  }
  lines.push(`trouble answering in the editor: ${result.editorTroubles.length}`);
  for (const why of result.editorTroubles.slice(0, 5)) lines.push(`  ${why}`);
  if (result.host) lines.push(...hostLines(result.host));
  else lines.push('extension host measures: none (the driver did not report)');
  if (result.longBlocks.length > 0) {
    lines.push(
      `the host's blocks of 100 ms or more: ${result.longBlocks.length}, ${result.mostlyGc} of them garbage collection for half their time or more (the first ten, each with the last fault before it):`,
    );
    for (const block of result.longBlocks.slice(0, 10)) lines.push(`  ${block}`);
  }
  for (const line of result.heapKept ?? []) lines.push(line);
  if (result.host?.descriptorsAtStart && result.host.descriptorsAtEnd) {
    const { grew, newFiles } = descriptorGrowth(result.host.descriptorsAtStart, result.host.descriptorsAtEnd);
    const total = (d: Descriptors): number => Object.values(d.kinds).reduce((sum, n) => sum + n, 0);
    lines.push(
      `extension host descriptors: ${total(result.host.descriptorsAtStart)} at a start, ${total(result.host.descriptorsAtEnd)} at the end` +
        ` (grew: ${
          Object.entries(grew)
            .map(([kind, n]) => `${kind} +${n}`)
            .join(', ') || 'none'
        }; sockets and pipes left open: ${Math.max(0, channelsLeftOpen(result.host))}, at most ${CHANNEL_SLACK} allowed;` +
        ` files newly open: ${newFiles.length === 0 ? 'none' : newFiles.slice(0, 5).join(', ')})`,
    );
  }
  if (result.windowSockets) {
    const { live, stale } = result.windowSockets;
    lines.push(
      `windows' sockets at the end: ${live} live, ${stale.length === 0 ? 'none left behind' : `left behind: ${stale.join(', ')}`}`,
    );
  }
  lines.push(`left running after the editor closed: ${result.leftovers.length === 0 ? 'nothing' : result.leftovers.join('; ')}`);
  lines.push(`soak: ${result.minutes.toFixed(1)} min in all`);
  return lines.join('\n');
}

/**
 * The host's blocks of 100 ms or more, each with the fault that came last before it and the garbage
 * collection inside it (the driver records collections of 20 ms or more).
 */
function describeBlocks(
  lines: Array<Record<string, unknown>>,
  faults: Array<{ kind: string; asker?: string; at: number }>,
  started: number,
): { longBlocks: string[]; mostlyGc: number } {
  type Timed = { at: number; ms: number };
  const gcs = lines.flatMap((line) => ('gc' in line ? [line.gc as Timed & { kind: string }] : []));
  const profiles = lines
    .flatMap((line) => (typeof line.profile === 'string' ? [readProfile(line.profile, line.startedAt as number)] : []))
    .sort((a, b) => a.startedAt - b.startedAt);
  let mostlyGc = 0;
  const longBlocks = lines.flatMap((line) => {
    const block = line.blocked as Timed | undefined;
    if (!block) return [];
    const before = faults.filter((f) => f.at <= block.at).at(-1);
    const what = before
      ? `${before.kind}${before.asker ? ` (${before.asker})` : ''} ${((block.at - before.at) / 1000).toFixed(1)} s before`
      : 'no fault before';
    const inside = gcs.filter((gc) => gc.at < block.at + block.ms && gc.at + gc.ms > block.at);
    const gcMs = inside.reduce((sum, gc) => sum + Math.min(gc.at + gc.ms, block.at + block.ms) - Math.max(gc.at, block.at), 0);
    const kinds = [...new Set(inside.map((gc) => gc.kind))].join(', ');
    const collected = gcMs > 0 ? `; garbage collection ${Math.round(gcMs)} ms of it (${kinds})` : '; no garbage collection in it';
    if (gcMs * 2 >= block.ms) mostlyGc++;
    const profile = profiles.filter((p) => p.startedAt <= block.at).at(-1);
    const ran = profile ? `; ran: ${formatShares(whoRan(profile, block.at, block.at + block.ms))}` : '';
    return [`${block.ms} ms at +${((block.at - started) / 1000).toFixed(1)} s: ${what}${collected}${ran}`];
  });
  return { longBlocks, mostlyGc };
}

/** The last host's sampling heap profile (`--heap`), if it took one: what it allocated and kept, by owner, and the top sites. */
function describeHeapKept(lines: Array<Record<string, unknown>>): string[] | undefined {
  const file = lines.flatMap((line) => (typeof line.heapProfile === 'string' ? [line.heapProfile] : [])).at(-1);
  if (!file) return undefined;
  const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
  const sites = liveSites(readHeapProfile(file));
  const owners = liveOwners(sites);
  const total = owners.reduce((sum, o) => sum + o.bytes, 0);
  return [
    `the last host's heap allocated during the run and kept to its end (sampled): ${mb(total)}; by owner: ${owners
      .slice(0, 6)
      .map((o) => `${o.owner} ${mb(o.bytes)}`)
      .join(', ')}`,
    '  the sites that keep the most:',
    ...sites.slice(0, 15).map((site) => `    ${mb(site.bytes)} ${site.site} [${site.owner}]`),
  ];
}

/** A fault for a stdio server, which Elicit started: killed (Elicit restarts it) or hung for a while. True if killed. */
async function stdioFault(name: string, mayKill: boolean, log: (event: LedgerEvent) => void): Promise<boolean> {
  const pid = serverPid(name);
  if (pid === undefined) return false; // restarting
  if (mayKill && Math.random() < 0.5) {
    log({ event: 'fault', kind: 'server killed', asker: name, at: Date.now() });
    log({ event: 'died', asker: name, at: Date.now() });
    signal(pid, 'SIGKILL');
    return true;
  }
  await hang(name, pid, log);
  return false;
}

/**
 * A fault for an HTTP server: restarted (its sessions gone), hung, a connection dropped, a request
 * cut before or after it arrived, the network down for a few seconds. True if restarted.
 */
async function httpFault(asker: HttpAsker, mayKill: boolean, log: (event: LedgerEvent) => void): Promise<boolean> {
  const roll = Math.random();
  const at = Date.now();
  if (roll < 0.15 && mayKill) {
    log({ event: 'fault', kind: 'HTTP server restarted', asker: asker.name, at });
    log({ event: 'died', asker: asker.name, at });
    await asker.restart();
    return true;
  }
  if (roll < 0.3) {
    if (asker.pid !== undefined) await hang(asker.name, asker.pid, log);
  } else if (roll < 0.55) {
    if (asker.proxy.dropOpen()) log({ event: 'fault', kind: 'connection dropped', asker: asker.name, at });
  } else if (roll < 0.7) {
    const ms = 2000 + Math.random() * 4000;
    asker.proxy.down(ms);
    log({ event: 'fault', kind: 'network down 2-6 s', asker: asker.name, at });
  } else {
    const delivered = Math.random() < 0.5;
    asker.proxy.cutNextRequest(delivered);
    log({ event: 'fault', kind: delivered ? 'request cut after it arrived' : 'request cut before it arrived', asker: asker.name, at });
  }
  return false;
}

/** Stops a server's process for 2 to 5 s: a server that hangs, then goes on. */
async function hang(name: string, pid: number, log: (event: LedgerEvent) => void): Promise<void> {
  log({ event: 'fault', kind: 'server hung', asker: name, at: Date.now() });
  signal(pid, 'SIGSTOP');
  await sleep(2000 + Math.random() * 3000);
  signal(pid, 'SIGCONT');
}

/** Questions asked whose asker is alive and that have no fate yet. */
function openQuestions(serverLog: string, harnessLog: string): number {
  const report = judge([...readSoakLog(serverLog), ...readSoakLog(harnessLog)]);
  return report.problems.filter((p) => p.kind === 'no fate').length;
}

/** The host's event loop and memory, as the soak prints them. */
export function hostLines(host: HostMeasures): string[] {
  const lines: string[] = [];
  const { worstBlockMs, p99BlockMs, heapAtStart, heapAfterGc, rssAtStart, rssAtEnd, rssAtHalf, hosts, lastHostMinutes } = host;
  lines.push(`extension host event loop: worst block ${worstBlockMs.toFixed(1)} ms, 99th percentile ${p99BlockMs.toFixed(1)} ms`);
  // A reload starts another host: memory is measured over the last host's life.
  const over = hosts > 1 ? ` (the last of ${hosts} hosts, its ${lastHostMinutes.toFixed(1)} min)` : '';
  lines.push(
    `extension host heap after a full GC${over}: ${mb(heapAtStart)} MB at the start, ${mb(heapAfterGc)} MB at the end (${mb(heapAfterGc - heapAtStart)} MB growth)`,
  );
  lines.push(
    `extension host RSS${over}: ${mb(rssAtStart)} MB at the start, ${mb(rssAtEnd)} MB at the end (${mb(rssAtEnd - rssAtStart)} MB growth` +
      (rssAtHalf === undefined ? ')' : `; ${mb(rssAtEnd - rssAtHalf)} MB of it in the second half)`),
  );
  const parts = rssGrowth(host);
  if (parts) lines.push(`  of which (growth of 1 MB or more): ${parts}`);
  const { trimmedAtStart, trimmedAtEnd } = host;
  if (trimmedAtStart && trimmedAtEnd) {
    const growth = trimmedAtEnd.rss - trimmedAtStart.rss;
    lines.push(
      `extension host RSS once V8 gave back its free pages${over}: ${mb(trimmedAtStart.rss)} MB at the start, ${mb(trimmedAtEnd.rss)} MB at the end ` +
        `(${mb(growth)} MB growth; goal at most ${mb(RSS_GROWTH_GOAL)} MB: ${growth <= RSS_GROWTH_GOAL ? 'met' : 'NOT met'})`,
    );
    const trimmedParts = rssGrowth({ rssPartsAtStart: trimmedAtStart.rssParts, rssPartsAtEnd: trimmedAtEnd.rssParts });
    if (trimmedParts) lines.push(`  of which (growth of 1 MB or more): ${trimmedParts}`);
  }
  const { externalAtStart, externalAtEnd } = host;
  lines.push(
    `extension host memory outside the heap after a full GC (buffers, TLS, native objects)${over}: ${mb(externalAtStart)} MB at the start, ${mb(externalAtEnd)} MB at the end (${mb(externalAtEnd - externalAtStart)} MB growth)`,
  );
  return lines;
}

/** The issue's goal for the host's memory growth over a soak (#37). */
export const RSS_GROWTH_GOAL = 50 * 1024 * 1024;

/** The parts of the last host's RSS that grew by 1 MB or more, most first ("RssAnon +80.1 MB, V8 code_space +3.2 MB"). */
export function rssGrowth(host: Pick<HostMeasures, 'rssPartsAtStart' | 'rssPartsAtEnd'>): string | undefined {
  const { rssPartsAtStart: before, rssPartsAtEnd: after } = host;
  if (!before || !after) return undefined;
  const grown = Object.entries(after)
    .map(([part, bytes]) => [part, bytes - (before[part] ?? 0)] as const)
    .filter(([, growth]) => Math.abs(growth) >= 1024 * 1024)
    .sort((a, b) => b[1] - a[1]);
  return grown.length === 0 ? 'no part' : grown.map(([part, growth]) => `${part} ${growth > 0 ? '+' : ''}${mb(growth)} MB`).join(', ');
}

/**
 * The host's measures from the driver's lines: the worst block of every host the run had (a
 * reload starts another), the heap of the last one from its start to the end.
 */
export function hostMeasures(lines: Array<Record<string, unknown>>): HostMeasures | undefined {
  type Memory = { rss: number; external: number };
  type Parts = Record<string, number>;
  type Trimmed = { rss: number; rssParts?: Parts };
  type Measured = {
    worstBlockMs: number;
    p99BlockMs: number;
    heapAfterGc?: number;
    memory?: Memory;
    rssParts?: Parts;
    trimmed?: Trimmed;
    descriptors?: Descriptors;
  };
  type Started = { heapAtStart: number; memory: Memory; rssParts?: Parts; trimmed?: Trimmed; descriptors?: Descriptors; at: number };
  const measured = lines.flatMap((line) => ('measured' in line ? [line.measured as Measured] : []));
  const final = measured.find((m) => m.heapAfterGc !== undefined);
  const starts = lines.flatMap((line) => (typeof line.heapAtStart === 'number' ? [line as unknown as Started] : []));
  const last = starts.at(-1);
  if (!final || !last) return undefined;
  const samples = lines.flatMap((line) =>
    'rssSample' in line ? [line.rssSample as { at: number; rss: number }].filter((sample) => sample.at >= last.at) : [],
  );
  const half = samples.length >= 4 ? samples[Math.floor(samples.length / 2)] : undefined;
  return {
    worstBlockMs: Math.max(...measured.map((m) => m.worstBlockMs)),
    p99BlockMs: Math.max(...measured.map((m) => m.p99BlockMs)),
    heapAtStart: last.heapAtStart,
    heapAfterGc: final.heapAfterGc!,
    rssAtStart: last.memory.rss,
    rssAtEnd: final.memory!.rss,
    externalAtStart: last.memory.external,
    externalAtEnd: final.memory!.external,
    rssAtHalf: half?.rss,
    rssPartsAtStart: last.rssParts,
    rssPartsAtEnd: final.rssParts,
    trimmedAtStart: last.trimmed,
    trimmedAtEnd: final.trimmed,
    lastHostMinutes: (Date.now() - last.at) / 60_000,
    hosts: starts.length,
    descriptorsAtStart: starts
      .flatMap((start) => (start.descriptors ? [start.descriptors] : []))
      .reduce<Descriptors | undefined>((fewest, d) => (!fewest || channels(d) < channels(fewest) ? d : fewest), undefined),
    descriptorsAtEnd: final.descriptors,
  };
}

function driverLines(file: string): Array<Record<string, unknown>> {
  return readSoakLog<Record<string, unknown>>(file);
}

/** Soak servers or agents still running (after the editor closed and the harness stopped its own). */
function soakProcesses(): string[] {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  return lines.filter((l) => /soak-(server|agent)\.mjs/.test(l)).map((l) => l.trim().slice(0, 160));
}

/** The pid of the soak server `name`, if it runs. */
function serverPid(name: string): number | undefined {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  const line = lines.find((l) => l.includes('soak-server.mjs') && new RegExp(`--name ${name}(\\s|$)`).test(l));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone meanwhile.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
