/**
 * File fields (`elicit.experimental.fileFields`, draft SEP-2356/2631): which
 * askers' file questions are answered, what the person is told when one is
 * refused, and servers restarted on request when the setting changes (the
 * `fileInputs` capability is declared as a server starts).
 */
import * as vscode from 'vscode';
import type { ElicitRequest } from '../../core/request';
import { inertText, oneLine } from '../../core/display';
import type { Services } from '../services';
import { SETTING, settings } from '../settings';
import { offerServerRestart } from '../restartOffer';

/** Only an MCP server's question may hold a file field, and only with the setting on. */
export function acceptsFiles(request: ElicitRequest): boolean {
  return request.asker.kind === 'mcp' && settings.fileFields();
}

export function registerFileFields(context: vscode.ExtensionContext, services: Pick<Services, 'broker' | 'registry'>): void {
  const { broker, registry } = services;
  /** Askers told about already this session: a server that asks again is not a new notification each time. */
  const told = new Set<string>();
  context.subscriptions.push(
    broker.onDidRefuseFiles((request) => {
      if (request.asker.kind !== 'mcp' || settings.fileFields() || told.has(request.asker.name)) return;
      told.add(request.asker.name);
      void offerToTurnOn(request.asker.name);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTING.fileFields)) return;
      const state = settings.fileFields() ? vscode.l10n.t('File fields are now on.') : vscode.l10n.t('File fields are now off.');
      void offerServerRestart(registry, state);
    }),
  );
}

async function offerToTurnOn(server: string): Promise<void> {
  const turnOn = vscode.l10n.t('Turn On File Fields');
  const choice = await vscode.window.showInformationMessage(
    inertText(
      vscode.l10n.t(
        '{0} asked for a file, and file fields are off: the question was refused. File fields follow a draft of MCP and are experimental.',
        oneLine(server, 60),
      ),
    ),
    turnOn,
  );
  if (choice === turnOn) await vscode.workspace.getConfiguration().update(SETTING.fileFields, true, vscode.ConfigurationTarget.Global);
}
