/**
 * OAuth for HTTP MCP servers: credentials in SecretStorage, consent and the
 * browser step through the broker's URL consent (openExternal), and
 * Elicit: Sign Out of MCP Server.
 */
import * as vscode from 'vscode';
import { OAuthSecrets } from './oauthSecrets';
import type { McpServices } from './serverRegistry';
import { signOutOfServer } from './signOut';

export function registerOAuth(context: vscode.ExtensionContext, services: McpServices): void {
  const secrets = new OAuthSecrets(context.secrets, services.globalState);
  services.registry.useOAuth({
    store: secrets,
    clientName: `Elicit for ${vscode.env.appName}`,
    browserTimeoutMs: services.timeoutMs,
    // In code-server or Remote SSH the browser is on another machine: VS Code forwards the port.
    publicUrlOf: async (loopbackUrl) => (await vscode.env.asExternalUri(vscode.Uri.parse(loopbackUrl))).toString(true),
  });
  context.subscriptions.push(
    vscode.commands.registerCommand('elicit.signOut', (target?: unknown) => signOutOfServer(services, secrets, target)),
  );
}
