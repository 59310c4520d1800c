/**
 * An agent's terminal sign-in (ACP `terminal` auth method) in an integrated
 * terminal named for the agent: the agent's own command with the method's
 * arguments and environment, run directly (no shell), so the terminal's exit
 * status is the login's. The person types in it; a zero exit status is success.
 * Closing the agent panel closes the terminal.
 */
import * as vscode from 'vscode';
import type { TerminalLogin } from '../../acp/signIn';
import { terminalLoginText } from '../../acp/terminalLoginText';
import { inertText, oneLine } from '../../core/display';

export function terminalLoginName(agent: string): string {
  return inertText(vscode.l10n.t('{0} sign-in', oneLine(agent, 60)));
}

/**
 * Shows the command line and the method's variables first: the terminal opens only when the person agrees. Resolves with
 * the exit code, undefined when the terminal closed without one, `declined` when the person did not agree.
 */
export async function runTerminalLogin(
  login: TerminalLogin,
  defaultCwd: string,
  signal: AbortSignal,
): Promise<number | undefined | 'declined'> {
  if (signal.aborted) return undefined;
  const open = vscode.l10n.t('Open Terminal');
  const choice = await vscode.window.showWarningMessage(
    inertText(vscode.l10n.t('{0} wants to run its sign-in "{1}" in a terminal', oneLine(login.agent, 80), oneLine(login.method, 120))),
    { modal: true, detail: inertText(terminalLoginText({ ...login, cwd: login.cwd ?? defaultCwd })) },
    open,
  );
  if (choice !== open) return 'declined';
  if (signal.aborted) return undefined;
  const terminal = vscode.window.createTerminal({
    name: terminalLoginName(login.agent),
    shellPath: login.command,
    shellArgs: login.args,
    cwd: login.cwd ?? defaultCwd,
    env: login.env,
    iconPath: new vscode.ThemeIcon('account'),
    // A login is not restored into a reloaded window.
    isTransient: true,
  });
  terminal.show(false);
  return new Promise<number | undefined>((resolve) => {
    const finish = (code: number | undefined): void => {
      closed.dispose();
      signal.removeEventListener('abort', onAbort);
      resolve(code);
    };
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t === terminal) finish(t.exitStatus?.code);
    });
    const onAbort = (): void => {
      finish(undefined);
      terminal.dispose();
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
