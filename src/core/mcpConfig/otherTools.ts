/**
 * MCP servers configured for other tools, read only when the person turns a
 * tool on (`elicit.discovery`), as VS Code's `chat.mcp.discovery.enabled` does:
 * Claude Desktop, Claude Code's `~/.claude.json`, Cursor (global and a folder's
 * `.cursor/mcp.json`), Windsurf, Codex CLI's `config.toml` and Gemini CLI's
 * `settings.json`. Where each keeps its file, and each format read into the
 * one server shape. Read only: Elicit never writes another tool's file.
 * (Claude Code's project `.mcp.json` is the portable file every window reads.)
 * A bundle of its own (esbuild.mjs), loaded only once a tool is turned on.
 */
import * as path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { isObject } from '../json';
import { parsePortableConfig, parsePortableRoot, type PortableContext } from './portableConfig';
import { parseJsonObject, type ConfigProblem, type ParsedConfig } from './serverConfig';
import type { OtherTool } from './otherToolNames';

export interface MachineFacts {
  home: string;
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** The workspace folders on disk, by path. */
  folders: readonly string[];
}

/** One file a tool keeps servers in. `folder`: the workspace folder it belongs to (a workspace source). */
export interface OtherToolFile {
  tool: OtherTool;
  file: string;
  folder?: string;
}

/** The files each tool keeps servers in, on this machine, as VS Code and the tools' own docs place them. */
export function otherToolFiles(tool: OtherTool, facts: MachineFacts): OtherToolFile[] {
  const { home, platform, env, folders } = facts;
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  switch (tool) {
    case 'claude-desktop': {
      const base =
        platform === 'darwin'
          ? join(home, 'Library', 'Application Support')
          : platform === 'win32'
            ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
            : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
      return [{ tool, file: join(base, 'Claude', 'claude_desktop_config.json') }];
    }
    case 'claude-code':
      return [{ tool, file: join(env.CLAUDE_CONFIG_DIR ?? home, '.claude.json') }];
    case 'cursor-global':
      return [{ tool, file: join(home, '.cursor', 'mcp.json') }];
    case 'cursor-workspace':
      return folders.map((folder) => ({ tool, file: join(folder, '.cursor', 'mcp.json'), folder }));
    case 'windsurf':
      return [{ tool, file: join(home, '.codeium', 'windsurf', 'mcp_config.json') }];
    case 'codex':
      return [{ tool, file: join(env.CODEX_HOME ?? join(home, '.codex'), 'config.toml') }];
    case 'gemini':
      return [
        { tool, file: join(home, '.gemini', 'settings.json') },
        ...folders.map((folder) => ({ tool, file: join(folder, '.gemini', 'settings.json'), folder })),
      ];
  }
}

/**
 * A tool's file, read into servers. `source`: how the file is named in
 * problems and labels. `folders`: for Claude Code, whose `~/.claude.json`
 * keeps a project's servers under the project's path.
 */
export function parseOtherTool(
  where: OtherToolFile,
  text: string,
  source: string,
  context: { env: Readonly<Record<string, string | undefined>>; folders: readonly string[] },
): ParsedConfig {
  const cwd = where.folder ? { defaultCwd: where.folder } : {};
  switch (where.tool) {
    case 'codex':
      return codexServers(text, source, context.env);
    case 'claude-code':
      return claudeCodeServers(text, source, context.folders);
    case 'windsurf':
    case 'gemini':
      return renamedUrls(text, source, cwd, where.tool);
    default:
      return parsePortableConfig(text, source, cwd);
  }
}

/** `~/.claude.json`: the user's servers (`mcpServers`), and each open folder's (`projects[path].mcpServers`). */
function claudeCodeServers(text: string, source: string, folders: readonly string[]): ParsedConfig {
  const root = jsonRoot(text, source);
  if ('problem' in root) return { servers: [], problems: [root.problem] };
  const tables: Array<{ servers: unknown; cwd?: string }> = [{ servers: root.value.mcpServers }];
  const projects = isObject(root.value.projects) ? root.value.projects : {};
  for (const folder of folders) {
    const project = projects[folder];
    if (isObject(project) && project.mcpServers !== undefined) tables.push({ servers: project.mcpServers, cwd: folder });
  }
  const result: ParsedConfig = { servers: [], problems: [] };
  for (const table of tables) {
    if (table.servers === undefined) continue;
    const parsed = parsePortableRoot({ mcpServers: table.servers }, source, table.cwd ? { defaultCwd: table.cwd } : {});
    result.servers.push(...parsed.servers);
    result.problems.push(...parsed.problems);
  }
  return result;
}

