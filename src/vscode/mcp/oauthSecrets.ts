/**
 * OAuth credentials (tokens, client registration, PKCE verifier) in VS Code's
 * SecretStorage, as the SecretStore the MCP layer signs in with. Which servers
 * have credentials is kept in global state for Sign Out: server names and
 * URLs only, never a secret.
 */
import type * as vscode from 'vscode';
import { serverOfKey, type OAuthServerId, type SecretStore } from '../../mcp/oauthStore';

const INDEX_KEY = 'elicit.oauthCredentialKeys';

export class OAuthSecrets implements SecretStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  get(key: string): Thenable<string | undefined> {
    return this.secrets.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    await this.secrets.store(key, value);
    const keys = this.keys();
    if (!keys.includes(key)) await this.state.update(INDEX_KEY, [...keys, key]);
  }

  async delete(key: string): Promise<void> {
    await this.secrets.delete(key);
    await this.state.update(
      INDEX_KEY,
      this.keys().filter((k) => k !== key),
    );
  }

  /** The servers Elicit holds OAuth credentials for. */
  signedIn(): Array<OAuthServerId & { key: string }> {
    return this.keys().flatMap((key) => {
      const server = serverOfKey(key);
      return server ? [{ ...server, key }] : [];
    });
  }

  private keys(): string[] {
    return this.state.get<string[]>(INDEX_KEY, []);
  }
}
