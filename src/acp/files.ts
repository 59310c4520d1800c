/**
 * The rules for an agent's `fs/read_text_file` and `fs/write_text_file`: only
 * absolute paths inside a workspace folder, checked after resolving `..` and
 * symbolic links, and `line`/`limit` applied to what the editor holds.
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import * as path from 'node:path';

export class OutsideWorkspaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutsideWorkspaceError';
  }
}

/**
 * Returns the normalized absolute path when it lies inside one of `roots`
 * (also after following symbolic links), or throws OutsideWorkspaceError.
 */
export async function confinePath(requested: unknown, roots: readonly string[]): Promise<string> {
  if (typeof requested !== 'string' || requested === '') throw new OutsideWorkspaceError('a file path is needed');
  if (requested.includes('\0')) throw new OutsideWorkspaceError('the path contains a NUL character');
  if (!path.isAbsolute(requested)) throw new OutsideWorkspaceError(`"${clipPath(requested)}" is not an absolute path`);
  const resolved = path.resolve(requested);
  const outside = new OutsideWorkspaceError(
    `"${clipPath(resolved)}" is outside the workspace folders; Elicit lets agents read and write files only inside them`,
  );
  const root = roots.find((r) => isInside(path.resolve(r), resolved));
  if (root === undefined) throw outside;
  // A link inside the folder may point outside it: check where it really leads.
  const [realRoot, realTarget] = await Promise.all([realOrSelf(path.resolve(root)), realExistingPrefix(resolved)]);
  if (realTarget === undefined || !isInside(realRoot, realTarget)) throw outside;
  return resolved;
}

/** `line` is 1-based; `limit` is a number of lines. Line endings are kept. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split(/(?<=\n)/);
  const start = Math.max(0, Math.floor(line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, Math.floor(limit));
  return lines.slice(start, end).join('');
}

function isInside(root: string, target: string): boolean {
  const rel = path.relative(foldCase(root), foldCase(target));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function foldCase(p: string): string {
  return process.platform === 'win32' || process.platform === 'darwin' ? p.toLowerCase() : p;
}

async function realOrSelf(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch {
    return p;
  }
}

/**
 * The real path of the deepest part of `p` that exists, with the rest appended
 * (a new file's folder may be a link). A link that points nowhere yet is
 * followed by hand: writing through it would create its target, wherever that is.
 * Undefined for a loop of links.
 */
async function realExistingPrefix(p: string, hops = 0): Promise<string | undefined> {
  const rest: string[] = [];
  let current = p;
  for (;;) {
    try {
      return path.join(await realpath(current), ...rest.reverse());
    } catch {
      const target = await danglingLinkTarget(current);
      if (target !== undefined) {
        if (hops >= MAX_LINK_HOPS) return undefined; // a loop of links: nowhere to check
        return realExistingPrefix(path.join(target, ...rest.reverse()), hops + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return p;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/** As the kernel's ELOOP limit on Linux. */
const MAX_LINK_HOPS = 40;

async function danglingLinkTarget(p: string): Promise<string | undefined> {
  try {
    if (!(await lstat(p)).isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(p), await readlink(p));
  } catch {
    return undefined;
  }
}

function clipPath(p: string): string {
  return p.length > 200 ? `…${p.slice(-199)}` : p;
}
