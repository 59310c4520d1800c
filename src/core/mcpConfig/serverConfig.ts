/**
 * Reads MCP server configuration in VS Code's own format (`.vscode/mcp.json`,
 * the user profile's `mcp.json`, a `.code-workspace` file's `mcp` section, the
 * legacy `mcp` setting: `servers` and `inputs`), also accepting the
 * `mcpServers` key of Claude Desktop / Cursor configs. The portable format of
 * `.mcp.json` is read by portableConfig.ts into the same shape. Pure: text in,
 * servers and problems out. A problem in one server never hides the others.
 * In core because the format is shared: the `elicit.servers` setting uses it
 * for MCP servers, and `elicit.agents` (acp/config.ts) for ACP agents, whose
 * entries are stdio servers.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { isObject } from '../json';
import { emptySandbox, entryFields, type SandboxRules, type ServerFields } from './serverFields';
import { errorText } from '../errors';

export { emptySandbox, type SandboxRules } from './serverFields';

export interface StdioServerConfig {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  envFile?: string;
  cwd?: string;
}

export interface HttpServerConfig {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

export interface ServerConfig extends ServerFields {
  /** Unique within the window: the key in `servers` (numbered when another source uses it too, "github (2)"). */
  name: string;
  /** The file (or setting) it came from, for messages: "app/.vscode/mcp.json", "the elicit.servers setting (User settings)". */
  source: string;
  /** The source as short as a row or a title needs it ("User mcp.json", "elicit.servers"); `source` when unset. */
  sourceLabel?: string;
  transport: StdioServerConfig | HttpServerConfig;
  /** The `inputs` its `${input:id}` variables refer to, in order of first use (absent when none). */
  inputs?: ConfigInput[];
  /** Set by whoever read the file: where it lives, for remembering inputs and resolving `envFile`. */
  origin?: ConfigOrigin;
  /** `${VAR}` references of the portable format are in it: filled in from the environment at launch (launch.ts). */
  environmentReferences?: true;
  /** `oauth.clientId` (`oauthClientId` in the portable format): a client registered ahead, used instead of registering one. */
  oauthClientId?: string;
  /**
   * Who asks, when that is more than the name: a name used by several sources is
   * told with its source ("github (2) from app/.mcp.json") on every question.
   */
  askerName?: string;
  /** The name as its file writes it, when another source's server took it and this one was numbered. */
  writtenName?: string;
  /** It comes from the workspace (a folder's mcp.json or .mcp.json, the workspace's settings), not from the person's own files. */
  fromWorkspace?: true;
}

export interface ConfigOrigin {
  /** The config file's URI (or a fixed name for a setting): the namespace of its saved inputs. */
  file: string;
  /** The workspace folder's path: a relative `envFile` is resolved against it. */
  folder?: string;
}

/** An entry of `inputs`: asked (or, for a command, run) when a server that uses it first starts. */
export type ConfigInput = PromptStringInput | PickStringInput | CommandInput;

interface InputBase {
  id: string;
  /** Shown as the question. */
  description: string;
  default?: string;
}

export interface PromptStringInput extends InputBase {
  type: 'promptString';
  /** Masked, kept in SecretStorage and reused on the next start. */
  password: boolean;
}

export interface PickStringInput extends InputBase {
  type: 'pickString';
  options: string[];
  /** Labels shown instead of some options' values (`{ "label", "value" }` entries), by value. */
  labels?: Record<string, string>;
}

/** A VS Code command run for the value (its result as a string); the first run for a destination is the person's to allow. */
export interface CommandInput extends InputBase {
  type: 'command';
  command: string;
  args?: unknown;
}

export interface ConfigProblem {
  source: string;
  /** The server it concerns, when it concerns one. */
  server?: string;
  message: string;
}

export interface ParsedConfig {
  servers: ServerConfig[];
  problems: ConfigProblem[];
}

/** Values for `${workspaceFolder}`, `${userHome}` and `${env:NAME}`. */
export interface VariableContext {
  workspaceFolder?: string;
  userHome: string;
  env: Record<string, string | undefined>;
}

export function parseMcpConfig(text: string, source: string, vars: VariableContext): ParsedConfig {
  const read = parseJsonObject(text, source);
  if ('problem' in read) return { servers: [], problems: read.problem ? [read.problem] : [] };
  return parseMcpSection(read.root, source, vars);
}

