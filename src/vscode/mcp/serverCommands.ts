/**
 * Start, Restart, Stop and Show Output for one MCP server (from the MCP
 * Servers view or the palette), and opening or creating the files servers are
 * configured in: `.vscode/mcp.json`, the portable `.mcp.json`, the user's
 * `mcp.json`.
 */
import * as vscode from 'vscode';
import { SETTING } from '../settings';
import type { ServerNode, ServersView } from './serversView';
import { pickServer } from './serverPicker';
import type { ServerRegistry } from './serverRegistry';
import { fileExists } from '../fileExists';
import { inertText } from '../../core/display';
import { errorText } from '../../core/errors';

const MCP_JSON_TEMPLATE = `{
  // MCP servers for this folder. Elicit starts them on first use and answers their questions.
  // \${workspaceFolder}, \${userHome}, \${env:NAME} and \${input:id} (see "inputs") are substituted.
  "servers": {
    // "my-server": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/server.mjs"] },
    // "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${input:token}" } }
  },
  "inputs": [
    // { "id": "token", "type": "promptString", "description": "API token", "password": true }
  ]
}
`;

// Plain JSON: Copilot CLI and Claude Code read .mcp.json too, and not every reader takes comments.
const DOT_MCP_JSON_TEMPLATE = `{
  "mcpServers": {
  }
}
`;

const USER_MCP_JSON_TEMPLATE = `{
  "servers": {
  },
  "inputs": []
}
`;

export type ServerArgument = string | ServerNode | undefined;

export function registerServerCommands(registry: ServerRegistry, view: ServersView, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const withServer =
    (title: () => string, action: (name: string) => Promise<void> | void) =>
    async (arg: ServerArgument): Promise<void> => {
      const name = typeof arg === 'string' ? arg : (arg?.name ?? (await pickServer(registry, title()))?.name);
      if (name === undefined) return;
      try {
        await action(name);
      } catch (error) {
        log.error(`${name}: ${errorText(error)}`);
        const choice = await vscode.window.showErrorMessage(
          inertText(vscode.l10n.t('Elicit: {0}', errorText(error))),
          vscode.l10n.t('Show Output'),
        );
        if (choice) registry.showOutput(name);
      }
    };
  return [
    vscode.commands.registerCommand(
      'elicit.startServer',
      withServer(
        () => vscode.l10n.t('Start MCP Server'),
        async (name) => {
          view.markStopped(name, false);
          await registry.start(name);
        },
      ),
    ),
    vscode.commands.registerCommand(
      'elicit.restartServer',
      withServer(
        () => vscode.l10n.t('Restart MCP Server'),
        async (name) => {
          view.markStopped(name, false);
          await registry.restart(name);
        },
      ),
    ),
    vscode.commands.registerCommand(
      'elicit.stopServer',
      withServer(
        () => vscode.l10n.t('Stop MCP Server'),
        async (name) => {
          view.markStopped(name, true);
          await registry.stop(name);
        },
      ),
    ),
    vscode.commands.registerCommand(
      'elicit.showServerOutput',
      withServer(
        () => vscode.l10n.t('Show MCP Server Output'),
        (name) => registry.showOutput(name),
      ),
    ),
    vscode.commands.registerCommand('elicit.refreshServers', async () => {
      await registry.reload();
      view.reload();
    }),
    vscode.commands.registerCommand('elicit.createMcpJson', createMcpJson),
    vscode.commands.registerCommand('elicit.createDotMcpJson', createDotMcpJson),
    vscode.commands.registerCommand('elicit.openUserMcpJson', async () => {
      const file = await registry.userConfigFile();
      if (!file) return;
      await openCreating(file, USER_MCP_JSON_TEMPLATE);
    }),
    vscode.commands.registerCommand('elicit.openServerConfig', async (source?: string) => {
      const file = source ? registry.configFile(source) : undefined;
      if (file) await vscode.window.showTextDocument(file);
      else await vscode.commands.executeCommand('workbench.action.openSettings', SETTING.servers);
    }),
  ];
}

/** Opens the folder's `.vscode/mcp.json`, creating it from a commented template when it does not exist. */
async function createMcpJson(): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    const openFolder = vscode.l10n.t('Open Folder');
    const openSettings = vscode.l10n.t('Open Settings');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Elicit reads MCP servers from .vscode/mcp.json in a workspace folder. Open a folder first, or use the elicit.servers setting.',
      ),
      openFolder,
      openSettings,
    );
    if (choice === openFolder) await vscode.commands.executeCommand('workbench.action.files.openFolder');
    if (choice === openSettings) await vscode.commands.executeCommand('workbench.action.openSettings', SETTING.servers);
    return;
  }
  const folder = await onlyOrPickedFolder(folders, vscode.l10n.t('Which folder gets the .vscode/mcp.json?'));
  if (folder) await openCreating(vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json'), MCP_JSON_TEMPLATE);
}

/** Opens the folder's portable `.mcp.json` (read by VS Code, Copilot CLI and Claude Code), creating it when it does not exist. */
async function createDotMcpJson(): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('A .mcp.json belongs at the root of a workspace folder. Open a folder first.'),
      vscode.l10n.t('Open Folder'),
    );
    if (choice) await vscode.commands.executeCommand('workbench.action.files.openFolder');
    return;
  }
  const folder = await onlyOrPickedFolder(folders, vscode.l10n.t('Which folder gets the .mcp.json?'));
  if (folder) await openCreating(vscode.Uri.joinPath(folder.uri, '.mcp.json'), DOT_MCP_JSON_TEMPLATE);
}

/** The one workspace folder, or the one the person picks when there are several. */
async function onlyOrPickedFolder(
  folders: readonly vscode.WorkspaceFolder[],
  placeHolder: string,
): Promise<vscode.WorkspaceFolder | undefined> {
  return folders.length === 1 ? folders[0] : vscode.window.showWorkspaceFolderPick({ placeHolder });
}

/** Opens a config file, writing `template` first when it does not exist (an existing file is never touched). */
async function openCreating(file: vscode.Uri, template: string): Promise<void> {
  if (!(await fileExists(file))) {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(template));
  }
  await vscode.window.showTextDocument(file);
}
