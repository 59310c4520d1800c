/**
 * The person's MCP servers, offered to an agent session that Elicit runs: one
 * MCP endpoint per server on 127.0.0.1, at `/servers/<name>`, each serving that server's
 * tools under their own names. A call goes through Elicit's own connection to the server
 * (its grants, sandbox, OAuth and per-asker limits), so the agent never sees a command line,
 * env, header, input value or token of a server; a question the server asks during the call
 * comes to the person, naming the agent and session it is for.
 *
 * Each agent session gets a grant: a token of its own, accepted only for the servers it was
 * given, and dead once revoked (the session closed, its agent exited, the window closing).
 * Host and Origin are checked as the gateway checks them. Both MCP revisions are served:
 * 2026-07-28 per request, 2025-era clients in sessions bound to their grant and server.
 * No vscode import: integration tests run it directly.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, createMcpHandler, type CallToolResult, type McpHttpHandler, type Tool } from '@modelcontextprotocol/server';
import { errorText } from '../core/errors';
import { refuseHostOrOrigin } from '../core/http/hostOrigin';
import { joinSignals } from '../core/joinSignals';
import { waitAtMost } from '../core/time/delay';
import { BodyError, LegacySessions, bearerToken, reply, requestScope, serveMcp } from './httpFront';

/** Where each server is served: `/servers/<name>`. */
export const SERVERS_PATH = '/servers/';
/** 2025-era sessions kept at once across every grant. */
const MAX_SESSIONS = 64;
const SESSION_IDLE_MS = 30 * 60_000;
/** How long stopping waits for the ended calls' results to reach their agents. */
const ENDED_CALLS_FLUSH_MS = 1_500;
/** What a call still running gets when its session ends without a reason of its own. */
export const SESSION_ENDED = 'The agent session ended before this call did, so Elicit stopped the call.';

/** Elicit's side of the calls: the person's servers by their names in Elicit. */
export interface AgentUpstream {
  list(server: string, signal: AbortSignal): Promise<Tool[]>;
  /** `caller` names the agent and session, for the person ("claude, session 1a2b3c4d"). */
  call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal, caller: string): Promise<CallToolResult>;
}

export interface AgentEndpointsOptions {
  upstream: AgentUpstream;
  log(line: string): void;
  version: string;
  /** 0 picks a free port (the default). */
  port?: number;
}

/** One server as an agent session is given it. */
export interface OfferedEndpoint {
  /** The name the agent sees (its tools read `<name>__<tool>` or `mcp__<name>__<tool>`). */
  name: string;
  /** The server's name in Elicit. */
  server: string;
  url: string;
}

/** What an agent session was given: its token and its servers. */
export interface SessionGrant {
  readonly token: string;
  readonly endpoints: readonly OfferedEndpoint[];
  readonly revoked: boolean;
  /** Ends the grant: its token is refused from now on and its calls still running end, saying `why`. */
  revoke(why?: string): void;
}

interface Grant extends SessionGrant {
  readonly id: string;
  /** Agent name → Elicit's server name. */
  readonly servers: ReadonlyMap<string, string>;
  caller(): string;
  readonly ended: AbortController;
  /** 2026-07-28 clients, one handler per server of the grant. */
  readonly handlers: Map<string, McpHttpHandler>;
  /** Its POST requests being answered, until each response ends. */
  readonly openPosts: Set<Promise<void>>;
}

export class AgentEndpoints {
  private httpServer: http.Server | undefined;
  private sessions: LegacySessions | undefined;
  private _port = 0;
  /** Grants by the SHA-256 of their token: a lookup that compares no secret. */
  private readonly grants = new Map<string, Grant>();
  private nextGrant = 1;
  private readonly openPosts = new Set<Promise<void>>();

  constructor(private readonly options: AgentEndpointsOptions) {}

  get port(): number {
    return this._port;
  }

  get running(): boolean {
    return this.httpServer?.listening === true;
  }

  /** Grants still in force. */
  get grantCount(): number {
    return this.grants.size;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.sessions = new LegacySessions({ max: MAX_SESSIONS, idleMs: SESSION_IDLE_MS, log: this.options.log, label: 'agent MCP session' });
    const server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Loopback only: nothing outside this machine can reach it.
      server.listen(this.options.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.httpServer = server;
    this._port = (server.address() as AddressInfo).port;
    this.options.log(`agent MCP endpoints listening on 127.0.0.1:${this._port}`);
  }

  /**
   * A new grant for one agent session: `servers`, the servers it gets, each by the name the agent
   * is to see it by and Elicit's name; `caller` names the agent and its session as they become known.
   */
  grant(servers: ReadonlyArray<{ name: string; server: string }>, caller: () => string): SessionGrant {
    if (!this.running) throw new Error('the agent MCP endpoints are not running');
    const token = randomBytes(32).toString('base64url');
    const names = agentNames(servers);
    const ended = new AbortController();
    const endpoints = [...names].map(([name, server]) => ({ name, server, url: `http://127.0.0.1:${this._port}${SERVERS_PATH}${name}` }));
    const grant: Grant = {
      id: `g${this.nextGrant++}`,
      token,
      endpoints,
      servers: names,
      caller,
      ended,
      handlers: new Map(),
      openPosts: new Set(),
      get revoked() {
        return ended.signal.aborted;
      },
      revoke: (why = SESSION_ENDED) => this.revoke(grant, why),
    };
    this.grants.set(digest(token), grant);
    return grant;
  }

  async stop(why = SESSION_ENDED): Promise<void> {
    for (const grant of [...this.grants.values()]) this.revoke(grant, why);
    await waitAtMost(Promise.all([...this.openPosts]), ENDED_CALLS_FLUSH_MS);
    await this.sessions?.closeAll();
    this.sessions = undefined;
    const server = this.httpServer;
    this.httpServer = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      this.options.log('agent MCP endpoints stopped');
    }
  }