/** An already parsed `{ servers, inputs, sandbox }` object: a file's root, or the `mcp` section of settings or a workspace file. */
export function parseMcpSection(root: Record<string, unknown>, source: string, vars: VariableContext): ParsedConfig {
  const table = root.servers ?? root.mcpServers;
  if (table === undefined) return { servers: [], problems: [] };
  if (!isObject(table)) {
    return { servers: [], problems: [{ source, message: `${source}: "servers" must be an object of named servers` }] };
  }
  const inputs = parseInputs(root.inputs, source);
  const parsed = parseServerTable(table, source, vars, inputs.inputs);
  const sandbox = parseSandbox(root.sandbox, vars);
  if (sandbox.problem) {
    // Rules that cannot be read are no rules: a sandboxed server is not started rather than started with fewer.
    const problem = `${source}: "sandbox": ${sandbox.problem}`;
    parsed.servers = parsed.servers.map((server) =>
      server.sandbox ? { ...server, notStarted: `its file's "sandbox" rules cannot be read (${sandbox.problem})` } : server,
    );
    parsed.problems.push({ source, message: problem });
  } else if (sandbox.rules) {
    const rules = sandbox.rules;
    parsed.servers = parsed.servers.map((server) => (server.sandbox ? { ...server, sandbox: rules } : server));
  }
  return { servers: parsed.servers, problems: [...inputs.problems, ...parsed.problems] };
}

function parseSandbox(value: unknown, vars: VariableContext): { rules?: SandboxRules; problem?: string } {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) return { problem: 'must be an object with "filesystem" and "network"' };
  const rules = emptySandbox();
  const lists = { filesystem: ['allowWrite', 'denyRead', 'denyWrite'], network: ['allowedDomains', 'deniedDomains'] } as const;
  for (const part of ['filesystem', 'network'] as const) {
    const section = value[part];
    if (section === undefined) continue;
    if (!isObject(section)) return { problem: `"${part}" must be an object` };
    for (const key of lists[part]) {
      const list = section[key];
      if (list === undefined) continue;
      if (!Array.isArray(list) || !list.every((item) => typeof item === 'string'))
        return { problem: `"${part}.${key}" must be a list of strings` };
      (rules[part] as Record<string, string[]>)[key] = list.map((item) => substitute(item, vars));
    }
  }
  return { rules };
}

/**
 * JSON with comments and trailing commas, as VS Code reads its config files. An
 * empty (just created) file configures nothing: no problem. A broken one is a
 * problem naming its line and column.
 */
export function parseJsonObject(text: string, source: string): { root: Record<string, unknown> } | { problem: ConfigProblem | undefined } {
  if (text.trim() === '') return { problem: undefined };
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const { line, column } = lineAndColumn(text, first.offset);
    return { problem: { source, message: `${source}: ${describeParseError(first)} at line ${line}, column ${column}` } };
  }
  if (!isObject(root)) return { problem: { source, message: `${source}: expected a JSON object with a "servers" key` } };
  return { root };
}

/**
 * The same shape as a file's `servers` object (used for the `elicit.servers` setting,
 * which has no `inputs`: an `${input:…}` there is a problem).
 */
export function parseServerTable(
  table: Record<string, unknown>,
  source: string,
  vars: VariableContext,
  inputs: readonly ConfigInput[] = [],
): ParsedConfig {
  const result: ParsedConfig = { servers: [], problems: [] };
  const inputsById = new Map(inputs.map((input) => [input.id, input]));
  for (const [name, entry] of Object.entries(table)) {
    try {
      const transport = parseServer(entry, vars);
      const used = usedInputs(transport, inputsById);
      // A sandboxed entry gets VS Code's default rules here; the file's "sandbox" rules replace them (parseMcpSection).
      const fields = entryFields(entry as Record<string, unknown>, transport.type === 'stdio' ? STDIO_FIELDS : HTTP_FIELDS, transport.type);
      result.servers.push({ name, source, transport, ...(used.length > 0 ? { inputs: used } : {}), ...fields });
    } catch (error) {
      result.problems.push({ source, server: name, message: `${source}: server "${name}": ${errorText(error)}` });
    }
  }
  return result;
}

/** `inputs`: a list of promptString / pickString entries. A bad entry is a problem; the others still count. */
export function parseInputs(value: unknown, source: string): { inputs: ConfigInput[]; problems: ConfigProblem[] } {
  const inputs: ConfigInput[] = [];
  const problems: ConfigProblem[] = [];
  if (value === undefined || value === null) return { inputs, problems };
  if (!Array.isArray(value)) return { inputs, problems: [{ source, message: `${source}: "inputs" must be a list` }] };
  value.forEach((entry, index) => {
    const label = isObject(entry) && typeof entry.id === 'string' && entry.id !== '' ? `input "${entry.id}"` : `inputs[${index}]`;
    try {
      const input = parseInput(entry);
      if (inputs.some((other) => other.id === input.id)) throw new Error('is defined more than once');
      inputs.push(input);
    } catch (error) {
      problems.push({ source, message: `${source}: ${label}: ${errorText(error)}` });
    }
  });
  return { inputs, problems };
}

