/**
 * Elicit's client side of the Agent Client Protocol with one agent, built with
 * the official SDK (`acp.client()…connect(ndJsonStream(…))`) on the stdio of
 * the agent's process (agentProcess.ts). Permission requests, elicitations (`elicitation/create` and
 * the older `session/elicitation`), URL completions and file reads/writes are
 * handed to callbacks; everything the panel shows is reported as events. No
 * vscode import: integration tests drive it against a real agent process.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { loadAcpSdk, type AcpSdk } from './loadSdk';
import { INVALID_PARAMS, InvalidRequestError, errorText } from '../core/errors';
import { elicitRequestFrom } from '../core/broker/elicitParams';
import { Emitter } from '../core/events';
import { CANCELLED, type Asker, type ElicitRequest, type ElicitResult } from '../core/request';
import { askerKey, type UrlWaits } from '../core/broker/urlWaits';
import { isObject } from '../core/json';
import { autoResolutionMs } from '../core/time/countdown';
import type { AgentConfig } from './config';
import { childEnvironment } from '../process/processGroup';
import { AgentProcess } from './agentProcess';
import { AgentTerminals, UnknownTerminalError, type TerminalSnapshot } from './terminals';
import { confinePath, OutsideWorkspaceError, sliceLines } from './files';
import { withDetails } from './agentErrors';
import { readAuthMethods, type AuthMethodView } from './authMethods';
import { commandOf } from './permissionDetails';

/** Elicitation method names: the stable ones and those of agents built on spring-2026 SDKs. */
export const ELICITATION_METHODS = ['elicitation/create', 'session/elicitation'] as const;
export const COMPLETION_METHODS = ['elicitation/complete', 'session/elicitation/complete'] as const;

export type AskFunction = (request: ElicitRequest) => Promise<ElicitResult>;

export interface PermissionOptionView {
  optionId: string;
  name: string;
  kind: string;
}

export interface PermissionPrompt {
  agent: string;
  sessionId: string;
  toolCallId: string;
  /** The tool call's title (from the request, or from the session's earlier updates). */
  toolTitle: string;
  toolKind?: string;
  /** The command it wants to run, when the tool call says (permissionDetails.ts). */
  command?: string;
  options: PermissionOptionView[];
}

export type PermissionChoice = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' };
export const PERMISSION_CANCELLED: PermissionChoice = Object.freeze({ outcome: 'cancelled' });

/** Thrown by `readTextFile` for a file that does not exist (answered with ACP's -32002). */
export class FileNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileNotFoundError';
  }
}

