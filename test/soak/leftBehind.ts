/**
 * What a soak may leave behind besides processes (issue #37): the socket files of windows that went
 * (each window listens on one in the windows' meeting folder and removes it as it closes), and the
 * descriptors the extension host holds at the end beyond those it held at the start.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

export interface WindowSockets {
  /** Socket files a window still listens on. */
  live: number;
  /** Socket files nobody listens on: a window that went and left its file. */
  stale: string[];
}

/** The windows' socket files in `dirs`, each tried: a live window accepts a connection. */
export async function windowSockets(dirs: readonly string[]): Promise<WindowSockets> {
  const files = dirs.flatMap((dir) =>
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.sock'))
      .map((name) => path.join(dir, name)),
  );
  const tried = await Promise.all(files.map(async (file) => ({ file, live: await accepts(file) })));
  return { live: tried.filter((t) => t.live).length, stale: tried.filter((t) => !t.live).map((t) => path.basename(t.file)) };
}

function accepts(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(file);
    const done = (live: boolean): void => {
      socket.destroy();
      resolve(live);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    // A window too busy to accept within 5 s still listens.
    socket.setTimeout(5000, () => done(true));
  });
}

/** The host's open descriptors as the driver counts them: by kind, and the files by path. */
export interface Descriptors {
  kinds: Record<string, number>;
  files: string[];
}

/**
 * What the host holds at the end beyond the start: kinds that grew, by how many, and files newly open
 * (by name: each host after a reload logs to a folder of its own).
 */
export function descriptorGrowth(start: Descriptors, end: Descriptors): { grew: Record<string, number>; newFiles: string[] } {
  const grew: Record<string, number> = {};
  for (const [kind, n] of Object.entries(end.kinds)) {
    const more = n - (start.kinds[kind] ?? 0);
    if (more > 0) grew[kind] = more;
  }
  const before = new Set(start.files.map((file) => path.basename(file)));
  return { grew, newFiles: [...new Set(end.files.map((file) => path.basename(file)).filter((name) => !before.has(name)))] };
}
