/**
 * The Elicit gateway: an MCP server on 127.0.0.1 through which agents outside
 * the editor (CLI agents in the terminal, desktop apps) ask the person in VS
 * Code. It offers `ask_user` and forwards the tools of the MCP servers
 * configured in Elicit, namespaced by server. It speaks both MCP revisions, on
 * the official v2 server package: 2026-07-28 clients are served per request
 * (`createMcpHandler`), 2025-era clients get a Streamable HTTP session of their
 * own. Every request needs the bearer token; Host and Origin are checked
 * against DNS rebinding; sessions are capped and expire when idle.
 * No vscode import: integration tests run it directly.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, createMcpHandler, type CallToolResult, type McpHttpHandler, type Tool } from '@modelcontextprotocol/server';
import { isInvalidRequestError, errorText } from '../core/errors';
import type { Asker } from '../core/request';
import type { ToolAnswer, ToolQuestion } from '../core/askUser/questionTypes';
import { TOOL_QUESTION_SCHEMA, readToolQuestion } from '../core/askUser/toolQuestions';
import { refuseHostOrOrigin } from '../core/http/hostOrigin';
import { waitAtMost } from '../core/time/delay';
import { joinSignals } from '../core/joinSignals';
import { holderProof, isHex32, listenOnLoopback, PROOF_PATH, type LoopbackTwin } from '../process/portHolder';
import { BodyError, LegacySessions, bearerToken, clientName, reply, requestScope, sameSecret, serveMcp } from './httpFront';
import { gatewayUrl } from './portChoice';

// The agent sessions' endpoints share this bundle (dist/gateway.js) and its server package: loaded with it.
export { AgentEndpoints } from './agentEndpoints';

export const ASK_USER = 'ask_user';
/** 2025-era sessions kept at once; the least recently used idle one makes room for a new one. */
export const MAX_SESSIONS = 32;
/** A 2025-era session nobody used for this long is closed. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** How long stopping waits for the ended calls' results to reach their clients. */
const ENDED_CALLS_FLUSH_MS = 1_500;
/** Why a call still running ended, when the gateway stops without a reason of its own. */
export const GATEWAY_STOPPED = 'The Elicit gateway stopped before this call ended, so the call was stopped.';

export interface UpstreamTools {
  list(): Promise<Array<{ server: string; tool: Tool }>>;
  call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

export interface GatewayOptions {
  /** The current bearer token (read on every request, so rotation takes effect at once). */
  token(): string;
  /** 0 picks a free port. */
  port: number;
  /** Asks the person, naming the asker as gatewayAsker() does. */
  ask(asker: Asker, question: ToolQuestion, signal: AbortSignal): Promise<ToolAnswer>;
  upstream: UpstreamTools;
  log(line: string): void;
  version: string;
  /** For tests: a shorter idle time and session cap. */
  sessionIdleMs?: number;
  maxSessions?: number;
}

export class GatewayServer {
  private httpServer: http.Server | undefined;
  /** [::1] at the same port, held so no other program answers clients that resolve "localhost" there. */
  private twin: LoopbackTwin | undefined;
  private modern: McpHttpHandler | undefined;
  /** 2025-era clients' sessions, while the gateway runs. */
  private sessions: LegacySessions | undefined;
  private forwarded = new Map<string, { server: string; tool: string }>();
  private _port = 0;
  /** Aborted as the gateway stops: each call still running ends with an error result saying why. */
  private stopping = new AbortController();
  /** The POST requests being answered (their responses carry the calls' results), until each response ends. */
  private readonly openPosts = new Set<Promise<void>>();

  constructor(private readonly options: GatewayOptions) {}

  get port(): number {
    return this._port;
  }

  get url(): string {
    return gatewayUrl(this._port);
  }

  get running(): boolean {
    return this.httpServer?.listening === true;
  }

  /** Open 2025-era sessions (2026-07-28 clients hold none). */
  get sessionCount(): number {
    return this.sessions?.size ?? 0;
  }

