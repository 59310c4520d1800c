/**
 * Elicit: Sign Out of MCP Server — forgets the OAuth tokens and client
 * registration Elicit holds for a server and stops its connection, so the next
 * use asks the person to sign in again.
 */
import * as vscode from 'vscode';
import { inertText } from '../../core/display';
import type { OAuthSecrets } from './oauthSecrets';
import type { McpServices } from './serverRegistry';
import { KEPT_OPEN } from '../keptOpen';

type SignedIn = ReturnType<OAuthSecrets['signedIn']>[number];

/** `target` is a server name (from a keybinding or script) or a servers-view item with a `name`. */
export async function signOutOfServer(services: McpServices, secrets: OAuthSecrets, target?: unknown): Promise<void> {
  const name = typeof target === 'string' ? target : (target as { name?: unknown } | undefined)?.name;
  const all = secrets.signedIn();
  const candidates = typeof name === 'string' ? all.filter((s) => s.name === name) : all;
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(
      typeof name === 'string'
        ? inertText(vscode.l10n.t('Elicit is not signed in to "{0}".', name))
        : vscode.l10n.t('Elicit is not signed in to any MCP server.'),
    );
    return;
  }
  const chosen = candidates.length === 1 ? candidates : await pick(candidates);
  if (!chosen || chosen.length === 0) return;
  for (const server of chosen) {
    await secrets.delete(server.key);
    await services.registry.stop(server.name);
    services.log.info(`${server.name}: signed out (OAuth credentials forgotten)`);
  }
  void vscode.window.showInformationMessage(
    chosen.length === 1
      ? inertText(vscode.l10n.t('Signed out of "{0}". Elicit asks you to sign in when it next uses it.', chosen[0]!.name))
      : vscode.l10n.t('Signed out of {0} MCP servers.', chosen.length),
  );
}

function pick(servers: SignedIn[]): Thenable<SignedIn[] | undefined> {
  return vscode.window
    .showQuickPick(
      servers.map((server) => ({ label: `$(account) ${inertText(server.name)}`, description: inertText(server.url), server })),
      {
        title: vscode.l10n.t('Elicit: Sign Out of MCP Server'),
        placeHolder: vscode.l10n.t('Select the servers to sign out of'),
        canPickMany: true,
        matchOnDescription: true,
        ...KEPT_OPEN,
      },
    )
    .then((items) => items?.map((item) => item.server));
}
