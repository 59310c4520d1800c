/**
 * One MCP server connection, on the official v2 client package. It speaks
 * MCP 2026-07-28 with servers that offer it and 2025-11-25 (or older) with the
 * rest, chosen per server when it connects (the SDK's `server/discover` probe).
 *
 * - 2026-07-28: questions ride the request. `tools/call`, `prompts/get` and
 *   `resources/read` may answer `input_required`; rounds.ts answers each round
 *   as one question and retries (the SDK's automatic fulfilment is off, so a
 *   round is shown whole and its schemas reach us unstripped).
 * - 2025-11-25: the server sends `elicitation/create`, taken from the raw
 *   message (the SDK's typed handler would strip keywords such as `pattern`);
 *   questions that arrive together are grouped (core/burst.ts). Tasks, URL
 *   completion notifications and -32042 work as that revision defines them.
 *
 * No vscode import: integration tests drive it directly.
 */
import type { AppRef } from '../core/apps/appQuestion';
import type { Client } from '@modelcontextprotocol/client';
import { readingLane } from '../core/time/turnLane';
import { ResultChecker, type CheckOutcome } from './resultCheck/resultChecker';
import { BurstGrouper } from '../core/broker/burst';
import { elicitRequestFrom } from '../core/broker/elicitParams';
import { INVALID_PARAMS, InvalidRequestError, METHOD_NOT_FOUND, errorText } from '../core/errors';
import { Emitter } from '../core/events';
import { joinSignals } from '../core/joinSignals';
import type { Asker, ElicitRequest, ElicitResult } from '../core/request';
import { askerKey } from '../core/broker/urlWaits';
import type { ServerConfig } from '../core/mcpConfig/serverConfig';
import { allPages } from './pages';
import { resolveLaunch, type LaunchConfig } from './launch';
import { satisfyUrlElicitations } from './urlElicitationRequired';
import { ElicitationTasks, isTaskAugmented, requestedTtl } from './elicitationTasks';
import { GroupStdioTransport } from './stdioTransport';
import { loadSdk, type McpSdk } from './loadSdk';
import { callToolAsTask, mustRunAsTask } from './toolTasks';
import { waitAtMost } from '../core/time/delay';
import { declaredCapabilities, extensionRequestHandler, type ClientExtension } from './extensions/clientExtension';
import { AppQuestions } from './extensions/apps';
import { fileFieldsExtension } from './extensions/fileFields';
import { languageExtension } from './extensions/language';
import { tasksExtension } from './extensions/tasks';
import {
  currentTask,
  followTask,
  missingCapabilityText,
  MISSING_CLIENT_CAPABILITY,
  sendTaskCancel,
  taskOf,
  type ExtensionTask,
  type TaskRun,
} from './taskExtension';
import { serverOrigin } from './serverOrigin';
import { ServerTransports } from './serverTransports';
import { sendStartingTask } from './taskStart';
import {
  completeRounds,
  firstNextInLine,
  isRoundOf,
  RoundOfAnotherServer,
  subjectOf,
  type Leg,
  type OpenRound,
  type RoundContext,
  type RoundMethod,
} from './rounds';
import type { CallToolResult, GetPromptResult, JSONRPCRequest, ReadResourceResult, Result, Tool } from './types';
import { callSubject, type ConnectionOptions, type RunningTask, type ServerStatus, type ToolCallOptions } from './connectionTypes';

export * from './connectionTypes';

/** One tool call, for its task's statuses. */
interface TaskWatch {
  id: number;
  onTask?: (task: RunningTask) => void;
  /** False when whoever called cannot outlive the window (the gateway's agent): its rounds end with it. */
  keepRounds: boolean;
  /** Who the call is for, when not the person themself (ToolCallOptions.caller). */
  caller?: string;
}

/** A tool call under way: what its questions name, and its end. */
interface RunningTool {
  tool: string;
  caller?: string;
  signal?: AbortSignal;
}

/** A tool call may wait for a person for a long time: no SDK request timeout cuts it short. */
const NO_TIMEOUT_MS = 2_147_000_000;
/** Each tasks/get, tasks/update and tasks/cancel: a server that does not answer by then has failed the poll. */
const TASK_REQUEST_TIMEOUT_MS = 60_000;
/** How long a stop waits for tasks/cancel requests on their way (a closing window gives its host little time). */
const TASK_CANCELS_FLUSH_MS = 1500;
/** How long a tools/call given up on its way may still be answered with a task to cancel (taskStart.ts). */
const TASK_ANSWER_GRACE_MS = 1000;
/** JSON-RPC codes this adapter sends or recognises (METHOD_NOT_FOUND: core/errors.ts). */
const URL_ELICITATION_REQUIRED = -32042;

