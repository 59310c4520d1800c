/**
 * Signing in to an HTTP MCP server that requires OAuth. The SDK runs
 * discovery, registration, token exchange and refresh through our provider;
 * when it needs the person (no usable token, or more scope) it stops with
 * UnauthorizedError and leaves an authorization URL. This class then asks for
 * consent like a URL-mode elicitation (the person sees the authorization
 * server's host and the full URL before anything opens), waits for the browser
 * to come back to the loopback redirect, and finishes the exchange, after
 * which the caller retries what failed.
 */
import { randomUUID } from 'node:crypto';
import type { FetchLike } from '@modelcontextprotocol/client';
import type { McpSdk } from './loadSdk';
import type { Asker, ElicitRequest, ElicitResult } from '../core/request';
import { askerKey, type UrlWaits } from '../core/broker/urlWaits';
import { StoredOAuthProvider, type AuthorizationRequest, type OAuthProviderOptions } from './oauthProvider';
import type { OAuthServerId, SecretStore } from './oauthStore';
import { errorText } from '../core/errors';

export interface OAuthOptions extends OAuthProviderOptions {
  /** Where credentials live: SecretStorage in the extension. */
  store: SecretStore;
  /** How long the browser may take after the person agreed (default 10 minutes). */
  browserTimeoutMs?: () => number;
}

export interface SignInContext {
  /** Who asks for the sign-in, as every question of the server names it ("github (2) from User mcp.json"). */
  askerName?: string;
  /** The SDK's auth helpers (loaded with the connection). */
  sdk: Pick<McpSdk, 'UnauthorizedError' | 'extractWWWAuthenticateParams'>;
  /** The broker's `ask`: consent is a URL-mode question. */
  ask: (request: ElicitRequest) => Promise<ElicitResult>;
  urlWaits?: UrlWaits;
  /** Diagnostics; never receives a token, a code or an authorization URL. */
  log: (line: string) => void;
}

/** A transport created with our provider can finish the exchange once the code is back. */
export interface AuthorizingTransport {
  /** `iss` as the authorization server sent it: the SDK checks it against the issuer it talked to (RFC 9207). */
  finishAuth(authorizationCode: string, iss?: string): Promise<void>;
}

export class SignInError extends Error {}

function sentBearer(init: RequestInit | undefined): boolean {
  return /^Bearer\s/i.test(new Headers(init?.headers).get('authorization') ?? '');
}

const DEFAULT_BROWSER_TIMEOUT_MS = 10 * 60_000;

export class OAuthSignIn {
  readonly provider: StoredOAuthProvider;
  private running: Promise<void> | undefined;
  private stopped = new AbortController();

  constructor(
    private readonly server: OAuthServerId,
    private readonly options: OAuthOptions,
    private readonly context: SignInContext,
  ) {
    this.provider = new StoredOAuthProvider(server, options.store, options);
  }

  get serverUrl(): string {
    return this.server.url;
  }

  /** Before each connection: the loopback port must be known before the SDK registers a client. */
  prepare(): Promise<void> {
    return this.provider.prepare();
  }

  /**
   * For the transport: notices when the server asks for more scope than the
   * token has, and when it refuses a token it took before — its authorization
   * server may have changed (SEP-2352), so what was discovered is looked up
   * again before signing in anew.
   */
  readonly fetch: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if (response.status === 403) {
      const { error, scope } = this.context.sdk.extractWWWAuthenticateParams(response);
      if (error === 'insufficient_scope') await this.provider.requireScope(scope);
    } else if (response.status === 401 && sentBearer(init) && String(url).startsWith(new URL(this.server.url).origin)) {
      await this.provider.invalidateCredentials('discovery');
    }
    return response;
  };

  /**
   * After `error` from an operation: signs in when the error says the person is
   * needed, and returns true so the caller retries once. Concurrent callers share
   * one sign-in.
   */
  async signInAfter(error: unknown, transport: AuthorizingTransport | undefined): Promise<boolean> {
    if (!(error instanceof this.context.sdk.UnauthorizedError) || !transport) return false;
    if (this.running) {
      await this.running;
      return true;
    }
    const request = this.provider.takeAuthorizationRequest();
    if (!request) return false;
    this.running = this.signIn(request, transport).finally(() => (this.running = undefined));
    await this.running;
    return true;
  }

  /** The connection stopped: a sign-in in progress ends. */
  cancel(): void {
    this.stopped.abort(new SignInError('the connection was stopped'));
    this.stopped = new AbortController();
  }

  private async signIn(request: AuthorizationRequest, transport: AuthorizingTransport): Promise<void> {
    const host = request.url.host;
    const asker: Asker = { kind: 'mcp', name: this.context.askerName ?? this.server.name, detail: 'sign-in' };
    const elicitationId = `sign-in-${randomUUID()}`;
    const giveUp = new AbortController();
    const stopped = this.stopped.signal;
    const onStopped = (): void => giveUp.abort(stopped.reason);
    stopped.addEventListener('abort', onStopped, { once: true });
    const waitCancelled = this.context.urlWaits?.onDidCancel((wait) => {
      if (wait.askerKey === askerKey(asker) && wait.elicitationId === elicitationId)
        giveUp.abort(new SignInError(`sign-in at ${host} was cancelled`));
    });
    let timer: NodeJS.Timeout | undefined;
    this.provider.holdAuthorization(request);
    try {
      // Listen before the browser can possibly come back.
      const redirect = await this.provider.loopback.receive(request.state, giveUp.signal);
      this.context.log(`[elicit] ${this.server.name}: sign-in needed at ${host}`);
      const answer = await this.context.ask({
        mode: 'url',
        asker,
        message: `Sign in to use "${this.server.name}". Its authorization server ${host} asks you to allow Elicit to use this server on your behalf.`,
        url: request.url.href,
        elicitationId,
        signal: giveUp.signal,
        editorOnly: 'signIn',
      });
      if (answer.action !== 'accept') {
        giveUp.abort();
        throw new SignInError(`sign-in at ${host} was ${answer.action === 'decline' ? 'declined' : 'cancelled'}`);
      }
      const waitMs = this.options.browserTimeoutMs?.() ?? DEFAULT_BROWSER_TIMEOUT_MS;
      timer = setTimeout(() => giveUp.abort(new SignInError(`the browser did not return from ${host} in time`)), waitMs);
      const { code, iss } = await redirect.code;
      this.context.urlWaits?.complete(askerKey(asker), elicitationId);
      await transport.finishAuth(code, iss);
      this.context.log(`[elicit] ${this.server.name}: signed in at ${host}`);
    } catch (error) {
      this.provider.abandonStepUp();
      this.context.urlWaits?.cancel(askerKey(asker), elicitationId);
      throw error instanceof SignInError ? error : new SignInError(`sign-in at ${host} failed: ${errorText(error)}`);
    } finally {
      this.provider.holdAuthorization(undefined);
      clearTimeout(timer);
      giveUp.abort();
      stopped.removeEventListener('abort', onStopped);
      waitCancelled?.dispose();
    }
  }
}
