/**
 * Child processes started in a process group of their own, so that stopping one
 * also ends what it started. `npx`, `uvx` and shell wrappers run the real server
 * or agent as a grandchild, which a signal to the direct child alone leaves behind.
 */
import type { ChildProcess } from 'node:child_process';
import spawn from 'cross-spawn';
import { watchGroup } from './hostWatchdog';

export interface GroupSpawnOptions {
  cwd?: string;
  env: Record<string, string>;
}

/** The editor's environment (without unset names) plus what a configuration sets. */
export function childEnvironment(base: NodeJS.ProcessEnv, extra: Record<string, string> = {}): Record<string, string> {
  const defined = Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { ...Object.fromEntries(defined), ...extra };
}

/**
 * Spawns with piped stdio; cross-spawn so `.cmd` shims such as npx start on Windows.
 * The group is handed to the host watchdog, which ends it if the extension host dies.
 */
export function spawnInGroup(command: string, args: readonly string[], options: GroupSpawnOptions): ChildProcess {
  const child = spawn(command, [...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  child.once('spawn', () => watchGroup(child, KILL_GRACE_MS));
  return child;
}

/** How long a process group has between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;

/** Resolves once the child runs; rejects with the spawn error (a missing command…). */
export function spawned(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  });
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Signals every process of the child's group. The group outlives its leader, so
 * this also reaches what the child left running after it exited itself.
 * Windows has no process groups: `taskkill /T` ends the child's tree instead.
 */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    if (hasExited(child)) return;
    const taskkill = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    taskkill.on('error', () => child.kill(signal));
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: every process of the group has already ended.
  }
}

/** SIGTERM to the child's group, then SIGKILL if the child has not exited within `graceMs`. */
export async function terminateGroup(child: ChildProcess, graceMs = KILL_GRACE_MS): Promise<void> {
  signalGroup(child, 'SIGTERM');
  if (!(await exitedWithin(child, graceMs))) signalGroup(child, 'SIGKILL');
}

/** Resolves once the child has exited, or after `ms`, whichever comes first. */
export function exitedWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    timer.unref();
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/** Calls `line` for every line written to `stream`, the unfinished last one when it ends. */
export function forEachLine(stream: NodeJS.ReadableStream | null | undefined, line: (text: string) => void): void {
  if (!stream) return;
  stream.setEncoding('utf8');
  let partial = '';
  stream.on('data', (chunk: string) => {
    const lines = (partial + chunk).split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const text of lines) line(text);
  });
  stream.on('end', () => {
    if (partial) line(partial);
    partial = '';
  });
}

/** Resolves once `stream` has ended, or after `ms` (a grandchild may hold it open). */
export function endedWithin(stream: NodeJS.ReadableStream | null | undefined, ms: number): Promise<void> {
  if (!stream || (stream as { readableEnded?: boolean }).readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      stream!.off('end', done);
      resolve();
    }
    stream.once('end', done);
  });
}
