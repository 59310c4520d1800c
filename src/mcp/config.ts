/**
 * Reads MCP server configuration in VS Code's `.vscode/mcp.json` format
 * (`servers`), also accepting the `mcpServers` key of Claude Desktop / Cursor
 * configs. Pure: text in, servers and problems out. A problem in one server
 * never hides the others.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

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

export interface ServerConfig {
  /** Unique within the window: the key in `servers`. */
  name: string;
  /** The file (or setting) it came from, for messages. */
  source: string;
  transport: StdioServerConfig | HttpServerConfig;
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
  // An empty (just created) file configures nothing; jsonc-parser would call it "Value expected".
  if (text.trim() === '') return { servers: [], problems: [] };
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const { line, column } = lineAndColumn(text, first.offset);
    return {
      servers: [],
      problems: [{ source, message: `${source}: ${describeParseError(first)} at line ${line}, column ${column}` }],
    };
  }
  if (!isObject(root)) {
    return { servers: [], problems: [{ source, message: `${source}: expected a JSON object with a "servers" key` }] };
  }
  const table = root.servers ?? root.mcpServers;
  if (table === undefined) return { servers: [], problems: [] };
  if (!isObject(table)) {
    return { servers: [], problems: [{ source, message: `${source}: "servers" must be an object of named servers` }] };
  }
  return parseServerTable(table, source, vars);
}

/** The same shape as a file's `servers` object (used for the `elicit.servers` setting). */
export function parseServerTable(table: Record<string, unknown>, source: string, vars: VariableContext): ParsedConfig {
  const result: ParsedConfig = { servers: [], problems: [] };
  for (const [name, entry] of Object.entries(table)) {
    try {
      result.servers.push({ name, source, transport: parseServer(entry, vars) });
    } catch (error) {
      result.problems.push({ source, server: name, message: `${source}: server "${name}": ${(error as Error).message}` });
    }
  }
  return result;
}

function parseServer(entry: unknown, vars: VariableContext): StdioServerConfig | HttpServerConfig {
  if (!isObject(entry)) throw new Error('must be an object');
  const type = entry.type ?? (entry.url !== undefined ? 'http' : entry.command !== undefined ? 'stdio' : undefined);
  if (type === 'stdio') {
    const command = stringField(entry, 'command', vars, true)!;
    if (command.trim() === '') throw new Error('"command" is empty');
    const config: StdioServerConfig = {
      type: 'stdio',
      command,
      args: stringList(entry.args, 'args', vars),
      env: stringMap(entry.env, 'env', vars),
    };
    const envFile = stringField(entry, 'envFile', vars, false);
    const cwd = stringField(entry, 'cwd', vars, false);
    if (envFile !== undefined) config.envFile = envFile;
    if (cwd !== undefined) config.cwd = cwd;
    return config;
  }
  if (type === 'http' || type === 'sse' || type === 'streamableHttp') {
    const url = stringField(entry, 'url', vars, true)!;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`"url" is not a valid URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`"url" must be http or https`);
    return { type: type === 'sse' ? 'sse' : 'http', url, headers: stringMap(entry.headers, 'headers', vars) };
  }
  if (type === undefined) throw new Error('needs a "command" (stdio) or a "url" (http)');
  throw new Error(`unknown type ${JSON.stringify(type)}; use "stdio", "http" or "sse"`);
}

function stringField(entry: Record<string, unknown>, key: string, vars: VariableContext, required: boolean): string | undefined {
  const value = entry[key];
  if (value === undefined) {
    if (required) throw new Error(`"${key}" is missing`);
    return undefined;
  }
  if (typeof value !== 'string') throw new Error(`"${key}" must be a string`);
  return substitute(value, vars);
}

function stringList(value: unknown, key: string, vars: VariableContext): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`"${key}" must be a list of strings`);
  return value.map((v) => substitute(v, vars));
}

function stringMap(value: unknown, key: string, vars: VariableContext): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new Error(`"${key}" must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else if (typeof v === 'string') out[k] = substitute(v, vars);
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeParseError(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/^./, (c) => c.toUpperCase());
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
