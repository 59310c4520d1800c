/**
 * Saved secrets: **Elicit: Manage Saved Secrets** lists what the vault, the
 * `${input:…}` passwords and the agents' keys hold (names only) and forgets
 * the chosen ones.
 */
import * as vscode from 'vscode';
import type { SavedAgentKeys } from '../savedAgentKeys';
import type { Services } from '../services';
import type { SecretVault } from './secretVault';
import { manageSavedSecrets } from './manageSecrets';
import { writeTestReports } from './testReport';

/** The vault is this feature's own: it gets the whole of it, where other features see what savedSecrets.ts declares. */
export function registerSecrets(
  context: vscode.ExtensionContext,
  services: Services & { vault: SecretVault },
  agentKeys: SavedAgentKeys,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('elicit.manageSecrets', () => manageSavedSecrets(services.vault, agentKeys, services.grants)),
  );
  // End-to-end tests only: SecretStorage can be read by this extension alone (see testReport.ts).
  const report = process.env.ELICIT_TEST_REPORT;
  if (report) {
    context.subscriptions.push(
      writeTestReports(report, services.vault, context.secrets, services.log),
      writeTestReports(`${report}.agent-keys.json`, agentKeys, context.secrets, services.log),
    );
  }
}
