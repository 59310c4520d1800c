/**
 * One MCP server connection, on the official v2 client package. It speaks
 * MCP 2026-07-28 with servers that offer it and 2025-11-25 (or older) with the
 * rest, chosen per server when it connects (the SDK's `server/discover` probe).
 *
 * - 2026-07-28: questions ride the request. `tools/call`, `prompts/get` and
 *   `resources/read` may answer `input_required`; rounds.ts answers each round
 *   as one question and retries (the SDK's automatic fulfilment is off, so a
 *   round is shown whole and its schemas reach us unstripped).
 * - 2025-11-25: the server sends `elicitation/create` (serverQuestions.ts).
 *   Tasks, URL completion notifications and -32042 work as that revision
 *   defines them.
 *
 * This file keeps the connection's life (open, status, stop), its public API
 * and the routing of what the server sends; the work is done by parts that
 * each take a small context and never reach back: serverTransports.ts (how the
 * server is reached), toolCalls.ts, requestRounds.ts and callTasks.ts (calls,
 * their rounds and tasks), serverQuestions.ts (2025-era questions), and
 * extensions/ (each protocol extension's capability and handlers).
 *
 * No vscode import: integration tests drive it directly.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { AppRef } from '../core/apps/appQuestion';
import { askerKey } from '../core/broker/urlWaits';
import { METHOD_NOT_FOUND, errorText } from '../core/errors';
import { Emitter } from '../core/events';
import type { ServerConfig } from '../core/mcpConfig/serverConfig';
import { CallTasks } from './callTasks';
import type { ConnectionOptions, RunningTask, ServerStatus, ToolCallOptions } from './connectionTypes';
import { ElicitationTasks } from './elicitationTasks';
import { AppQuestions } from './extensions/apps';
import { declaredCapabilities, extensionRequestHandler, type ClientExtension } from './extensions/clientExtension';
import { fileFieldsExtension } from './extensions/fileFields';
import { languageExtension } from './extensions/language';
import { tasksExtension } from './extensions/tasks';
import { resolveLaunch, type LaunchConfig } from './launch';
import { loadSdk, type McpSdk } from './loadSdk';
import { RequestRounds } from './requestRounds';
import { isRoundOf, RoundOfAnotherServer, type OpenRound } from './rounds';
import { ServerQuestions } from './serverQuestions';
import { serverOrigin } from './serverOrigin';
import { ServerTransports } from './serverTransports';
import { GroupStdioTransport } from './stdioTransport';
import { ToolCalls } from './toolCalls';
import type { CallToolResult, GetPromptResult, ReadResourceResult, Tool } from './types';

export * from './connectionTypes';

export class McpConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  /** The SDK, loaded with the first connection (its bundle is not loaded at activation). */
  private sdk: McpSdk | undefined;
  private _status: ServerStatus = 'stopped';
  private _error: string | undefined;
  private readonly statusChanges = new Emitter<ServerStatus>();
  readonly onDidChangeStatus = this.statusChanges.event;
  private readonly elicitationCompletions = new Emitter<string>();
  /** Ids from the server's `notifications/elicitation/complete`. */
  readonly onDidCompleteElicitation = this.elicitationCompletions.event;
  /** Bumped by stop(), so a start still under way knows it must not keep its process. */
  private generation = 0;
  /** Aborted when this connection ends: every question and round of it closes. */
  private lifetime = new AbortController();
  /** A line of this server's log, named as Elicit's. */
  private readonly logLine = (line: string): void => this.options.log(`[elicit] ${this.name}: ${line}`);
  /** App questions as this connection last opened (extensions/apps.ts). */
  private apps: AppQuestions | undefined;

  /** How it reaches its server (serverTransports.ts). */
  private readonly transports: ServerTransports;
  /** Its tool calls' tasks (callTasks.ts). */
  private readonly tasks: CallTasks;
  /** Its requests that may ask along the way, and kept rounds (requestRounds.ts). */
  private readonly rounds: RequestRounds;
  /** Its tool calls (toolCalls.ts). */
  private readonly calls: ToolCalls;
  /** The 2025-era questions the server sends (serverQuestions.ts). */
  private readonly questions: ServerQuestions;
  /** A tool call's task started, changed status or ended. */
  readonly onDidChangeTasks: CallTasks['onDidChange'];

  constructor(
    readonly config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    const common = {
      name: config.name,
      askerName: this.askerName,
      options,
      sdk: () => this.requireSdk(),
      logLine: this.logLine,
      signedIn: <T>(operation: () => Promise<T>) => this.transports.signedIn(operation),
      lifetime: () => this.lifetime.signal,
      appFor: (params: Record<string, unknown>) => this.appFor(params),
    };
    this.transports = new ServerTransports({ ...common, config, isCurrent: (client) => this.client === client });
    this.tasks = new CallTasks(common);
    this.onDidChangeTasks = this.tasks.onDidChange;
    this.rounds = new RequestRounds({ ...common, origin: () => serverOrigin(this.config), tasks: this.tasks });
    this.calls = new ToolCalls({
      ...common,
      connect: () => this.connect(),
      onDidCompleteElicitation: this.onDidCompleteElicitation,
      rounds: this.rounds,
      tasks: this.tasks,
    });
    this.questions = new ServerQuestions({ ...common, ask: options.ask, callsUnderWay: () => this.calls.running });
  }

  get name(): string {
    return this.config.name;
  }
  /** Who asks, on every question: the name, with its source when another source uses the name too. */
  get askerName(): string {
    return this.config.askerName ?? this.config.name;
  }
  private get key(): string {
    return askerKey({ kind: 'mcp', name: this.askerName });
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
    return this.client ? this.transports.kind : undefined;
  }
  /** The MCP revision spoken with this server while connected, e.g. "2026-07-28". */
  get protocolVersion(): string | undefined {
    return this.client?.getNegotiatedProtocolVersion();
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

  listTools(): Promise<Tool[]> {
    return this.calls.list();
  }

  /** Tool calls of this server running as tasks, oldest first. */
  get runningTasks(): RunningTask[] {
    return this.tasks.running;
  }

  /** `onTask`: each status of the task the server runs the call as, if it does (the tasks extension). */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    onTask?: (task: RunningTask) => void,
    options: ToolCallOptions = {},
  ): Promise<CallToolResult> {
    const client = await this.connect();
    return this.calls.call(client, { name, args, ...(signal ? { signal } : {}), ...(onTask ? { onTask } : {}), ...options });
  }

  async getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    const client = await this.connect();
    return (await this.rounds.send(client, { method: 'prompts/get', params: { name, arguments: args } }, signal)) as GetPromptResult;
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = await this.connect();
    return (await this.rounds.send(client, { method: 'resources/read', params: { uri } }, signal)) as ReadResourceResult;
  }

  /**
   * Answers a round kept from before a window reload: the person answers it now,
   * then the original request is retried with the kept state, round after round
   * as usual. Resolves with the final result of that request. Only the server
   * that asked it may have it: any other (the same name after a reload, another
   * command, URL or file) is refused before it is even started.
   */
  async resumeRound(round: OpenRound, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (!this.ownsRound(round)) {
      throw new RoundOfAnotherServer(
        `the question kept from before the reload was asked by a server that is not ${this.name} as configured now, so it is not the server that asked it: nothing was sent`,
      );
    }
    const client = await this.connect();
    return this.rounds.resume(client, round, signal);
  }

  /** Whether a kept round was asked by this server, as configured now. */
  ownsRound(round: OpenRound): boolean {
    return isRoundOf(round, serverOrigin(this.config));
  }

  async stop(): Promise<void> {
    this.transports.cancelSignIn();
    this.generation++;
    this.connecting = undefined;
    const client = this.client;
    this.client = undefined;
    this.lifetime.abort(new Error(`${this.name} was stopped`));
    this.calls.stopResultChecks();
    if (client) {
      // Closing the client would cut them off (a window that closes cancels the tasks of the calls it ends).
      await this.taskCancelsSent();
      await this.transports.endSession(client);
      await client.close().catch(() => undefined);
    }
    this.setStatus('stopped');
  }

  /** Resolves once the tasks/cancel requests sent so far are answered or failed, or after 1.5 s. */
  taskCancelsSent(): Promise<void> {
    return this.tasks.cancelsSent();
  }

  /**
   * Ends a 2025-era HTTP session with DELETE (at most 2 s), leaving the connection as it is: for a
   * window that closes, whose extension host may be gone before stop() could send it.
   */
  async endHttpSession(): Promise<void> {
    if (this.client) await this.transports.endSession(this.client);
  }

  /** The workspace folders changed: a running 2025-era server is told to ask for the roots again. */
  async rootsChanged(): Promise<void> {
    // 2026-07-28 has no roots notification: a server asks for roots within a request.
    if (!this.options.roots || !this.client || this.client.getProtocolEra() === 'modern') return;
    await this.client
      .sendRootsListChanged()
      .catch((error: unknown) => this.options.log(`[elicit] roots/list_changed not sent: ${errorText(error)}`));
  }

  private async open(): Promise<Client> {
    const generation = this.generation;
    this.setStatus('starting');
    const sdk = (this.sdk ??= await loadSdk());
    const tasks = new ElicitationTasks();
    const extensions = this.extensionsForStart(tasks);
    const roots = this.options.roots;
    const lifetime = new AbortController();
    const client = new sdk.Client(this.options.clientInfo ?? { name: 'elicit', version: '0.0.0' }, {
      capabilities: declaredCapabilities(
        { elicitation: { form: {}, url: {} }, ...(roots ? { roots: { listChanged: true } } : {}) },
        extensions,
      ),
      // Rounds are answered here, whole, from their raw schemas (rounds.ts).
      inputRequired: { autoFulfill: false },
      // Tool results are checked against the server's outputSchema in a worker (toolCalls.ts), not by the SDK here.
      jsonSchemaValidator: new sdk.WorkerCheckedSchemas(),
    });
    if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots() }));
    client.fallbackRequestHandler = async (request, ctx) => {
      if (request.method === 'elicitation/create') return this.questions.onElicitation(request, tasks, ctx.mcpReq.signal);
      const answer = extensionRequestHandler(extensions, request.method);
      if (answer) return answer(request, ctx.mcpReq.signal);
      throw new sdk.ProtocolError(METHOD_NOT_FOUND, `Method not found: ${request.method}`);
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
      for (const extension of extensions) extension.onClose?.();
      this.options.urlWaits?.cancelAll(this.key);
      // A first attempt closed on the way to a fallback is not the end of this connection.
      if (this.client !== client) return;
      this.client = undefined;
      lifetime.abort(new Error(`${this.name} closed the connection`));
      this.fail(this.transports.takeLostReason() ?? 'the server closed the connection');
    };
    try {
      const launch = await (this.options.prepare ?? ((config) => resolveLaunch(config)))(this.config);
      await this.transports.connect(client, launch, extensions);
    } catch (error) {
      if (generation !== this.generation) throw new Error(`MCP server "${this.name}" was stopped while it started`);
      this.fail(errorText(error));
      await client.close().catch(() => undefined);
      throw new Error(`Could not start MCP server "${this.name}": ${this._error}`);
    }
    if (generation !== this.generation) {
      // stop() ran while it started: do not leave the process behind.
      await client.close().catch(() => undefined);
      throw new Error(`MCP server "${this.name}" was stopped while it started`);
    }
    for (const extension of extensions) extension.onConnected?.(client);
    this.transports.keepSession(client, lifetime.signal);
    this.lifetime = lifetime;
    this.client = client;
    this.logLine(`connected, MCP ${client.getNegotiatedProtocolVersion() ?? 'unknown revision'}`);
    this.setStatus('running');
    return client;
  }

  /** The SDK, which open() loads before anything needs it. */
  private requireSdk(): McpSdk {
    if (!this.sdk) throw new Error('the MCP SDK is not loaded yet');
    return this.sdk;
  }

  /** The app a question names, when app questions were declared as this connection opened (extensions/apps.ts). */
  private appFor(params: Record<string, unknown>): AppRef | undefined {
    return this.apps?.appFor(params);
  }

  /**
   * The protocol extensions of one start, each with its own capability and handlers (extensions/):
   * what a setting turns on is read once here, so a question names an app only if the connection declared apps.
   */
  private extensionsForStart(questionTasks: ElicitationTasks): ClientExtension[] {
    this.apps = new AppQuestions(this.options.appQuestions?.() ?? false, { client: () => this.client });
    return [
      tasksExtension(questionTasks),
      this.apps,
      fileFieldsExtension(this.options.fileInputs?.() ?? false),
      languageExtension(this.options.acceptLanguage),
    ];
  }

  private fail(message: string): void {
    this._error = message;
    this.setStatus('error');
    this.logLine(message);
  }

  private setStatus(status: ServerStatus): void {
    if (status !== 'error') this._error = undefined;
    if (this._status === status) return;
    this._status = status;
    this.statusChanges.fire(status);
  }
}
