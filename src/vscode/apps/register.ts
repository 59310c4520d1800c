/**
 * App questions (draft SEP-3118, `elicit.experimental.appQuestions`): servers
 * restarted on request when the setting changes (the `apps` capability is
 * declared as a server starts). The app's tab itself is the form panel's
 * (questions/appQuestions.ts).
 */
import * as vscode from 'vscode';
import type { McpServers } from '../mcpServers';
import { offerServerRestart } from '../restartOffer';
import { SETTING, settings } from '../settings';

export function registerAppQuestions(context: vscode.ExtensionContext, registry: Pick<McpServers, 'running' | 'restart'>): void {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTING.appQuestions)) return;
      const state = settings.appQuestions() ? vscode.l10n.t('App questions are now on.') : vscode.l10n.t('App questions are now off.');
      void offerServerRestart(registry, state);
    }),
  );
}
