/**
 * Where MCP servers are configured, in the order VS Code ranks them (its
 * collections' sort order: a workspace folder's `.vscode/mcp.json` first, then
 * its `.mcp.json`, the workspace, the remote user file, the user profile's
 * file), followed by the places only Elicit or other tools read. The order
 * decides which of two servers of one name keeps the plain name: the later
 * one is numbered, "github (2)", and both are told with their source.
 */
import type { ServerConfig } from './serverConfig';

export type SourceKind =
  | 'folderMcpJson'
  | 'folderDotMcpJson'
  | 'workspaceMcp'
  | 'remoteUserMcpJson'
  | 'userMcpJson'
  | 'copilotConfig'
  | 'userSettingsMcp'
  | 'elicitSetting'
  | 'otherTool';

/** Lower first, as VS Code's McpCollectionSortOrder (WorkspaceFolder 0, Workspace 100, User 200, remote boost −50). */
export const SOURCE_ORDER: Readonly<Record<SourceKind, number>> = {
  folderMcpJson: 0,
  folderDotMcpJson: 1,
  workspaceMcp: 100,
  remoteUserMcpJson: 150,
  userMcpJson: 200,
  copilotConfig: 210,
  userSettingsMcp: 220,
  elicitSetting: 300,
  otherTool: 400,
};

/** The sources VS Code's own MCP support reads (elicit.mcpJsonServers says which of their servers Elicit connects). */
export function sharedWithVsCode(kind: SourceKind): boolean {
  // Other tools' files are read because the person turned them on in Elicit (elicit.discovery).
  return kind !== 'elicitSetting' && kind !== 'otherTool';
}

/** Configs with the kind of source they came from. */
export interface SourcedConfig {
  kind: SourceKind;
  config: ServerConfig;
  /** A source of the workspace rather than the person's own (a folder's files, the workspace's settings). */
  workspace?: boolean;
}

/**
 * The servers in VS Code's order, each with a name unique in the window: the
 * first of a name keeps it, later ones are numbered ("db (2)", skipping a number
 * some source uses as a name itself). A name used by several sources is told
 * with its source on every question (`askerName`).
 */
export function nameServers(sourced: readonly SourcedConfig[]): ServerConfig[] {
  const ordered = sourced
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => SOURCE_ORDER[a.kind] - SOURCE_ORDER[b.kind] || a.index - b.index);
  const written = new Set(ordered.map(({ config }) => config.name));
  const sharing = new Map<string, number>();
  for (const { config } of ordered) sharing.set(config.name, (sharing.get(config.name) ?? 0) + 1);
  const names = numbered(
    ordered.map(({ config }) => config.name),
    written,
  );
  return ordered.map(({ config, workspace }, i) => {
    const name = names[i]!;
    const shared = (sharing.get(config.name) ?? 0) > 1;
    return {
      ...config,
      name,
      ...(shared ? { askerName: `${name} from ${shortSource(config)}` } : {}),
      ...(name !== config.name ? { writtenName: config.name } : {}),
      ...(workspace ? { fromWorkspace: true as const } : {}),
    };
  });
}

/** Each name as given, the first of a name keeping it and later ones numbered past every name `written` holds. */
function numbered(wanted: readonly string[], written: ReadonlySet<string>): string[] {
  const taken = new Set<string>();
  return wanted.map((want) => {
    let name = want;
    if (taken.has(name)) {
      let count = 2;
      while (taken.has(`${want} (${count})`) || written.has(`${want} (${count})`)) count++;
      name = `${want} (${count})`;
    }
    taken.add(name);
    return name;
  });
}

/**
 * The names agents see the servers by (the gateway's tools, an agent session's servers): the person's own sources keep the names they wrote, and a workspace's server of the
 * same name is numbered, so a repository's `.mcp.json` cannot take "github" from the person's own
 * github and receive what an agent sends it. The window's names (`nameServers`) follow VS Code's
 * order instead. Returns agent name → the window's name.
 */
export function namesForAgents(configs: readonly ServerConfig[]): Map<string, string> {
  const ordered = configs
    .map((config, index) => ({ config, index }))
    .sort((a, b) => Number(!!a.config.fromWorkspace) - Number(!!b.config.fromWorkspace) || a.index - b.index);
  const written = new Set(configs.map((config) => config.writtenName ?? config.name));
  const names = numbered(
    ordered.map(({ config }) => config.writtenName ?? config.name),
    written,
  );
  return new Map(ordered.map(({ config }, i) => [names[i]!, config.name]));
}

/** A shared name's source, as a row or a list shows it beside the name; undefined when no other source uses the name. */
export function sharedSourceLabel(config: ServerConfig): string | undefined {
  return config.askerName ? shortSource(config) : undefined;
}

function shortSource(config: ServerConfig): string {
  return config.sourceLabel ?? config.source;
}