  async start(): Promise<void> {
    if (this.running) return;
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.modern = createMcpHandler(() => this.newServer(), {
      // 2025-era clients are served by sessions of our own (below), so the asker stays known.
      legacy: 'reject',
      onerror: (error) => this.options.log(`gateway: ${error.message}`),
    });
    const server = http.createServer((req, res) => void this.handle(req, res));
    // Loopback only: nothing outside this machine can reach it. [::1] too, where it exists (portHolder.ts).
    this.twin = await listenOnLoopback(server, this.options.port, '127.0.0.1');
    // An accept error (too many open files) is logged, never thrown at the extension host.
    server.on('error', (error) => this.options.log(`gateway: ${error.message}`));
    this.httpServer = server;
    this._port = (server.address() as AddressInfo).port;
    this.sessions = new LegacySessions({
      max: this.options.maxSessions ?? MAX_SESSIONS,
      idleMs: this.options.sessionIdleMs ?? SESSION_IDLE_MS,
      log: this.options.log,
      label: 'gateway session',
    });
    this.options.log(`gateway listening on ${this.url}`);
  }

  /**
   * Stops the gateway. Calls still running end first with an error result that says `why` (an agent
   * reads it and can call again), and their results are given a moment to reach the clients: cut
   * off, a client would wait for them for ever.
   */
  async stop(why = GATEWAY_STOPPED): Promise<void> {
    this.stopping.abort(new Error(why));
    await waitAtMost(Promise.all([...this.openPosts]), ENDED_CALLS_FLUSH_MS);
    await this.sessions?.closeAll();
    this.sessions = undefined;
    await this.modern?.close().catch(() => undefined);
    this.modern = undefined;
    const server = this.httpServer;
    this.httpServer = undefined;
    const twin = this.twin?.close();
    this.twin = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await twin;
      this.options.log('gateway stopped');
    }
  }

