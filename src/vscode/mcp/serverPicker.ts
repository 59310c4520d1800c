/**
 * Picking a configured MCP server (or explaining why there is none), listing
 * what it offers with a "Connecting…" indicator, and picking one of its tools
 * or prompts — shared by Run Tool, Get Prompt and Read Resource.
 */
import * as vscode from 'vscode';
import { SETTING } from '../settings';
import { inertText, oneLine } from '../../core/display';
import type { McpConnection } from '../../mcp/connection';
import type { ServerRegistry } from './serverRegistry';
import { sharedSourceLabel } from '../../core/mcpConfig/configSources';
import { errorText } from '../../core/errors';
import { KEPT_OPEN } from '../keptOpen';

/** The named server, or one the person picks; undefined (with a message when useful) otherwise. */
export async function resolveServer(registry: ServerRegistry, title: string, serverName?: unknown): Promise<McpConnection | undefined> {
  if (typeof serverName !== 'string') return pickServer(registry, title);
  const server = await registry.get(serverName);
  if (!server)
    void vscode.window.showErrorMessage(inertText(vscode.l10n.t('Elicit: no MCP server named "{0}" is configured.', serverName)));
  return server;
}

export async function pickServer(registry: ServerRegistry, title: string): Promise<McpConnection | undefined> {
  const servers = await registry.servers();
  if (servers.length === 0) {
    if (registry.untrustedSources.length > 0) {
      const choice = await vscode.window.showWarningMessage(
        inertText(
          vscode.l10n.t(
            'Elicit does not start the MCP servers in {0} because this workspace is not trusted.',
            registry.untrustedSources.join(', '),
          ),
        ),
        vscode.l10n.t('Manage Workspace Trust'),
      );
      if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
    } else if (registry.leftToVsCode.length > 0) {
      const choice = await vscode.window.showInformationMessage(
        inertText(
          vscode.l10n.t(
            "Elicit leaves {0} to VS Code's own MCP support (the elicit.mcpJsonServers setting).",
            registry.leftToVsCode.join(', '),
          ),
        ),
        vscode.l10n.t('Open Setting'),
      );
      if (choice) await vscode.commands.executeCommand('workbench.action.openSettings', SETTING.mcpJsonServers);
    } else {
      const openUser = vscode.l10n.t('Open User mcp.json');
      const createDot = vscode.l10n.t('Create .mcp.json');
      const looked = registry.sourcesRead.length > 0 ? registry.sourcesRead.join(', ') : vscode.l10n.t('none of them exists yet');
      const choice = await vscode.window.showInformationMessage(
        inertText(
          vscode.l10n.t(
            "Elicit found no MCP servers. It reads your user mcp.json, each folder's .vscode/mcp.json and .mcp.json, Copilot CLI's ~/.copilot/mcp-config.json and the elicit.servers setting (read: {0}).",
            looked,
          ),
        ),
        openUser,
        ...((vscode.workspace.workspaceFolders?.length ?? 0) > 0 ? [createDot] : []),
      );
      if (choice === openUser) await vscode.commands.executeCommand('elicit.openUserMcpJson');
      if (choice === createDot) await vscode.commands.executeCommand('elicit.createDotMcpJson');
    }
    return undefined;
  }
  if (servers.length === 1) return servers[0];
  const picked = await vscode.window.showQuickPick(
    servers.map((server) => ({
      label: inertText(server.name),
      // A name several sources use is told with its source, so the person picks the one they mean.
      description: inertText(pickDescription(server)) || undefined,
      detail: server.error ? `$(error) ${inertText(oneLine(server.error, 200))}` : undefined,
      server,
    })),
    { title: inertText(title), placeHolder: vscode.l10n.t('Pick an MCP server'), ...KEPT_OPEN },
  );
  return picked?.server;
}

/** Its status when it runs, and its source when several sources use its name: "running · User mcp.json". */
function pickDescription(server: McpConnection): string {
  const status = server.status === 'stopped' ? undefined : statusWord(server.status);
  const source = sharedSourceLabel(server.config);
  return [status, source].filter((part) => part !== undefined).join(' · ');
}

/** A server's status as the person reads it. */
export function statusWord(status: McpConnection['status']): string {
  switch (status) {
    case 'starting':
      return vscode.l10n.t('starting');
    case 'running':
      return vscode.l10n.t('running');
    case 'error':
      return vscode.l10n.t('error');
    case 'stopped':
      return vscode.l10n.t('stopped');
  }
}

/** Runs `list` (which starts the server if needed) with a status bar indicator; shows a failure and returns undefined. */
export async function listWithProgress<T>(
  server: McpConnection,
  log: vscode.LogOutputChannel,
  list: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: inertText(vscode.l10n.t('Connecting to {0}…', server.name)) },
      list,
    );
  } catch (error) {
    void vscode.window
      .showErrorMessage(inertText(vscode.l10n.t('Elicit: {0}', errorText(error))), vscode.l10n.t('Show Log'))
      .then((choice) => choice && log.show());
    return undefined;
  }
}

/** A tool or a prompt: what a server offers by name. */
interface Offered {
  name: string;
  title?: string;
  description?: string;
}

/**
 * One of a server's tools or prompts, picked by its title (with the name beside
 * it when they differ); says so (`none`) and returns undefined when there is none.
 */
export async function pickOffered<T extends Offered>(
  items: T[],
  /** `title`: "Run MCP Tool · songs"; `none`: the message when the server offers nothing of the kind. */
  options: { title: string; none: string; placeholder: string; titleOf?: (item: T) => string | undefined },
): Promise<T | undefined> {
  if (items.length === 0) {
    void vscode.window.showInformationMessage(inertText(options.none));
    return undefined;
  }
  const titleOf = options.titleOf ?? ((item: T) => item.title);
  const picked = await vscode.window.showQuickPick(
    items.map((item) => {
      const title = titleOf(item);
      return {
        label: inertText(oneLine(title ?? item.name, 120)),
        description: title ? inertText(oneLine(item.name, 80)) : undefined,
        detail: item.description ? inertText(oneLine(item.description, 300)) : undefined,
        item,
      };
    }),
    {
      title: inertText(options.title),
      placeHolder: inertText(options.placeholder),
      matchOnDescription: true,
      matchOnDetail: true,
      ...KEPT_OPEN,
    },
  );
  return picked?.item;
}
