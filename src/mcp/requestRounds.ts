/**
 * One connection's requests that may ask the person along the way (MCP 2026-07-28): `tools/call`,
 * `prompts/get` and `resources/read` sent again with each round's answers (rounds.ts), in the
 * context their questions are asked in, which ends with the call or with the connection; and a
 * round kept from before a window reload, answered and carried on.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { AppRef } from '../core/apps/appQuestion';
import { joinSignals } from '../core/joinSignals';
import type { CallTasks } from './callTasks';
import { callSubject, type ConnectionOptions } from './connectionTypes';
import { completeRounds, firstNextInLine, subjectOf, type Leg, type OpenRound, type RoundContext, type RoundMethod } from './rounds';
import { currentTask, followTask } from './taskExtension';

/** A request may wait for a person for a long time: no SDK request timeout cuts it short. */
export const NO_TIMEOUT_MS = 2_147_000_000;

/** What the rounds use of their connection. */
export interface RoundParts {
  readonly name: string;
  /** Who asks, on every question. */
  readonly askerName: string;
  readonly options: Pick<ConnectionOptions, 'ask' | 'roots' | 'rounds'>;
  /** The server's origin as configured now (serverOrigin.ts), kept with each round. */
  origin(): string;
  /** Aborted when the connection ends: every round of it closes. */
  lifetime(): AbortSignal;
  /** Runs a request; when the server needs the person to sign in (again), does that and retries once. */
  signedIn<T>(operation: () => Promise<T>): Promise<T>;
  /** The server's own app for a question, when app questions are on (extensions/apps.ts). */
  appFor(params: Record<string, unknown>): AppRef | undefined;
  /** A tool call that the server may answer with a task, and a task followed (callTasks.ts). */
  readonly tasks: Pick<CallTasks, 'callMayStartTask' | 'taskRun'>;
}

/** What a task's questions are about, in their titles and the history: "tool export_report (task)". */
export function taskSubject(request: { method: RoundMethod; params: Record<string, unknown> }): string {
  return `${subjectOf(request)} (task)`;
}

export class RequestRounds {
  constructor(private readonly parts: RoundParts) {}

  /**
   * Sends the request, and again with each round's answers until it has its result.
   * `keep`: its rounds are kept across a reload; `caller`: who the call is for (ToolCallOptions.caller).
   */
  async send(
    client: Client,
    request: { method: RoundMethod; params: Record<string, unknown> },
    signal?: AbortSignal,
    keep = true,
    caller?: string,
  ): Promise<Record<string, unknown>> {
    const leg = this.legFor(client, request.method, request.params, signal);
    const first = await leg({});
    return this.inRoundContext(subjectOf(request), signal, keep, (context) => completeRounds(first, leg, request, context), caller);
  }

  /**
   * Answers a round kept from before a window reload (its owner checked by the connection), then
   * carries its request or task on as usual; resolves with the request's final result.
   */
  async resume(client: Client, round: OpenRound, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (round.task && round.method === 'tools/call') {
      // A task's round: the task as the server has it now, its kept keys asked again if it still wants them.
      const task = round.task;
      return this.inRoundContext(
        taskSubject(round),
        signal,
        true,
        async (context) => {
          const run = this.parts.tasks.taskRun(client, round.params, firstNextInLine(context), signal, undefined);
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

  /**
   * Runs `work` with the context its rounds are asked in, which ends with the call or with the connection.
   * `caller`: who the call is for (ToolCallOptions.caller), named on its questions and kept with its rounds.
   */
  async inRoundContext<T>(
    subject: string,
    signal: AbortSignal | undefined,
    keep: boolean,
    work: (context: RoundContext) => Promise<T>,
    caller?: string,
  ): Promise<T> {
    const ends = joinSignals([this.parts.lifetime(), signal]);
    try {
      return await work({
        server: this.parts.name,
        origin: this.parts.origin(),
        asker: { kind: 'mcp', name: this.parts.askerName, detail: callSubject(subject, caller) },
        ...(caller !== undefined ? { caller } : {}),
        ask: this.parts.options.ask,
        roots: this.parts.options.roots,
        keeper: keep ? this.parts.options.rounds : undefined,
        signal: ends.signal,
        appFor: (params) => this.parts.appFor(params),
      });
    } finally {
      ends.dispose();
    }
  }

  /** The request sent again with one round's answers (2026-07-28); on 2025-era servers it is just the request. */
  private legFor(client: Client, method: RoundMethod, params: Record<string, unknown>, signal?: AbortSignal): Leg {
    const options = { signal, timeout: NO_TIMEOUT_MS, allowInputRequired: true };
    return (extra) =>
      this.parts.signedIn(async () => {
        const merged = { ...params, ...extra };
        switch (method) {
          case 'tools/call':
            return (await this.parts.tasks.callMayStartTask(client, merged as { name: string }, options)) as Record<string, unknown>;
          case 'prompts/get':
            return (await client.getPrompt(merged as { name: string }, options)) as Record<string, unknown>;
          case 'resources/read':
            // Always read afresh: a reading the person asked for is never served from a cache.
            return (await client.readResource(merged as { uri: string }, { ...options, cacheMode: 'bypass' })) as Record<string, unknown>;
        }
      });
  }
}
