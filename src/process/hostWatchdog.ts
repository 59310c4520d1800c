/**
 * Servers, agents and terminals run in process groups of their own (so that
 * stopping one ends what it started), which also means nothing ends them when
 * the extension host dies without deactivating (`kill -9`, a crash): they were
 * found running under PID 1 a minute later. One watchdog process per host
 * holds the groups' ids. It reads them from a pipe whose other end only the
 * host holds, so the kernel closes the pipe when the host is gone, however it
 * went; then the watchdog ends every group it holds (SIGTERM, then SIGKILL)
 * and exits. It runs in a group and session of its own, so a signal to the
 * host's group does not take it along. POSIX only: Windows has no process
 * groups (processGroup.ts ends process trees there).
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** The watchdog's program, run with the host's own Node (`-e`, no file to ship). */
const WATCHDOG = `
const groups = new Set();
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (pending + chunk).split('\\n');
  pending = lines.pop();
  for (const line of lines) {
    const pid = Number(line.slice(1));
    if (!Number.isInteger(pid) || pid <= 1) continue;
    if (line[0] === '+') groups.add(pid); else groups.delete(pid);
  }
});
const signal = (name) => { for (const pid of groups) { try { process.kill(-pid, name); } catch {} } };
process.stdin.on('end', () => {
  if (groups.size === 0) process.exit(0);
  signal('SIGTERM');
  setTimeout(() => { signal('SIGKILL'); process.exit(0); }, Number(process.argv[1]));
});
process.on('SIGHUP', () => {});
process.on('SIGINT', () => {});
`;

let watchdog: ChildProcess | undefined;

function started(graceMs: number): ChildProcess | undefined {
  if (process.platform === 'win32') return undefined;
  if (watchdog && watchdog.exitCode === null && watchdog.signalCode === null && watchdog.stdin?.writable) return watchdog;
  const child = spawn(process.execPath, ['-e', WATCHDOG, String(graceMs)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    // In desktop VS Code the host's executable is Electron: this makes it plain Node.
    env: { ELECTRON_RUN_AS_NODE: '1' },
  });
  child.on('error', () => undefined); // Without a watchdog, groups are still ended on a normal stop.
  child.stdin?.on('error', () => undefined);
  // Neither the process nor its pipe keeps the host (or a test run) alive.
  child.unref();
  (child.stdin as { unref?: () => void } | null)?.unref?.();
  watchdog = child;
  return child;
}

/** Hands the child's group to the watchdog until the child exits; `graceMs` between SIGTERM and SIGKILL. */
export function watchGroup(child: ChildProcess, graceMs: number): void {
  const pid = child.pid;
  if (pid === undefined) return;
  const dog = started(graceMs);
  if (!dog) return;
  dog.stdin?.write(`+${pid}\n`);
  // After the leader exits its number may be reused by an unrelated group: stop holding it.
  child.once('exit', () => {
    if (watchdog === dog && dog.stdin?.writable) dog.stdin.write(`-${pid}\n`);
  });
}

/** The watchdog's process id, for tests. */
export function watchdogPid(): number | undefined {
  return watchdog?.pid;
}
