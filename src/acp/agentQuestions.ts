/**
 * One ACP connection's questions: the agent's permission requests, its elicitations
 * (`elicitation/create` and the older `session/elicitation`, codex's non-blocking ones)
 * and the completions of URL questions. Each goes to the caller's callbacks and is
 * reported as events; the connection (connection.ts) routes the requests here.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { INVALID_PARAMS, InvalidRequestError, errorText, isInvalidRequestError } from '../core/errors';
import { CANCELLED, type Asker, type ElicitRequest, type ElicitResult } from '../core/request';
import { askerKey } from '../core/broker/urlWaits';
import { isObject } from '../core/json';
import { joinSignals } from '../core/joinSignals';
import { commandOf } from './permissionDetails';
import { agentElicitRequest, isNonBlocking } from './agentConventions';
import {
  PERMISSION_CANCELLED,
  type AcpClientOptions,
  type AcpEvent,
  type PermissionChoice,
  type PermissionPrompt,
  type QuestionInfo,
} from './connectionTypes';

/** What the questions use of their connection. */
export interface QuestionParts {
  readonly name: string;
  readonly options: AcpClientOptions;
  nextId(): number;
  /** A signal aborted by the agent's own cancel, by Stop for the session, and by the process ending. */
  track(sessionId: string | undefined, signal: AbortSignal): { signal: AbortSignal; done(): void };
  emit(event: AcpEvent): void;
  rpcError(code: number, message: string): Error;
  /** The session's running prompt turn: aborted when it ends. */
  turnSignal(sessionId: string): AbortSignal | undefined;
}

export class AgentQuestions {
  /** Tool call titles by id, from session updates: permission prompts and questions name them. */
  private readonly toolTitles = new Map<string, string>();
  /** URL elicitations the person accepted that still wait for `elicitation/complete`. */
  private readonly urlIds = new Set<string>();

  constructor(private readonly parts: QuestionParts) {}

  private get asker(): Asker {
    return { kind: 'acp', name: this.parts.name };
  }
  private get key(): string {
    return askerKey(this.asker);
  }

  /** A tool call's title, as a session update gives it. */
  noteToolTitle(toolCallId: string, title: string): void {
    this.toolTitles.set(toolCallId, title);
  }

  async onPermission(params: acp.RequestPermissionRequest, ctxSignal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    if (params.options.length === 0) throw this.parts.rpcError(INVALID_PARAMS, 'session/request_permission needs at least one option');
    const toolCallId = params.toolCall.toolCallId;
    if (params.toolCall.title) this.toolTitles.set(toolCallId, params.toolCall.title);
    const prompt: PermissionPrompt = {
      agent: this.parts.name,
      sessionId: params.sessionId,
      toolCallId,
      toolTitle: params.toolCall.title ?? this.toolTitles.get(toolCallId) ?? `tool call ${toolCallId}`,
      options: params.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
    };
    if (params.toolCall.kind) prompt.toolKind = params.toolCall.kind;
    const command = commandOf(params.toolCall.rawInput);
    if (command !== undefined) prompt.command = command;
    const id = this.parts.nextId();
    const tracked = this.parts.track(params.sessionId, ctxSignal);
    this.parts.emit({ kind: 'permission', id, sessionId: params.sessionId, prompt });
    let choice: PermissionChoice = PERMISSION_CANCELLED;
    try {
      if (!tracked.signal.aborted) choice = await this.parts.options.permission(prompt, tracked.signal);
    } catch (error) {
      this.parts.options.log(`[elicit] ${this.parts.name}: the permission prompt failed: ${errorText(error)}`);
      choice = PERMISSION_CANCELLED;
    } finally {
      tracked.done();
    }
    // A choice that arrives after a cancel, or names no offered option, is a cancel.
    const chosen = choice.outcome === 'selected' ? choice.optionId : undefined;
    if (tracked.signal.aborted || (chosen !== undefined && !prompt.options.some((o) => o.optionId === chosen))) {
      choice = PERMISSION_CANCELLED;
    }
    this.parts.emit({ kind: 'permission', id, sessionId: params.sessionId, prompt, choice });
    this.parts.options.log(
      `[elicit] ${this.parts.name}: permission for "${prompt.toolTitle}": ${choice.outcome === 'selected' ? choice.optionId : 'cancelled'}`,
    );
    return {
      outcome: choice.outcome === 'selected' ? { outcome: 'selected', optionId: choice.optionId } : { outcome: 'cancelled' },
    };
  }

