/**
 * Elicit: Read MCP Resource — pick a server and one of its resources or
 * resource templates (whose variables are asked like prompt arguments), and
 * read the contents in a read-only editor: text as is, binary described.
 * Also callable as `elicit.readResource(serverName, uri)`.
 */
import * as vscode from 'vscode';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { inertText, oneLine } from '../core/display';
import { expandTemplate, templateArguments } from '../mcp/argumentSchema';
import { listResources, listResourceTemplates, readResource } from '../mcp/catalog';
import type { McpConnection } from '../mcp/connection';
import { formatResourceResult } from '../mcp/resourceText';
import { collectArguments } from './argumentCollector';
import { listWithProgress, resolveServer } from './serverPicker';
import type { Services } from './services';

export type ResourceChoice = { resource: Resource } | { template: ResourceTemplate };

export async function readResourceCommand(services: Services, serverName?: unknown, uri?: unknown): Promise<void> {
  const server = await resolveServer(services.registry, 'Read MCP Resource', serverName);
  if (!server) return;
  if (typeof uri === 'string') return readAndShow(services, server, uri);
  const listed = await listWithProgress(server, services.log, () => Promise.all([listResources(server), listResourceTemplates(server)]));
  if (!listed) return;
  const choice = await pickResource(server, ...listed);
  if (choice) await readChoice(services, server, choice);
}

/** Reads a resource, or asks a template's variables first. */
export async function readChoice(services: Services, server: McpConnection, choice: ResourceChoice): Promise<void> {
  if ('resource' in choice) return readAndShow(services, server, choice.resource.uri);
  const template = choice.template;
  const args = templateArguments(template);
  const values = await collectArguments(services.broker, {
    server,
    ref: { type: 'ref/resource', uri: template.uriTemplate },
    args,
    subject: `resource ${template.name}`,
    log: services.log,
  });
  if (!values) return;
  await readAndShow(services, server, expandTemplate(template, values));
}

async function pickResource(server: McpConnection, resources: Resource[], templates: ResourceTemplate[]): Promise<ResourceChoice | undefined> {
  if (resources.length === 0 && templates.length === 0) {
    void vscode.window.showInformationMessage(inertText(`Elicit: ${server.name} offers no resources.`));
    return undefined;
  }
  type Item = vscode.QuickPickItem & { choice?: ResourceChoice };
  const items: Item[] = [
    ...(resources.length > 0 && templates.length > 0 ? [{ label: 'Resources', kind: vscode.QuickPickItemKind.Separator }] : []),
    ...resources.map((resource) => ({
      label: `$(file) ${inertText(oneLine(resource.title ?? resource.name, 120))}`,
      description: inertText(oneLine(resource.uri, 200)),
      detail: resource.description ? inertText(oneLine(resource.description, 300)) : undefined,
      choice: { resource },
    })),
    ...(templates.length > 0 ? [{ label: 'Templates', kind: vscode.QuickPickItemKind.Separator }] : []),
    ...templates.map((template) => ({
      label: `$(symbol-variable) ${inertText(oneLine(template.title ?? template.name, 120))}`,
      description: inertText(oneLine(template.uriTemplate, 200)),
      detail: template.description ? inertText(oneLine(template.description, 300)) : undefined,
      choice: { template },
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: inertText(`Read MCP Resource · ${oneLine(server.name, 80)}`),
    placeHolder: 'Pick a resource or a template',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.choice;
}

async function readAndShow(services: Services, server: McpConnection, uri: string): Promise<void> {
  const controller = new AbortController();
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: inertText(`Reading ${oneLine(uri, 120)} from ${server.name}`), cancellable: true },
      (_progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        return readResource(server, uri, controller.signal);
      },
    );
    services.log.info(`${server.name} › resource ${uri}: ${result.contents.length} contents`);
    await services.results.show(`${server.name}-${uri.split(/[/:]/).filter(Boolean).at(-1) ?? 'resource'}`, formatResourceResult(server.name, uri, result));
  } catch (error) {
    if (controller.signal.aborted) return;
    services.log.error(`${server.name} › resource ${uri}: ${(error as Error).message}`);
    void vscode.window.showErrorMessage(inertText(`Elicit: reading ${uri} from ${server.name} failed: ${(error as Error).message}`));
  }
}
