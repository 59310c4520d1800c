/**
 * The MCP client's VS Code side: Run MCP Tool, the MCP Servers view and its
 * server commands, Get MCP Prompt, Read MCP Resource, `${input:…}` values
 * asked through Elicit's own renderers, and OAuth with Sign Out.
 */
import * as vscode from 'vscode';
import { ConfigInputs } from './configInputs';
import { registerOAuth } from './oauth';
import { getPromptCommand } from './getPrompt';
import { checkOffStep } from '../walkthroughProgress';
import { readChoice, readResourceCommand } from './readResource';
import { runTool } from './runTool';
import { registerServerCommands } from './serverCommands';
import { ServersView, type PromptNode, type ResourceNode, type ToolNode } from './serversView';
import type { McpServices } from './serverRegistry';
import { findOtherToolServers } from './sources/otherToolsCommand';

export function registerMcp(context: vscode.ExtensionContext, services: McpServices): void {
  const inputs = new ConfigInputs(services.broker, services.vault, services.grants);
  services.registry.setInputResolver((config) => inputs.resolve(config));
  const view = new ServersView(services.registry);
  context.subscriptions.push(
    vscode.commands.registerCommand('elicit.runTool', (server?: unknown, tool?: unknown, args?: unknown) => {
      checkOffStep('runTool');
      return runTool(services, server, tool, args);
    }),
    view,
    ...registerServerCommands(services.registry, view, services.log),
    vscode.commands.registerCommand('elicit.findOtherToolServers', () => findOtherToolServers(services.registry.sourceLocations)),
    vscode.commands.registerCommand('elicit.getPrompt', (server?: unknown, prompt?: unknown, args?: unknown) =>
      getPromptCommand(services, server, prompt, args),
    ),
    vscode.commands.registerCommand('elicit.readResource', (server?: unknown, uri?: unknown) => readResourceCommand(services, server, uri)),
    // Tree items pass themselves to their commands.
    vscode.commands.registerCommand('elicit.view.runTool', (node: ToolNode) => {
      checkOffStep('runTool');
      return runTool(services, node.server, node.tool.name);
    }),
    vscode.commands.registerCommand('elicit.view.getPrompt', (node: PromptNode) =>
      getPromptCommand(services, node.server, node.prompt.name),
    ),
    vscode.commands.registerCommand('elicit.view.readResource', async (node: ResourceNode) => {
      const server = await services.registry.get(node.server);
      if (!server) return;
      await readChoice(services, server, node.kind === 'resource' ? { resource: node.resource } : { template: node.template });
    }),
  );
  registerOAuth(context, services);
}
