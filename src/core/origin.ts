/**
 * Where an asker comes from, beyond the name it shows: the whole destination a
 * value would reach. A name is not an identity (a cloned repo's mcp.json may
 * call its server "github" too), and neither is a command alone: an added
 * `NODE_OPTIONS=--require ./x.js`, another `cwd` or an edited envFile makes
 * another program of the same command. Grants of `${secret:}`, saved
 * `${input:}` passwords, saved answers and agent keys are all keyed by this.
 *
 * The key is a keyed digest (HMAC): values in a destination may hold a token
 * (`${env:…}` is filled in when the file is read, an envFile holds keys), keys
 * end up in state files, and a plain hash of a weak password can be found by
 * trying guesses. The HMAC key lives in SecretStorage (vscode/secrets/originKey.ts);
 * until it is set, a key of this process only is used, so nothing saved matches:
 * it fails closed, asking again.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Asker, ElicitRequest } from './broker/request';
import { oneLine } from './display';

/**
 * Everything that decides what receives a value, as written in its config:
 * `${secret:…}` and `${input:…}` stay references here, so no secret or input
 * value is ever part of it.
 */
export interface Destination {
  /** The file that configures it: a config file's URI, or the settings file an entry comes from. */
  file: string;
  command?: string;
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** The envFile, resolved, and a digest of its text (envFileDigest; undefined when it cannot be read). */
  envFile?: { path: string; contents: string | undefined };
  /** The whole URL: another path or query is another destination. */
  url?: string;
  headers?: Readonly<Record<string, string>>;
}

let originKey: Uint8Array = randomBytes(32);

/** The install's digest key, read from SecretStorage at activation. */
export function useOriginKey(key: Uint8Array): void {
  originKey = key;
}

function digest(parts: unknown): string {
  return createHmac('sha256', originKey).update(JSON.stringify(parts)).digest('hex');
}

/** What a destination holds of an envFile's text: a keyed digest, never a value. */
export function envFileDigest(text: string): string {
  return digest(['envFile', text]);
}

/** The destination's key: the same destination always gives the same key, any change another one. */
export function destinationOrigin(destination: Destination): string {
  return digest(['destination', destinationFields(destination)]);
}

/** A digest per part, kept with a grant so that a later question can say what changed (no value in them). */
export function destinationDigests(destination: Destination): Record<string, string> {
  return Object.fromEntries(destinationFields(destination).map(([field, value]) => [field, digest([field, value])]));
}

/** A stdio destination of a command (an agent, or an MCP server). */
export function commandOrigin(file: string, command: string, args: readonly string[]): string {
  return destinationOrigin({ file, command, args });
}

/** An http destination: the whole URL. */
export function urlOrigin(file: string, url: string): string {
  return destinationOrigin({ file, url });
}

type Field = [name: string, value: string | readonly string[] | null];

/** The destination's parts in a fixed order; header names lower-cased (HTTP does not tell them apart). */
function destinationFields(d: Destination): Field[] {
  const fields: Field[] = [['file', d.file]];
  if (d.command !== undefined) fields.push(['command', d.command], ['args', d.args ?? []]);
  for (const name of Object.keys(d.env ?? {}).sort()) fields.push([`env ${name}`, d.env![name]!]);
  if (d.cwd !== undefined) fields.push(['cwd', d.cwd]);
  if (d.envFile !== undefined) fields.push(['envFile', d.envFile.path], ['envFile contents', d.envFile.contents ?? null]);
  if (d.url !== undefined) fields.push(['url', d.url]);
  const headers = Object.entries(d.headers ?? {}).map(([name, value]): Field => [`header ${name.toLowerCase()}`, value]);
  fields.push(...headers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return fields;
}

/**
 * The destination as lines for the person (what a grant question shows): the
 * command line, env, cwd, envFile, URL and headers as written. References stay
 * references; an envFile's values are never shown.
 */
export function describeDestination(d: Destination): string[] {
  return destinationFields(d)
    .filter(([field]) => field !== 'args' && field !== 'file')
    .map(([field, value]) => lineOf(field, value, d));
}

/**
 * What differs from a destination granted before (its digests), as lines for
 * the person: added, changed and removed parts, each new value shown as in
 * describeDestination (masked the same way); a removed one by name only.
 */
export function destinationChanges(before: Readonly<Record<string, string>>, d: Destination): string[] {
  const now = destinationFields(d);
  const lines: string[] = [];
  for (const [field, value] of now) {
    const was = before[field];
    if (was === digest([field, value])) continue;
    const shown = field === 'args' ? lineOf('command', d.command ?? '', d) : lineOf(field, value, d);
    lines.push(was === undefined ? `+ ${shown}` : `~ ${shown}`);
  }
  const present = new Set(now.map(([field]) => field));
  for (const field of Object.keys(before)) if (!present.has(field)) lines.push(`- ${field}`);
  return [...new Set(lines)];
}

function lineOf(field: string, value: string | readonly string[] | null, d: Destination): string {
  if (field === 'command') return `command: ${oneLine([d.command ?? '', ...(d.args ?? [])].join(' '), 300)}`;
  // The file's values are keys and passwords: it is named, its contents never shown.
  if (field === 'envFile contents') return value === null ? 'envFile contents: (not readable)' : 'envFile contents: (values not shown)';
  return `${field}: ${oneLine(String(value), 200)}`;
}

/** The request with its asker's origin set, as adapters hand it to the broker. */
export function withOrigin<R extends ElicitRequest>(request: R, origin: string): R {
  const asker: Asker = { ...request.asker, origin };
  return { ...request, asker };
}
