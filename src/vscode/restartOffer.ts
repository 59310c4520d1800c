/**
 * A setting that changes what Elicit declares to servers (file fields, app
 * questions) counts for a server from its next start: the running ones may be
 * restarted now, on the person's word.
 */
import * as vscode from 'vscode';
import { inertText, oneLine } from '../core/display';
import type { McpServers } from './mcpServers';

export async function offerServerRestart(registry: Pick<McpServers, 'running' | 'restart'>, change: string): Promise<void> {
  const running = registry.running();
  if (running.length === 0) return;
  const restart = vscode.l10n.t('Restart Servers');
  const choice = await vscode.window.showInformationMessage(
    inertText(
      vscode.l10n.t(
        '{0} Running MCP servers learn it when they restart ({1}).',
        change,
        running.map((name) => oneLine(name, 40)).join(', '),
      ),
    ),
    restart,
  );
  if (choice === restart) await Promise.all(running.map((name) => registry.restart(name)));
}
