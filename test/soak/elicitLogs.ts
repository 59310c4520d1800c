/**
 * Elicit's own logs (its output channel and each server's) of every extension host a soak's editor
 * ran, copied out of code-server's folder before it is removed: a kept run (SOAK_KEEP=1) can then
 * say what Elicit did with a question whose fate is a problem.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Copies each log file whose name starts with "Elicit" under `userDataDir`'s logs into `into`; returns how many. */
export function keepElicitLogs(userDataDir: string, into: string): number {
  const logs = path.join(userDataDir, 'logs');
  if (!fs.existsSync(logs)) return 0;
  let copied = 0;
  for (const file of fs.readdirSync(logs, { recursive: true, encoding: 'utf8' })) {
    if (!/^Elicit[^/]*\.log$/.test(path.basename(file))) continue;
    const target = path.join(into, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(logs, file), target);
    copied++;
  }
  return copied;
}
