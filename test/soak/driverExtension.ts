/**
 * The soak's driver: a small extension, written and packaged at soak time (as the bench's webview
 * floor is), installed next to Elicit. It does what another extension (or a keybinding) may do with
 * Elicit's commands: "Soak: Start Servers" starts each server named in $SOAK_SERVERS with
 * `elicit.startServer`, one after another, and writes how many started to $SOAK_DRIVER_RECORD.
 *
 * Reload Window comes from here too (\`workbench.action.reloadWindow\`, as an extension may call it),
 * when $SOAK_RELOAD appears: the palette is no place for it while questions keep taking the focus.
 * The driver of the reloaded window finds the file renamed to "<file>.reloading" and starts the
 * servers again, as a person would after a reload.
 *
 * When $SOAK_DRIVER_DO appears, holding {command, args}, it runs that Elicit command with those
 * arguments, as a keybinding with arguments does (Run MCP Tool on a given tool, Show Pending
 * Questions), and removes the file.
 *
 * Being in the same extension host, it also measures that host as the soak needs: the event loop's
 * worst delay (perf_hooks' monitorEventLoopDelay, from the servers' start on: every extension's
 * work on the host's thread shows in it, Elicit's included) and the JavaScript heap after a full
 * garbage collection, the host's resident memory (RSS) and its open descriptors (sockets, pipes,
 * files: what a leak leaves behind), at the start and when $SOAK_MEASURE appears; and the long
 * blocks and garbage collections as they happen. With $SOAK_PROFILE, a CPU profile of each host;
 * with $SOAK_HEAP, the last host's sampling heap profile at the end (heapSites.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageExtension } from '../e2e/harness/extensionVsix';

/** The command's title in the palette. */
export const START_SERVERS = 'Soak: Start Servers';

const manifest = {
  name: 'soak-driver',
  displayName: 'Soak driver (Elicit soak)',
  description: "Starts the soak's servers through Elicit's commands.",
  version: '0.0.1',
  publisher: 'elicit-soak',
  engines: { vscode: '^1.90.0' },
  main: './extension.js',
  activationEvents: ['onStartupFinished'],
  contributes: { commands: [{ command: 'soakDriver.startServers', title: START_SERVERS }] },
};

