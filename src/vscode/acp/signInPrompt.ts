/**
 * An agent that answers `session/new` with "authentication required" offers
 * ways to sign in (from `initialize`); the person picks one in a QuickPick,
 * queued with every other prompt. Each row says what happens next: the agent
 * signs in itself, a key is asked for, or a terminal opens.
 */
import * as vscode from 'vscode';
import type { AuthMethodView } from '../../acp/authMethods';
import type { Broker } from '../../core/broker/broker';
import { inertText, oneLine } from '../../core/display';
import { pickOnce } from '../pickOnce';

interface MethodItem extends vscode.QuickPickItem {
  method: AuthMethodView;
}

/** The chosen method, or undefined when the person closed the pick or the session went away. */
export function askSignIn(
  broker: Broker,
  agent: string,
  methods: AuthMethodView[],
  problem: string | undefined,
  signal: AbortSignal,
): Promise<AuthMethodView | undefined> {
  return broker.exclusive((turn) => showSignInPick(agent, methods, problem, turn), signal, undefined);
}

function showSignInPick(
  agent: string,
  methods: AuthMethodView[],
  problem: string | undefined,
  signal: AbortSignal,
): Promise<AuthMethodView | undefined> {
  const pick = vscode.window.createQuickPick<MethodItem>();
  pick.title = inertText(vscode.l10n.t('{0} asks you to sign in', oneLine(agent, 80)));
  pick.placeholder = problem
    ? inertText(vscode.l10n.t('⚠ {0} — choose again, or Escape to give up', oneLine(problem, 200)))
    : vscode.l10n.t('Choose how to sign in. Escape gives up.');
  pick.items = methods.map((method) => ({
    label: `$(${KIND_ICONS[method.kind]}) ${inertText(oneLine(method.name, 120))}`,
    description: inertText(kindWords(method)),
    detail: method.description ? inertText(oneLine(method.description, 300)) : undefined,
    method,
  }));
  pick.ignoreFocusOut = true;
  return pickOnce<MethodItem, AuthMethodView | undefined>(pick, signal, (item) => item.method, undefined);
}

const KIND_ICONS: Record<AuthMethodView['kind'], string> = { agent: 'sign-in', env_var: 'key', terminal: 'terminal' };

function kindWords(method: AuthMethodView): string {
  switch (method.kind) {
    case 'agent':
      return vscode.l10n.t('the agent signs in');
    case 'env_var':
      if (method.gateway !== undefined) return vscode.l10n.t('your gateway {0}, asks for its key', oneLine(method.gateway, 120));
      if (method.sentIn === 'authenticate') return vscode.l10n.t('asks for an API key');
      return method.vars.length > 0
        ? vscode.l10n.t('asks for {0}', method.vars.map((v) => v.name).join(', '))
        : vscode.l10n.t('the agent signs in');
    case 'terminal':
      return vscode.l10n.t('opens a terminal');
  }
}
