/**
 * Elicit: Manage Saved Secrets — lists saved secret names (never values) and
 * forgets the chosen ones: secret answers, password inputs of mcp.json files,
 * and the keys typed for agents' sign-in.
 */
import * as vscode from 'vscode';
import { inertText } from '../../core/display';
import type { SecretGrants } from '../../mcp/secretGrants';
import type { SavedAgentKey, SavedAgentKeys } from '../savedAgentKeys';
import type { SavedInput, SavedSecret } from '../savedSecrets';
import type { SecretVault } from './secretVault';
import { KEPT_OPEN } from '../keptOpen';

/** `grants`: a forgotten named secret or input takes with it the answers about where it may go. */
export async function manageSavedSecrets(
  vault: SecretVault,
  agentKeys: SavedAgentKeys,
  grants?: Pick<SecretGrants, 'forget' | 'forgetInput'>,
): Promise<void> {
  const saved = vault.list();
  const inputs = vault.listInputs();
  const keys = agentKeys.list();
  if (saved.length === 0 && inputs.length === 0 && keys.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Elicit has no saved secrets.'));
    return;
  }
  const picked = await vscode.window.showQuickPick<vscode.QuickPickItem & { entry?: SavedSecret; input?: SavedInput; key?: SavedAgentKey }>(
    [
      ...saved
        .slice()
        .sort((a, b) => a.askerName.localeCompare(b.askerName) || a.field.localeCompare(b.field))
        .map((entry) => ({
          label: `$(key) ${inertText(entry.field)}`,
          // `${secret:…}` goes in as an argument: its braces would be read as a placeholder.
          description: inertText(
            entry.askerKind === 'named'
              ? vscode.l10n.t('used as {0}', `\${secret:${entry.field}}`)
              : `${entry.askerName} (${entry.askerKind})`,
          ),
          detail: inertText(vscode.l10n.t('Saved {0}', new Date(entry.savedAt).toLocaleString())),
          entry,
        })),
      ...inputs.map((input) => ({
        label: `$(key) ${inertText(input.id)}`,
        description: inertText(vscode.l10n.t('{0} in {1}', `\${input:${input.id}}`, fileLabel(input.file))),
        detail: inertText(vscode.l10n.t('Saved {0} · first used by {1}', new Date(input.savedAt).toLocaleString(), input.server)),
        input,
      })),
      ...keys.map((key) => ({
        label: `$(key) ${inertText(key.variable)}`,
        description: inertText(vscode.l10n.t('sign-in key of the agent {0}', key.agent)),
        detail: inertText(vscode.l10n.t('Saved {0}', new Date(key.savedAt).toLocaleString())),
        key,
      })),
    ],
    {
      title: vscode.l10n.t('Elicit: Saved Secrets'),
      placeHolder: vscode.l10n.t('Select the secrets to forget (values are never shown)'),
      canPickMany: true,
      matchOnDescription: true,
      ...KEPT_OPEN,
    },
  );
  if (!picked || picked.length === 0) return;
  const entries = picked.flatMap((p) => (p.entry ? [p.entry] : []));
  const forgottenInputs = picked.flatMap((p) => (p.input ? [p.input] : []));
  const forgottenKeys = picked.flatMap((p) => (p.key ? [p.key] : []));
  const count = entries.length + forgottenInputs.length + forgottenKeys.length;
  const forget = vscode.l10n.t('Forget');
  const confirm = await vscode.window.showWarningMessage(
    count === 1
      ? inertText(
          vscode.l10n.t('Forget the saved secret "{0}"?', entries[0]?.field ?? forgottenInputs[0]?.id ?? forgottenKeys[0]!.variable),
        )
      : vscode.l10n.t('Forget {0} saved secrets?', count),
    { modal: true, detail: vscode.l10n.t('The next time they are asked for, you will type them again.') },
    forget,
  );
  if (confirm !== forget) return;
  if (entries.length > 0) await vault.forget(entries);
  for (const entry of entries) if (entry.askerKind === 'named') await grants?.forget(entry.field);
  if (forgottenInputs.length > 0) await vault.forgetInputs(forgottenInputs);
  for (const input of forgottenInputs) await grants?.forgetInput(input.file, input.id);
  if (forgottenKeys.length > 0) await agentKeys.forget(forgottenKeys);
  void vscode.window.showInformationMessage(
    count === 1 ? vscode.l10n.t('Elicit forgot 1 saved secret.') : vscode.l10n.t('Elicit forgot {0} saved secrets.', count),
  );
}

/** "app/.vscode/mcp.json" for a file in the workspace, else the path. */
function fileLabel(file: string): string {
  try {
    return vscode.workspace.asRelativePath(vscode.Uri.parse(file, true), true);
  } catch {
    return file;
  }
}
