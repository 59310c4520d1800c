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
import {
  asWritten,
  checkHttpUrl,
  parseJsonObject,
  stringField,
  stringList,
  stringMap,
  type ParsedConfig,
  type ServerConfig,
} from './serverConfig';
import { entryFields, type ServerFields } from './serverFields';
import { errorText } from '../errors';

export interface PortableContext {
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
  return parsePortableRoot(read.root, source, context);
}

/** An already parsed file (or another tool's table put in this shape): `{ mcpServers }` or a flat map. */
export function parsePortableRoot(root: Record<string, unknown>, source: string, context: PortableContext): ParsedConfig {
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
      result.problems.push({ source, server: name, message: `${source}: server "${name}": ${errorText(error)}` });
    }
  }
  return result;
}

function portableServer(name: string, entry: unknown, source: string, context: PortableContext): ServerConfig {
  if (!isObject(entry)) throw new Error('must be an object');
  const type = entry.type ?? (entry.url !== undefined ? 'http' : entry.command !== undefined ? 'local' : undefined);
  let config: ServerConfig;
  if (type === 'local' || type === 'stdio') {
    const command = stringField(entry, 'command', asWritten, true)!;
    if (command.trim() === '') throw new Error('"command" is empty');
    const cwd = stringField(entry, 'cwd', asWritten, false) ?? context.defaultCwd;
    config = {
      name,
      source,
      transport: {
        type: 'stdio',
        command,
        args: stringList(entry.args, 'args', asWritten),
        env: stringMap(entry.env, 'env', asWritten),
        ...(cwd !== undefined ? { cwd } : {}),
      },
      ...portableFields(entry, STDIO_FIELDS, 'stdio'),
    };
  } else if (type === 'http' || type === 'sse') {
    const url = stringField(entry, 'url', asWritten, true)!;
    // With a variable in it, the URL is whole (and checked) only at launch.
    if (context.references === false || !ENV_REFERENCE.test(url)) checkHttpUrl(url);
    config = {
      name,
      source,
      transport: { type, url, headers: stringMap(entry.headers, 'headers', asWritten) },
      ...portableFields(entry, HTTP_FIELDS, type),
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
 * VS Code's fields (sandboxEnabled, dev, …) as in its own format (this one has
 * no "sandbox" rules: a sandboxed entry gets VS Code's defaults); Copilot CLI's
 * `tools` is not named when it allows every tool (`["*"]`), which is what Elicit offers.
 */
function portableFields(entry: Record<string, unknown>, read: string[], transport: 'stdio' | 'http' | 'sse'): ServerFields {
  const allTools = Array.isArray(entry.tools) && entry.tools.length === 1 && entry.tools[0] === '*';
  return entryFields(entry, allTools ? [...read, 'tools'] : read, transport);
}
