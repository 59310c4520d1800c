/**
 * How one connection reaches its server: stdio in a process group of its own (stdioTransport.ts),
 * Streamable HTTP with its fall back to legacy SSE (httpFallback.ts), HTTP over a local socket
 * (socketFetch.ts), the OAuth sign-in (oauthSignIn.ts), and a 2025-era HTTP session's upkeep and
 * end (httpSession.ts, sessionParting.ts). The connection (connection.ts) makes the client and
 * hands it here to be connected.
 */
import type { Client, Transport } from '@modelcontextprotocol/client';
import { errorText } from '../core/errors';
import type { ServerConfig } from '../core/mcpConfig/serverConfig';
import { childEnvironment } from '../process/processGroup';
import type { ConnectionOptions } from './connectionTypes';
import { extensionHeaders, type ClientExtension } from './extensions/clientExtension';
import { fallbackReason, shouldFallBackToSse } from './httpFallback';
import { endSession, GetStreamWatch, keepHttpSession, RECONNECTION, type HttpSessionTransport } from './httpSession';
import type { LaunchConfig } from './launch';
import type { McpSdk } from './loadSdk';
import { OAuthSignIn, type AuthorizingTransport, type OAuthOptions } from './oauthSignIn';
import { SessionParting } from './sessionParting';
import { socketEndpoint, socketFetch } from './socketFetch';
import { GroupStdioTransport } from './stdioTransport';

/** A local server that has not answered the version probe by then is a 2025-era server. */
const STDIO_PROBE_TIMEOUT_MS = 5_000;
/** A remote server that does not answer the version probe is down, not old. */
const HTTP_PROBE_TIMEOUT_MS = 30_000;

/** What the transports use of their connection. */
export interface TransportParts {
  readonly config: ServerConfig;
  /** Who asks, on the sign-in's question. */
  readonly askerName: string;
  readonly options: Pick<ConnectionOptions, 'ask' | 'log' | 'baseEnv' | 'oauth' | 'urlWaits' | 'stdioProbeTimeoutMs'>;
  /** The SDK, loaded before any transport is made. */
  sdk(): McpSdk;
  /** A line of the server's log, named as Elicit's. */
  logLine(line: string): void;
  /** Whether `client` is still the connection's client (a session lost by one it replaced is left alone). */
  isCurrent(client: Client): boolean;
}

export class ServerTransports {
  private oauth: OAuthSignIn | undefined;
  /** The HTTP transport last created: a sign-in finishes on the transport that needed it. */
  private authTransport: AuthorizingTransport | undefined;
  private _kind: LaunchConfig['type'] | undefined;
  /** The GET stream of the HTTP transport made last. */
  private getStream: GetStreamWatch | undefined;
  /** Each Streamable HTTP transport's end (sessionParting.ts), carried out even after it closed. */
  private readonly partings = new WeakMap<object, SessionParting>();
  /** Why the HTTP session ended, for the status once the connection has closed. */
  private lostWhy: string | undefined;

  constructor(private readonly parts: TransportParts) {}

  /** The transport of the last connection: "sse" when an HTTP server fell back to legacy SSE. */
  get kind(): LaunchConfig['type'] | undefined {
    return this._kind;
  }

  /** Connects `client` to the server `launch` starts or names; when the server wants the person to sign in, does that and tries once more. */
  async connect(client: Client, launch: LaunchConfig, extensions: readonly ClientExtension[]): Promise<void> {
    if (launch.type !== 'stdio') await this.oauthFor(launch.url)?.prepare();
    await this.connectTransport(client, launch, extensions).catch(async (error: unknown) => {
      if (!(await this.signInAfter(error))) throw error;
      await client.close().catch(() => undefined);
      await this.connectTransport(client, launch, extensions);
    });
  }

  /** Watches a connected 2025-era HTTP session (httpSession.ts) until `until` aborts: one that cannot go on is ended and closed. */
  keepSession(client: Client, until: AbortSignal): void {
    if (this._kind !== 'http' || !client.transport) return;
    const transport = client.transport as unknown as HttpSessionTransport;
    const stopKeeping = keepHttpSession(transport, {
      onLost: (why) => void this.sessionLost(client, transport, why),
      log: this.parts.logLine,
      stream: this.getStream,
      parting: this.partings.get(transport),
    });
    until.addEventListener('abort', stopKeeping, { once: true });
  }

  /** Why the last HTTP session was lost, if it was, told once: the connection's status when it closes. */
  takeLostReason(): string | undefined {
    const why = this.lostWhy;
    this.lostWhy = undefined;
    return why;
  }

  /** A sign-in under way is given up (the connection stops). */
  cancelSignIn(): void {
    this.oauth?.cancel();
  }

