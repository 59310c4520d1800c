/**
 * The variables of an agent's env_var sign-in, one InputBox each, masked for
 * secrets, titled "<agent> · <VARIABLE>" and queued with every other prompt.
 * When the agent refused the last value, its reason is shown in the box.
 * A key sent in `authenticate` (authMethods.ts sentIn) is titled with the
 * method's name and says where it goes; a gateway's key names the gateway URL.
 */
import * as vscode from 'vscode';
import type { EnvVarAuthMethod, EnvVarView } from '../../acp/authMethods';
import type { Broker } from '../../core/broker/broker';
import { inertText, oneLine } from '../../core/display';
import { arrivalHold } from '../../core/time/arrivalGuard';
import { arrivalNotice } from '../arrivalNotice';

/** The typed values by variable name, or undefined when the person closed a box. */
export function askVariables(
  broker: Broker,
  agent: string,
  method: EnvVarAuthMethod,
  reason: string | undefined,
  signal: AbortSignal,
): Promise<Record<string, string> | undefined> {
  return broker.exclusive(
    async (turn) => {
      const values: Record<string, string> = {};
      for (const variable of method.vars) {
        const value = await askOne(agent, method, variable, reason, turn);
        if (value === undefined) return undefined;
        if (value !== '') values[variable.name] = value;
      }
      return values;
    },
    signal,
    undefined,
  );
}

export function keyBoxTitle(agent: string, variable: string): string {
  return inertText(`${oneLine(agent, 80)} · ${variable}`);
}

function askOne(
  agent: string,
  method: EnvVarAuthMethod,
  variable: EnvVarView,
  reason: string | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  const inRequest = method.sentIn === 'authenticate';
  box.title = keyBoxTitle(agent, inRequest ? oneLine(method.name, 80) : variable.name);
  box.password = variable.secret;
  box.ignoreFocusOut = true;
  const what = variable.label ? `${oneLine(variable.label, 120)} (${variable.name})` : variable.name;
  box.prompt = inertText(
    method.gateway !== undefined
      ? vscode.l10n.t(
          "{0}: the key of your gateway {1} for {2}. Kept in VS Code's secret storage for this agent and this URL, and given to the agent only for requests to it.",
          oneLine(method.name, 120),
          oneLine(method.gateway, 200),
          oneLine(agent, 80),
        )
      : inRequest
        ? vscode.l10n.t(
            "{0}: the API key for {1}. Kept in VS Code's secret storage for this agent and sent to it only when it signs in.",
            oneLine(method.name, 120),
            oneLine(agent, 80),
          )
        : method.link
          ? vscode.l10n.t(
              "{0}: {1} for {2}. Kept in VS Code's secret storage for this agent and passed to it in its environment. Get one at {3}.",
              oneLine(method.name, 120),
              what,
              oneLine(agent, 80),
              method.link,
            )
          : vscode.l10n.t(
              "{0}: {1} for {2}. Kept in VS Code's secret storage for this agent and passed to it in its environment.",
              oneLine(method.name, 120),
              what,
              oneLine(agent, 80),
            ),
  );
  box.placeholder = variable.optional
    ? vscode.l10n.t('Optional: leave empty to skip')
    : inertText(vscode.l10n.t('Enter {0}', inRequest ? (variable.label ?? variable.name) : variable.name));
  if (reason) {
    box.validationMessage = {
      message: inertText(vscode.l10n.t('{0} refused the last value: {1}', oneLine(agent, 80), oneLine(reason, 300))),
      severity: vscode.InputBoxValidationSeverity.Warning,
    };
  }
  return new Promise<string | undefined>((resolve) => {
    let settled = false;
    const finish = (value: string | undefined): void => {
      if (settled) return;
      settled = true;
      hold.dispose();
      signal.removeEventListener('abort', onAbort);
      for (const d of disposables) d.dispose();
      box.dispose();
      resolve(value);
    };
    const onAbort = (): void => finish(undefined);
    // The agent asks on its own: an Enter or an Escape in the box's first moments was meant for something
    // else (an Escape hides it: it is shown again, with what was typed), and the box says it is ready in a moment.
    const hold = arrivalHold(arrivalNotice(box));
    const disposables = [
      box.onDidChangeValue(() => {
        if (reason) box.validationMessage = undefined; // the reason was about the old value
      }),
      box.onDidAccept(() => {
        if (hold.tooSoon()) return;
        const value = box.value.trim();
        if (value === '' && !variable.optional) {
          box.validationMessage = inertText(
            vscode.l10n.t(
              '{0} is needed to sign in this way; Escape chooses another way.',
              inRequest ? (variable.label ?? variable.name) : variable.name,
            ),
          );
          return;
        }
        finish(value);
      }),
      box.onDidHide(() => (hold.tooSoon() ? box.show() : finish(undefined))),
    ];
    if (signal.aborted) return finish(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    box.show();
  });
}
