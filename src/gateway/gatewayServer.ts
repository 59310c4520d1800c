/**
 * The Elicit gateway: a Streamable HTTP MCP server on 127.0.0.1 through which
 * agents outside the editor (CLI agents in the terminal, desktop apps) ask the
 * person in VS Code. It offers `ask_user` and forwards the tools of the MCP
 * servers configured in Elicit, namespaced by server. Every request needs the
 * bearer token; Host and Origin are checked against DNS rebinding.
 * No vscode import: integration tests run it directly.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  isInitializeRequest,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { InvalidRequestError } from '../core/errors';
import { TOOL_QUESTION_SCHEMA, readToolQuestion, type ToolAnswer, type ToolQuestion } from '../core/toolQuestions';

export const ASK_USER = 'ask_user';
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface UpstreamTools {
  list(): Promise<Array<{ server: string; tool: Tool }>>;
  call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

export interface GatewayOptions {
  /** The current bearer token (read on every request, so rotation takes effect at once). */
  token(): string;
  /** 0 picks a free port. */
  port: number;
  /** Asks the person; `client` is the connecting client's name, shown as the asker. */
  ask(client: string, question: ToolQuestion, signal: AbortSignal): Promise<ToolAnswer>;
  upstream: UpstreamTools;
  log(line: string): void;
  version: string;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
}

/** The abort signal of the HTTP request a message arrived on: it aborts when the client goes away. */
const requestScope = new AsyncLocalStorage<AbortSignal>();

export class GatewayServer {
  private httpServer: http.Server | undefined;
  private readonly sessions = new Map<string, Session>();
  private forwarded = new Map<string, { server: string; tool: string }>();
  private _port = 0;

  constructor(private readonly options: GatewayOptions) {}

  get port(): number {
    return this._port;
  }

  get url(): string {
    return `http://127.0.0.1:${this._port}/mcp`;
  }

  get running(): boolean {
    return this.httpServer?.listening === true;
  }

  async start(): Promise<void> {
    if (this.running) return;
    const server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Loopback only: nothing outside this machine can reach it.
      server.listen(this.options.port, '127.0.0.1', () => resolve());
    });
    this.httpServer = server;
    this._port = (server.address() as AddressInfo).port;
    this.options.log(`gateway listening on ${this.url}`);
  }

  async stop(): Promise<void> {
    for (const session of this.sessions.values()) await session.transport.close().catch(() => undefined);
    this.sessions.clear();
    const server = this.httpServer;
    this.httpServer = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      this.options.log('gateway stopped');
    }
  }

  /** Tells connected clients the forwarded tools changed (a server was added or removed). */
  async toolsChanged(): Promise<void> {
    for (const { server } of this.sessions.values()) await server.sendToolListChanged().catch(() => undefined);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const refusal = this.refuse(req);
      if (refusal) return reply(res, refusal.status, refusal.message, refusal.headers);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/mcp') return reply(res, 404, 'Not found: the gateway answers at /mcp');

      const client = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) client.abort(new Error('the client disconnected'));
      });
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const sessionId = header(req, 'mcp-session-id');
      let session = sessionId ? this.sessions.get(sessionId) : undefined;
      if (!session) {
        if (sessionId) return reply(res, 404, 'Unknown session');
        if (req.method !== 'POST' || !isInitializeRequest(body)) return reply(res, 400, 'Start a session with an initialize request');
        session = this.newSession();
      }
      await requestScope.run(client.signal, () => session!.transport.handleRequest(req, res, body));
    } catch (error) {
      this.options.log(`gateway request failed: ${(error as Error).message}`);
      if (!res.headersSent) reply(res, error instanceof BodyError ? error.status : 500, (error as Error).message);
    }
  }

  /** Host, Origin and token checks, before anything else is read. */
  private refuse(req: http.IncomingMessage): { status: number; message: string; headers?: Record<string, string> } | undefined {
    const allowedHosts = [`127.0.0.1:${this._port}`, `localhost:${this._port}`];
    if (!allowedHosts.includes(header(req, 'host') ?? '')) return { status: 403, message: 'Forbidden: unexpected Host header' };
    const origin = header(req, 'origin');
    if (origin !== undefined && !allowedHosts.some((host) => origin === `http://${host}`)) {
      return { status: 403, message: 'Forbidden: cross-origin requests are not allowed' };
    }
    const auth = /^Bearer\s+(.+)$/i.exec(header(req, 'authorization') ?? '');
    if (!auth || !sameSecret(auth[1]!.trim(), this.options.token())) {
      return { status: 401, message: 'Unauthorized: send Authorization: Bearer <gateway token>', headers: { 'WWW-Authenticate': 'Bearer realm="elicit-gateway"' } };
    }
    return undefined;
  }

  private newSession(): Session {
    const server = new Server({ name: 'elicit-gateway', version: this.options.version }, { capabilities: { tools: { listChanged: true } } });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
        this.options.log(`gateway session from ${clientName(server)}`);
      },
    });
    const session: Session = { transport, server };
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await this.listTools() }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const signals = [extra.signal, requestScope.getStore()].filter((s): s is AbortSignal => s !== undefined);
      const signal = AbortSignal.any(signals);
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      if (request.params.name === ASK_USER) return this.askUser(clientName(server), args, signal);
      return this.forward(request.params.name, args, signal);
    });
    void server.connect(transport);
    return session;
  }

  private async listTools(): Promise<Tool[]> {
    const askUser: Tool = {
      name: ASK_USER,
      title: 'Ask the user in VS Code',
      description:
        'Ask the human user a question and wait for the answer, shown natively in VS Code. kind: text | choice (options, allowOther) | multiChoice (options) | confirm | form (a flat JSON schema) | secret (secretName; you receive only a ${secret:NAME} reference, never the value). Result: {action: accept|decline|cancel, answer?, reference?}.',
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

  private async askUser(client: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    try {
      const answer = await this.options.ask(client, readToolQuestion(args), signal);
      return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: { ...answer } };
    } catch (error) {
      if (error instanceof InvalidRequestError) return { content: [{ type: 'text', text: error.message }], isError: true };
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

function clientName(server: Server): string {
  const info = server.getClientVersion();
  return info?.name ? String(info.name).slice(0, 80) : 'an MCP client';
}

/** Constant-time comparison of two secrets of any length. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyError(413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError(400, 'The body is not valid JSON');
  }
}

function reply(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