export interface AcpClientOptions {
  /** Where questions go: normally the broker's `ask`. */
  ask: AskFunction;
  /** Shows the agent's options and resolves with the person's choice; closes its UI when `signal` aborts. */
  permission(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionChoice>;
  /** The whole text of a file as the editor holds it (unsaved changes included). */
  readTextFile(path: string, signal: AbortSignal): Promise<string>;
  writeTextFile(path: string, content: string, signal: AbortSignal): Promise<void>;
  /** The folders the agent may read and write in. */
  roots(): readonly string[];
  /** One line of the agent's stderr or of our own diagnostics. Never receives answers. */
  log(line: string): void;
  /** Where `elicitation/complete` is delivered for URL-mode questions. */
  urlWaits?: UrlWaits;
  clientInfo?: { name: string; version: string };
  /** The environment the agent starts from (the configured `env` wins); process.env by default. */
  baseEnv?: Record<string, string | undefined>;
  /** The process's working directory when the configuration gives none. */
  defaultCwd?: string;
  /**
   * Variables added to the agent's environment only (not to the commands it runs
   * in terminals): the keys of an env_var sign-in. Never logged.
   */
  secretEnv?: Record<string, string>;
  /** Declares `auth.terminal`: the caller can run an agent's terminal login. */
  terminalLogins?: boolean;
}

/** What a question looked like, for the transcript. */
export interface QuestionInfo {
  method: string;
  mode: string;
  message: string;
  toolCallId?: string;
  requestedSchema?: unknown;
  /** The agent keeps working while the person answers (codex's `_meta.codex.delivery: "async"`). */
  nonBlocking?: boolean;
  url?: string;
  elicitationId?: string;
  /** The agent's own timer (codex's autoResolutionMs): when it goes on without the answer, epoch ms. */
  autoResolvesAt?: number;
}

export type AcpEvent =
  | { kind: 'update'; sessionId: string; update: acp.SessionUpdate }
  /** Sent when asked (no `choice`) and again when answered. */
  | { kind: 'permission'; id: number; sessionId: string; prompt: PermissionPrompt; choice?: PermissionChoice }
  /** Sent when asked (no `result`) and again when answered or refused (`error`). */
  | { kind: 'question'; id: number; sessionId?: string; info: QuestionInfo; result?: ElicitResult; error?: string }
  /** A non-blocking question still open when its turn ended: an answer would no longer reach the agent. */
  | { kind: 'questionTurnEnded'; id: number; sessionId?: string }
  | { kind: 'completed'; elicitationId: string }
  | { kind: 'file'; sessionId: string; action: 'read' | 'write'; path: string; error?: string }
  /** A terminal the agent runs got output or exited. */
  | { kind: 'terminal'; terminal: TerminalSnapshot }
  /** The process ended; `expected` when Elicit stopped it. */
  | { kind: 'exit'; message: string; expected: boolean };

export type AgentProcessStatus = 'stopped' | 'starting' | 'running' | 'exited';

interface OpenRequest {
  sessionId?: string;
  controller: AbortController;
}

/** ACP's "authentication required" error code. */
const AUTH_REQUIRED = -32000;

/** `session/new` was refused until the person signs in with one of `AcpConnection.authMethods`. */
export class AuthRequiredError extends Error {}

/** Whether a request failed for want of a sign-in: AuthRequiredError, or ACP's code on a request `request()` does not map (a turn). */
export function isAuthRequired(error: unknown): boolean {
  return error instanceof AuthRequiredError || (error as { code?: unknown } | undefined)?.code === AUTH_REQUIRED;
}

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
  /** Tool call titles by id, from session updates: permission prompts and questions name them. */
  private readonly toolTitles = new Map<string, string>();
  private readonly terminals = new AgentTerminals();
  /** URL elicitations the person accepted that still wait for `elicitation/complete`. */
  private readonly urlIds = new Set<string>();
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
    this.terminals.onDidChange((terminal) => this.emit({ kind: 'terminal', terminal }));
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
  /** Open permission requests and questions (for tests and diagnostics). */
  get openRequests(): number {
    return this.open.size;
  }
  private get asker(): Asker {
    return { kind: 'acp', name: this.name };
  }
  private get key(): string {
    return askerKey(this.asker);
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
   * when the agent has them. Rejects with AuthRequiredError when the agent wants
   * the person to sign in first.
   */
  async newSession(cwd: string): Promise<acp.NewSessionResponse> {
    return this.request('session/new', { cwd, mcpServers: [] });
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
  async loadSession(sessionId: string, cwd: string): Promise<acp.LoadSessionResponse> {
    return this.request('session/load', { sessionId, cwd, mcpServers: [] });
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
      .onRequest('session/request_permission', (ctx) => this.onPermission(ctx.params, ctx.signal))
      .onRequest('fs/read_text_file', (ctx) => this.onRead(ctx.params, ctx.signal))
      .onRequest('fs/write_text_file', (ctx) => this.onWrite(ctx.params, ctx.signal))
      .onRequest('terminal/create', (ctx) => this.onCreateTerminal(ctx.params))
      .onRequest('terminal/output', (ctx) => this.onTerminal(ctx.params, (id, t) => terminalOutput(t.output(ctx.params.sessionId, id))))
      .onRequest('terminal/wait_for_exit', (ctx) =>
        this.onTerminal(ctx.params, (id, t) => this.untilExit(t.waitForExit(ctx.params.sessionId, id))),
      )
      .onRequest('terminal/kill', (ctx) => this.onTerminal(ctx.params, async (id, t) => (await t.kill(ctx.params.sessionId, id), {})))
      .onRequest('terminal/release', (ctx) =>
        this.onTerminal(ctx.params, async (id, t) => (await t.release(ctx.params.sessionId, id), {})),
      );
    // Elicitations are taken raw: the person must see exactly what the agent sent
    // (`pattern`, `format: "password"`…), and the broker decides what it can draw.
    for (const method of ELICITATION_METHODS) {
      app.onRequest<unknown, Record<string, unknown>>(method, raw, (ctx) => this.onElicitation(method, ctx.params, ctx.signal));
    }
    for (const method of COMPLETION_METHODS) {
      app.onNotification<unknown>(method, raw, (ctx) => this.onComplete(ctx.params));
    }
    return app;
  }

  private onUpdate(notification: acp.SessionNotification): void {
    const update = notification.update;
    if ((update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') && update.title) {
      this.toolTitles.set(update.toolCallId, update.title);
    }
    this.emit({ kind: 'update', sessionId: notification.sessionId, update });
  }

  private async onPermission(params: acp.RequestPermissionRequest, ctxSignal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    if (params.options.length === 0) throw this.rpcError(INVALID_PARAMS, 'session/request_permission needs at least one option');
    const toolCallId = params.toolCall.toolCallId;
    if (params.toolCall.title) this.toolTitles.set(toolCallId, params.toolCall.title);
    const prompt: PermissionPrompt = {
      agent: this.name,
      sessionId: params.sessionId,
      toolCallId,
      toolTitle: params.toolCall.title ?? this.toolTitles.get(toolCallId) ?? `tool call ${toolCallId}`,
      options: params.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
    };
    if (params.toolCall.kind) prompt.toolKind = params.toolCall.kind;
    const command = commandOf(params.toolCall.rawInput);
    if (command !== undefined) prompt.command = command;
    const id = this.nextId++;
    const tracked = this.track(params.sessionId, ctxSignal);
    this.emit({ kind: 'permission', id, sessionId: params.sessionId, prompt });
    let choice: PermissionChoice = PERMISSION_CANCELLED;
    try {
      if (!tracked.signal.aborted) choice = await this.options.permission(prompt, tracked.signal);
    } catch (error) {
      this.options.log(`[elicit] ${this.name}: the permission prompt failed: ${errorText(error)}`);
      choice = PERMISSION_CANCELLED;
    } finally {
      tracked.done();
    }
    // A choice that arrives after a cancel, or names no offered option, is a cancel.
    const chosen = choice.outcome === 'selected' ? choice.optionId : undefined;
    if (tracked.signal.aborted || (chosen !== undefined && !prompt.options.some((o) => o.optionId === chosen))) {
      choice = PERMISSION_CANCELLED;
    }
    this.emit({ kind: 'permission', id, sessionId: params.sessionId, prompt, choice });
    this.options.log(
      `[elicit] ${this.name}: permission for "${prompt.toolTitle}": ${choice.outcome === 'selected' ? choice.optionId : 'cancelled'}`,
    );
    return {
      outcome: choice.outcome === 'selected' ? { outcome: 'selected', optionId: choice.optionId } : { outcome: 'cancelled' },
    };
  }

  private async onElicitation(method: string, params: unknown, ctxSignal: AbortSignal): Promise<Record<string, unknown>> {
    const p = isObject(params) ? params : {};
    const sessionId = typeof p.sessionId === 'string' ? p.sessionId : undefined;
    const info: QuestionInfo = {
      method,
      mode: typeof p.mode === 'string' ? p.mode : 'form',
      message: typeof p.message === 'string' ? p.message : '',
    };
    if (typeof p.toolCallId === 'string') info.toolCallId = p.toolCallId;
    if (isNonBlocking(p) && sessionId !== undefined) return this.onNonBlocking(method, p, sessionId, info, ctxSignal);
    const id = this.nextId++;
    const tracked = this.track(sessionId, ctxSignal);
    try {
      const request = this.toElicitRequest(method, p, sessionId, tracked.signal);
      if (request.mode === 'form') info.requestedSchema = request.requestedSchema;
      else if (request.mode === 'url') Object.assign(info, { url: request.url, elicitationId: request.elicitationId });
      if (request.autoResolvesAt !== undefined) info.autoResolvesAt = request.autoResolvesAt;
      this.emit({ kind: 'question', id, sessionId, info });
      const result = await this.options.ask(request);
      if (request.mode === 'url' && request.elicitationId && result.action === 'accept') this.urlIds.add(request.elicitationId);
      this.emit({ kind: 'question', id, sessionId, info, result });
      this.options.log(`[elicit] ${this.name}: ${method} (${request.mode}): ${result.action}`);
      return result.action === 'accept' && result.content ? { action: 'accept', content: result.content } : { action: result.action };
    } catch (error) {
      return this.refused(method, id, sessionId, info, error);
    } finally {
      tracked.done();
    }
  }

  /**
   * A question the agent keeps working through (codex's `request_user_input_async`).
   * It belongs to the turn running when it came: when that turn ends (the
   * `session/prompt` answer), or the agent withdraws it (codex does so as the
   * turn ends, with `$/cancel_request`), it stays in front of the person marked
   * "turn ended", Dismiss only, since the agent would drop an answer. A
   * withdrawn one is answered `cancel` at once; the agent no longer waits.
   * Stop, and the agent exiting, close it as they close every question.
   */
  private async onNonBlocking(
    method: string,
    p: Record<string, unknown>,
    sessionId: string,
    info: QuestionInfo,
    withdrawn: AbortSignal,
  ): Promise<Record<string, unknown>> {
    info.nonBlocking = true;
    const id = this.nextId++;
    const tracked = this.track(sessionId, new AbortController().signal);
    const turnEnded = AbortSignal.any([this.turns.get(sessionId)?.signal ?? AbortSignal.abort(), withdrawn]);
    const onTurnEnded = (): void => {
      if (!tracked.signal.aborted) this.emit({ kind: 'questionTurnEnded', id, sessionId });
    };
    let answered: Promise<ElicitResult>;
    try {
      const request = this.toElicitRequest(method, p, sessionId, tracked.signal);
      if (request.mode !== 'form') throw new InvalidRequestError(`${method}: a non-blocking question must be a form`);
      request.nonBlocking = { turnEnded };
      // It comes from no tool call: its session says where it belongs.
      request.asker.detail = `session ${clipId(sessionId)}`;
      info.requestedSchema = request.requestedSchema;
      if (request.autoResolvesAt !== undefined) info.autoResolvesAt = request.autoResolvesAt;
      this.emit({ kind: 'question', id, sessionId, info });
      if (turnEnded.aborted) onTurnEnded();
      else turnEnded.addEventListener('abort', onTurnEnded, { once: true });
      answered = this.options.ask(request);
    } catch (error) {
      tracked.done();
      return this.refused(method, id, sessionId, info, error);
    }
    const closed = answered.then(
      (result) => {
        this.emit({ kind: 'question', id, sessionId, info, result });
        this.options.log(
          `[elicit] ${this.name}: ${method} (non-blocking): ${result.action}${withdrawn.aborted ? ', after the agent withdrew it' : ''}`,
        );
        return result;
      },
      (error: unknown) => {
        this.emit({ kind: 'question', id, sessionId, info, error: errorText(error) });
        this.options.log(`[elicit] ${this.name}: ${method} refused: ${errorText(error)}`);
        throw error;
      },
    );
    void closed
      .catch(() => undefined)
      .finally(() => {
        turnEnded.removeEventListener('abort', onTurnEnded);
        tracked.done();
      });
    const result = await Promise.race([closed, untilAborted(withdrawn).then(() => CANCELLED)]);
    return result.action === 'accept' && result.content ? { action: 'accept', content: result.content } : { action: result.action };
  }

  /** A question that could not be asked: the panel says why, and the agent gets -32602 for a malformed one. */
  private refused(method: string, id: number, sessionId: string | undefined, info: QuestionInfo, error: unknown): never {
    const message = errorText(error);
    this.emit({ kind: 'question', id, sessionId, info, error: message });
    this.options.log(`[elicit] ${this.name}: ${method} refused: ${message}`);
    if (error instanceof InvalidRequestError) throw this.rpcError(INVALID_PARAMS, error.message);
    throw error;
  }

  private toElicitRequest(method: string, p: Record<string, unknown>, sessionId: string | undefined, signal: AbortSignal): ElicitRequest {
    const asker = this.asker;
    if (typeof p.toolCallId === 'string') asker.detail = this.toolTitles.get(p.toolCallId) ?? `tool call ${p.toolCallId}`;
    const request = elicitRequestFrom(method, p, asker, signal);
    const timer = autoResolutionMs(codexMeta(p).autoResolutionMs);
    if (timer !== undefined && request.mode === 'form') request.autoResolvesAt = Date.now() + timer;
    // ACP scopes a question to a session (and maybe a tool call), or to a request.
    if (sessionId === undefined && p.requestId === undefined) {
      throw new InvalidRequestError(`${method} needs a "sessionId" or a "requestId"`);
    }
    return request;
  }

  private onComplete(params: unknown): void {
    const id = isObject(params) ? params.elicitationId : undefined;
    // Unknown or already completed ids are ignored.
    if (typeof id !== 'string') return;
    this.urlIds.delete(id);
    if (this.options.urlWaits?.complete(this.key, id)) this.emit({ kind: 'completed', elicitationId: id });
  }

  private async onRead(params: acp.ReadTextFileRequest, signal: AbortSignal): Promise<acp.ReadTextFileResponse> {
    const file = await this.confine(params.sessionId, 'read', params.path);
    try {
      const text = await this.options.readTextFile(file, signal);
      this.emit({ kind: 'file', sessionId: params.sessionId, action: 'read', path: file });
      return { content: sliceLines(text, params.line, params.limit) };
    } catch (error) {
      this.emit({ kind: 'file', sessionId: params.sessionId, action: 'read', path: file, error: errorText(error) });
      if (error instanceof FileNotFoundError) throw this.requireSdk().RequestError.resourceNotFound(file);
      throw this.rpcError(-32603, `Could not read ${file}: ${errorText(error)}`);
    }
  }

  private async onWrite(params: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const file = await this.confine(params.sessionId, 'write', params.path);
    try {
      await this.options.writeTextFile(file, params.content, signal);
      this.emit({ kind: 'file', sessionId: params.sessionId, action: 'write', path: file });
      return {};
    } catch (error) {
      this.emit({ kind: 'file', sessionId: params.sessionId, action: 'write', path: file, error: errorText(error) });
      throw this.rpcError(-32603, `Could not write ${file}: ${errorText(error)}`);
    }
  }

  /** `terminal/create`: the command runs in a workspace folder (the session's, unless it names another). */
  private async onCreateTerminal(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    const cwd = params.cwd ?? this.options.defaultCwd ?? this.options.roots()[0];
    if (cwd === undefined) throw this.rpcError(INVALID_PARAMS, 'terminal/create needs a cwd: no workspace folder is open');
    let confined: string;
    try {
      confined = await confinePath(cwd, this.options.roots());
    } catch (error) {
      if (!(error instanceof OutsideWorkspaceError)) throw error;
      this.options.log(`[elicit] ${this.name}: refused a terminal in ${String(cwd)}: outside the workspace`);
      throw this.rpcError(INVALID_PARAMS, error.message);
    }
    const extra = Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value]));
    const launch = {
      sessionId: params.sessionId,
      command: params.command,
      args: params.args ?? [],
      cwd: confined,
      env: childEnvironment(this.options.baseEnv ?? process.env, { ...this.config.env, ...extra }),
      ...(typeof params.outputByteLimit === 'number' ? { outputByteLimit: params.outputByteLimit } : {}),
    };
    try {
      const terminalId = await this.terminals.create(launch);
      this.options.log(`[elicit] ${this.name}: terminal ${terminalId}: ${launch.command}`);
      return { terminalId };
    } catch (error) {
      throw this.rpcError(-32603, `Could not run ${params.command}: ${errorText(error)}`);
    }
  }

