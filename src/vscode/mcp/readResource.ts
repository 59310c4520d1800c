/**
 * Elicit: Read MCP Resource — pick a server and one of its resources or
 * resource templates (whose variables are asked like prompt arguments), and
 * read the contents in a read-only editor: text as is, binary described.
 * Also callable as `elicit.readResource(serverName, uri)`.
 */
import * as vscode from 'vscode';
import type { Resource, ResourceTemplate } from '../../mcp/types';
import { inertText, oneLine } from '../../core/display';
import { expandTemplate, templateArguments } from '../../mcp/argumentSchema';
import { listResources, listResourceTemplates, readResource } from '../../mcp/catalog';
import type { McpConnection } from '../../mcp/connection';
import { formatResourceResult } from '../../mcp/resourceText';
import { collectArguments } from './argumentCollector';
import { listWithProgress, resolveServer } from './serverPicker';
import { callAndShow } from './callAndShow';
import type { McpServices } from './serverRegistry';
import { KEPT_OPEN } from '../keptOpen';

export type ResourceChoice = { resource: Resource } | { template: ResourceTemplate };

export async function readResourceCommand(services: McpServices, serverName?: unknown, uri?: unknown): Promise<void> {
  const server = await resolveServer(services.registry, vscode.l10n.t('Read MCP Resource'), serverName);
  if (!server) return;
  if (typeof uri === 'string') return readAndShow(services, server, uri);
  const listed = await listWithProgress(server, services.log, () => Promise.all([listResources(server), listResourceTemplates(server)]));
  if (!listed) return;
  const choice = await pickResource(server, ...listed);
  if (choice) await readChoice(services, server, choice);
}

/** Reads a resource, or asks a template's variables first. */
export async function readChoice(services: McpServices, server: McpConnection, choice: ResourceChoice): Promise<void> {
  if ('resource' in choice) return readAndShow(services, server, choice.resource.uri);
  const template = choice.template;
  const args = await templateArguments(template);
  const values = await collectArguments(services.broker, {
    server,
    ref: { type: 'ref/resource', uri: template.uriTemplate },
    args,
    subject: `resource ${template.name}`,
    // "resource NAME" cut to 80 characters, as the title always showed it.
    title: vscode.l10n.t('Read MCP Resource · {0} · resource {1}', oneLine(server.name, 80), oneLine(template.name, 71)),
    message: vscode.l10n.t('Arguments for resource {0}', template.name),
    log: services.log,
  });
  if (!values) return;
  await readAndShow(services, server, await expandTemplate(template, values));
}

async function pickResource(
  server: McpConnection,
  resources: Resource[],
  templates: ResourceTemplate[],
): Promise<ResourceChoice | undefined> {
  if (resources.length === 0 && templates.length === 0) {
    void vscode.window.showInformationMessage(inertText(vscode.l10n.t('Elicit: {0} offers no resources.', server.name)));
    return undefined;
  }
  type Item = vscode.QuickPickItem & { choice?: ResourceChoice };
  const items: Item[] = [
    ...(resources.length > 0 && templates.length > 0
      ? [{ label: vscode.l10n.t('Resources'), kind: vscode.QuickPickItemKind.Separator }]
      : []),
    ...resources.map((resource) => ({
      label: `$(file) ${inertText(oneLine(resource.title ?? resource.name, 120))}`,
      description: inertText(oneLine(resource.uri, 200)),
      detail: resource.description ? inertText(oneLine(resource.description, 300)) : undefined,
      choice: { resource },
    })),
    ...(templates.length > 0 ? [{ label: vscode.l10n.t('Templates'), kind: vscode.QuickPickItemKind.Separator }] : []),
    ...templates.map((template) => ({
      label: `$(symbol-variable) ${inertText(oneLine(template.title ?? template.name, 120))}`,
      description: inertText(oneLine(template.uriTemplate, 200)),
      detail: template.description ? inertText(oneLine(template.description, 300)) : undefined,
      choice: { template },
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: inertText(vscode.l10n.t('Read MCP Resource · {0}', oneLine(server.name, 80))),
    placeHolder: vscode.l10n.t('Pick a resource or a template'),
    matchOnDescription: true,
    matchOnDetail: true,
    ...KEPT_OPEN,
  });
  return picked?.choice;
}

function readAndShow(services: McpServices, server: McpConnection, uri: string): Promise<void> {
  return callAndShow(services, {
    progress: vscode.l10n.t('Reading {0} from {1}', oneLine(uri, 120), server.name),
    server: server.name,
    what: `${server.name} › resource ${uri}`,
    call: (signal) => readResource(server, uri, signal),
    document: resourceDocument(server.name, uri),
    format: (result) => formatResourceResult(server.name, uri, result),
    logged: (result) => `${result.contents.length} contents`,
  });
}

/** The editor title of a resource: the server and the last part of the URI. */
export function resourceDocument(server: string, uri: string): string {
  return `${server}-${uri.split(/[/:]/).filter(Boolean).at(-1) ?? 'resource'}`;
}