  /**
   * Probes for MCP 2026-07-28 and falls back to 2025-11-25 as the SDK decides.
   * A stdio server that exits when probed (some 2025-era servers end on any
   * request before `initialize`) is started once more without the probe, and
   * Streamable HTTP falls back to legacy SSE when the server answers with a 4xx.
   */
  private async connectTransport(client: Client, launch: LaunchConfig, extensions: readonly ClientExtension[]): Promise<void> {
    const { UnauthorizedError } = this.parts.sdk();
    const stdio = launch.type === 'stdio';
    client.setVersionNegotiation({
      mode: 'auto',
      probe: { timeoutMs: stdio ? (this.parts.options.stdioProbeTimeoutMs ?? STDIO_PROBE_TIMEOUT_MS) : HTTP_PROBE_TIMEOUT_MS },
    });
    this._kind = launch.type;
    let transport = this.createTransport(launch, extensions);
    try {
      await client.connect(transport);
      return;
    } catch (error) {
      if (error instanceof UnauthorizedError) throw error;
      if (stdio && transport instanceof GroupStdioTransport && transport.exitedEarly) {
        this.parts.logLine('the server exited when asked which MCP revisions it speaks; starting it again for MCP 2025-11-25');
        await client.close().catch(() => undefined);
        transport = this.createTransport(launch, extensions);
        await client.connect(transport, { prior: { kind: 'legacy' } });
        return;
      }
      if (launch.type !== 'http' || !shouldFallBackToSse(error)) throw error;
      const reason = fallbackReason(error);
      this.parts.logLine(`the Streamable HTTP endpoint answered ${reason}; trying the legacy SSE transport`);
      await client.close().catch(() => undefined);
      this._kind = 'sse';
      try {
        // Legacy SSE predates 2026-07-28: no probe.
        await client.connect(this.createTransport({ ...launch, type: 'sse' }, extensions), { prior: { kind: 'legacy' } });
      } catch (sseError) {
        // An SSE server that wants a sign-in must reach the OAuth step unchanged.
        if (sseError instanceof UnauthorizedError) throw sseError;
        throw new Error(`Streamable HTTP answered ${reason}, and legacy SSE failed too: ${errorText(sseError)}`, { cause: sseError });
      }
    }
  }

  private createTransport(transport: LaunchConfig, extensions: readonly ClientExtension[]): Transport {
    const sdk = this.parts.sdk();
    if (transport.type === 'stdio') {
      const stdio = new GroupStdioTransport(
        {
          command: transport.command,
          args: transport.args,
          // The server sees the editor's environment plus what the configuration sets.
          env: childEnvironment(this.parts.options.baseEnv ?? process.env, transport.env),
          cwd: transport.cwd,
        },
        (line) => this.parts.options.log(line),
        sdk,
      );
      for (const extension of extensions) extension.onTransport?.(stdio, transport);
      return stdio;
    }
    const requestInit = { headers: extensionHeaders(extensions, transport.headers) };
    // A local socket (unix:, pipe:): HTTP through it; no OAuth, nothing leaves the machine.
    const socket = socketEndpoint(transport.url);
    const oauth = socket ? undefined : this.oauthFor(transport.url);
    const auth = socket ? { fetch: socketFetch(socket.socketPath) } : oauth ? { authProvider: oauth.provider, fetch: oauth.fetch } : {};
    // The GET stream of a 2025-era session, watched so that one that never reopens ends the session (httpSession.ts).
    this.getStream = new GetStreamWatch();
    const plainFetch = auth.fetch ?? ((input, init) => fetch(input, init));
    // Its end is sent through the same fetch, as the session's last request was (sessionParting.ts).
    const parting = new SessionParting(plainFetch, { log: this.parts.logLine });
    const watchedFetch = parting.noting(this.getStream.wrap(plainFetch));
    const url = new URL(socket?.url ?? transport.url);
    const http =
      transport.type === 'sse'
        ? new sdk.SSEClientTransport(url, { requestInit, ...auth })
        : new sdk.StreamableHTTPClientTransport(url, { requestInit, reconnectionOptions: RECONNECTION, ...auth, fetch: watchedFetch });
    if (transport.type !== 'sse') this.partings.set(http, parting);
    for (const extension of extensions) extension.onTransport?.(http, transport);
    this.authTransport = http;
    return http;
  }

  /** The OAuth sign-in for this server at `url` (a changed URL never receives the old tokens). */
  private oauthFor(url: string): OAuthSignIn | undefined {
    if (!this.parts.options.oauth) return undefined;
    if (this.oauth?.serverUrl !== url) {
      this.oauth?.cancel();
      this.oauth = new OAuthSignIn({ name: this.parts.config.name, url }, oauthOptions(this.parts.options.oauth, this.parts.config), {
        askerName: this.parts.askerName,
        sdk: this.parts.sdk(),
        ask: this.parts.options.ask,
        urlWaits: this.parts.options.urlWaits,
        log: this.parts.options.log,
      });
    }
    return this.oauth;
  }

  /** Runs `operation`; when the server needs the person to sign in (again), does that and retries once. */
  async signedIn<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (!(await this.signInAfter(error))) throw error;
      return operation();
    }
  }

  private async signInAfter(error: unknown): Promise<boolean> {
    return (await this.oauth?.signInAfter(error, this.authTransport)) ?? false;
  }

  /**
   * A 2025-era HTTP session that cannot go on (httpSession.ts): ended with DELETE while the server
   * can still be reached (its questions end there), then closed, so crash recovery opens a new one.
   */
  private async sessionLost(client: Client, transport: HttpSessionTransport, why: string): Promise<void> {
    if (!this.parts.isCurrent(client)) return;
    this.parts.logLine(`${why}; starting a new session`);
    this.lostWhy = why;
    await endSession(this.partings.get(transport));
    if (this.parts.isCurrent(client)) await client.close().catch(() => undefined);
  }

  /** A 2025-era HTTP session is ended with DELETE, as the spec asks, so what its server still waits for ends there. */
  async endSession(client: Client): Promise<void> {
    // Only a Streamable HTTP transport has a session to end (a parting).
    await endSession(client.transport && this.partings.get(client.transport));
  }
}

/** A client registered ahead with the authorization server (`oauth.clientId`) is used as it is: no registration. */
function oauthOptions(options: OAuthOptions, config: ServerConfig): OAuthOptions {
  return config.oauthClientId ? { ...options, clientId: config.oauthClientId } : options;
}
