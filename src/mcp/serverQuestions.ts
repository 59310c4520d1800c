/**
 * A 2025-era server's questions (`elicitation/create`, sent by the server rather than riding a
 * request): taken from the raw message (the SDK's typed handler would strip keywords such as
 * `pattern`), named after the one tool call under way if there is one, grouped when they arrive
 * together (core/broker/burst.ts), drawn in the server's own app when it names one, and answered
 * as a 2025-11-25 task when the server asks for one (elicitationTasks.ts).
 */
import type { AppRef } from '../core/apps/appQuestion';
import { BurstGrouper } from '../core/broker/burst';
import { elicitRequestFrom } from '../core/broker/elicitParams';
import { INVALID_PARAMS, InvalidRequestError } from '../core/errors';
import { joinSignals } from '../core/joinSignals';
import type { Asker, ElicitRequest, ElicitResult } from '../core/request';
import { readingLane } from '../core/time/turnLane';
import { callSubject, type AskFunction } from './connectionTypes';
import { isTaskAugmented, requestedTtl, type ElicitationTasks } from './elicitationTasks';
import type { JSONRPCRequest, Result } from './types';

/** A tool call under way, as its questions name it. */
export interface CallUnderWay {
  tool: string;
  caller?: string;
  /** Aborted when the call is given up. */
  signal?: AbortSignal;
}

/** What the questions use of their connection. */
export interface QuestionParts {
  /** Who asks, on every question. */
  readonly askerName: string;
  ask: AskFunction;
  /** Aborted when the connection ends: every question of it closes. */
  lifetime(): AbortSignal;
  /** The tool calls under way (toolCalls.ts). */
  callsUnderWay(): readonly CallUnderWay[];
  /** The server's own app for a question, when app questions are on (extensions/apps.ts). */
  appFor(params: Record<string, unknown>): AppRef | undefined;
}

export class ServerQuestions {
  /** 2025-era questions that arrive together are shown together. */
  private readonly bursts: BurstGrouper;

  constructor(private readonly parts: QuestionParts) {
    this.bursts = new BurstGrouper((request) => this.parts.ask(request), undefined, readingLane);
  }

  /** `elicitation/create`; `tasks`: where one the server asks to run as a task is kept while it polls. */
  async onElicitation(request: JSONRPCRequest, tasks: ElicitationTasks, signal: AbortSignal): Promise<Result> {
    if (!isTaskAugmented(request.params)) return this.answer(request.params, signal);
    try {
      // Checked now, so a malformed request gets its -32602 at once rather than a failed task.
      this.toElicitRequest(request.params, signal);
    } catch (error) {
      throw error instanceof InvalidRequestError ? invalidParams(error) : error;
    }
    return tasks.start(requestedTtl(request.params), (taskSignal) => this.answer(request.params, taskSignal));
  }

  private async answer(params: unknown, signal: AbortSignal): Promise<ElicitResult & Result> {
    // The question ends when its request does, when this connection does, or when the one call it
    // is asked during is given up (an agent cancelled it): the server may never cancel it itself.
    const ends = joinSignals([signal, this.parts.lifetime(), this.soleCall()?.signal]);
    try {
      const request = this.toElicitRequest(params, ends.signal);
      // Form questions that arrive together are asked together.
      const result = request.mode === 'form' ? await this.bursts.add(request) : await this.parts.ask(request);
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
    const app = request.mode === 'form' ? this.parts.appFor(params as Record<string, unknown>) : undefined;
    return app ? { ...request, app } : request;
  }

  /** Names the tool call when exactly one is running, so the person knows why they are asked. */
  private asker(): Asker {
    const name = this.parts.askerName;
    const subjects = new Set(this.parts.callsUnderWay().map((running) => callSubject(`tool ${running.tool}`, running.caller)));
    return subjects.size === 1 ? { kind: 'mcp', name, detail: [...subjects][0] } : { kind: 'mcp', name };
  }

  /** The one tool call under way, when there is exactly one: a 2025-era question is taken to be asked during it. */
  private soleCall(): CallUnderWay | undefined {
    const calls = this.parts.callsUnderWay();
    return calls.length === 1 ? calls[0] : undefined;
  }
}

/**
 * A -32602 for the asker with our sentence as the message. (ProtocolError
 * would prefix "MCP error -32602:" and the asker's SDK prefixes it again.)
 */
function invalidParams(error: InvalidRequestError): Error {
  return Object.assign(new Error(error.message), { code: INVALID_PARAMS });
}