  /**
   * The token is refused at once and the calls still running end; their results are given a
   * moment to reach the agent before the grant's sessions close (cut off, it would wait for ever).
   */
  private revoke(grant: Grant, why: string): void {
    if (grant.ended.signal.aborted) return;
    this.grants.delete(digest(grant.token));
    grant.ended.abort(new Error(why));
    void waitAtMost(Promise.all([...grant.openPosts]), ENDED_CALLS_FLUSH_MS).then(() => {
      this.sessions?.closeWhere((scope) => scope.startsWith(`${grant.id}/`), 'as its agent session ended');
      for (const handler of grant.handlers.values()) void handler.close().catch(() => undefined);
      grant.handlers.clear();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const refused = refuseHostOrOrigin(req.headersDistinct, {
        hosts: [`127.0.0.1:${this._port}`, `localhost:${this._port}`],
        scheme: 'http',
      });
      if (refused === 'host') return reply(res, 403, 'Forbidden: unexpected Host header');
      if (refused === 'origin') return reply(res, 403, 'Forbidden: cross-origin requests are not allowed');
      const token = bearerToken(req);
      const grant = token === undefined ? undefined : this.grants.get(digest(token));
      if (!grant) {
        return reply(res, 401, 'Unauthorized: this token belongs to no open agent session', {
          'WWW-Authenticate': 'Bearer realm="elicit-agent-servers"',
        });
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const name = url.pathname.startsWith(SERVERS_PATH) ? url.pathname.slice(SERVERS_PATH.length) : '';
      const server = grant.servers.get(name);
      // Servers this session was not given are not there, whatever they are called.
      if (server === undefined) return reply(res, 404, 'Not found: this agent session has no such server');

      const newServer = (): Server => this.newServer(grant, server);
      await serveMcp(
        req,
        res,
        {
          legacy: (request, body) => this.sessions!.serve(request, body, `${grant.id}/${name}`, newServer),
          modern: (request, body) => this.modernHandler(grant, name, newServer).fetch(request, { parsedBody: body }),
        },
        [this.openPosts, grant.openPosts],
      );
    } catch (error) {
      this.options.log(`agent MCP request failed: ${errorText(error)}`);
      if (!res.headersSent) reply(res, error instanceof BodyError ? error.status : 500, errorText(error));
    }
  }

  private modernHandler(grant: Grant, name: string, newServer: () => Server): McpHttpHandler {
    let handler = grant.handlers.get(name);
    if (!handler) {
      handler = createMcpHandler(newServer, {
        legacy: 'reject',
        onerror: (error) => this.options.log(`agent MCP endpoint ${name}: ${error.message}`),
      });
      grant.handlers.set(name, handler);
    }
    return handler;
  }

  /** The MCP server one agent session sees for one of the person's servers: its tools, called through Elicit. */
  private newServer(grant: Grant, server: string): Server {
    const mcp = new Server({ name: server, version: this.options.version }, { capabilities: { tools: {} } });
    mcp.setRequestHandler('tools/list', async (_request, ctx) => {
      const ends = joinSignals([ctx.mcpReq.signal, grant.ended.signal]);
      try {
        return { tools: await this.options.upstream.list(server, ends.signal) };
      } finally {
        ends.dispose();
      }
    });
    mcp.setRequestHandler('tools/call', async (request, ctx) => {
      const ends = joinSignals([ctx.mcpReq.signal, requestScope.getStore(), grant.ended.signal]);
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      // Ended by the session ending: said as a tool error, which the agent's model reads.
      const ended = (): CallToolResult => ({ content: [{ type: 'text', text: errorText(grant.ended.signal.reason) }], isError: true });
      try {
        const result = await this.options.upstream.call(server, request.params.name, args, ends.signal, grant.caller());
        return grant.ended.signal.aborted ? ended() : result;
      } catch (error) {
        if (grant.ended.signal.aborted) return ended();
        return { content: [{ type: 'text', text: `${server}: ${errorText(error)}` }], isError: true };
      } finally {
        ends.dispose();
      }
    });
    return mcp;
  }
}

/**
 * The servers' names as an agent can take them: letters, digits, `_` and `-` only (codex turns
 * whitespace into `_` and refuses a repeated name; both build tool names from it), each once:
 * "github (2)" → "github_2". Returns the agent's name → Elicit's.
 */
export function agentNames(servers: ReadonlyArray<{ name: string; server: string }>): Map<string, string> {
  const names = new Map<string, string>();
  for (const { name: wanted, server } of servers) {
    const base =
      wanted
        .replace(/[^A-Za-z0-9_-]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 48) || 'server';
    let name = base;
    for (let i = 2; names.has(name); i++) name = `${base}_${i}`;
    names.set(name, server);
  }
  return names;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
