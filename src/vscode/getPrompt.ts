/**
 * Elicit: Get MCP Prompt — pick a server and a prompt, give its arguments (a
 * form, or suggestions from the server's completions), and read the messages
 * `prompts/get` returns in a read-only editor. Also callable as
 * `elicit.getPrompt(serverName, promptName, args)`.
 */
import * as vscode from 'vscode';
import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import { promptArguments } from '../mcp/argumentSchema';
import { getPrompt, listPrompts } from '../mcp/catalog';
import { isObject } from '../mcp/config';
import type { McpConnection } from '../mcp/connection';
import { formatPromptResult } from '../mcp/promptText';
import { collectArguments } from './argumentCollector';
import { listWithProgress, pickOffered, resolveServer } from './serverPicker';
import type { Services } from './services';
import { inertText } from '../core/display';

export async function getPromptCommand(services: Services, serverName?: unknown, promptName?: unknown, args?: unknown): Promise<void> {
  const server = await resolveServer(services.registry, 'Get MCP Prompt', serverName);
  if (!server) return;
  const prompts = await listWithProgress(server, services.log, () => listPrompts(server));
  if (!prompts) return;
  const prompt = typeof promptName === 'string' ? prompts.find((p) => p.name === promptName) : await pickOffered(server, prompts, { command: 'Get MCP Prompt', noun: 'prompt' });
  if (!prompt) {
    if (typeof promptName === 'string') void vscode.window.showErrorMessage(inertText(`Elicit: ${server.name} has no prompt "${promptName}".`));
    return;
  }
  const values = isStringRecord(args)
    ? args
    : await collectArguments(services.broker, {
        server,
        ref: { type: 'ref/prompt', name: prompt.name },
        args: promptArguments(prompt),
        subject: `prompt ${prompt.name}`,
        log: services.log,
      });
  if (!values) return;
  await getAndShow(services, server, prompt, values);
}

async function getAndShow(services: Services, server: McpConnection, prompt: Prompt, args: Record<string, string>): Promise<void> {
  const controller = new AbortController();
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: inertText(`Getting ${server.name} › ${prompt.name}`), cancellable: true },
      (_progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        return getPrompt(server, prompt.name, args, controller.signal);
      },
    );
    services.log.info(`${server.name} › prompt ${prompt.name}: ${result.messages.length} messages`);
    await services.results.show(`${server.name}-${prompt.name}`, formatPromptResult(server.name, prompt.name, args, result));
  } catch (error) {
    if (controller.signal.aborted) return;
    services.log.error(`${server.name} › prompt ${prompt.name}: ${(error as Error).message}`);
    void vscode.window.showErrorMessage(inertText(`Elicit: ${server.name} › ${prompt.name} failed: ${(error as Error).message}`));
  }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}
