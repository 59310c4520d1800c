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
import type { Asker, ElicitRequest } from './request';
import { isInvisible, oneLine } from './display';

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

/**
 * A `command` input's args as one text, shown to the person and digested for its
 * grant: JSON with every object's keys sorted, so the same args written in
 * another order are the same and any other change is not. Characters a dialog
 * would drop or turn into a space (bidi controls, zero-width and line
 * separators) are written as \u escapes, and numbers JSON cannot write (-0, a
 * 1e999 read as Infinity) as JavaScript does: nothing that reaches the command
 * is hidden, and two args get one text only when they are the same.
 */
export function canonicalArgs(args: unknown): string {
  if (Array.isArray(args)) return `[${args.map((item) => canonicalArgs(item ?? null)).join(',')}]`;
  if (args !== null && typeof args === 'object') {
    const keys = Object.keys(args).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const members = keys.filter((key) => (args as Record<string, unknown>)[key] !== undefined);
    return `{${members.map((key) => `${shownString(key)}:${canonicalArgs((args as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  if (typeof args === 'number') return Object.is(args, -0) ? '-0' : Number.isFinite(args) ? JSON.stringify(args) : String(args);
  if (typeof args === 'string') return shownString(args);
  return JSON.stringify(args ?? null);
}

/** A string as JSON, with what a dialog would hide written as an escape. */
function shownString(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => {
    const code = c.charCodeAt(0);
    const hidden = isInvisible(code) || (code >= 0x80 && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    return hidden ? `\\u${code.toString(16).padStart(4, '0')}` : c;
  });
}

/** A `command` input's args as part of a grant's key: a digest, as args may hold a token and keys reach state files. */
export function commandArgsDigest(args: unknown): string {
  // No args (the command is run without one) and `null` (passed to it) are not the same.
  return digest(['command args', args === undefined ? [] : [canonicalArgs(args)]]);
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

/** A line of a destination shown to the person; `runs`: it changes what program runs or what it loads. */
export interface DestinationLine {
  /** The part it shows: `command`, `env NODE_OPTIONS`, `header authorization`, … */
  field: string;
  text: string;
  runs: boolean;
}

/**
 * Environment variables that change what a command runs or loads before its own
 * code: a preload, a library path, a startup file, a shell's rc file. Their lines
 * come first in a grant question, so none hides among harmless ones.
 */
const RUNS_ENV = new Set([
  'PATH',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'ELECTRON_RUN_AS_NODE',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PYTHONINSPECT',
  'PYTHONUSERBASE',
  'PERL5LIB',
  'PERL5OPT',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'PROMPT_COMMAND',
  'SHELL',
  'HOME',
  'GCONV_PATH',
  'SSL_CERT_FILE',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXEC_PATH',
]);
/** …and every variable of these families (the loader's, npm's, pip's, uv's, Deno's, Bun's). */
const RUNS_ENV_PREFIXES = ['LD_', 'DYLD_', 'NPM_CONFIG_', 'PIP_', 'UV_', 'DENO_', 'BUN_'];

function runsField(field: string): boolean {
  if (field === 'command' || field === 'args' || field === 'cwd' || field === 'envFile' || field === 'envFile contents') return true;
  if (!field.startsWith('env ')) return false;
  const name = field.slice(4).toUpperCase();
  return RUNS_ENV.has(name) || RUNS_ENV_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** Lines that change what runs first, each group in its own order. */
function runsFirst(lines: DestinationLine[]): DestinationLine[] {
  return [...lines.filter((l) => l.runs), ...lines.filter((l) => !l.runs)];
}

/**
 * The destination as lines for the person (what a grant question shows): the
 * command line, env, cwd, envFile, URL and headers as written, each whole, the
 * ones that change what runs first. References stay references; an envFile's
 * values are never shown.
 */
export function describeDestination(d: Destination): DestinationLine[] {
  return runsFirst(
    destinationFields(d)
      .filter(([field]) => field !== 'args' && field !== 'file')
      .map(([field, value]) => ({ field, text: lineOf(field, value, d), runs: runsField(field) })),
  );
}

/**
 * What differs from a destination granted before (its digests), as lines for
 * the person: added, changed and removed parts, each new value shown whole as in
 * describeDestination (masked the same way); a removed one by name only. The
 * ones that change what runs come first.
 */
export function destinationChanges(before: Readonly<Record<string, string>>, d: Destination): DestinationLine[] {
  const now = destinationFields(d);
  const lines: DestinationLine[] = [];
  const seen = new Set<string>();
  const add = (field: string, text: string): void => {
    if (seen.has(text)) return;
    seen.add(text);
    lines.push({ field: field === 'args' ? 'command' : field, text, runs: runsField(field) });
  };
  for (const [field, value] of now) {
    const was = before[field];
    if (was === digest([field, value])) continue;
    const shown = field === 'args' ? lineOf('command', d.command ?? '', d) : lineOf(field, value, d);
    add(field, was === undefined ? `+ ${shown}` : `~ ${shown}`);
  }
  const present = new Set(now.map(([field]) => field));
  for (const field of Object.keys(before)) if (!present.has(field)) add(field, `- ${field}`);
  return runsFirst(lines);
}

/** A part of a destination on one line, never cut: what is not shown cannot be judged. */
function lineOf(field: string, value: string | readonly string[] | null, d: Destination): string {
  if (field === 'command') return `command: ${oneLine([d.command ?? '', ...(d.args ?? [])].join(' '), Infinity)}`;
  // The file's values are keys and passwords: it is named, its contents never shown.
  if (field === 'envFile contents') return value === null ? 'envFile contents: (not readable)' : 'envFile contents: (values not shown)';
  return `${field}: ${oneLine(String(value), Infinity)}`;
}

/** The request with its asker's origin set, as adapters hand it to the broker. */
export function withOrigin<R extends ElicitRequest>(request: R, origin: string): R {
  const asker: Asker = { ...request.asker, origin };
  return { ...request, asker };
}
