/**
 * Elicit: Get MCP Prompt — pick a server and a prompt, give its arguments (a
 * form, or suggestions from the server's completions), and read the messages
 * `prompts/get` returns in a read-only editor. Also callable as
 * `elicit.getPrompt(serverName, promptName, args)`.
 */
import * as vscode from 'vscode';
import type { Prompt } from '../../mcp/types';
import { promptArguments } from '../../mcp/argumentSchema';
import { getPrompt, listPrompts } from '../../mcp/catalog';
import { isObject } from '../../core/json';
import type { McpConnection } from '../../mcp/connection';
import { formatPromptResult } from '../../mcp/promptText';
import { collectArguments } from './argumentCollector';
import { listWithProgress, pickOffered, resolveServer } from './serverPicker';
import { callAndShow } from './callAndShow';
import type { McpServices } from './serverRegistry';
import { inertText, oneLine } from '../../core/display';

export async function getPromptCommand(services: McpServices, serverName?: unknown, promptName?: unknown, args?: unknown): Promise<void> {
  const server = await resolveServer(services.registry, vscode.l10n.t('Get MCP Prompt'), serverName);
  if (!server) return;
  const prompts = await listWithProgress(server, services.log, () => listPrompts(server));
  if (!prompts) return;
  const prompt =
    typeof promptName === 'string'
      ? prompts.find((p) => p.name === promptName)
      : await pickOffered(prompts, {
          title: vscode.l10n.t('Get MCP Prompt · {0}', oneLine(server.name, 80)),
          none: vscode.l10n.t('Elicit: {0} offers no prompts.', server.name),
          placeholder: vscode.l10n.t('Pick a prompt'),
        });
  if (!prompt) {
    if (typeof promptName === 'string')
      void vscode.window.showErrorMessage(inertText(vscode.l10n.t('Elicit: {0} has no prompt "{1}".', server.name, promptName)));
    return;
  }
  const values = isStringRecord(args)
    ? args
    : await collectArguments(services.broker, {
        server,
        ref: { type: 'ref/prompt', name: prompt.name },
        args: promptArguments(prompt),
        subject: `prompt ${prompt.name}`,
        // "prompt NAME" cut to 80 characters, as the title always showed it.
        title: vscode.l10n.t('Get MCP Prompt · {0} · prompt {1}', oneLine(server.name, 80), oneLine(prompt.name, 73)),
        message: vscode.l10n.t('Arguments for prompt {0}', prompt.name),
        log: services.log,
      });
  if (!values) return;
  await getAndShow(services, server, prompt, values);
}

function getAndShow(services: McpServices, server: McpConnection, prompt: Prompt, args: Record<string, string>): Promise<void> {
  return callAndShow(services, {
    progress: vscode.l10n.t('Getting {0} › {1}', server.name, prompt.name),
    server: server.name,
    what: `${server.name} › prompt ${prompt.name}`,
    call: (signal) => getPrompt(server, prompt.name, args, signal),
    document: `${server.name}-${prompt.name}`,
    format: (result) => formatPromptResult(server.name, prompt.name, args, result),
    logged: (result) => `${result.messages.length} messages`,
  });
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}