  async onElicitation(method: string, params: unknown, ctxSignal: AbortSignal): Promise<Record<string, unknown>> {
    const p = isObject(params) ? params : {};
    const sessionId = typeof p.sessionId === 'string' ? p.sessionId : undefined;
    const info: QuestionInfo = {
      method,
      mode: typeof p.mode === 'string' ? p.mode : 'form',
      message: typeof p.message === 'string' ? p.message : '',
    };
    if (typeof p.toolCallId === 'string') info.toolCallId = p.toolCallId;
    if (isNonBlocking(p) && sessionId !== undefined) return this.onNonBlocking(method, p, sessionId, info, ctxSignal);
    const id = this.parts.nextId();
    const tracked = this.parts.track(sessionId, ctxSignal);
    try {
      const request = this.toElicitRequest(method, p, sessionId, tracked.signal);
      if (request.mode === 'form') info.requestedSchema = request.requestedSchema;
      else if (request.mode === 'url') Object.assign(info, { url: request.url, elicitationId: request.elicitationId });
      if (request.autoResolvesAt !== undefined) info.autoResolvesAt = request.autoResolvesAt;
      this.parts.emit({ kind: 'question', id, sessionId, info });
      const result = await this.parts.options.ask(request);
      if (request.mode === 'url' && request.elicitationId && result.action === 'accept') this.urlIds.add(request.elicitationId);
      this.parts.emit({ kind: 'question', id, sessionId, info, result });
      this.parts.options.log(`[elicit] ${this.parts.name}: ${method} (${request.mode}): ${result.action}`);
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
    const id = this.parts.nextId();
    const tracked = this.parts.track(sessionId, new AbortController().signal);
    const turnOrWithdrawn = joinSignals([this.parts.turnSignal(sessionId) ?? AbortSignal.abort(), withdrawn]);
    const turnEnded = turnOrWithdrawn.signal;
    const onTurnEnded = (): void => {
      if (!tracked.signal.aborted) this.parts.emit({ kind: 'questionTurnEnded', id, sessionId });
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
      this.parts.emit({ kind: 'question', id, sessionId, info });
      if (turnEnded.aborted) onTurnEnded();
      else turnEnded.addEventListener('abort', onTurnEnded, { once: true });
      answered = this.parts.options.ask(request);
    } catch (error) {
      tracked.done();
      turnOrWithdrawn.dispose();
      return this.refused(method, id, sessionId, info, error);
    }
    const closed = answered.then(
      (result) => {
        this.parts.emit({ kind: 'question', id, sessionId, info, result });
        this.parts.options.log(
          `[elicit] ${this.parts.name}: ${method} (non-blocking): ${result.action}${withdrawn.aborted ? ', after the agent withdrew it' : ''}`,
        );
        return result;
      },
      (error: unknown) => {
        this.parts.emit({ kind: 'question', id, sessionId, info, error: errorText(error) });
        this.parts.options.log(`[elicit] ${this.parts.name}: ${method} refused: ${errorText(error)}`);
        throw error;
      },
    );
    void closed
      .catch(() => undefined)
      .finally(() => {
        turnEnded.removeEventListener('abort', onTurnEnded);
        turnOrWithdrawn.dispose();
        tracked.done();
      });
    const result = await Promise.race([closed, untilAborted(withdrawn).then(() => CANCELLED)]);
    return result.action === 'accept' && result.content ? { action: 'accept', content: result.content } : { action: result.action };
  }

  /** A question that could not be asked: the panel says why, and the agent gets -32602 for a malformed one. */
  private refused(method: string, id: number, sessionId: string | undefined, info: QuestionInfo, error: unknown): never {
    const message = errorText(error);
    this.parts.emit({ kind: 'question', id, sessionId, info, error: message });
    this.parts.options.log(`[elicit] ${this.parts.name}: ${method} refused: ${message}`);
    // The broker's own refusal comes from extension.js's copy of the class (this runs in dist/agent-sessions.js).
    if (isInvalidRequestError(error)) throw this.parts.rpcError(INVALID_PARAMS, error.message);
    throw error;
  }

  private toElicitRequest(method: string, p: Record<string, unknown>, sessionId: string | undefined, signal: AbortSignal): ElicitRequest {
    const asker = this.asker;
    if (typeof p.toolCallId === 'string') asker.detail = this.toolTitles.get(p.toolCallId) ?? `tool call ${p.toolCallId}`;
    const request = agentElicitRequest(method, p, asker, signal);
    // ACP scopes a question to a session (and maybe a tool call), or to a request.
    if (sessionId === undefined && p.requestId === undefined) {
      throw new InvalidRequestError(`${method} needs a "sessionId" or a "requestId"`);
    }
    return request;
  }

  onComplete(params: unknown): void {
    const id = isObject(params) ? params.elicitationId : undefined;
    // Unknown or already completed ids are ignored.
    if (typeof id !== 'string') return;
    this.urlIds.delete(id);
    if (this.parts.options.urlWaits?.complete(this.key, id)) this.parts.emit({ kind: 'completed', elicitationId: id });
  }

  /** Ends the waits of this process's accepted URL questions (other sessions of the same agent keep theirs). */
  cancelUrlWaits(): void {
    const waits = this.parts.options.urlWaits;
    if (!waits) return;
    for (const id of this.urlIds) waits.cancel(this.key, id);
    this.urlIds.clear();
  }
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