function parseInput(entry: unknown): ConfigInput {
  if (!isObject(entry)) throw new Error('must be an object');
  const { id, type, description } = entry;
  if (typeof id !== 'string' || id === '') throw new Error('needs an "id" string');
  if (!INPUT_ID.test(id)) throw new Error(`"id" may use letters, digits, "_", "-" and "." only`);
  if (description !== undefined && typeof description !== 'string') throw new Error('"description" must be a string');
  if (entry.default !== undefined && typeof entry.default !== 'string') throw new Error('"default" must be a string');
  const base = { id, description: description || id, ...(entry.default !== undefined ? { default: entry.default as string } : {}) };
  if (type === 'promptString') {
    if (entry.password !== undefined && typeof entry.password !== 'boolean') throw new Error('"password" must be true or false');
    return { ...base, type, password: entry.password === true };
  }
  if (type === 'pickString') {
    const options = entry.options;
    if (!Array.isArray(options) || options.length === 0) throw new Error('"options" must be a non-empty list');
    const values = options.map((option) => (isObject(option) ? option.value : option));
    if (!values.every((v): v is string => typeof v === 'string'))
      throw new Error('"options" must be strings (or objects with a "value" string)');
    if (base.default !== undefined && !values.includes(base.default)) throw new Error('"default" must be one of the options');
    const labels: Record<string, string> = {};
    for (const option of options) {
      if (!isObject(option) || option.label === undefined) continue;
      if (typeof option.label !== 'string') throw new Error('an option\'s "label" must be a string');
      if (option.label !== '' && !Object.hasOwn(labels, option.value as string)) labels[option.value as string] = option.label;
    }
    return { ...base, type, options: [...new Set(values)], ...(Object.keys(labels).length > 0 ? { labels } : {}) };
  }
  if (type === 'command') {
    const command = entry.command;
    if (typeof command !== 'string' || command.trim() === '') throw new Error('needs a "command" string (a VS Code command id)');
    return { ...base, type, command, ...(entry.args !== undefined ? { args: entry.args } : {}) };
  }
  throw new Error(`unknown type ${JSON.stringify(type)}; use "promptString", "pickString" or "command"`);
}

/** The question for an input: one required string field named after it, masked for passwords, a choice for pickString. */
export function inputQuestionSchema(input: PromptStringInput | PickStringInput): Record<string, unknown> {
  const field: Record<string, unknown> = { type: 'string', title: input.id };
  if (input.type === 'pickString') {
    if (input.labels) field.oneOf = input.options.map((value) => ({ const: value, title: input.labels![value] ?? value }));
    else field.enum = input.options;
  } else if (input.password) field.format = 'password';
  if (input.default !== undefined) field.default = input.default;
  return { type: 'object', properties: { [input.id]: field }, required: [input.id] };
}

const INPUT_ID = /^[A-Za-z0-9_.-]+$/;
const INPUT_REFERENCE = /\$\{input:([^}]*)\}/g;

/** The inputs a server's strings refer to; an id with no such input is an error naming it. */
function usedInputs(transport: StdioServerConfig | HttpServerConfig, inputs: ReadonlyMap<string, ConfigInput>): ConfigInput[] {
  const used = new Map<string, ConfigInput>();
  for (const text of transportStrings(transport)) {
    for (const match of text.matchAll(INPUT_REFERENCE)) {
      const id = match[1]!;
      const input = inputs.get(id);
      if (!input) throw new Error(`uses \${input:${id}}, but "inputs" defines no input "${id}"`);
      used.set(id, input);
    }
  }
  return [...used.values()];
}

function transportStrings(transport: StdioServerConfig | HttpServerConfig): string[] {
  if (transport.type === 'stdio') {
    return [transport.command, ...transport.args, ...Object.values(transport.env), transport.cwd ?? '', transport.envFile ?? ''];
  }
  return [transport.url, ...Object.values(transport.headers)];
}

/**
 * The transport with every `${input:id}` replaced by its value (once: values are
 * not expanded again). Throws for a missing value or a URL that is invalid only now.
 */
