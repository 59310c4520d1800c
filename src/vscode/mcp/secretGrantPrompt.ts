/**
 * The question before a saved secret first goes to a server: a modal naming
 * the secret, the server, the config that asks for it and where the value
 * would go. Everything from the config is shown inert (display.ts).
 */
import * as vscode from 'vscode';
import { inertText, oneLine } from '../../core/display';
import type { SecretDestination } from '../../mcp/launch';

export async function askSecretGrant(name: string, destination: SecretDestination): Promise<boolean | undefined> {
  const detail = [
    vscode.l10n.t('It would go to {0}.', oneLine(destination.target, 300)),
    vscode.l10n.t(
      '{0} asks for it. Anyone who can edit that file, an agent with file access too, can point a reference at any server.',
      oneLine(destination.source, 200),
    ),
    '',
    vscode.l10n.t('Elicit remembers your answer for this secret and this server (its config file and command, or its URL).'),
  ].join('\n');
  const allow = vscode.l10n.t('Allow');
  const refuse = vscode.l10n.t('Refuse');
  const choice = await vscode.window.showWarningMessage(
    inertText(vscode.l10n.t('Give the saved secret "{0}" to the MCP server "{1}"?', oneLine(name, 80), oneLine(destination.server, 80))),
    { modal: true, detail: inertText(detail) },
    allow,
    refuse,
  );
  return choice === allow ? true : choice === refuse ? false : undefined;
}
