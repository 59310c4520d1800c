/**
 * Where an asker comes from, beyond the name it shows: its config file plus
 * the command and arguments it runs, or the origin of its URL. A name is not
 * an identity: a cloned repo's mcp.json may call its server "github" too.
 * Saved answers and secret destinations are keyed by this. It is a digest:
 * arguments may hold a token (`${env:…}` is filled in when the file is read),
 * and keys end up in state files.
 */
import { createHash } from 'node:crypto';
import type { Asker, ElicitRequest } from './broker/request';

export function commandOrigin(file: string, command: string, args: readonly string[]): string {
  return digest([file, 'command', command, args]);
}

/** The URL's scheme, host and port: a path or query on the same server is the same destination. */
export function urlOrigin(file: string, url: string): string {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // An unparsable URL is kept whole: it names only itself.
  }
  return digest([file, 'url', origin]);
}

function digest(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The request with its asker's origin set, as adapters hand it to the broker. */
export function withOrigin<R extends ElicitRequest>(request: R, origin: string): R {
  const asker: Asker = { ...request.asker, origin };
  return { ...request, asker };
}