  /** Tells connected clients the forwarded tools changed (a server was added or removed). */
  async toolsChanged(): Promise<void> {
    this.modern?.notify.toolsChanged();
    for (const server of this.sessions?.servers() ?? []) await server.sendToolListChanged().catch(() => undefined);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // Another Elicit window finding this port taken asks it to prove it is Elicit (process/portHolder.ts).
      if (url.pathname.startsWith(`${PROOF_PATH}/`) && req.method === 'GET' && this.hostAllowed(req)) {
        return this.prove(res, url.pathname.slice(PROOF_PATH.length + 1));
      }
      const refusal = this.refuse(req);
      if (refusal) return reply(res, refusal.status, refusal.message, refusal.headers);
      if (url.pathname !== '/mcp') return reply(res, 404, 'Not found: the gateway answers at /mcp');

      await serveMcp(
        req,
        res,
        {
          legacy: (request, body) => this.sessions!.serve(request, body, 'gateway', () => this.newServer()),
          modern: (request, body) => this.modern!.fetch(request, { parsedBody: body }),
        },
        [this.openPosts],
      );
    } catch (error) {
      this.options.log(`gateway request failed: ${errorText(error)}`);
      if (!res.headersSent) reply(res, error instanceof BodyError ? error.status : 500, errorText(error));
    }
  }

  /** The answer to a holder challenge: an HMAC keyed by the token, never the token. */
  private prove(res: http.ServerResponse, nonce: string): void {
    if (!isHex32(nonce)) return reply(res, 400, 'A challenge is 64 hexadecimal characters');
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify({ proof: holderProof(this.options.token(), this._port, nonce) }));
  }

  /** The Host names this gateway answers to: loopback at its own port (no DNS rebinding). */
  private allowedHosts(): string[] {
    return [`127.0.0.1:${this._port}`, `localhost:${this._port}`, `[::1]:${this._port}`];
  }

  /** The same Host and Origin check as the device server's (core/http/hostOrigin.ts); a repeated Host is refused. */
  private hostOrOrigin(req: http.IncomingMessage): 'host' | 'origin' | undefined {
    return refuseHostOrOrigin(req.headersDistinct, { hosts: this.allowedHosts(), scheme: 'http' });
  }

  private hostAllowed(req: http.IncomingMessage): boolean {
    return this.hostOrOrigin(req) === undefined && req.headers.origin === undefined;
  }

  /** Host, Origin and token checks, before anything else is read. */
  private refuse(req: http.IncomingMessage): { status: number; message: string; headers?: Record<string, string> } | undefined {
    const refused = this.hostOrOrigin(req);
    if (refused === 'host') return { status: 403, message: 'Forbidden: unexpected Host header' };
    if (refused === 'origin') return { status: 403, message: 'Forbidden: cross-origin requests are not allowed' };
    const token = bearerToken(req);
    if (token === undefined || !sameSecret(token, this.options.token())) {
      return {
        status: 401,
        message: 'Unauthorized: send Authorization: Bearer <gateway token>',
        headers: { 'WWW-Authenticate': 'Bearer realm="elicit-gateway"' },
      };
    }
    return undefined;
  }

  /** The MCP server behind one 2025-era session or one 2026-07-28 request. */
  private newServer(): Server {
    const server = new Server(
      { name: 'elicit-gateway', version: this.options.version },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.setRequestHandler('tools/list', async () => ({ tools: await this.listTools() }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const stopping = this.stopping.signal;
      const ends = joinSignals([ctx.mcpReq.signal, requestScope.getStore(), stopping]);
      const signal = ends.signal;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      // Ended by the gateway stopping (the window closing): said as a tool error, which the agent's model reads.
      const stopped = (): CallToolResult => ({ content: [{ type: 'text', text: errorText(stopping.reason) }], isError: true });
      try {
        if (request.params.name !== ASK_USER) return await this.forward(request.params.name, args, signal);
        const asked = await this.askUser(gatewayAsker(clientName(server)), args, signal);
        // The question closed because the gateway stopped, not because the person cancelled it.
        return stopping.aborted && (asked.structuredContent as { action?: unknown } | undefined)?.action === 'cancel' ? stopped() : asked;
      } catch (error) {
        if (stopping.aborted) return stopped();
        throw error;
      } finally {
        ends.dispose();
      }
    });
    return server;
  }

  private async listTools(): Promise<Tool[]> {
    const askUser: Tool = {
      name: ASK_USER,
      title: 'Ask the user in VS Code',
      description:
        'Ask the human user a question and wait for the answer, shown natively in VS Code. kind: text | choice (options, allowOther) | multiChoice (options) | confirm | form (a flat JSON schema) | secret (secretName; you receive only a ${secret:NAME} reference, never the value) | clipboardWrite (text) | clipboardRead | location (accuracy high or low; question says why: the user shares their position from their paired phone, answer {lat, lng, accuracy} in degrees and metres, or {place} if they type one; action denied if they refuse, then ask for a city). Result: {action: accept|decline|cancel|denied, answer?, reference?, note?}.',
      inputSchema: TOOL_QUESTION_SCHEMA as unknown as Tool['inputSchema'],
    };
    const forwarded = new Map<string, { server: string; tool: string }>();
    const tools: Tool[] = [askUser];
    for (const { server, tool } of await this.options.upstream.list().catch(() => [])) {
      const name = namespaced(server, tool.name, forwarded);
      forwarded.set(name, { server, tool: tool.name });
      tools.push({ ...tool, name, description: `[${server}] ${tool.description ?? tool.title ?? tool.name}` });
    }
    this.forwarded = forwarded;
    return tools;
  }

  private async askUser(asker: Asker, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    try {
      const answer = await this.options.ask(asker, readToolQuestion(args), signal);
      return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: { ...answer } };
    } catch (error) {
      if (isInvalidRequestError(error)) return { content: [{ type: 'text', text: error.message }], isError: true };
      throw error;
    }
  }

  private async forward(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (!this.forwarded.has(name)) await this.listTools();
    const target = this.forwarded.get(name);
    if (!target) return { content: [{ type: 'text', text: `Unknown tool ${name}` }], isError: true };
    return this.options.upstream.call(target.server, target.tool, args, signal);
  }
}

/** "my server" + "get_forecast" → "my_server__get_forecast" (tool names allow [A-Za-z0-9_.-], at most 64). */
function namespaced(server: string, tool: string, taken: Map<string, unknown>): string {
  const clean = (s: string): string => s.replace(/[^A-Za-z0-9_.-]+/g, '_');
  let name = `${clean(server)}__${clean(tool)}`.slice(0, 64);
  for (let i = 2; taken.has(name); i++) name = `${name.slice(0, 60)}_${i}`;
  return name;
}

/**
 * Who asks through the gateway: the client names itself, so its name is shown
 * as the gateway's client ("gateway · github"), never as a configured server,
 * and every gateway client shares one per-asker limit however it calls itself.
 */
export function gatewayAsker(client: string): Asker {
  return { kind: 'gateway', name: `gateway · ${client}`, limitGroup: 'gateway' };
}
