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

/** The named server, or one the person picks; undefined (with a message when useful) otherwise. */
export async function resolveServer(registry: ServerRegistry, title: string, serverName?: unknown): Promise<McpConnection | undefined> {
  if (typeof serverName !== 'string') return pickServer(registry, title);
  const server = await registry.get(serverName);
  if (!server) void vscode.window.showErrorMessage(inertText(`Elicit: no MCP server named "${serverName}" is configured.`));
  return server;
}

export async function pickServer(registry: ServerRegistry, title: string): Promise<McpConnection | undefined> {
  const servers = await registry.servers();
  if (servers.length === 0) {
    if (registry.untrustedSources.length > 0) {
      const choice = await vscode.window.showWarningMessage(
        inertText(`Elicit does not start the MCP servers in ${registry.untrustedSources.join(', ')} because this workspace is not trusted.`),
        'Manage Workspace Trust',
      );
      if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
    } else if (registry.leftToVsCode.length > 0) {
      const choice = await vscode.window.showInformationMessage(
        inertText(`Elicit leaves ${registry.leftToVsCode.join(', ')} to VS Code's own MCP support (the elicit.mcpJsonServers setting).`),
        'Open Setting',
      );
      if (choice) await vscode.commands.executeCommand('workbench.action.openSettings', SETTING.mcpJsonServers);
    } else {
      const choice = await vscode.window.showInformationMessage(
        'Elicit: no MCP servers are configured. Add them to .vscode/mcp.json or the elicit.servers setting.',
        'Create .vscode/mcp.json',
      );
      if (choice) await vscode.commands.executeCommand('elicit.createMcpJson');
    }
    return undefined;
  }
  if (servers.length === 1) return servers[0];
  const picked = await vscode.window.showQuickPick(
    servers.map((server) => ({
      label: inertText(server.name),
      description: server.status === 'stopped' ? undefined : server.status,
      detail: server.error ? `$(error) ${inertText(oneLine(server.error, 200))}` : undefined,
      server,
    })),
    { title, placeHolder: 'Pick an MCP server' },
  );
  return picked?.server;
}

/** Runs `list` (which starts the server if needed) with a status bar indicator; shows a failure and returns undefined. */
export async function listWithProgress<T>(server: McpConnection, log: vscode.LogOutputChannel, list: () => Promise<T>): Promise<T | undefined> {
  try {
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: inertText(`Connecting to ${server.name}…`) }, list);
  } catch (error) {
    void vscode.window.showErrorMessage(inertText(`Elicit: ${(error as Error).message}`), 'Show Log').then((choice) => choice && log.show());
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
 * it when they differ); says so and returns undefined when there is none.
 */
export async function pickOffered<T extends Offered>(
  server: McpConnection,
  items: T[],
  options: { command: string; noun: 'tool' | 'prompt'; titleOf?: (item: T) => string | undefined },
): Promise<T | undefined> {
  if (items.length === 0) {
    void vscode.window.showInformationMessage(inertText(`Elicit: ${server.name} offers no ${options.noun}s.`));
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
    { title: inertText(`${options.command} · ${oneLine(server.name, 80)}`), placeHolder: `Pick a ${options.noun}`, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.item;
}