/**
 * Windsurf's `serverUrl` and Gemini CLI's `httpUrl` (Streamable HTTP) and `url`
 * (SSE) in the portable shape; their own extra fields are named as not supported.
 */
function renamedUrls(text: string, source: string, context: PortableContext, tool: OtherTool): ParsedConfig {
  const root = jsonRoot(text, source);
  if ('problem' in root) return { servers: [], problems: [root.problem] };
  const table = root.value.mcpServers;
  if (table === undefined) return { servers: [], problems: [] };
  if (!isObject(table))
    return { servers: [], problems: [{ source, message: `${source}: "mcpServers" must be an object of named servers` }] };
  const renamed: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(table)) {
    if (!isObject(entry) || entry.type !== undefined) {
      renamed[name] = entry;
      continue;
    }
    const { serverUrl, httpUrl, url, ...rest } = entry;
    if (tool === 'windsurf' && serverUrl !== undefined) renamed[name] = { ...rest, type: 'http', url: serverUrl };
    else if (tool === 'gemini' && httpUrl !== undefined) renamed[name] = { ...rest, type: 'http', url: httpUrl };
    else if (tool === 'gemini' && url !== undefined) renamed[name] = { ...rest, type: 'sse', url };
    else renamed[name] = entry;
  }
  return parsePortableRoot({ mcpServers: renamed }, source, context);
}

/**
 * Codex CLI's `[mcp_servers.NAME]` tables: `command`, `args`, `env`, `cwd` for a
 * process; `url`, `http_headers`, `bearer_token_env_var` and
 * `env_http_headers` (header → variable) for a URL. `enabled = false` is left
 * out, as Codex does. Values are not interpolated there.
 */
function codexServers(text: string, source: string, env: Readonly<Record<string, string | undefined>>): ParsedConfig {
  let root: unknown;
  try {
    root = parseToml(text);
  } catch (error) {
    const where = error as { line?: number; column?: number; message: string };
    const at = where.line !== undefined ? ` at line ${where.line}, column ${where.column ?? 1}` : '';
    return { servers: [], problems: [{ source, message: `${source}: ${where.message.split('\n')[0]}${at}` }] };
  }
  const table = isObject(root) ? root.mcp_servers : undefined;
  if (table === undefined) return { servers: [], problems: [] };
  if (!isObject(table))
    return { servers: [], problems: [{ source, message: `${source}: "mcp_servers" must be a table of named servers` }] };
  const entries: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(table)) {
    if (!isObject(entry)) {
      entries[name] = entry;
      continue;
    }
    if (entry.enabled === false) continue;
    const { http_headers, bearer_token_env_var, env_http_headers, enabled: _enabled, ...rest } = entry;
    if (rest.url === undefined) {
      entries[name] = { ...rest, type: 'stdio' };
      continue;
    }
    const headers: Record<string, unknown> = isObject(http_headers) ? { ...http_headers } : {};
    if (typeof bearer_token_env_var === 'string') headers.Authorization = `Bearer ${env[bearer_token_env_var] ?? ''}`;
    if (isObject(env_http_headers)) {
      for (const [header, variable] of Object.entries(env_http_headers)) {
        if (typeof variable === 'string' && env[variable] !== undefined) headers[header] = env[variable];
      }
    }
    entries[name] = { ...rest, type: 'http', headers };
  }
  return parsePortableRoot({ mcpServers: entries }, source, { references: false });
}

function jsonRoot(text: string, source: string): { value: Record<string, unknown> } | { problem: ConfigProblem } {
  const read = parseJsonObject(text, source);
  if ('root' in read) return { value: read.root };
  return read.problem ? { problem: read.problem } : { value: {} };
}
