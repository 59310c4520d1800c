/**
 * Elicit's entry point. Activation only wires things up: servers start when
 * first used, the configuration is read when first needed.
 */
import * as vscode from 'vscode';
import { Broker } from './core/broker';
import type { PresentationSetting } from './core/presentation';
import { FormPanelRenderer } from './vscode/formPanel';
import { QuickInputRenderer } from './vscode/quickInputRenderer';
import { RendererRouter } from './vscode/renderer';
import { ResultDocuments } from './vscode/resultDocuments';
import { runTool } from './vscode/runTool';
import { ServerRegistry } from './vscode/serverRegistry';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Elicit', { log: true });
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('elicit');
  const broker = new Broker(new RendererRouter(new QuickInputRenderer(), new FormPanelRenderer(context.extensionUri)), {
    timeoutMs: () => Math.max(10, settings().get<number>('timeoutSeconds', 600)) * 1000,
    maxPendingPerAsker: () => Math.max(1, settings().get<number>('maxPendingPerAsker', 3)),
    presentation: () => settings().get<PresentationSetting>('presentation', 'auto'),
  });
  const registry = new ServerRegistry((request) => broker.ask(request), log);
  const results = new ResultDocuments();
  const deps = { registry, broker, results, log };

  context.subscriptions.push(
    log,
    registry,
    results,
    vscode.commands.registerCommand('elicit.runTool', (server?: unknown, tool?: unknown, args?: unknown) =>
      runTool(deps, server, tool, args),
    ),
    vscode.commands.registerCommand('elicit.showLog', () => log.show()),
  );
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions, which stops every server.
}
