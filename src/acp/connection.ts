/**
 * Elicit's client side of the Agent Client Protocol with one agent, built with
 * the official SDK (`acp.client()…connect(ndJsonStream(…))`) on the stdio of
 * the agent's process (agentProcess.ts). Permission requests, elicitations (`elicitation/create` and
 * the older `session/elicitation`), URL completions and file reads/writes are
 * handed to callbacks; everything the panel shows is reported as events. No
 * vscode import: integration tests drive it against a real agent process.
 */
import { waitAtMost } from '../core/time/delay';
import type * as acp from '@agentclientprotocol/sdk';
import { loadAcpSdk, type AcpSdk } from './loadSdk';
import { errorText } from '../core/errors';
import { Emitter } from '../core/events';
import type { AgentConfig } from './config';
import { childEnvironment } from '../process/processGroup';
import { AgentProcess } from './agentProcess';
import { AgentTerminals, type TerminalSnapshot } from './terminals';
import { AgentQuestions } from './agentQuestions';
import { WorkspaceRequests } from './workspaceRequests';
import {
  AUTH_REQUIRED,
  AuthRequiredError,
  COMPLETION_METHODS,
  ELICITATION_METHODS,
  type AcpClientOptions,
  type AcpEvent,
  type AgentProcessStatus,
  type OpenRequest,
} from './connectionTypes';
import { withDetails } from './agentErrors';
import { readAuthMethods, type AuthMethodView } from './authMethods';

export * from './connectionTypes';

export class AcpConnection {
  private process: AgentProcess | undefined;
  private connection: acp.ClientConnection | undefined;
  /** The ACP SDK, loaded when the first agent starts (its bundle is not loaded at activation). */
  private sdk: AcpSdk | undefined;
  private exited: Promise<void> | undefined;
  private stopping = false;
  private _status: AgentProcessStatus = 'stopped';
  private _exitMessage: string | undefined;
  private nextId = 1;
  private readonly open = new Set<OpenRequest>();
  /** Each session's running prompt turn, aborted when it ends: its non-blocking questions are then marked so. */
  private readonly turns = new Map<string, AbortController>();
  private readonly events = new Emitter<AcpEvent>();
  readonly onEvent = this.events.event;
  /** What the agent said about itself in `initialize`. */
  initializeResponse: acp.InitializeResponse | undefined;

  constructor(
    readonly config: AgentConfig,
    private readonly options: AcpClientOptions,
  ) {
    const common = {
      name: config.name,
      options,
      emit: (event: AcpEvent) => this.emit(event),
      rpcError: (code: number, message: string) => this.rpcError(code, message),
    };
    this.questions = new AgentQuestions({
      ...common,
      nextId: () => this.nextId++,
      track: (sessionId, signal) => this.track(sessionId, signal),
      turnSignal: (sessionId) => this.turns.get(sessionId)?.signal,
    });
    this.workspace = new WorkspaceRequests({
      ...common,
      env: config.env,
      fileNotFound: (file) => this.requireSdk().RequestError.resourceNotFound(file),
    });
    this.terminals.onDidChange((terminal) => this.emit({ kind: 'terminal', terminal }));
  }

  /** The agent's questions and permission requests (agentQuestions.ts). */
  private readonly questions: AgentQuestions;
  /** Its file and terminal requests (workspaceRequests.ts). */
  private readonly workspace: WorkspaceRequests;
  private get terminals(): AgentTerminals {
    return this.workspace.terminals;
  }

