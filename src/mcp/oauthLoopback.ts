/**
 * The loopback redirect of a native OAuth client (RFC 8252 §7.3): a one-shot
 * HTTP server on 127.0.0.1 that receives `?code=…&state=…` from the browser,
 * answers a small "you can close this tab" page and hands the code over. The
 * port is chosen before the flow starts (it is part of the registered redirect
 * URI) and the server listens only while a sign-in waits for the browser.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const HOST = '127.0.0.1';
const PATH = '/callback';

export class AuthorizationDeniedError extends Error {}

/**
 * How the browser reaches a loopback URL on this machine. In a remote window
 * (code-server, Remote SSH) the browser runs elsewhere, and VS Code's
 * `asExternalUri` forwards the port and gives the URL to use there.
 */
export type PublicUrlOf = (loopbackUrl: string) => Promise<string>;

/** What the browser brings back: the code, and the issuer when the authorization server names it. */
export interface AuthorizationResponse {
  code: string;
  iss?: string;
}

export class LoopbackRedirect {
  private port: number | undefined;
  private publicUrl: string | undefined;

  constructor(private readonly publicUrlOf?: PublicUrlOf) {}

  /** The redirect URI, as the browser reaches it; `reserve()` must have run. */
  get url(): string {
    if (this.port === undefined || this.publicUrl === undefined) throw new Error('the loopback redirect has no port yet');
    return this.publicUrl;
  }

  /**
   * Picks the port: `preferred` (the one a registration names), else the one
   * picked before, when it is free now; any free port otherwise.
   */
  async reserve(preferred?: number): Promise<void> {
    const wanted = preferred ?? this.port;
    this.port = (wanted !== undefined ? await freePort(wanted) : undefined) ?? (await freePort(0));
    const local = `http://${HOST}:${this.port}${PATH}`;
    this.publicUrl = this.publicUrlOf ? await this.publicUrlOf(local) : local;
  }

  /** The port of a redirect URI we registered earlier, if it is one of ours (a forwarded one is not). */
  static portOf(redirectUri: string | undefined): number | undefined {
    if (!redirectUri) return undefined;
    try {
      const url = new URL(redirectUri);
      return url.hostname === HOST && url.pathname === PATH && url.port ? Number(url.port) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Listens for the browser's return with `state`. Resolves with the code and
   * the issuer the authorization server named (`iss`, RFC 9207, which the SDK
   * checks); rejects when the authorization server reports an error or `signal`
   * aborts. Requests with another state are answered and ignored (a stale tab).
   */
  async receive(state: string, signal: AbortSignal): Promise<{ code: Promise<AuthorizationResponse> }> {
    let settle!: { resolve: (response: AuthorizationResponse) => void; reject: (error: Error) => void };
    const code = new Promise<AuthorizationResponse>((resolve, reject) => (settle = { resolve, reject }));
    const server = createServer((request, response) => {
      const outcome = this.answer(request, response, state);
      if (outcome === 'ignored') return;
      if (outcome instanceof Error) settle.reject(outcome);
      else settle.resolve(outcome);
    });
    await listen(server, this.port ?? 0);
    this.port = (server.address() as AddressInfo).port;
    const stop = (): void => settle.reject(signal.reason instanceof Error ? signal.reason : new Error('sign-in cancelled'));
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop, { once: true });
    void code
      .catch(() => undefined)
      .finally(() => {
        signal.removeEventListener('abort', stop);
        // The page being sent finishes (its connection closes after it); idle ones go now.
        server.close();
        server.closeIdleConnections();
      });
    return { code };
  }

  private answer(request: IncomingMessage, response: ServerResponse, state: string): AuthorizationResponse | Error | 'ignored' {
    const url = new URL(request.url ?? '/', `http://${HOST}`);
    // A forwarding proxy may keep its own prefix (code-server's /absproxy/PORT/callback).
    if (request.method !== 'GET' || !url.pathname.endsWith(PATH)) {
      page(response, 404, 'Not found', 'Elicit is waiting for a sign-in here, nothing else.');
      return 'ignored';
    }
    if (url.searchParams.get('state') !== state) {
      page(response, 400, 'Sign-in link expired', 'This is not the sign-in Elicit is waiting for. Start the sign-in again from VS Code.');
      return 'ignored';
    }
    const error = url.searchParams.get('error');
    if (error) {
      const description = url.searchParams.get('error_description');
      page(
        response,
        400,
        'Sign-in failed',
        `The authorization server answered: ${error}${description ? ` (${description})` : ''}. You can close this tab.`,
      );
      return new AuthorizationDeniedError(`the authorization server answered ${error}${description ? `: ${description}` : ''}`);
    }
    const code = url.searchParams.get('code');
    if (!code) {
      page(response, 400, 'Sign-in failed', 'The authorization server sent no code. You can close this tab.');
      return new AuthorizationDeniedError('the authorization server sent no code');
    }
    page(response, 200, 'Signed in', 'You can close this tab and return to VS Code.');
    const iss = url.searchParams.get('iss');
    return iss === null ? { code } : { code, iss };
  }
}

function page(response: ServerResponse, status: number, title: string, text: string): void {
  response.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    'Referrer-Policy': 'no-referrer',
    Connection: 'close',
  });
  response.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Elicit</title>` +
      '<style>body{font:16px system-ui,sans-serif;margin:4rem auto;max-width:32rem;padding:0 1rem}</style></head>' +
      `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** `port` when it can be bound now (any free port for 0), otherwise undefined. */
async function freePort(port: number): Promise<number | undefined> {
  const server = createServer();
  try {
    await listen(server, port);
    return (server.address() as AddressInfo).port;
  } catch {
    return undefined;
  } finally {
    server.close();
  }
}