export function resolveInputs<T extends StdioServerConfig | HttpServerConfig>(transport: T, values: Readonly<Record<string, string>>): T {
  const fill = (text: string): string =>
    text.replace(INPUT_REFERENCE, (_whole, id: string) => {
      if (!Object.hasOwn(values, id)) throw new Error(`no value for \${input:${id}}`);
      return values[id]!;
    });
  const fillMap = (map: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(map).map(([k, v]) => [k, fill(v)]));
  if (transport.type === 'stdio') {
    const resolved: StdioServerConfig = {
      ...transport,
      command: fill(transport.command),
      args: transport.args.map(fill),
      env: fillMap(transport.env),
    };
    if (transport.cwd !== undefined) resolved.cwd = fill(transport.cwd);
    if (transport.envFile !== undefined) resolved.envFile = fill(transport.envFile);
    return resolved as T;
  }
  const resolved: HttpServerConfig = { ...transport, url: fill(transport.url), headers: fillMap(transport.headers) };
  checkHttpUrl(resolved.url);
  return resolved as T;
}

/** Every field of VS Code's entry that Elicit reads; another field is named as not supported (serverFields.ts). */
const STDIO_FIELDS = ['type', 'command', 'args', 'env', 'envFile', 'cwd'];
const HTTP_FIELDS = ['type', 'url', 'headers'];

function parseServer(entry: unknown, vars: VariableContext): StdioServerConfig | HttpServerConfig {
  if (!isObject(entry)) throw new Error('must be an object');
  const fill = (text: string): string => substitute(text, vars);
  const type = entry.type ?? (entry.url !== undefined ? 'http' : entry.command !== undefined ? 'stdio' : undefined);
  if (type === 'stdio') {
    const command = stringField(entry, 'command', fill, true)!;
    if (command.trim() === '') throw new Error('"command" is empty');
    const config: StdioServerConfig = {
      type: 'stdio',
      command,
      args: stringList(entry.args, 'args', fill),
      env: stringMap(entry.env, 'env', fill),
    };
    const envFile = stringField(entry, 'envFile', fill, false);
    const cwd = stringField(entry, 'cwd', fill, false);
    if (envFile !== undefined) config.envFile = envFile;
    if (cwd !== undefined) config.cwd = cwd;
    return config;
  }
  if (type === 'http' || type === 'sse' || type === 'streamableHttp') {
    const url = stringField(entry, 'url', fill, true)!;
    // With an input in it, the URL is complete (and checked) only when the server starts.
    if (!/\$\{input:/.test(url)) checkHttpUrl(url);
    return { type: type === 'sse' ? 'sse' : 'http', url, headers: stringMap(entry.headers, 'headers', fill) };
  }
  if (type === undefined) throw new Error('needs a "command" (stdio) or a "url" (http)');
  throw new Error(`unknown type ${JSON.stringify(type)}; use "stdio", "http" or "sse"`);
}

export function checkHttpUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`"url" is not a valid URL`);
  }
  // unix:///path.sock#/mcp and pipe:///name (Windows) reach a local socket, as in VS Code.
  if (parsed.protocol === 'unix:' || parsed.protocol === 'pipe:') {
    if (parsed.pathname === '' || parsed.pathname === '/')
      throw new Error(`"url" names no socket: use ${parsed.protocol}///path#/http-path`);
    return;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`"url" must be http, https, unix or pipe`);
}

/** Written as is: for formats whose variables are filled in later, or not at all. */
export const asWritten = (text: string): string => text;

/** A string field, `fill`ed (variables substituted); `required` makes a missing one an error. */
export function stringField(
  entry: Record<string, unknown>,
  key: string,
  fill: (text: string) => string,
  required: boolean,
): string | undefined {
  const value = entry[key];
  if (value === undefined) {
    if (required) throw new Error(`"${key}" is missing`);
    return undefined;
  }
  if (typeof value !== 'string') throw new Error(`"${key}" must be a string`);
  return fill(value);
}

export function stringList(value: unknown, key: string, fill: (text: string) => string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`"${key}" must be a list of strings`);
  return value.map(fill);
}

/** An object of strings; numbers and booleans are taken as their text, a null member is left out. */
export function stringMap(value: unknown, key: string, fill: (text: string) => string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new Error(`"${key}" must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else if (typeof v === 'string') out[k] = fill(v);
    else if (v !== null) throw new Error(`"${key}.${k}" must be a string`);
  }
  return out;
}

/** `${workspaceFolder}`, `${userHome}`, `${env:NAME}`; other variables are left for later stages. */
export function substitute(value: string, vars: VariableContext): string {
  return value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, name: string, envName?: string) => {
    if (envName !== undefined) return vars.env[envName] ?? '';
    if (name === 'userHome') return vars.userHome;
    return vars.workspaceFolder ?? whole;
  });
}

function describeParseError(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  return code
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase());
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