  get name(): string {
    return this.config.name;
  }
  get status(): AgentProcessStatus {
    return this._status;
  }
  /** Why the process ended, for the person. */
  get exitMessage(): string | undefined {
    return this._exitMessage;
  }
  /** The agent's process id while it runs. */
  get pid(): number | undefined {
    return this.process?.pid;
  }
  /** The agent's last stderr lines: they often say why a request failed. */
  get stderrLines(): readonly string[] {
    return this.process?.stderrLines ?? [];
  }
  /** The last stderr lines once stderr has caught up with stdout (agentProcess.ts): for explaining a failed request. */
  stderrSettled(): Promise<readonly string[]> {
    return this.process?.stderrSettled() ?? Promise.resolve([]);
  }
  /** Open permission requests and questions (for tests and diagnostics). */
  get openRequests(): number {
    return this.open.size;
  }
  /** Spawns the agent and runs `initialize`. Rejects with a sentence for the person. */
  async start(): Promise<acp.InitializeResponse> {
    if (this.process) throw new Error(`${this.name} is already started`);
    this.setStatus('starting');
    this.sdk ??= loadAcpSdk();
    const agent = new AgentProcess(
      this.name,
      this.config.command,
      this.config.args,
      {
        cwd: this.config.cwd ?? this.options.defaultCwd,
        env: childEnvironment(this.options.baseEnv ?? process.env, { ...this.config.env, ...this.options.secretEnv }),
      },
      (line) => this.options.log(line),
    );
    this.process = agent;
    this.exited = agent.exited.then((exit) => {
      const expected = this.stopping;
      this.finish(expected ? `${this.name} was stopped.` : `${this.name} ${agent.describeExit(exit)}`, expected);
    });
    try {
      await agent.spawned();
    } catch (error) {
      this.finish(`Could not start ${this.name}: ${errorText(error)}`, false);
      throw new Error(this._exitMessage);
    }

    const { input, output } = agent.streams();
    const stream = this.requireSdk().ndJsonStream(input, output);
    const connection = this.clientApp().connect(stream);
    this.connection = connection;
    void connection.closed.then(() => {
      // The agent closed its output (or sent something unreadable) but may still run: end it.
      if (this._status !== 'exited' && !this.stopping) {
        this.options.log(`[elicit] ${this.name}: the connection closed; stopping the process`);
        void this.stop(false);
      }
    });
    try {
      const response = await this.untilExit(
        connection.agent.request('initialize', {
          protocolVersion: this.requireSdk().PROTOCOL_VERSION,
          clientCapabilities: {
            fs: { readTextFile: true, writeTextFile: true },
            terminal: true,
            elicitation: { form: {}, url: {} },
            // The agent panel shows boolean config options as checkboxes (agents otherwise send an On/Off select).
            session: { configOptions: { boolean: {} } },
            // The gateway sign-in is offered only to a client that has a gateway URL for this agent to give.
            auth: { terminal: this.options.terminalLogins === true, ...(this.config.gateway ? { _meta: { gateway: true } } : {}) },
          },
          clientInfo: { ...(this.options.clientInfo ?? { name: 'elicit', version: '0.0.0' }), title: 'Elicit' },
        }),
      );
      if (response.protocolVersion !== this.requireSdk().PROTOCOL_VERSION) {
        throw new Error(
          `${this.name} speaks ACP version ${response.protocolVersion}; Elicit speaks version ${this.requireSdk().PROTOCOL_VERSION}`,
        );
      }
      this.initializeResponse = response;
      this.setStatus('running');
      return response;
    } catch (error) {
      const message = this._exitMessage ?? `${this.name} did not initialize: ${errorText(error)}`;
      await this.stop();
      throw new Error(message);
    }
  }

