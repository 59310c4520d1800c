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
    `It would go to ${oneLine(destination.target, 300)}.`,
    `${oneLine(destination.source, 200)} asks for it. Anyone who can edit that file, an agent with file access too, can point a reference at any server.`,
    '',
    'Elicit remembers your answer for this secret and this server (its config file and command, or its URL).',
  ].join('\n');
  const choice = await vscode.window.showWarningMessage(
    inertText(`Give the saved secret "${oneLine(name, 80)}" to the MCP server "${oneLine(destination.server, 80)}"?`),
    { modal: true, detail: inertText(detail) },
    'Allow',
    'Refuse',
  );
  return choice === 'Allow' ? true : choice === 'Refuse' ? false : undefined;
}
