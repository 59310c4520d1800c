/**
 * One MCP server connection: the official SDK client over stdio or HTTP, with
 * elicitation handled from the raw JSON-RPC request (the SDK's own handler
 * strips keywords such as `pattern` and rejects `format: "password"` before a
 * handler sees them). No vscode import: integration tests drive it directly.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  ListRootsRequestSchema,
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
import { allPages } from './catalog';
import { OpenRequests } from './cancelledRequests';
import { fallbackReason, shouldFallBackToSse } from './httpFallback';
import { resolveLaunch, type LaunchConfig } from './launch';
import { satisfyUrlElicitations } from './urlElicitationRequired';
import { CLIENT_TASK_CAPABILITIES, ElicitationTaskStore, isTaskAugmented } from './elicitationTasks';
import { childEnvironment, describeSpawnError } from '../process/processGroup';
import { GroupStdioTransport } from './stdioTransport';
import { OAuthSignIn, type AuthorizingTransport, type OAuthOptions } from './oauthSignIn';
import { callToolAsTask, mustRunAsTask } from './toolTasks';

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
  /**
   * What to start with: fills in `${input:…}` (asking the person) and reads `envFile`.
   * Without it, a server with inputs cannot start.
   */
  prepare?: (config: ServerConfig) => Promise<LaunchConfig>;
  /** OAuth for HTTP servers that require it; without it such a server fails with "Unauthorized". */
  oauth?: OAuthOptions;
  /**
   * The workspace folders, offered to the server as MCP roots (`roots/list`).
   * Without it Elicit does not declare the roots capability.
   */
  roots?: () => McpRoot[];
}

export interface McpRoot {
  /** A `file://` URI. */
  uri: string;
  name?: string;
}

/** A tool call may wait for a person for a long time: no SDK request timeout cuts it short. */
const NO_TIMEOUT_MS = 2_147_000_000;

