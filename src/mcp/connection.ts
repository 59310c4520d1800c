/**
 * One MCP server connection: the official SDK client over stdio or HTTP, with
 * elicitation handled from the raw JSON-RPC request (the SDK's own handler
 * strips keywords such as `pattern` and rejects `format: "password"` before a
 * handler sees them). No vscode import: integration tests drive it directly.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type JSONRPCRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { InvalidRequestError } from '../core/errors';
import { Emitter } from '../core/events';
import type { Asker, ElicitRequest, ElicitResult } from '../core/request';
import { askerKey, type UrlWaits } from '../core/urlWaits';
import type { ServerConfig } from './config';

export type ServerStatus = 'stopped' | 'starting' | 'running' | 'error';

/** Where a connection's questions go: normally the broker's `ask`. */
export type AskFunction = (request: ElicitRequest) => Promise<ElicitResult>;

export interface ConnectionOptions {
  ask: AskFunction;
  /** One line of the server's stderr or of our own diagnostics. Never receives answers. */
  log: (line: string) => void;
  clientInfo?: { name: string; version: string };
  /** Extra environment for stdio servers (the configured `env` wins). */
  baseEnv?: Record<string, string | undefined>;
  /** Where `notifications/elicitation/complete` is delivered for URL-mode questions. */
  urlWaits?: UrlWaits;
}

/** A tool call may wait for a person for a long time: no SDK request timeout cuts it short. */
const NO_TIMEOUT_MS = 2_147_000_000;

export class McpConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private readonly runningTools = new Map<number, string>();
  private nextCallId = 1;
  private _status: ServerStatus = 'stopped';
  private _error: string | undefined;
  private readonly statusChanges = new Emitter<ServerStatus>();
  readonly onDidChangeStatus = this.statusChanges.event;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {}

  get name(): string {
    return this.config.name;
  }
  private get key(): string {
    return askerKey({ kind: 'mcp', name: this.name });
  }
  get status(): ServerStatus {
    return this._status;
  }
  /** The last failure, as text for the person. */
  get error(): string | undefined {
    return this._error;
  }

  /** Connects if needed; concurrent callers share one attempt. */
  connect(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async listTools(): Promise<Tool[]> {
    const client = await this.connect();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const client = await this.connect();
    const id = this.nextCallId++;
    this.runningTools.set(id, name);
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: NO_TIMEOUT_MS,
      });
      return result as CallToolResult;
    } finally {
      this.runningTools.delete(id);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await client.close().catch(() => undefined);
    this.setStatus('stopped');
  }

  private async open(): Promise<Client> {
    this.setStatus('starting');
    const client = new Client(this.options.clientInfo ?? { name: 'elicit', version: '0.0.0' }, {
      capabilities: { elicitation: { form: {}, url: {} } },
    });
    client.fallbackRequestHandler = async (request, extra) => {
      if (request.method === 'elicitation/create') return this.onElicitation(request, extra.signal);
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    };
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method !== 'notifications/elicitation/complete') return;
      const id = (notification.params as { elicitationId?: unknown } | undefined)?.elicitationId;
      // Unknown or already completed ids are ignored, as the spec asks.
      if (typeof id === 'string') this.options.urlWaits?.complete(this.key, id);
    };
    client.onclose = () => {
      this.options.urlWaits?.cancelAll(this.key);
      if (this.client !== client) return;
      this.client = undefined;
      this.fail('the server closed the connection');
    };
    try {
      await client.connect(this.createTransport());
    } catch (error) {
      this.fail(describeError(error));
      await client.close().catch(() => undefined);
      throw new Error(`Could not start MCP server "${this.name}": ${this._error}`);
    }
    this.client = client;
    this.setStatus('running');
    return client;
  }

  private createTransport(): Transport {
    const transport = this.config.transport;
    if (transport.type === 'stdio') {
      const stdio = new StdioClientTransport({
        command: transport.command,
        args: transport.args,
        // The SDK passes only a few variables unless `env` is given: the server sees the
        // editor's environment plus what the configuration sets.
        env: { ...definedOnly(this.options.baseEnv ?? process.env), ...transport.env },
        cwd: transport.cwd,
        stderr: 'pipe',
      });
      stdio.stderr?.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split(/\r?\n/)) if (line) this.options.log(line);
      });
      return stdio;
    }
    const requestInit = { headers: transport.headers };
    return transport.type === 'sse'
      ? new SSEClientTransport(new URL(transport.url), { requestInit })
      : new StreamableHTTPClientTransport(new URL(transport.url), { requestInit });
  }

  private async onElicitation(request: JSONRPCRequest, signal: AbortSignal): Promise<ElicitResult & Record<string, unknown>> {
    try {
      const result = await this.options.ask(this.toElicitRequest(request.params, signal));
      return { ...result };
    } catch (error) {
      if (error instanceof InvalidRequestError) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  }

  private toElicitRequest(params: unknown, signal: AbortSignal): ElicitRequest {
    if (typeof params !== 'object' || params === null) throw new InvalidRequestError('elicitation/create needs params');
    const p = params as Record<string, unknown>;
    if (typeof p.message !== 'string') throw new InvalidRequestError('elicitation/create needs a "message" string');
    const mode = p.mode ?? 'form';
    if (mode === 'url') {
      if (typeof p.url !== 'string') throw new InvalidRequestError('a URL elicitation needs a "url" string');
      if (typeof p.elicitationId !== 'string') throw new InvalidRequestError('a URL elicitation needs an "elicitationId" string');
      return { mode: 'url', asker: this.asker(), message: p.message, url: p.url, elicitationId: p.elicitationId, signal };
    }
    if (mode !== 'form') {
      throw new InvalidRequestError(`elicitation mode ${JSON.stringify(mode)} is not supported by this client`);
    }
    return { mode: 'form', asker: this.asker(), message: p.message, requestedSchema: p.requestedSchema, signal };
  }

  /** Names the tool call when exactly one is running, so the person knows why they are asked. */
  private asker(): Asker {
    const tools = [...new Set(this.runningTools.values())];
    return tools.length === 1
      ? { kind: 'mcp', name: this.name, detail: `tool ${tools[0]}` }
      : { kind: 'mcp', name: this.name };
  }

  private fail(message: string): void {
    this._error = message;
    this.setStatus('error');
    this.options.log(`[elicit] ${this.name}: ${message}`);
  }

  private setStatus(status: ServerStatus): void {
    if (status !== 'error') this._error = undefined;
    if (this._status === status) return;
    this._status = status;
    this.statusChanges.fire(status);
  }
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

function describeError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT') return `command not found (${e.path ?? 'spawn'})`;
  return e instanceof Error ? e.message : String(error);
}
