/**
 * The question before a saved secret or a saved password input first goes to a
 * destination: a modal naming the value, the server, the config that asks for
 * it, where the value would go and the whole destination (command line, env,
 * cwd, envFile, URL, headers), or what changed since it was allowed there.
 * Everything from the config is shown inert (display.ts); references stay
 * references and an envFile's values are never shown (core/origin.ts).
 */
import * as vscode from 'vscode';
import { inertText, oneLine } from '../../core/display';
import { describeDestination } from '../../core/origin';
import type { SecretDestination } from '../../mcp/launch';
import type { GrantSubject } from '../../mcp/secretGrants';

/** A modal shows only so much: the rest is counted. */
const MAX_LINES = 12;

export async function askSecretGrant(
  subject: GrantSubject,
  destination: SecretDestination,
  changes: readonly string[],
): Promise<boolean | undefined> {
  const shown =
    changes.length > 0
      ? [vscode.l10n.t('Changed since you allowed it for this server:'), ...capped(changes)]
      : [vscode.l10n.t('It would run as:'), ...capped(describeDestination(destination.destination))];
  const detail = [
    vscode.l10n.t('It would go to {0}.', oneLine(destination.target, 300)),
    vscode.l10n.t(
      '{0} asks for it. Anyone who can edit that file, an agent with file access too, can point a reference at any server.',
      oneLine(destination.source, 200),
    ),
    '',
    ...shown,
    '',
    vscode.l10n.t('Elicit remembers your answer for this value and this exact destination; any change to it is asked about again.'),
  ].join('\n');
  const allow = vscode.l10n.t('Allow');
  const refuse = vscode.l10n.t('Refuse');
  const server = oneLine(destination.server, 80);
  const message =
    subject.kind === 'secret'
      ? vscode.l10n.t('Give the saved secret "{0}" to the MCP server "{1}"?', oneLine(subject.name, 80), server)
      : subject.kind === 'command'
        ? vscode.l10n.t(
            'Run the VS Code command "{0}" and give its result (the input "{1}") to the MCP server "{2}"?',
            oneLine(subject.command, 120),
            oneLine(subject.id, 80),
            server,
          )
        : vscode.l10n.t('Give the saved input "{0}" to the MCP server "{1}"?', oneLine(subject.id, 80), server);
  const choice = await vscode.window.showWarningMessage(inertText(message), { modal: true, detail: inertText(detail) }, allow, refuse);
  return choice === allow ? true : choice === refuse ? false : undefined;
}

function capped(lines: readonly string[]): string[] {
  if (lines.length <= MAX_LINES) return [...lines];
  return [...lines.slice(0, MAX_LINES), vscode.l10n.t('… and {0} more', lines.length - MAX_LINES)];
}
