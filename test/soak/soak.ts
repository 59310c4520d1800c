/**
 * `npm run soak` (issue #37, first part): a real VS Code (code-server) with the built VSIX, many MCP
 * servers asking at random moments for minutes on end, a paired phone answering them through the
 * device API, and faults injected at random; at the end, the ledger (ledger.ts) judges every
 * question's fate from the servers' own logs and the phone's answers. Exits 1 on any problem.
 *
 *   npm run soak                               2 minutes, 12 servers
 *   npm run soak -- --minutes 10 --servers 50
 *   SOAK_KEEP=1                                keeps the logs (the path is printed)
 *
 * Built so far: servers speaking 2025-11-25 over stdio that ask on their own (soak-server.mjs);
 * faults: a server killed mid-question (Elicit restarts it), a server hung for a few seconds, an
 * asker that gives up its own question. Still to come (see the issue): Streamable HTTP servers and
 * a proxy that drops connections, 2026-07-28 rounds and tasks, Reload Window, a second window, the
 * phone going away, remembered answers and answers typed in the editor.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand } from '../e2e/harness/workbench';
import { openElicitSession } from '../e2e/elicitSession';
import { buildDriverVsix, START_SERVERS } from './driverExtension';
import { formatReport, judge, type LedgerEvent } from './ledger';
import type { HttpAsker } from './httpAsker';
import { splitAskers, startAskers } from './askers';
import { copyGatewayConfig, startAgent, type SoakAgent } from './gatewayAgent';
import { freePort } from '../support/freePort';
import { answerOnPhone, pairPhone } from './phone';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const MINUTES = option('minutes', 2);
const SERVERS = option('servers', 12);
/** How many of them speak 2025-11-25 over Streamable HTTP (through a proxy that drops connections). */
const HTTP_SERVERS = Math.min(SERVERS, option('http', Math.ceil(SERVERS / 4)));
/** How many speak 2026-07-28 and ask in rounds when the agent calls their tool (half over HTTP). */
const ROUND_SERVERS = Math.min(SERVERS - HTTP_SERVERS, option('rounds', Math.ceil(SERVERS / 5)));
/** Mean time between one server's questions. */
const MEAN_MS = option('mean-ms', 1500);
/** Mean time between two faults. */
const FAULT_MS = option('fault-ms', 6000);
/** A server is killed at most once in this long: crash recovery forgives a crash after a 60-s run. */
const KILL_GAP_MS = 70_000;
/** How long open questions may take to end once the servers stop asking. */
const DRAIN_MS = 60_000;