export class McpConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  /** The SDK, loaded with the first connection (its bundle is not loaded at activation). */
  private sdk: McpSdk | undefined;
  /** Checks tool results against their outputSchema off the host's thread (resultCheck/). */
  private resultChecks: ResultChecker | undefined;
  private readonly runningTools = new Map<number, RunningTool>();
  /** Tool calls running as tasks (the tasks extension), by call id. */
  private readonly tasks = new Map<number, RunningTask>();
  /** tasks/cancel requests on their way: a window that closes waits for them (cut off, the tasks would wait for ever). */
  private readonly cancelsInFlight = new Set<Promise<void>>();
  private readonly taskChanges = new Emitter<void>();
  /** A tool call's task started, changed status or ended. */
  readonly onDidChangeTasks = this.taskChanges.event;
  /** Tools as last listed, for their `execution.taskSupport`. */
  private readonly listedTools = new Map<string, Tool>();
  private nextCallId = 1;
  private _status: ServerStatus = 'stopped';
  /** App questions as this connection last opened (extensions/apps.ts). */
  private apps: AppQuestions | undefined;
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
  /** 2025-era questions that arrive together are shown together. */
  private readonly bursts = new BurstGrouper((request) => this.options.ask(request), undefined, readingLane);

  /** How it reaches its server (serverTransports.ts). */
  private readonly transports: ServerTransports;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    this.transports = new ServerTransports({
      config,
      askerName: this.askerName,
      options,
      sdk: () => this.requireSdk(),
      logLine: this.logLine,
      isCurrent: (client) => this.client === client,
    });
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

  async listTools(): Promise<Tool[]> {
    const client = await this.connect();
    const tools = await allPages(async (cursor) => {
      const page = await this.transports.signedIn(() => client.listTools(cursor ? { cursor } : undefined));
      return { items: page.tools, next: page.nextCursor };
    });
    for (const tool of tools) this.listedTools.set(tool.name, tool);
    return tools;
  }

  /** Tool calls of this server running as tasks, oldest first. */
  get runningTasks(): RunningTask[] {
    return [...this.tasks.values()];
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
    const id = this.nextCallId++;
    this.runningTools.set(id, {
      tool: name,
      ...(options.caller !== undefined ? { caller: options.caller } : {}),
      ...(signal ? { signal } : {}),
    });
    const watch: TaskWatch = {
      id,
      onTask,
      keepRounds: options.keepRoundsAcrossReload ?? true,
      ...(options.caller !== undefined ? { caller: options.caller } : {}),
    };
    const call = (): Promise<CallToolResult> => this.transports.signedIn(() => this.invokeTool(client, name, args, signal, watch));
    try {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof this.requireSdk().ProtocolError) || error.code !== URL_ELICITATION_REQUIRED) throw error;
        // -32042 (2025-11-25): the URL elicitations in the error first, then one retry (a second -32042 is the caller's).
        await satisfyUrlElicitations(error.data, {
          ask: this.options.ask,
          asker: { kind: 'mcp', name: this.askerName, detail: callSubject(`tool ${name}`, options.caller) },
          what: name,
          onDidComplete: this.onDidCompleteElicitation,
          signal,
        });
        return await call();
      }
    } finally {
      this.runningTools.delete(id);
      if (this.tasks.delete(id)) this.taskChanges.fire();
    }
  }

  async getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    const client = await this.connect();
    const params = { name, arguments: args };
    return (await this.withRounds(this.legFor(client, 'prompts/get', params, signal), 'prompts/get', params, signal)) as GetPromptResult;
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = await this.connect();
    const params = { uri };
    return (await this.withRounds(
      this.legFor(client, 'resources/read', params, signal),
      'resources/read',
      params,
      signal,
    )) as ReadResourceResult;
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
    if (round.task && round.method === 'tools/call') {
      // A task's round: the task as the server has it now, its kept keys asked again if it still wants them.
      const task = round.task;
      return this.inRoundContext(
        taskSubject(round),
        signal,
        true,
        async (context) => {
          const run = this.taskRun(client, round.params, firstNextInLine(context), signal, undefined);
          const keys = new Set(Object.keys(round.inputRequests));
          return followTask(run, await currentTask(run, task.taskId), {
            asked: task.asked.filter((key) => !keys.has(key)),
            round: round.round - 1,
            earlier: round.earlier,
            draft: round.draft,
          });
        },
        round.caller,
      );
    }
    const leg = this.legFor(client, round.method, round.params, signal);
    // The kept round, as the server sent it: answered (and kept again) like any other round.
    const kept = {
      resultType: 'input_required',
      inputRequests: round.inputRequests,
      ...(round.requestState !== undefined ? { requestState: round.requestState } : {}),
    };
    return this.inRoundContext(
      subjectOf(round),
      signal,
      true,
      (context) =>
        completeRounds(kept, leg, { method: round.method, params: round.params }, firstNextInLine(context), {
          round: round.round - 1,
          earlier: round.earlier,
          draft: round.draft,
        }),
      round.caller,
    );
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
    this.resultChecks?.dispose();
    this.resultChecks = undefined;
    if (client) {
      // Closing the client would cut them off (a window that closes cancels the tasks of the calls it ends).
      await this.taskCancelsSent();
      await this.transports.endSession(client);
      await client.close().catch(() => undefined);
    }
    this.setStatus('stopped');
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
      // Tool results are checked against the server's outputSchema in a worker (invokeTool), not by the SDK here.
      jsonSchemaValidator: new sdk.WorkerCheckedSchemas(),
    });
    if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots() }));
    client.fallbackRequestHandler = async (request, ctx) => {
      if (request.method === 'elicitation/create') return this.onElicitation(request, tasks, ctx.mcpReq.signal);
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

  /**
   * A plain `tools/call` (with its rounds, or followed as a task when the server makes it one: the
   * tasks extension), or a 2025-11-25 task-augmented one for tools that only run as tasks.
   */
  private async invokeTool(
    client: Client,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
    call: TaskWatch,
  ): Promise<CallToolResult> {
    if (!this.listedTools.has(name)) await this.listTools();
    const outputSchema = this.listedTools.get(name)?.outputSchema;
    // As the SDK would, but in a worker with a deadline (resultCheck/): refused before the call when unusable.
    if (outputSchema) this.throwIfUnchecked(name, await this.resultChecker().prepare(outputSchema), true);
    const result = await this.runTool(client, name, args, signal, call);
    if (outputSchema && result.structuredContent !== undefined && !result.isError) {
      this.throwIfUnchecked(name, await this.resultChecker().check(outputSchema, result.structuredContent), false);
    }
    return result;
  }

  /** The SDK's own errors for a schema that cannot be used and a result that breaks it, with the worker's reasons. */
  private throwIfUnchecked(tool: string, checked: CheckOutcome, before: boolean): void {
    if (checked.outcome === 'valid') return;
    const { ProtocolError } = this.requireSdk();
    if (before) throw new ProtocolError(INVALID_PARAMS, `Tool '${tool}' has an invalid outputSchema: ${checked.errorMessage}`);
    if (checked.outcome === 'invalid') {
      throw new ProtocolError(INVALID_PARAMS, `Structured content does not match the tool's output schema: ${checked.errorMessage}`);
    }
    throw new ProtocolError(INVALID_PARAMS, `Failed to validate structured content: ${checked.errorMessage}`);
  }

  /** This server's result-check worker, started when a tool with an outputSchema is first called. */
  private resultChecker(): ResultChecker {
    return (this.resultChecks ??= new ResultChecker());
  }

  private async runTool(
    client: Client,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
    call: TaskWatch,
  ): Promise<CallToolResult> {
    if (!mustRunAsTask(client, this.listedTools.get(name))) {
      const params = { name, arguments: args };
      try {
        const leg = this.legFor(client, 'tools/call', params, signal);
        return (await this.withRounds(leg, 'tools/call', params, signal, call.keepRounds, call.caller)) as CallToolResult;
      } catch (error) {
        // The tasks extension: the server runs the call as a task (maybe after rounds of its own).
        const task = taskOf(error, this.name);
        if (!task) throw this.readableFailure(error);
        return this.inRoundContext(
          taskSubject({ method: 'tools/call', params }),
          signal,
          call.keepRounds,
          (context) =>
            followTask(
              this.taskRun(client, params, context, signal, (t) => this.taskChanged(call, name, t)),
              task,
            ),
          call.caller,
        );
      }
    }
    const logStatus = this.taskStatusLog(name);
    return callToolAsTask(client, name, args, {
      signal,
      timeout: NO_TIMEOUT_MS,
      startGraceMs: TASK_ANSWER_GRACE_MS,
      cancelUnfollowed: (taskId) => this.cancelUnfollowedTask(client, name, taskId),
      onStatus: (task) => logStatus(task.status),
      onCancel: (sent) => this.trackCancel(sent),
    });
  }

  private trackCancel(sent: Promise<void>): void {
    this.cancelsInFlight.add(sent);
    void sent.finally(() => this.cancelsInFlight.delete(sent));
  }

  /** Resolves once the tasks/cancel requests sent so far are answered or failed, or after 1.5 s. */
  async taskCancelsSent(): Promise<void> {
    if (this.cancelsInFlight.size > 0) await waitAtMost(Promise.all([...this.cancelsInFlight]), TASK_CANCELS_FLUSH_MS);
  }

  private taskRun(
    client: Client,
    params: Record<string, unknown>,
    context: RoundContext,
    cancelledBy: AbortSignal | undefined,
    onStatus: TaskRun['onStatus'],
  ): TaskRun {
    const logStatus = this.taskStatusLog(String(params.name));
    return {
      client,
      request: { method: 'tools/call', params },
      context,
      ...(cancelledBy ? { cancelledBy } : {}),
      onCancel: (sent) => this.trackCancel(sent),
      timeout: TASK_REQUEST_TIMEOUT_MS,
      onStatus: (task) => {
        logStatus(task.status);
        onStatus?.(task);
      },
    };
  }

  /**
   * Logs each new status of a tool's task (2025-11-25's or the extension's): the status only, since
   * a server's status message may repeat an answer, and the log never holds answers.
   */
  private taskStatusLog(tool: string): (status: string) => void {
    let last = '';
    return (status) => {
      if (status !== last) this.logLine(`tool ${tool} task: ${status}`);
      last = status;
    };
  }

  /** A call's task reported a status: kept for the Servers view until the call ends, and told to the caller. */
  private taskChanged(call: TaskWatch, tool: string, task: ExtensionTask): void {
    const running: RunningTask = { tool, status: task.status, ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}) };
    const before = this.tasks.get(call.id);
    this.tasks.set(call.id, running);
    if (before?.status !== running.status || before.statusMessage !== running.statusMessage) {
      this.taskChanges.fire();
      call.onTask?.(running);
    }
  }

  /** -32021 as a sentence naming what the server needs; other errors as they are. */
  private readableFailure(error: unknown): unknown {
    const { ProtocolError } = this.requireSdk();
    if (error instanceof ProtocolError && error.code === MISSING_CLIENT_CAPABILITY) {
      return new Error(missingCapabilityText(this.name, error.data, error.message), { cause: error });
    }
    return error;
  }

  /** The request sent again with one round's answers (2026-07-28); on 2025-era servers it is just the request. */
  private legFor(client: Client, method: RoundMethod, params: Record<string, unknown>, signal?: AbortSignal): Leg {
    const options = { signal, timeout: NO_TIMEOUT_MS, allowInputRequired: true };
    return (extra) =>
      this.transports.signedIn(async () => {
        const merged = { ...params, ...extra };
        switch (method) {
          case 'tools/call':
            return (await this.callMayStartTask(client, merged as { name: string }, options)) as Record<string, unknown>;
          case 'prompts/get':
            return (await client.getPrompt(merged as { name: string }, options)) as Record<string, unknown>;
          case 'resources/read':
            // Always read afresh: a reading the person asked for is never served from a cache.
            return (await client.readResource(merged as { uri: string }, { ...options, cacheMode: 'bypass' })) as Record<string, unknown>;
        }
      });
  }

  /**
   * A 2026 tools/call, which the server may answer with a task: given up on its way, it is let
   * finish for a moment so that a task it started can be cancelled (taskStart.ts).
   */
  private callMayStartTask(
    client: Client,
    params: { name: string },
    options: { signal: AbortSignal | undefined; timeout: number; allowInputRequired: boolean },
  ): Promise<unknown> {
    const call = (signal: AbortSignal | undefined): Promise<unknown> => client.callTool(params, { ...options, signal });
    if (client.getProtocolEra() !== 'modern') return call(options.signal);
    return sendStartingTask(call, {
      signal: options.signal,
      graceMs: TASK_ANSWER_GRACE_MS,
      taskIn: (answer) => ('error' in answer ? taskOf(answer.error, this.name)?.taskId : undefined),
      cancelTask: (taskId) => this.cancelUnfollowedTask(client, params.name, taskId),
      onGivenUp: (settled) => this.trackCancel(settled),
    });
  }

  /** tasks/cancel for a task whose call was given up before the server's answer named it. */
  private cancelUnfollowedTask(client: Pick<Client, 'request'>, tool: string, taskId: string): Promise<void> {
    this.logLine(`tool ${tool}: the call ended as the server started a task; cancelling the task`);
    return sendTaskCancel(client, taskId, { timeout: TASK_REQUEST_TIMEOUT_MS });
  }

  private async withRounds(
    leg: Leg,
    method: RoundMethod,
    params: Record<string, unknown>,
    signal?: AbortSignal,
    keep = true,
    caller?: string,
  ): Promise<Record<string, unknown>> {
    const first = await leg({});
    return this.inRoundContext(
      subjectOf({ method, params }),
      signal,
      keep,
      (context) => completeRounds(first, leg, { method, params }, context),
      caller,
    );
  }

  /**
   * Runs `work` with the context its rounds are asked in, which ends with the call or with this connection.
   * `caller`: who the call is for (ToolCallOptions.caller), named on its questions and kept with its rounds.
   */
  private async inRoundContext<T>(
    subject: string,
    signal: AbortSignal | undefined,
    keep: boolean,
    work: (context: RoundContext) => Promise<T>,
    caller?: string,
  ): Promise<T> {
    const ends = joinSignals([this.lifetime.signal, signal]);
    try {
      return await work({
        server: this.name,
        origin: serverOrigin(this.config),
        asker: { kind: 'mcp', name: this.askerName, detail: callSubject(subject, caller) },
        ...(caller !== undefined ? { caller } : {}),
        ask: this.options.ask,
        roots: this.options.roots,
        keeper: keep ? this.options.rounds : undefined,
        signal: ends.signal,
        appFor: (params) => this.appFor(params),
      });
    } finally {
      ends.dispose();
    }
  }

  private async onElicitation(request: JSONRPCRequest, tasks: ElicitationTasks, signal: AbortSignal): Promise<Result> {
    if (!isTaskAugmented(request.params)) return this.answerElicitation(request.params, signal);
    try {
      // Checked now, so a malformed request gets its -32602 at once rather than a failed task.
      this.toElicitRequest(request.params, signal);
    } catch (error) {
      throw error instanceof InvalidRequestError ? invalidParams(error) : error;
    }
    return tasks.start(requestedTtl(request.params), (taskSignal) => this.answerElicitation(request.params, taskSignal));
  }

  private async answerElicitation(params: unknown, signal: AbortSignal): Promise<ElicitResult & Result> {
    // The question ends when its request does, when this connection does, or when the one call it
    // is asked during is given up (an agent cancelled it): the server may never cancel it itself.
    const ends = joinSignals([signal, this.lifetime.signal, this.soleRunningTool()?.signal]);
    try {
      const request = this.toElicitRequest(params, ends.signal);
      // Form questions that arrive together are asked together.
      const result = request.mode === 'form' ? await this.bursts.add(request) : await this.options.ask(request);
      return { ...result };
    } catch (error) {
      if (error instanceof InvalidRequestError) throw invalidParams(error);
      throw error;
    } finally {
      ends.dispose();
    }
  }

  private toElicitRequest(params: unknown, signal: AbortSignal): ElicitRequest {
    const request = elicitRequestFrom('elicitation/create', params, this.asker(), signal);
    const app = request.mode === 'form' ? this.appFor(params as Record<string, unknown>) : undefined;
    return app ? { ...request, app } : request;
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

  /** Names the tool call when exactly one is running, so the person knows why they are asked. */
  private asker(): Asker {
    const subjects = new Set([...this.runningTools.values()].map((running) => callSubject(`tool ${running.tool}`, running.caller)));
    return subjects.size === 1 ? { kind: 'mcp', name: this.askerName, detail: [...subjects][0] } : { kind: 'mcp', name: this.askerName };
  }

  /** The one tool call under way, when there is exactly one: a 2025-era question is taken to be asked during it. */
  private soleRunningTool(): RunningTool | undefined {
    return this.runningTools.size === 1 ? this.runningTools.values().next().value : undefined;
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

/** What a task's questions are about, in their titles and the history: "tool export_report (task)". */
function taskSubject(request: { method: RoundMethod; params: Record<string, unknown> }): string {
  return `${subjectOf(request)} (task)`;
}

/**
 * A -32602 for the asker with our sentence as the message. (ProtocolError
 * would prefix "MCP error -32602:" and the asker's SDK prefixes it again.)
 */
function invalidParams(error: InvalidRequestError): Error {
  return Object.assign(new Error(error.message), { code: INVALID_PARAMS });
}