  /**
   * `session/new` in `cwd` (absolute): the session id, and the session's modes
   * when the agent has them. `mcpServers`: the person's servers as Elicit offers
   * them (agentServers.ts). Rejects with AuthRequiredError when the agent wants
   * the person to sign in first.
   */
  async newSession(cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.NewSessionResponse> {
    return this.request('session/new', { cwd, mcpServers });
  }

  /** Whether the agent can resume a session it started before (`loadSession` in `initialize`). */
  get canLoadSession(): boolean {
    return this.initializeResponse?.agentCapabilities?.loadSession === true;
  }

  /**
   * `session/load`: the agent replays the conversation as session updates (the
   * transcript fills in from them) and answers once it has. Rejects with
   * AuthRequiredError as newSession does.
   */
  async loadSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.LoadSessionResponse> {
    return this.request('session/load', { sessionId, cwd, mcpServers });
  }

  /**
   * Any request to the agent by its ACP name: rejects with the exit message when
   * the agent ends first, with AuthRequiredError for "authentication required",
   * and otherwise with the agent's error and its details (agentErrors.ts).
   */
  request<M extends acp.AgentRequestMethod>(
    method: M,
    params: acp.AgentRequestParamsByMethod[M],
  ): Promise<acp.AgentRequestResponsesByMethod[M]> {
    return this.signedIn(this.agent().request(method, params));
  }

  private async signedIn<T>(request: Promise<T>): Promise<T> {
    try {
      return await this.untilExit(request);
    } catch (error) {
      if ((error as { code?: unknown }).code === AUTH_REQUIRED) throw new AuthRequiredError(`${this.name} asks you to sign in first`);
      throw error;
    }
  }

  /** The sign-in methods the agent offered in `initialize` (authMethods.ts). */
  get authMethods(): AuthMethodView[] {
    return readAuthMethods(this.initializeResponse?.authMethods, this.config.gateway);
  }

  /**
   * `authenticate` with one of `authMethods`; the agent does the signing in (a browser, a stored key…).
   * `meta`: the request's `_meta`, which may carry a key the person typed (authMethods.ts authenticateMeta): never logged.
   */
  async authenticate(methodId: string, meta?: Record<string, unknown>): Promise<void> {
    await this.untilExit(this.agent().request('authenticate', meta ? { methodId, _meta: meta } : { methodId }));
  }

  /** One prompt turn; resolves with the stop reason when the agent ends the turn. */
  async prompt(sessionId: string, text: string): Promise<acp.StopReason> {
    const turn = new AbortController();
    this.turns.set(sessionId, turn);
    try {
      const response = await this.untilExit(this.agent().request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }));
      return response.stopReason;
    } finally {
      if (this.turns.get(sessionId) === turn) this.turns.delete(sessionId);
      turn.abort();
    }
  }

  /**
   * Stop: sends `session/cancel`, then closes this session's open permission
   * prompts (answered `cancelled`) and questions (answered `cancel`), so the
   * agent learns of the cancel before it reads those answers.
   */
  async cancel(sessionId: string): Promise<void> {
    await this.connection?.agent.notify('session/cancel', { sessionId }).catch(() => undefined);
    for (const entry of [...this.open]) {
      if (entry.sessionId === sessionId) entry.controller.abort(new Error('the turn was cancelled'));
    }
  }

  /** Ends the process (and its process group); resolves when it has exited. */
  async stop(expected = true): Promise<void> {
    const agent = this.process;
    if (!agent || this._status === 'exited') return;
    if (expected) this.stopping = true;
    this.connection?.close(new Error(`${this.name} was stopped`));
    await agent.terminate();
    await this.exited;
  }

  /** The SDK, which start() loads before anything needs it. */
  private requireSdk(): AcpSdk {
    if (!this.sdk) throw new Error('the ACP SDK is not loaded yet');
    return this.sdk;
  }

  /** A JSON-RPC error for the agent, as the SDK sends it. */
  private rpcError(code: number, message: string): Error {
    return new (this.requireSdk().RequestError)(code, message);
  }

  private clientApp(): acp.ClientApp {
    const raw = (params: unknown): unknown => params;
    // session/update first: the SDK offers a notification to each handler in turn, one await
    // each, but resolves a response at once. Checked first, an update is applied as it arrives,
    // before the session/prompt response the agent sent after it.
    const app = this.requireSdk()
      .client({ name: 'elicit' })
      .onNotification('session/update', (ctx) => this.onUpdate(ctx.params))
      .onRequest('session/request_permission', (ctx) => this.questions.onPermission(ctx.params, ctx.signal))
      .onRequest('fs/read_text_file', (ctx) => this.workspace.onRead(ctx.params, ctx.signal))
      .onRequest('fs/write_text_file', (ctx) => this.workspace.onWrite(ctx.params, ctx.signal))
      .onRequest('terminal/create', (ctx) => this.workspace.onCreateTerminal(ctx.params))
      .onRequest('terminal/output', (ctx) =>
        this.workspace.onTerminal(ctx.params, (id, t) => terminalOutput(t.output(ctx.params.sessionId, id))),
      )
      .onRequest('terminal/wait_for_exit', (ctx) =>
        this.workspace.onTerminal(ctx.params, (id, t) => this.untilExit(t.waitForExit(ctx.params.sessionId, id))),
      )
      .onRequest('terminal/kill', (ctx) =>
        this.workspace.onTerminal(ctx.params, async (id, t) => (await t.kill(ctx.params.sessionId, id), {})),
      )
      .onRequest('terminal/release', (ctx) =>
        this.workspace.onTerminal(ctx.params, async (id, t) => (await t.release(ctx.params.sessionId, id), {})),
      );
    // Elicitations are taken raw: the person must see exactly what the agent sent
    // (`pattern`, `format: "password"`…), and the broker decides what it can draw.
    for (const method of ELICITATION_METHODS) {
      app.onRequest<unknown, Record<string, unknown>>(method, raw, (ctx) => this.questions.onElicitation(method, ctx.params, ctx.signal));
    }
    for (const method of COMPLETION_METHODS) {
      app.onNotification<unknown>(method, raw, (ctx) => this.questions.onComplete(ctx.params));
    }
    return app;
  }

  private onUpdate(notification: acp.SessionNotification): void {
    const update = notification.update;
    if ((update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') && update.title) {
      this.questions.noteToolTitle(update.toolCallId, update.title);
    }
    this.emit({ kind: 'update', sessionId: notification.sessionId, update });
  }

  /** A signal aborted by the agent's own cancel, by Stop for the session, and by the process ending. */
  private track(sessionId: string | undefined, signal: AbortSignal): { signal: AbortSignal; done(): void } {
    const entry: OpenRequest = { sessionId, controller: new AbortController() };
    const onAbort = (): void => entry.controller.abort(signal.reason);
    if (signal.aborted || this._status === 'exited') entry.controller.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
    this.open.add(entry);
    return {
      signal: entry.controller.signal,
      done: () => {
        this.open.delete(entry);
        signal.removeEventListener('abort', onAbort);
      },
    };
  }

  private finish(message: string, expected: boolean): void {
    if (this._status === 'exited') return;
    this._exitMessage = message;
    const reason = new Error(message);
    // Every open question and permission prompt closes; their askers are gone.
    for (const entry of this.open) entry.controller.abort(reason);
    this.connection?.close(reason);
    this.questions.cancelUrlWaits();
    void this.terminals.releaseAll(); // commands the agent ran end with it
    this.setStatus('exited');
    if (!expected) this.options.log(`[elicit] ${message}`);
    this.emit({ kind: 'exit', message, expected });
  }

  private agent(): acp.ClientContext {
    if (!this.connection || this._status !== 'running') throw new Error(this._exitMessage ?? `${this.name} is not running`);
    return this.connection.agent;
  }

  /** Rejects with the exit message when the process ends first. */
  private async untilExit<T>(promise: Promise<T>): Promise<T> {
    const exited = this.exited ?? new Promise<never>(() => undefined);
    try {
      return await Promise.race([
        promise,
        exited.then(() => {
          throw new Error(this._exitMessage ?? `${this.name} exited`);
        }),
      ]);
    } catch (error) {
      // The agent's output usually ends a moment before its exit is reported: prefer the exit's message.
      if (this.connection?.signal.aborted && this._exitMessage === undefined) {
        await waitAtMost(exited, 1000);
      }
      if (this._exitMessage !== undefined) throw new Error(this._exitMessage);
      throw withDetails(error);
    }
  }

  private emit(event: AcpEvent): void {
    try {
      this.events.fire(event);
    } catch (error) {
      this.options.log(`[elicit] ${this.name}: an event listener failed: ${errorText(error)}`);
    }
  }

  private setStatus(status: AgentProcessStatus): void {
    this._status = status;
  }
}

function terminalOutput(snapshot: TerminalSnapshot): acp.TerminalOutputResponse {
  return { output: snapshot.output, truncated: snapshot.truncated, ...(snapshot.exit ? { exitStatus: snapshot.exit } : {}) };
}
