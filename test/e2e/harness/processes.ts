/**
 * The processes of one code-server (found by its user-data folder, so another
 * session's editors on the same machine are never touched), read from /proc.
 */
import * as fs from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  args: string;
}

export function allProcesses(): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), ppid, args });
    } catch {
      // It ended while being read.
    }
  }
  return found;
}

/** Every process below `root` (children, their children…). */
export function descendants(root: number, processes = allProcesses()): ProcessInfo[] {
  const below: ProcessInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of processes) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        below.push(p);
        grew = true;
      }
    }
  }
  return below;
}

/** The extension host of the code-server started with `userDataDir`. */
export function extensionHostOf(userDataDir: string): ProcessInfo | undefined {
  const processes = allProcesses();
  const roots = processes.filter((p) => p.args.includes(userDataDir) && p.args.includes('code-server'));
  return roots.flatMap((root) => descendants(root.pid, processes)).find((p) => p.args.includes('--type=extensionHost'));
}

/** Running and not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