export class McpConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private readonly runningTools = new Map<number, string>();
  /** Tools as last listed, for their `execution.taskSupport`. */
  private readonly listedTools = new Map<string, Tool>();
  private oauth: OAuthSignIn | undefined;
  /** The HTTP transport last created: a sign-in finishes on the transport that needed it. */
  private authTransport: AuthorizingTransport | undefined;
  private nextCallId = 1;
  private _status: ServerStatus = 'stopped';
  private _error: string | undefined;
  private readonly statusChanges = new Emitter<ServerStatus>();
  readonly onDidChangeStatus = this.statusChanges.event;
  private readonly elicitationCompletions = new Emitter<string>();
  /** Ids from the server's `notifications/elicitation/complete`. */
  readonly onDidCompleteElicitation = this.elicitationCompletions.event;
  /** Bumped by stop(), so a start still under way knows it must not keep its process. */
  private generation = 0;
  private _transportKind: LaunchConfig['type'] | undefined;

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
  /** The transport in use while connected: "sse" when an HTTP server fell back to legacy SSE. */
  get transportKind(): LaunchConfig['type'] | undefined {
    return this.client ? this._transportKind : undefined;
  }
  /** The stdio server's process id while it runs. */
  get pid(): number | undefined {
    const transport = this.client?.transport;
    return transport instanceof GroupStdioTransport ? transport.pid : undefined;
  }

  /** For deactivation: signals a stdio server's process group at once, without the grace of stop(). */
  terminateNow(): void {
    const transport = this.client?.transport;
    if (transport instanceof GroupStdioTransport) transport.terminateNow();
  }

  /** Connects if needed; concurrent callers share one attempt. */
  connect(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (!this.connecting) {
      const attempt = this.open().finally(() => {
        if (this.connecting === attempt) this.connecting = undefined;
      });
      this.connecting = attempt;
    }
    return this.connecting;
  }

  async listTools(): Promise<Tool[]> {
    const client = await this.connect();
    const tools = await allPages(async (cursor) => {
      const page = await this.signedIn(() => client.listTools(cursor ? { cursor } : undefined));
      return { items: page.tools, next: page.nextCursor };
    });
    for (const tool of tools) this.listedTools.set(tool.name, tool);
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const client = await this.connect();
    const id = this.nextCallId++;
    this.runningTools.set(id, name);
    const call = (): Promise<CallToolResult> => this.signedIn(() => this.invokeTool(client, name, args, signal));
    try {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof McpError) || error.code !== ErrorCode.UrlElicitationRequired) throw error;
        // -32042: the URL elicitations in the error first, then one retry (a second -32042 is the caller's).
        await satisfyUrlElicitations(error.data, {
          ask: this.options.ask,
          asker: { kind: 'mcp', name: this.name, detail: `tool ${name}` },
          what: name,
          onDidComplete: this.onDidCompleteElicitation,
          signal,
        });
        return await call();
      }
    } finally {
      this.runningTools.delete(id);
    }
  }

  async stop(): Promise<void> {
    this.oauth?.cancel();
    this.generation++;
    this.connecting = undefined;
    const client = this.client;
    this.client = undefined;
    if (client) await client.close().catch(() => undefined);
    this.setStatus('stopped');
  }

  /** The workspace folders changed: a running server is told to ask for the roots again. */
  async rootsChanged(): Promise<void> {
    if (!this.options.roots || !this.client) return;
    await this.client.sendRootsListChanged().catch((error: unknown) => this.options.log(`[elicit] roots/list_changed not sent: ${describeSpawnError(error)}`));
  }

  private async open(): Promise<Client> {
    const generation = this.generation;
    this.setStatus('starting');
    const tasks = new ElicitationTaskStore();
    const roots = this.options.roots;
    const client = new Client(this.options.clientInfo ?? { name: 'elicit', version: '0.0.0' }, {
      capabilities: {
        elicitation: { form: {}, url: {} },
        tasks: CLIENT_TASK_CAPABILITIES,
        ...(roots ? { roots: { listChanged: true } } : {}),
      },
      taskStore: tasks,
    });
    if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots() }));
    const openRequests = new OpenRequests();
    openRequests.listenTo(client);
    client.fallbackRequestHandler = async (request, extra) => {
      if (request.method === 'elicitation/create') {
        return openRequests.run(request.id, extra.signal, (signal) => this.onElicitation(request, tasks, { ...extra, signal }));
      }
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    };
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method !== 'notifications/elicitation/complete') return;
      const id = (notification.params as { elicitationId?: unknown } | undefined)?.elicitationId;
      // Unknown or already completed ids are ignored, as the spec asks.
      if (typeof id !== 'string') return;
      this.options.urlWaits?.complete(this.key, id);
      this.elicitationCompletions.fire(id);
    };
    client.onclose = () => {
      tasks.close();
      this.options.urlWaits?.cancelAll(this.key);
      if (this.client !== client) return;
      this.client = undefined;
      this.fail('the server closed the connection');
    };
    try {
      const launch = await (this.options.prepare ?? ((config) => resolveLaunch(config)))(this.config);
      if (launch.type !== 'stdio') await this.oauthFor(launch.url)?.prepare();
      await this.connectTransport(client, launch).catch(async (error: unknown) => {
        if (!(await this.signInAfter(error))) throw error;
        await client.close().catch(() => undefined);
        await this.connectTransport(client, launch);
      });
    } catch (error) {
      if (generation !== this.generation) throw new Error(`MCP server "${this.name}" was stopped while it started`);
      this.fail(describeSpawnError(error));
      await client.close().catch(() => undefined);
      throw new Error(`Could not start MCP server "${this.name}": ${this._error}`);
    }
    if (generation !== this.generation) {
      // stop() ran while it started: do not leave the process behind.
      await client.close().catch(() => undefined);
      throw new Error(`MCP server "${this.name}" was stopped while it started`);
    }
    this.client = client;
    this.setStatus('running');
    return client;
  }

  /** Streamable HTTP falls back to legacy SSE when the server answers its initialize with a 4xx. */
  private async connectTransport(client: Client, launch: LaunchConfig): Promise<void> {
    try {
      this._transportKind = launch.type;
      await client.connect(this.createTransport(launch));
    } catch (error) {
      if (launch.type !== 'http' || !shouldFallBackToSse(error)) throw error;
      const reason = fallbackReason(error);
      this.options.log(`[elicit] ${this.name}: the Streamable HTTP endpoint answered ${reason}; trying the legacy SSE transport`);
      await client.close().catch(() => undefined);
      this._transportKind = 'sse';
      try {
        await client.connect(this.createTransport({ ...launch, type: 'sse' }));
      } catch (sseError) {
        // An SSE server that wants a sign-in must reach the OAuth step unchanged.
        if (sseError instanceof UnauthorizedError) throw sseError;
        throw new Error(`Streamable HTTP answered ${reason}, and legacy SSE failed too: ${describeSpawnError(sseError)}`, { cause: sseError });
      }
    }
  }

  private createTransport(transport: LaunchConfig): Transport {
    if (transport.type === 'stdio') {
      return new GroupStdioTransport(
        {
          command: transport.command,
          args: transport.args,
          // The server sees the editor's environment plus what the configuration sets.
          env: childEnvironment(this.options.baseEnv ?? process.env, transport.env),
          cwd: transport.cwd,
        },
        (line) => this.options.log(line),
      );
    }
    const requestInit = { headers: transport.headers };
    const oauth = this.oauthFor(transport.url);
    const auth = oauth ? { authProvider: oauth.provider, fetch: oauth.fetch } : {};
    const http =
      transport.type === 'sse'
        ? new SSEClientTransport(new URL(transport.url), { requestInit, ...auth })
        : new StreamableHTTPClientTransport(new URL(transport.url), { requestInit, ...auth });
    this.authTransport = http;
    return http;
  }

  /** The OAuth sign-in for this server at `url` (a changed URL never receives the old tokens). */
  private oauthFor(url: string): OAuthSignIn | undefined {
    if (!this.options.oauth) return undefined;
    if (this.oauth?.serverUrl !== url) {
      this.oauth?.cancel();
      this.oauth = new OAuthSignIn({ name: this.name, url }, this.options.oauth, {
        ask: this.options.ask,
        urlWaits: this.options.urlWaits,
        log: this.options.log,
      });
    }
    return this.oauth;
  }

  /** Runs `operation`; when the server needs the person to sign in (again), does that and retries once. */
  private async signedIn<T>(operation: () => Promise<T>): Promise<T> {
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

  /** A plain `tools/call`, or a task-augmented one for tools that only run as tasks. */
  private async invokeTool(client: Client, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    if (!this.listedTools.has(name)) await this.listTools();
    if (!mustRunAsTask(client, this.listedTools.get(name))) {
      return (await client.callTool({ name, arguments: args }, undefined, { signal, timeout: NO_TIMEOUT_MS })) as CallToolResult;
    }
    let lastStatus = '';
    return callToolAsTask(client, name, args, {
      signal,
      timeout: NO_TIMEOUT_MS,
      // The status only: a server's status message may repeat an answer, and the log never holds answers.
      onStatus: (task) => {
        if (task.status !== lastStatus) this.options.log(`[elicit] ${this.name}: tool ${name} task: ${task.status}`);
        lastStatus = task.status;
      },
    });
  }

  private async onElicitation(
    request: JSONRPCRequest,
    tasks: ElicitationTaskStore,
    extra: { signal: AbortSignal; taskStore?: RequestTaskStore; taskRequestedTtl?: number },
  ): Promise<Record<string, unknown>> {
    if (!extra.taskStore || !isTaskAugmented(request.params)) return this.answerElicitation(request, extra.signal);
    try {
      // Checked now, so a malformed request gets its -32602 at once rather than a failed task.
      this.toElicitRequest(request.params, extra.signal);
    } catch (error) {
      throw error instanceof InvalidRequestError ? invalidParams(error) : error;
    }
    return tasks.start(extra.taskStore, extra.taskRequestedTtl, (signal) => this.answerElicitation(request, signal));
  }

  private async answerElicitation(request: JSONRPCRequest, signal: AbortSignal): Promise<ElicitResult & Record<string, unknown>> {
    try {
      const result = await this.options.ask(this.toElicitRequest(request.params, signal));
      return { ...result };
    } catch (error) {
      if (error instanceof InvalidRequestError) throw invalidParams(error);
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

/**
 * A -32602 for the asker with our sentence as the message. (McpError would
 * prefix "MCP error -32602:" and the asker's SDK prefixes it again.)
 */
function invalidParams(error: InvalidRequestError): Error {
  return Object.assign(new Error(error.message), { code: ErrorCode.InvalidParams });
}
