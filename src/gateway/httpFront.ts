/**
 * What Elicit's two loopback MCP listeners share, the gateway (gatewayServer.ts) and the
 * endpoints that offer the person's servers to an agent session (agentEndpoints.ts): reading
 * a request's body within a cap, the bearer token and its constant-time check, JSON-RPC
 * error replies, and the 2025-era Streamable HTTP sessions (each bound to the scope it was
 * opened in, capped, closed when idle). 2026-07-28 clients need no session.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type * as http from 'node:http';
import { Server, WebStandardStreamableHTTPServerTransport, isLegacyRequest } from '@modelcontextprotocol/server';
import { sendWebResponse, toWebRequest } from './webBridge';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyError(413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError(400, 'The body is not valid JSON');
  }
}

export function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The token of `Authorization: Bearer <token>`, if the request sent one. */
export function bearerToken(req: http.IncomingMessage): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(header(req, 'authorization') ?? '')?.[1]?.trim();
}

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}

export function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

export function jsonError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function reply(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The abort signal of the HTTP request a 2025-era message arrived on: it aborts when the client goes away. */
export const requestScope = new AsyncLocalStorage<AbortSignal>();

/** Where an MCP request goes once read: a 2025-era one to its session (within requestScope), a 2026-07-28 one per request. */
export interface McpRoute {
  legacy(request: Request, body: unknown): Promise<Response>;
  modern(request: Request, body: unknown): Promise<Response>;
}

/**
 * One MCP request over node's HTTP, past the listener's own checks: its body read within the
 * cap, a web Request whose signal aborts when the client goes away, served by the route of its
 * revision, the answer streamed back. `openPosts`: each gets a promise settled when a POST's
 * response closes (what a stop waits for, the results of the calls it ends on their way).
 */
export async function serveMcp(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  route: McpRoute,
  openPosts: ReadonlyArray<Set<Promise<void>>>,
): Promise<void> {
  const client = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) client.abort(new Error('the client disconnected'));
  });
  if (req.method === 'POST') {
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    for (const set of openPosts) set.add(closed);
    void closed.then(() => openPosts.forEach((set) => set.delete(closed)));
  }
  const text = req.method === 'POST' ? await readBody(req) : undefined;
  const body = text === undefined ? undefined : parseJson(text);
  const request = toWebRequest(req, text, client.signal);
  const response = (await isLegacyRequest(request, body))
    ? await requestScope.run(client.signal, () => route.legacy(request, body))
    : await route.modern(request, body);
  await sendWebResponse(response, res);
}

/** The client's name from its initialize, for logs and askers. */
export function clientName(server: Server): string {
  const info = server.getClientVersion();
  return info?.name ? String(info.name).slice(0, 80) : 'an MCP client';
}

/** A 2025-era client's session. */
interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** What it was opened for: a request naming its id from another scope is not served. */
  scope: string;
  lastSeen: number;
  /** Requests being served right now: a session answering a question is never idle. */
  busy: number;
}

export interface LegacySessionOptions {
  max: number;
  idleMs: number;
  log(line: string): void;
  /** What the log calls the listener's sessions ("gateway session"). */
  label: string;
}

/** 2025-era Streamable HTTP sessions: opened by `initialize`, capped, closed when idle or when their scope ends. */
export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: LegacySessionOptions) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, options.idleMs));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** The request within its session, or opening one with `initialize`; `newServer` makes the session's MCP server. */
  async serve(request: Request, body: unknown, scope: string, newServer: () => Server): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id') ?? undefined;
    let session = sessionId ? this.sessions.get(sessionId) : undefined;
    if (session && session.scope !== scope) session = undefined;
    if (!session) {
      if (sessionId) return jsonError(404, 'Unknown session');
      if (request.method !== 'POST' || !isInitialize(body)) return jsonError(400, 'Start a session with an initialize request');
      if (!this.makeRoom()) return jsonError(503, `Already ${this.sessions.size} open sessions; close one first`);
      session = this.open(scope, newServer());
    }
    session.lastSeen = Date.now();
    session.busy++;
    try {
      return await session.transport.handleRequest(request, { parsedBody: body });
    } finally {
      session.busy--;
      session.lastSeen = Date.now();
    }
  }

  /** Every session's MCP server (to tell their clients something). */
  servers(): Server[] {
    return [...this.sessions.values()].map((session) => session.server);
  }

  /** Closes the sessions of the scopes `ended` picks (an agent session's grant revoked). */
  closeWhere(ended: (scope: string) => boolean, why: string): void {
    for (const [id, session] of this.sessions) if (ended(session.scope)) this.close(id, session, why);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    for (const session of all) await session.transport.close().catch(() => undefined);
  }

  private open(scope: string, server: Server): LegacySession {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, session),
    });
    const session: LegacySession = { transport, server, scope, lastSeen: Date.now(), busy: 0 };
    // The name is known once initialize is done, not when the session id is made.
    server.oninitialized = () =>
      this.options.log(`${this.options.label} from ${clientName(server)} (MCP ${server.getNegotiatedProtocolVersion?.() ?? '2025'})`);
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    void server.connect(transport);
    return session;
  }

  /** True when a new session fits: at the cap, the least recently used idle session is closed. */
  private makeRoom(): boolean {
    if (this.sessions.size < this.options.max) return true;
    const idle = [...this.sessions.entries()].filter(([, s]) => s.busy === 0).sort((a, b) => a[1].lastSeen - b[1].lastSeen)[0];
    if (!idle) return false;
    this.close(idle[0], idle[1], 'to make room for a new one');
    return true;
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.options.idleMs;
    for (const [id, session] of this.sessions) {
      if (session.busy === 0 && session.lastSeen < cutoff) this.close(id, session, 'after being idle');
    }
  }

  private close(id: string, session: LegacySession, why: string): void {
    this.sessions.delete(id);
    void session.transport.close().catch(() => undefined);
    this.options.log(`${this.options.label} of ${clientName(session.server)} closed ${why}`);
  }
}
