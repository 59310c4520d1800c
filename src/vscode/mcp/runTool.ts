/**
 * Elicit: Run MCP Tool — pick a server and a tool, collect its arguments with
 * the same renderers as elicitations, run it with a cancellable progress
 * notification, and open the result in a read-only editor.
 */
import * as vscode from 'vscode';
import type { Tool } from '../../mcp/types';
import type { Broker } from '../../core/broker/broker';
import { ajvChecks } from '../../core/form/loadAjvChecks';
import { tryNormalize } from '../../core/form/normalize';
import { isObject } from '../../core/json';
import type { McpConnection } from '../../mcp/connection';
import { formatToolResult } from '../../mcp/resultText';
import { callAndShow } from './callAndShow';
import { taskStatusText } from './taskStatus';
import type { QuestionsOnScreen, ResultDocuments } from '../resultDocuments';
import { listWithProgress, pickOffered, resolveServer } from './serverPicker';
import type { ServerRegistry } from './serverRegistry';
import { inertText, oneLine } from '../../core/display';
import { serverOrigin } from '../../mcp/serverOrigin';
import { KEPT_OPEN } from '../keptOpen';

export interface RunToolDeps {
  registry: ServerRegistry;
  broker: Broker;
  results: ResultDocuments;
  questionsOnScreen: QuestionsOnScreen;
  log: vscode.LogOutputChannel;
}

/** Also callable as `elicit.runTool(serverName, toolName, args)` from keybindings and scripts. */
export async function runTool(deps: RunToolDeps, serverName?: unknown, toolName?: unknown, args?: unknown): Promise<void> {
  const server = await resolveServer(deps.registry, vscode.l10n.t('Run MCP Tool'), serverName);
  if (!server) return;
  const tools = await listWithProgress(server, deps.log, () => server.listTools());
  if (!tools) return;
  const tool = typeof toolName === 'string' ? tools.find((t) => t.name === toolName) : await pickTool(server, tools);
  if (!tool) {
    if (typeof toolName === 'string')
      void vscode.window.showErrorMessage(inertText(vscode.l10n.t('Elicit: {0} has no tool "{1}".', server.name, toolName)));
    return;
  }
  const toolArgs = isObject(args) ? args : await collectArguments(deps.broker, server, tool);
  if (!toolArgs) return;
  await runAndShow(deps, server, tool, toolArgs);
}

function pickTool(server: McpConnection, tools: Tool[]): Promise<Tool | undefined> {
  return pickOffered(tools, {
    title: vscode.l10n.t('Run MCP Tool · {0}', oneLine(server.name, 80)),
    none: vscode.l10n.t('Elicit: {0} offers no tools.', server.name),
    placeholder: vscode.l10n.t('Pick a tool'),
    titleOf: (tool) => tool.title ?? tool.annotations?.title,
  });
}

/** Arguments through the elicitation renderers when the schema fits a form; JSON otherwise. */
async function collectArguments(broker: Broker, server: McpConnection, tool: Tool): Promise<Record<string, unknown> | undefined> {
  const schema = tool.inputSchema as Record<string, unknown>;
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (!properties || Object.keys(properties).length === 0) return {};
  const normalized = tryNormalize(schema);
  if ('form' in normalized) {
    const result = await broker.ask({
      mode: 'form',
      // The server is who the answer goes to (its limit, its saved secrets); Elicit is who asks.
      asker: { kind: 'mcp', name: server.askerName, detail: `arguments for ${tool.name}`, origin: serverOrigin(server.config) },
      onBehalf: { title: vscode.l10n.t('Run MCP Tool · {0} · {1}', server.name, tool.name) },
      message: vscode.l10n.t('Arguments for {0}', tool.name),
      requestedSchema: schema,
    });
    return result.action === 'accept' ? (result.content ?? {}) : undefined;
  }
  const text = await vscode.window.showInputBox({
    title: inertText(vscode.l10n.t('Run MCP Tool · {0} · {1}', oneLine(server.name, 80), oneLine(tool.name, 80))),
    prompt: inertText(vscode.l10n.t('Arguments as a JSON object ({0})', oneLine(Object.keys(properties).join(', '), 300))),
    value: '{}',
    ...KEPT_OPEN,
    validateInput: (value) => {
      const { error } = ajvChecks().checkJsonArguments(schema, value);
      return error === undefined ? undefined : inertText(oneLine(error, 300));
    },
  });
  return text === undefined ? undefined : ajvChecks().checkJsonArguments(schema, text).value;
}

function runAndShow(deps: RunToolDeps, server: McpConnection, tool: Tool, args: Record<string, unknown>): Promise<void> {
  return callAndShow(deps, {
    progress: vscode.l10n.t('Running {0} › {1}', server.name, tool.name),
    server: server.name,
    what: `${server.name} › ${tool.name}`,
    // A tool the server runs as a task: its status under the progress's title.
    call: (signal, report) => server.callTool(tool.name, args, signal, (task) => report(vscode.l10n.t('Task {0}', taskStatusText(task)))),
    document: `${server.name}-${tool.name}`,
    format: (result) => formatToolResult(server.name, tool.name, result),
    logged: (result) => (result.isError ? 'returned an error' : 'done'),
  });
}
