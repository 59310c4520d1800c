/**
 * Where a server's OAuth credentials live: tokens, the dynamic client
 * registration, the PKCE verifier and the discovery result, as one JSON record
 * per server in a secret store (VS Code's SecretStorage in the extension, a Map
 * in tests). Nothing here is ever written to a log or a state file.
 */
import type { OAuthClientInformationMixed, OAuthDiscoveryState, OAuthTokens } from '@modelcontextprotocol/client';

/** The shape of `vscode.SecretStorage`, so the extension passes it as is. */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/** Which server the credentials belong to: a changed URL never receives the old tokens. */
export interface OAuthServerId {
  name: string;
  url: string;
}

export interface StoredCredentials {
  tokens?: OAuthTokens;
  client?: OAuthClientInformationMixed;
  /** The loopback redirect URI `client` was registered with (absent for pre-registered clients). */
  registeredRedirectUri?: string;
  /** The authorization server (issuer) `client` was registered with, and the one that issued `tokens`. */
  clientIssuer?: string;
  tokensIssuer?: string;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
}

const KEY_PREFIX = 'elicit.oauth:';

/** JSON keeps "a:b" + "c" apart from "a" + "b:c". */
export function credentialsKey(server: OAuthServerId): string {
  return `${KEY_PREFIX}${JSON.stringify([server.name, server.url])}`;
}

/** The server a key names, or undefined for a key that is not an OAuth credentials key. */
export function serverOfKey(key: string): OAuthServerId | undefined {
  if (!key.startsWith(KEY_PREFIX)) return undefined;
  try {
    const [name, url] = JSON.parse(key.slice(KEY_PREFIX.length)) as unknown[];
    return typeof name === 'string' && typeof url === 'string' ? { name, url } : undefined;
  } catch {
    return undefined;
  }
}

/** One server's record; updates are applied one after another, never interleaved. */
export class ServerCredentials {
  private queue: Promise<unknown> = Promise.resolve();
  /** The record as last read from or written to the store (in memory only, as the store hands it out). */
  private lastKnown: { text: string | undefined } | undefined;

  constructor(
    private readonly store: SecretStore,
    readonly server: OAuthServerId,
  ) {}

  private get key(): string {
    return credentialsKey(this.server);
  }

  async read(): Promise<StoredCredentials> {
    await this.queue;
    let text: string | undefined;
    try {
      text = await this.store.get(this.key);
    } catch (error) {
      // As the window closes, VS Code cuts the extension host off from SecretStorage before the
      // last requests go out (a session's DELETE): those carry what was last read or written.
      if (this.lastKnown === undefined) throw error;
      return this.parse(this.lastKnown.text);
    }
    this.lastKnown = { text };
    return this.parse(text);
  }

  update(change: (credentials: StoredCredentials) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const credentials = this.parse(await this.store.get(this.key));
      change(credentials);
      if (Object.values(credentials).every((v) => v === undefined)) {
        await this.store.delete(this.key);
        this.lastKnown = { text: undefined };
      } else {
        const text = JSON.stringify(credentials);
        await this.store.store(this.key, text);
        this.lastKnown = { text };
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  clear(): Promise<void> {
    return this.update((credentials) => {
      for (const key of Object.keys(credentials)) delete credentials[key as keyof StoredCredentials];
    });
  }

  private parse(text: string | undefined): StoredCredentials {
    if (!text) return {};
    try {
      const value = JSON.parse(text) as unknown;
      return typeof value === 'object' && value !== null ? (value as StoredCredentials) : {};
    } catch {
      return {}; // A damaged record is as good as none: the person signs in again.
    }
  }
}

/** A secret store in memory: for tests and the headless conformance client. */
export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}
