/**
 * The portable MCP format that VS Code (since 1.140), Copilot CLI and Claude
 * Code share: a workspace's `.mcp.json` and Copilot CLI's
 * `$COPILOT_HOME/mcp-config.json`. Servers sit under `mcpServers` (a flat map
 * is read too, as VS Code does); `type` is `local` or `stdio` for a process,
 * `http` or `sse` for a URL. Variables are environment references only —
 * `${VAR}` and `${VAR:-default}` in `command`, `args`, `env`, `url` and
 * `headers`, filled in when the server starts (envExpansion.ts, launch.ts), so
 * a token from the environment is never part of the config Elicit keeps or
 * shows — and there are no `inputs`: an `${input:…}`
 * here is a problem naming the file to use instead. Copilot CLI's own fields
 * (`tools`, `timeout`, …) are named as not used, as VS Code ignores them too.
 */
import { isObject } from '../json';
import { ENV_REFERENCE } from './envExpansion';
import { checkHttpUrl, emptySandbox, parseJsonObject, type ParsedConfig, type ServerConfig } from './serverConfig';
import { entryFields } from './serverFields';

export interface PortableContext {
  /** Kept for callers that read other formats; references are filled in at launch, not here. */
  env?: Readonly<Record<string, string | undefined>>;
  /** false: `${VAR}` is text, as in a format without variables (Codex CLI's). */
  references?: boolean;
  /** The folder a process starts in when the entry names no `cwd` (VS Code: the workspace folder of a `.mcp.json`). */
  defaultCwd?: string;
}

const STDIO_FIELDS = ['type', 'command', 'args', 'env', 'cwd'];
const HTTP_FIELDS = ['type', 'url', 'headers'];

export function parsePortableConfig(text: string, source: string, context: PortableContext): ParsedConfig {
  const read = parseJsonObject(text, source);
  if ('problem' in read) return { servers: [], problems: read.problem ? [read.problem] : [] };
  const root = read.root;
  const wrapped = Object.hasOwn(root, 'mcpServers');
  const table = wrapped ? root.mcpServers : root;
  if (!isObject(table)) {
    return { servers: [], problems: [{ source, message: `${source}: "mcpServers" must be an object of named servers` }] };
  }
  const result: ParsedConfig = { servers: [], problems: [] };
  if (root.inputs !== undefined) {
    result.problems.push({
      source,
      message: `${source}: "inputs" are not read in this file; use .vscode/mcp.json for servers that need them`,
    });
  }
  for (const [name, entry] of Object.entries(table)) {
    if (!wrapped && name === 'inputs') continue;
    try {
      result.servers.push(portableServer(name, entry, source, context));
    } catch (error) {
      result.problems.push({ source, server: name, message: `${source}: server "${name}": ${(error as Error).message}` });
    }
  }
  return result;
}

function portableServer(name: string, entry: unknown, source: string, context: PortableContext): ServerConfig {
  if (!isObject(entry)) throw new Error('must be an object');
  const type = entry.type ?? (entry.url !== undefined ? 'http' : entry.command !== undefined ? 'local' : undefined);
  let config: ServerConfig;
  if (type === 'local' || type === 'stdio') {
    const command = text(entry, 'command', true)!;
    if (command.trim() === '') throw new Error('"command" is empty');
    const cwd = text(entry, 'cwd', false) ?? context.defaultCwd;
    config = {
      name,
      source,
      transport: {
        type: 'stdio',
        command,
        args: list(entry.args, 'args'),
        env: map(entry.env, 'env'),
        ...(cwd !== undefined ? { cwd } : {}),
      },
      ...portableFields(entry, STDIO_FIELDS),
    };
  } else if (type === 'http' || type === 'sse') {
    const url = text(entry, 'url', true)!;
    // With a variable in it, the URL is whole (and checked) only at launch.
    if (context.references === false || !ENV_REFERENCE.test(url)) checkHttpUrl(url);
    config = {
      name,
      source,
      transport: { type, url, headers: map(entry.headers, 'headers') },
      ...portableFields(entry, HTTP_FIELDS),
    };
  } else if (type === undefined) {
    throw new Error('needs a "command" (local) or a "url" (http)');
  } else {
    throw new Error(`unknown type ${JSON.stringify(type)}; use "local", "stdio", "http" or "sse"`);
  }
  const written = JSON.stringify(config.transport);
  if (written.includes('${input:')) throw new Error('uses ${input:…}, which this file does not support; use .vscode/mcp.json for it');
  return context.references !== false && ENV_REFERENCE.test(written) ? { ...config, environmentReferences: true } : config;
}

/**
 * VS Code's fields (sandboxEnabled, dev, …) as in its own format; Copilot CLI's
 * `tools` is not named when it allows every tool (`["*"]`), which is what Elicit offers.
 */
function portableFields(entry: Record<string, unknown>, read: string[]): Omit<ServerConfig, 'name' | 'source' | 'transport'> {
  const allTools = Array.isArray(entry.tools) && entry.tools.length === 1 && entry.tools[0] === '*';
  const { sandboxed, ...fields } = entryFields(entry, allTools ? [...read, 'tools'] : read);
  // This format has no "sandbox" rules: a sandboxed entry gets VS Code's defaults.
  return sandboxed && read === STDIO_FIELDS ? { ...fields, sandbox: emptySandbox() } : fields;
}

function text(entry: Record<string, unknown>, key: string, required: boolean): string | undefined {
  const value = entry[key];
  if (value === undefined) {
    if (required) throw new Error(`"${key}" is missing`);
    return undefined;
  }
  if (typeof value !== 'string') throw new Error(`"${key}" must be a string`);
  return value;
}

function list(value: unknown, key: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`"${key}" must be a list of strings`);
  return value;
}

function map(value: unknown, key: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new Error(`"${key}" must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else if (typeof v === 'string') out[k] = v;
    else if (v !== null) throw new Error(`"${key}.${k}" must be a string`);
  }
  return out;
}
