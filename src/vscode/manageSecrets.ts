/** Elicit: Manage Saved Secrets — lists saved secret names (never values) and forgets the chosen ones. */
import * as vscode from 'vscode';
import { noIcons } from '../core/display';
import type { SavedSecret, SecretVault } from './secretVault';

export async function manageSavedSecrets(vault: SecretVault): Promise<void> {
  const saved = vault.list();
  if (saved.length === 0) {
    void vscode.window.showInformationMessage('Elicit has no saved secrets.');
    return;
  }
  const picked = await vscode.window.showQuickPick(
    saved
      .slice()
      .sort((a, b) => a.askerName.localeCompare(b.askerName) || a.field.localeCompare(b.field))
      .map((entry) => ({
        label: `$(key) ${noIcons(entry.field)}`,
        description: noIcons(`${entry.askerName} (${entry.askerKind})`),
        detail: `Saved ${new Date(entry.savedAt).toLocaleString()}`,
        entry,
      })),
    {
      title: 'Elicit: Saved Secrets',
      placeHolder: 'Select the secrets to forget (values are never shown)',
      canPickMany: true,
      matchOnDescription: true,
    },
  );
  if (!picked || picked.length === 0) return;
  const entries: SavedSecret[] = picked.map((p) => p.entry);
  const confirm = await vscode.window.showWarningMessage(
    entries.length === 1 ? `Forget the saved secret "${entries[0]!.field}"?` : `Forget ${entries.length} saved secrets?`,
    { modal: true, detail: 'The next time they are asked for, you will type them again.' },
    'Forget',
  );
  if (confirm !== 'Forget') return;
  await vault.forget(entries);
  void vscode.window.showInformationMessage(
    entries.length === 1 ? 'Elicit forgot 1 saved secret.' : `Elicit forgot ${entries.length} saved secrets.`,
  );
}
