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
  const taken = new Set<string>();
  return ordered.map(({ config }) => {
    let name = config.name;
    if (taken.has(name)) {
      let count = 2;
      while (taken.has(`${config.name} (${count})`) || written.has(`${config.name} (${count})`)) count++;
      name = `${config.name} (${count})`;
    }
    taken.add(name);
    const shared = (sharing.get(config.name) ?? 0) > 1;
    return { ...config, name, ...(shared ? { askerName: `${name} from ${shortSource(config)}` } : {}) };
  });
}

/** A shared name's source, as a row or a list shows it beside the name; undefined when no other source uses the name. */
export function sharedSourceLabel(config: ServerConfig): string | undefined {
  return config.askerName ? shortSource(config) : undefined;
}

function shortSource(config: ServerConfig): string {
  return config.sourceLabel ?? config.source;
}