  /** The other terminal methods: an unknown id (or one of another session) is -32602. */
  private async onTerminal<T>(
    params: { terminalId: string },
    run: (terminalId: string, terminals: AgentTerminals) => Promise<T> | T,
  ): Promise<T> {
    try {
      return await run(params.terminalId, this.terminals);
    } catch (error) {
      if (error instanceof UnknownTerminalError) throw this.rpcError(INVALID_PARAMS, error.message);
      throw error;
    }
  }

  private async confine(sessionId: string, action: 'read' | 'write', requested: string): Promise<string> {
    try {
      return await confinePath(requested, this.options.roots());
    } catch (error) {
      if (!(error instanceof OutsideWorkspaceError)) throw error;
      this.emit({ kind: 'file', sessionId, action, path: String(requested), error: error.message });
      this.options.log(`[elicit] ${this.name}: refused to ${action} ${String(requested)}: outside the workspace`);
      throw this.rpcError(INVALID_PARAMS, error.message);
    }
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
    this.cancelUrlWaits();
    void this.terminals.releaseAll(); // commands the agent ran end with it
    this.setStatus('exited');
    if (!expected) this.options.log(`[elicit] ${message}`);
    this.emit({ kind: 'exit', message, expected });
  }

  /** Ends the waits of this process's accepted URL questions (other sessions of the same agent keep theirs). */
  private cancelUrlWaits(): void {
    const waits = this.options.urlWaits;
    if (!waits) return;
    for (const id of this.urlIds) waits.cancel(this.key, id);
    this.urlIds.clear();
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
        await Promise.race([exited, new Promise((r) => setTimeout(r, 1000))]);
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

/** codex's mark of a question it keeps working through: `_meta.codex.delivery: "async"`. */
function isNonBlocking(p: Record<string, unknown>): boolean {
  const meta = p._meta;
  const codex = isObject(meta) ? meta.codex : undefined;
  return isObject(codex) && codex.delivery === 'async' && (p.mode ?? 'form') === 'form';
}

/** The start of a session id, enough to tell sessions apart. */
function clipId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function terminalOutput(snapshot: TerminalSnapshot): acp.TerminalOutputResponse {
  return { output: snapshot.output, truncated: snapshot.truncated, ...(snapshot.exit ? { exitStatus: snapshot.exit } : {}) };
}

/** codex's own fields of a request (`_meta.codex`), or none. */
function codexMeta(params: Record<string, unknown>): Record<string, unknown> {
  const meta = isObject(params._meta) ? params._meta.codex : undefined;
  return isObject(meta) ? meta : {};
}
