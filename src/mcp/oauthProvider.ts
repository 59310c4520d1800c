/**
 * The SDK's OAuthClientProvider for one HTTP server: a public native client
 * (PKCE, no secret) with a loopback redirect, whose credentials live in a
 * secret store. The SDK drives discovery, registration, the token exchange and
 * refresh; this class keeps what it hands over and remembers the authorization
 * URL the SDK wants opened, for the sign-in step to show the person.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { LoopbackRedirect, type PublicUrlOf } from './oauthLoopback';
import { ServerCredentials, type OAuthServerId, type SecretStore } from './oauthStore';

export interface AuthorizationRequest {
  url: URL;
  state: string;
}

export interface OAuthProviderOptions {
  /** Registered as the client's name, shown on the authorization server's consent page. */
  clientName: string;
  /** An https URL of a client metadata document (SEP-991), used when the server supports it. */
  clientMetadataUrl?: string;
  /** The loopback redirect as the browser reaches it (VS Code's asExternalUri in remote windows). */
  publicUrlOf?: PublicUrlOf;
  /**
   * A public client registered ahead with the authorization server (the server's
   * `oauth.clientId`): used as it is, never registered again. Its loopback
   * redirect may use any port (RFC 8252, 7.3).
   */
  clientId?: string;
}

type InvalidationScope = 'all' | 'client' | 'tokens' | 'verifier' | 'discovery';

/** The SDK names the authorization server it is talking to (its issuer) when it reads or saves credentials. */
interface IssuerContext {
  issuer?: string;
}

/** Saved for one issuer and asked for by another. Without an issuer on either side, nothing is known to differ. */
function otherIssuer(saved: string | undefined, ctx: IssuerContext | undefined): boolean {
  return saved !== undefined && ctx?.issuer !== undefined && saved !== ctx.issuer;
}

export class StoredOAuthProvider implements OAuthClientProvider {
  readonly credentials: ServerCredentials;
  private readonly redirect: LoopbackRedirect;
  private pending: AuthorizationRequest | undefined;
  /** The authorization a sign-in is finishing: its PKCE verifier must not be replaced meanwhile. */
  private held: AuthorizationRequest | undefined;
  private lastState: string | undefined;
  /** Set while the server asks for more scope: a refresh cannot grant it, so none is attempted. */
  private steppingUp = false;

  constructor(
    server: OAuthServerId,
    store: SecretStore,
    private readonly options: OAuthProviderOptions,
  ) {
    this.credentials = new ServerCredentials(store, server);
    this.redirect = new LoopbackRedirect(options.publicUrlOf);
  }

  /** Chooses the loopback port before the SDK needs `redirectUrl`: the registered one when free. */
  async prepare(): Promise<void> {
    const { registeredRedirectUri } = await this.credentials.read();
    await this.redirect.reserve(LoopbackRedirect.portOf(registeredRedirectUri));
  }

  get loopback(): LoopbackRedirect {
    return this.redirect;
  }

  get redirectUrl(): string {
    return this.redirect.url;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // A loopback redirect is a native app's (SEP-837): web clients may not register one.
      application_type: 'native',
    };
  }

  state(): string {
    this.lastState = randomBytes(24).toString('base64url');
    return this.lastState;
  }

  async clientInformation(ctx?: IssuerContext): Promise<OAuthClientInformationMixed | undefined> {
    if (this.options.clientId) return { client_id: this.options.clientId };
    const { client, registeredRedirectUri, clientIssuer } = await this.credentials.read();
    // A registration made for another loopback port cannot receive this sign-in: register again.
    if (client && registeredRedirectUri && registeredRedirectUri !== this.redirectUrl) return undefined;
    // Registered with another authorization server: never used with this one (SEP-2352).
    if (client && otherIssuer(clientIssuer, ctx)) return undefined;
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed, ctx?: IssuerContext): Promise<void> {
    const redirectUris = 'redirect_uris' in client ? client.redirect_uris : undefined;
    await this.credentials.update((c) => {
      // A registration of ours names our loopback URI; pre-registered clients keep what they had.
      if (redirectUris?.includes(this.redirectUrl)) c.registeredRedirectUri = this.redirectUrl;
      else if (c.client?.client_id !== client.client_id) c.registeredRedirectUri = undefined;
      c.client = client;
      c.clientIssuer = ctx?.issuer;
    });
  }

  async tokens(ctx?: IssuerContext): Promise<OAuthTokens | undefined> {
    const { tokens, tokensIssuer } = await this.credentials.read();
    // Tokens of another authorization server are not offered to this one.
    if (tokens && otherIssuer(tokensIssuer, ctx)) return undefined;
    if (!tokens || !this.steppingUp) return tokens;
    const { refresh_token: _hidden, ...withoutRefresh } = tokens;
    return withoutRefresh;
  }

  async saveTokens(tokens: OAuthTokens, ctx?: IssuerContext): Promise<void> {
    await this.credentials.update((c) => {
      c.tokens = tokens;
      c.tokensIssuer = ctx?.issuer;
      c.codeVerifier = undefined;
    });
    this.steppingUp = false;
  }

  redirectToAuthorization(url: URL): void {
    // The SDK returns 'REDIRECT' right after this; the sign-in step opens the URL with consent.
    if (!this.held) this.pending = { url, state: url.searchParams.get('state') ?? this.lastState ?? '' };
  }

  /** While a sign-in finishes `request`, concurrent authorization attempts leave its verifier alone. */
  holdAuthorization(request: AuthorizationRequest | undefined): void {
    this.held = request;
  }

  /** The authorization the SDK asked for, once: the sign-in step takes it. */
  takeAuthorizationRequest(): AuthorizationRequest | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    if (this.held) return;
    await this.credentials.update((c) => (c.codeVerifier = codeVerifier));
  }

  async codeVerifier(): Promise<string> {
    const { codeVerifier } = await this.credentials.read();
    if (!codeVerifier) throw new Error('no PKCE code verifier is stored for this sign-in');
    return codeVerifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.credentials.update((c) => (c.discovery = state));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.credentials.read()).discovery;
  }

  async invalidateCredentials(scope: InvalidationScope): Promise<void> {
    if (scope === 'all') return this.credentials.clear();
    await this.credentials.update((c) => {
      if (scope === 'client') {
        c.client = undefined;
        c.registeredRedirectUri = undefined;
      } else if (scope === 'tokens') c.tokens = undefined;
      else if (scope === 'verifier') c.codeVerifier = undefined;
      else c.discovery = undefined;
    });
  }

  /**
   * The server answered 403 insufficient_scope. Unless the granted scope already
   * covers the request, the next authorization must be a new one in the browser.
   */
  async requireScope(scope: string | undefined): Promise<void> {
    const granted = new Set(((await this.credentials.read()).tokens?.scope ?? '').split(' ').filter(Boolean));
    const wanted = (scope ?? '').split(' ').filter(Boolean);
    this.steppingUp = wanted.length === 0 || wanted.some((s) => !granted.has(s));
  }

  /** The sign-in did not finish: the stored refresh token is used again from now on. */
  abandonStepUp(): void {
    this.steppingUp = false;
  }
}