const serverScript = path.join(__dirname, 'soak-server.mjs');

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-soak-'));
  const serverLog = path.join(dir, 'servers.jsonl');
  const harnessLog = path.join(dir, 'harness.jsonl');
  const stopFile = path.join(dir, 'stop');
  const driverRecord = path.join(dir, 'driver.jsonl');
  const serverEnv = { SOAK_LOG: serverLog, SOAK_STOP: stopFile, SOAK_MEAN_MS: String(MEAN_MS) };
  const counts = splitAskers(SERVERS, HTTP_SERVERS, ROUND_SERVERS);
  const askers = await startAskers(counts, serverScript, serverEnv);
  const { names, http: httpServers } = askers;
  const gatewayPort = await freePort();
  const log = (event: LedgerEvent): void => fs.appendFileSync(harnessLog, JSON.stringify(event) + '\n');
  const driverVsix = await buildDriverVsix(dir);
  const started = Date.now();
  console.log(
    `soak: ${SERVERS} servers (2025-11-25: ${counts.stdio} stdio, ${counts.http} HTTP; 2026-07-28 rounds: ${counts.roundsStdio} stdio, ${counts.roundsHttp} HTTP) for ${MINUTES} min, logs in ${dir}`,
  );
  const session = await openElicitSession(
    JSON.stringify({ servers: askers.config }),
    { 'elicit.devices.address': '127.0.0.1', 'elicit.gateway.enabled': true, 'elicit.gateway.port': gatewayPort },
    { SOAK_SERVERS: names.join(','), SOAK_DRIVER_RECORD: driverRecord },
    [driverVsix],
  );
  const stopPhone = new AbortController();
  let phoneDone: Promise<{ refused: string[] }> | undefined;
  let rssBefore: number | undefined;
  let agent: SoakAgent | undefined;
  try {
    const { page, browser } = session.workbench;
    const phone = await pairPhone(browser, page, 'Soak phone');
    phoneDone = answerOnPhone(phone, log, stopPhone.signal);
    // Before the questions come: once they do, the editor shows them and the palette loses focus.
    const gateway = askers.roundNames.length > 0 ? await copyGatewayConfig(page, session.server.url) : undefined;
    await runCommand(page, START_SERVERS);
    await waitFor(
      () => fs.existsSync(driverRecord) && fs.readFileSync(driverRecord, 'utf8').includes('"started"'),
      120_000,
      'the servers to start',
    );
    if (gateway) {
      agent = startAgent(gateway, askers.roundNames, { SOAK_LOG: serverLog, SOAK_STOP: stopFile, SOAK_MEAN_MS: String(MEAN_MS) }, dir);
    }
    rssBefore = extensionHostRss();
    for (const name of names) log({ event: 'asker', asker: name, at: Date.now() });

    // Faults at random moments until the time is up.
    const lastKilled = new Map<string, number>();
    const end = Date.now() + MINUTES * 60_000;
    while (Date.now() < end) {
      await sleep(Math.min(end - Date.now(), -Math.log(1 - Math.random()) * FAULT_MS));
      if (Date.now() >= end) break;
      const name = names[Math.floor(Math.random() * names.length)]!;
      const asker = httpServers.find((h) => h.name === name);
      // Killed at most once in KILL_GAP_MS, so crash recovery never rightly gives up on it.
      const mayKill = Date.now() - (lastKilled.get(name) ?? -Infinity) > KILL_GAP_MS;
      const killed = asker ? await httpFault(asker, mayKill, log) : await stdioFault(name, mayKill, log);
      if (killed) lastKilled.set(name, Date.now());
    }

    // No new questions; the phone answers what is still open.
    fs.writeFileSync(stopFile, '');
    log({ event: 'stopped asking', at: Date.now() });
    await waitFor(() => openQuestions(serverLog, harnessLog) === 0, DRAIN_MS, 'the open questions to end').catch((error: Error) =>
      console.log(`soak: ${error.message}`),
    );
    // The agent logs the calls that failed as they end: it is judged once it has exited.
    if (agent) await Promise.race([agent.exited, sleep(30_000)]);
  } finally {
    stopPhone.abort();
    const phone = await phoneDone?.catch((error: unknown) => ({ refused: [`the phone stopped: ${String(error)}`] }));
    const rssAfter = extensionHostRss();
    await session.close();
    agent?.process.kill();
    await Promise.all(httpServers.map((asker) => asker.stop()));
    const events = [...readLines(serverLog), ...readLines(harnessLog)];
    const report = judge(events);
    console.log(formatReport(report));
    console.log(`answers Elicit refused from the phone: ${phone?.refused.length ?? 'n/a'}`);
    for (const why of phone?.refused.slice(0, 10) ?? []) console.log(`  ${why}`);
    if (rssBefore !== undefined && rssAfter !== undefined) {
      console.log(
        `extension host RSS: ${mb(rssBefore)} MB after the start, ${mb(rssAfter)} MB at the end (${mb(rssAfter - rssBefore)} MB growth)`,
      );
    }
    console.log(`soak: ${((Date.now() - started) / 60_000).toFixed(1)} min in all`);
    if (process.env.SOAK_KEEP !== '1') fs.rmSync(dir, { recursive: true, force: true });
    process.exitCode = report.problems.length > 0 || (phone?.refused.length ?? 0) !== 0 ? 1 : 0;
  }
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
  const report = judge([...readLines(serverLog), ...readLines(harnessLog)]);
  return report.problems.filter((p) => p.kind === 'no fate').length;
}

function readLines(file: string): LedgerEvent[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LedgerEvent);
}

/** The pid of the soak server `name`, if it runs. */
function serverPid(name: string): number | undefined {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  const line = lines.find((l) => l.includes('soak-server.mjs') && new RegExp(`--name ${name}(\\s|$)`).test(l));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

/** The resident memory of code-server's extension host, in bytes. */
function extensionHostRss(): number | undefined {
  const lines = execFileSync('ps', ['-eo', 'rss=,args='], { encoding: 'utf8' }).split('\n');
  const line = lines.find((l) => l.includes('extensionHost') || l.includes('--type=extensionHost'));
  return line ? Number(line.trim().split(/\s+/)[0]) * 1024 : undefined;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone meanwhile.
  }
}

async function waitFor(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs / 1000} s for ${what}`);
    await sleep(500);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
