/**
 * The question before a saved secret or a saved password input first goes to a
 * destination: a modal naming the value, the server, the config that asks for
 * it, where the value would go and the whole destination (command line, env,
 * cwd, envFile, URL, headers), or what changed since it was allowed there.
 * Every line is shown whole, the ones that change what runs (the command, cwd,
 * envFile, NODE_OPTIONS, LD_*, PATH, …) first: a preload cannot hide
 * behind a dozen harmless lines or 200 characters of flags. When the lines are
 * too many for a modal, all of them open read-only in the editor first, and the
 * modal names the ones that change what runs. A `command` input's args are
 * shown whole too, before where it would run, in the editor when
 * they are too long for the modal. Everything from the config is shown inert
 * (display.ts); references stay references and an envFile's values are never
 * shown (core/origin.ts).
 */
import * as vscode from 'vscode';
import { inertText, oneLine } from '../../core/display';
import { canonicalArgs, describeDestination, type DestinationLine } from '../../core/origin';
import type { SecretDestination } from '../../mcp/launch';
import type { AskGrant, GrantSubject } from '../../mcp/secretGrants';

/** What a modal shows well; past this the lines open in the editor. */
const MAX_MODAL_LINES = 30;
const MAX_MODAL_CHARS = 3_000;
/** A command input's args longer than this open in the editor, leaving the modal room for where it would run. */
const MAX_MODAL_ARGS_CHARS = 1_000;

/** Shows text read-only in the editor, before the modal (the result documents' plain-text tab). */
export type ShowWhole = (title: string, text: string) => Promise<void>;

export function secretGrantPrompt(showWhole: ShowWhole): AskGrant {
  return (subject, destination, changes) => askSecretGrant(subject, destination, changes, showWhole);
}

export async function askSecretGrant(
  subject: GrantSubject,
  destination: SecretDestination,
  changes: readonly DestinationLine[],
  showWhole?: ShowWhole,
): Promise<boolean | undefined> {
  const heading = changes.length > 0 ? vscode.l10n.t('Changed since you allowed it for this server:') : vscode.l10n.t('It would run as:');
  const lines = changes.length > 0 ? changes : describeDestination(destination.destination);
  const server = oneLine(destination.server, 80);
  const fits = lines.length <= MAX_MODAL_LINES && lines.reduce((sum, line) => sum + line.text.length + 1, 0) <= MAX_MODAL_CHARS;
  const args = subject.kind === 'command' ? commandArgs(subject) : undefined;
  const argsFit = args === undefined || args.text === undefined || args.text.length <= MAX_MODAL_ARGS_CHARS;
  const argsShown = args === undefined ? [] : [args.heading, ...(args.text === undefined ? [] : [args.text]), ''];
  let shown: string[];
  if ((fits && argsFit) || !showWhole) {
    shown = [...argsShown, heading, ...lines.map((line) => line.text)];
  } else {
    const title = vscode.l10n.t('Where a saved value would go ({0})', server);
    await showWhole(title, [...argsShown, heading, '', ...lines.map((line) => line.text)].join('\n'));
    const runs = [...new Set(lines.filter((line) => line.runs).map((line) => line.field))];
    const argsSaid = argsFit
      ? argsShown
      : [
          args.heading,
          vscode.l10n.t(
            'They are {0} characters, too long for this dialog: they are open whole in the editor. Read them before you answer.',
            args.text!.length,
          ),
          '',
        ];
    const linesSaid = fits
      ? [heading, ...lines.map((line) => line.text)]
      : [
          heading,
          vscode.l10n.t(
            '{0} lines, too many for this dialog: every one of them, whole, is open in the editor. Read them before you answer.',
            lines.length,
          ),
          ...(runs.length > 0 ? [vscode.l10n.t('Of them, these change what runs: {0}.', runs.join(', '))] : []),
        ];
    shown = [...argsSaid, ...linesSaid];
  }
  const detail = [
    vscode.l10n.t('It would go to {0}.', oneLine(destination.target, 300)),
    vscode.l10n.t(
      '{0} asks for it. Anyone who can edit that file, an agent with file access too, can point a reference at any server.',
      oneLine(destination.source, 200),
    ),
    '',
    ...shown,
    '',
    subject.kind === 'command'
      ? vscode.l10n.t(
          'Elicit remembers your answer for this command with these args and this exact destination; any change to them is asked about again.',
        )
      : vscode.l10n.t('Elicit remembers your answer for this value and this exact destination; any change to it is asked about again.'),
  ].join('\n');
  const allow = vscode.l10n.t('Allow');
  const refuse = vscode.l10n.t('Refuse');
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

/**
 * What a command input runs with: its args whole, as one canonical line
 * (core/origin.ts), since they decide what the command does. Never cut: a
 * harmless start can hide the part that sends a file away.
 */
function commandArgs(subject: Extract<GrantSubject, { kind: 'command' }>): { heading: string; text?: string } {
  const command = oneLine(subject.command, Infinity);
  if (subject.args === undefined) return { heading: vscode.l10n.t('The command {0} runs with no args.', command) };
  return { heading: vscode.l10n.t('The command {0} runs with these args:', command), text: canonicalArgs(subject.args) };
}