const extension = `'use strict';
const vscode = require('vscode');
const fs = require('fs');
const v8 = require('v8');
const vm = require('vm');
const inspector = require('inspector');
const { monitorEventLoopDelay, PerformanceObserver, constants, performance } = require('perf_hooks');

const record = (entry) => fs.appendFileSync(process.env.SOAK_DRIVER_RECORD, JSON.stringify(entry) + '\\n');

/** A garbage collection, with V8's options for it (gc() of --expose-gc, taken without restarting the host). */
function collectGarbage(options) {
  v8.setFlagsFromString('--expose-gc');
  vm.runInNewContext('gc')(options);
}

/**
 * The heap in use after a full collection: what stays, not what waits to be collected. Twice: at one
 * soak's end a single collection left 217.8 MB in use and 98.2 MB were in use a moment later (likely
 * V8 finishing a marking it had begun, which keeps what was allocated during it).
 */
function heapAfterGc() {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/**
 * The resident memory once V8 has given back the free pages it keeps: after a collection V8 holds
 * on to the 256 KB pages it emptied (for its next allocations) until a memory-reducing collection,
 * which Node does not run by itself. Measured in plain Node 24: a heap that peaked at 943 MB left
 * RSS at 785 MB after gc() with 135 MB in V8's spaces, and at 82 MB after this collection. So RSS
 * alone says how high the heap ever went; this says what the host still holds.
 */
function trimmedMemory() {
  collectGarbage({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return { rss: process.memoryUsage().rss, rssParts: rssParts() };
}

/**
 * What the resident memory is made of: the kernel's split (anonymous, file-backed, shared) and the
 * physical size of each of V8's heap spaces (its code among them), so a growth can be told apart.
 */
function rssParts() {
  const parts = {};
  try {
    for (const line of fs.readFileSync('/proc/self/status', 'utf8').split('\\n')) {
      const match = /^(RssAnon|RssFile|RssShmem):\\s+(\\d+) kB/.exec(line);
      if (match) parts[match[1]] = Number(match[2]) * 1024;
    }
  } catch {
    // Not Linux: V8's part only.
  }
  Object.assign(parts, anonymousMappings());
  for (const space of v8.getHeapSpaceStatistics()) parts['V8 ' + space.space_name] = space.physical_space_size;
  return parts;
}

/**
 * The anonymous memory by kind of mapping (Linux's /proc/self/smaps): V8's pages (256 KB each, held
 * or kept free), the allocator's main heap (brk), and the rest (the allocator's large blocks and its
 * threads' arenas, thread stacks, buffers).
 */
function anonymousMappings() {
  const kinds = { 'anon V8 pages': 0, 'anon malloc heap': 0, 'anon other': 0 };
  let kind;
  try {
    for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\\n')) {
      const range = /^([0-9a-f]+)-([0-9a-f]+) \\S+ \\S+ \\S+ \\S+\\s*(.*)$/.exec(line);
      if (range) {
        const size = parseInt(range[2], 16) - parseInt(range[1], 16);
        const name = range[3].trim();
        kind = name === '[heap]' ? 'anon malloc heap' : name !== '' ? undefined : size === 262144 ? 'anon V8 pages' : 'anon other';
      } else if (kind && line.startsWith('Rss:')) {
        kinds[kind] += Number(line.split(/\\s+/)[1]) * 1024;
      }
    }
  } catch {
    return {};
  }
  return kinds;
}

/** The host's open descriptors: sockets, pipes and the like counted by kind, files by path (Linux's /proc). */
function openDescriptors() {
  const kinds = {};
  const files = [];
  let fds = [];
  try {
    fds = fs.readdirSync('/proc/self/fd');
  } catch {
    return undefined;
  }
  for (const fd of fds) {
    let target;
    try {
      target = fs.readlinkSync('/proc/self/fd/' + fd);
    } catch {
      continue; // the one readdir used, closed already
    }
    const kind = target.startsWith('/') ? 'file' : (/^(\\w+):/.exec(target) || [, 'other'])[1];
    kinds[kind] = (kinds[kind] || 0) + 1;
    if (kind === 'file') files.push(target);
  }
  return { kinds, files: files.sort() };
}

/**
 * With $SOAK_PROFILE (a folder), a CPU profile of the host from its servers' start to its end (the
 * measure, or a reload): the report names whose JavaScript each long block ran. Opt-in: it slows the host.
 */
function startProfile() {
  const folder = process.env.SOAK_PROFILE;
  if (!folder) return undefined;
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 2000 });
  const startedAt = Date.now();
  session.post('Profiler.start');
  return () => {
    session.post('Profiler.stop', (error, result) => {
      if (error) return record({ profileError: String(error) });
      const file = folder + '/host-' + startedAt + '.cpuprofile';
      fs.writeFileSync(file, JSON.stringify(result.profile));
      record({ profile: file, startedAt });
      session.disconnect();
    });
  };
}

/**
 * With $SOAK_HEAP (a folder), V8's sampling heap profiler from the servers' start; at the measure,
 * after a full collection, its profile (what was allocated since and is still alive) goes to a file.
 */
function startHeapSampling() {
  const folder = process.env.SOAK_HEAP;
  if (!folder) return undefined;
  const session = new inspector.Session();
  session.connect();
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', { samplingInterval: 32768 });
  const startedAt = Date.now();
  return () => {
    session.post('HeapProfiler.getSamplingProfile', (error, result) => {
      if (error) return record({ heapProfileError: String(error) });
      const file = folder + '/host-' + startedAt + '.heapprofile';
      fs.writeFileSync(file, JSON.stringify(result.profile));
      record({ heapProfile: file, startedAt });
      session.post('HeapProfiler.stopSampling', () => session.disconnect());
    });
  };
}

exports.activate = (context) => {
  // The soak's second window (a folder of its own, marked) only looks on.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (folder && fs.existsSync(folder + '/.soak-second-window')) return;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let measuring = false;
  let stopProfile;
  let takeHeapProfile;
  const poll = setInterval(() => {
    if (!measuring || !process.env.SOAK_MEASURE || !fs.existsSync(process.env.SOAK_MEASURE)) return;
    measuring = false;
    delay.disable();
    stopProfile?.();
    stopProfile = undefined;
    const heap = heapAfterGc();
    takeHeapProfile?.();
    takeHeapProfile = undefined;
    const memory = process.memoryUsage();
    const parts = rssParts();
    record({
      measured: { worstBlockMs: delay.max / 1e6, p99BlockMs: delay.percentile(99) / 1e6, heapAfterGc: heap, memory, rssParts: parts, trimmed: trimmedMemory(), descriptors: openDescriptors() },
    });
  }, 500);
  context.subscriptions.push({ dispose: () => clearInterval(poll) });
  // The resident memory every 30 s, to tell a plateau (the allocator keeping what it had) from a leak.
  const sampler = setInterval(() => {
    if (measuring) record({ rssSample: { at: Date.now(), rss: process.memoryUsage().rss } });
  }, 30_000);
  context.subscriptions.push({ dispose: () => clearInterval(sampler) });
  // When the host was blocked long (a timer 100 ms late or more), for the report to set beside the faults.
  let last = Date.now();
  // From when the servers are started and measured: the driver's own collections before it are not the host's.
  let measuringSince = Infinity;
  const lateWatch = setInterval(() => {
    const now = Date.now();
    const late = now - last - 20;
    last = now;
    if (measuring && late >= 100) record({ blocked: { at: now - late, ms: late } });
  }, 20);
  context.subscriptions.push({ dispose: () => clearInterval(lateWatch) });
  // Garbage collections of 20 ms or more: the report tells the blocks they explain from the others.
  const gcKinds = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const gcWatch = new PerformanceObserver((list) => {
    if (!measuring) return;
    for (const entry of list.getEntries()) {
      if (entry.duration >= 20 && performance.timeOrigin + entry.startTime >= measuringSince) record({ gc: { at: performance.timeOrigin + entry.startTime, ms: entry.duration, kind: gcKinds[entry.detail && entry.detail.kind] || 'other' } });
    }
  });
  gcWatch.observe({ entryTypes: ['gc'] });
  context.subscriptions.push({ dispose: () => gcWatch.disconnect() });
  async function startServers() {
    const names = (process.env.SOAK_SERVERS || '').split(',').filter(Boolean);
    let started = 0;
    for (const name of names) {
      try {
        await vscode.commands.executeCommand('elicit.startServer', name);
        started++;
      } catch (error) {
        record({ name, error: String(error) });
      }
    }
    const heapAtStart = heapAfterGc();
    const memory = process.memoryUsage();
    const parts = rssParts();
    const trimmed = trimmedMemory();
    delay.reset();
    delay.enable();
    stopProfile = startProfile();
    takeHeapProfile = startHeapSampling();
    // The measures above block the host (full collections): a block they make is not the host's.
    last = Date.now();
    measuringSince = last;
    measuring = true;
    record({ started, heapAtStart, memory, rssParts: parts, trimmed, descriptors: openDescriptors(), at: Date.now() });
  }
  const reload = process.env.SOAK_RELOAD;
  const reloadPoll = setInterval(() => {
    if (!reload || !fs.existsSync(reload)) return;
    fs.renameSync(reload, reload + '.reloading');
    // What this host saw until now, before it goes.
    if (measuring) record({ measured: { worstBlockMs: delay.max / 1e6, p99BlockMs: delay.percentile(99) / 1e6 }, before: 'reload' });
    stopProfile?.();
    stopProfile = undefined;
    void vscode.commands.executeCommand('workbench.action.reloadWindow');
  }, 250);
  context.subscriptions.push({ dispose: () => clearInterval(reloadPoll) });
  const todo = process.env.SOAK_DRIVER_DO;
  const doPoll = setInterval(() => {
    if (!todo || !fs.existsSync(todo)) return;
    const { command, args } = JSON.parse(fs.readFileSync(todo, 'utf8'));
    fs.rmSync(todo);
    if (!/^elicit\\./.test(command)) return record({ did: command, error: 'not an Elicit command' });
    record({ did: command });
    // Run Tool ends when its tool does (after the reload, for a kept round: never in this window).
    vscode.commands.executeCommand(command, ...(args || [])).then(undefined, (error) => record({ did: command, error: String(error) }));
  }, 250);
  context.subscriptions.push({ dispose: () => clearInterval(doPoll) });
  if (reload && fs.existsSync(reload + '.reloading')) {
    fs.rmSync(reload + '.reloading');
    void startServers();
  }
  context.subscriptions.push(vscode.commands.registerCommand('soakDriver.startServers', startServers));
};

exports.deactivate = () => undefined;
`;

/** Writes the extension into `dir` and packages it (extensionVsix.ts); returns the VSIX's path. */
export async function buildDriverVsix(dir: string): Promise<string> {
  const source = path.join(dir, 'soak-driver');
  fs.mkdirSync(source, { recursive: true });
  fs.writeFileSync(path.join(source, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(source, 'extension.js'), extension);
  fs.writeFileSync(path.join(source, 'README.md'), "# Soak driver\n\nStarts the Elicit soak's servers.\n");
  return packageExtension(source);
}
