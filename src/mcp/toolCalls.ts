/**
 * One connection's tool calls: `tools/call` with its rounds (requestRounds.ts), followed as a task
 * when the server makes it one (the tasks extension) or sent as a 2025-11-25 task for a tool that
 * only runs as one (toolTasks.ts), -32042's URL questions answered before one retry, and the result
 * checked against the tool's outputSchema in a worker (resultCheck/). The calls under way are what
 * a 2025-era question names (serverQuestions.ts).
 */
import type { Client } from '@modelcontextprotocol/client';
import { INVALID_PARAMS } from '../core/errors';
import type { Emitter } from '../core/events';
import type { CallTasks } from './callTasks';
import { TASK_ANSWER_GRACE_MS } from './callTasks';
import { callSubject, type ConnectionOptions, type RunningTask, type ToolCallOptions } from './connectionTypes';
import type { McpSdk } from './loadSdk';
import { allPages } from './pages';
import { NO_TIMEOUT_MS, taskSubject, type RequestRounds } from './requestRounds';
import { ResultChecker, type CheckOutcome } from './resultCheck/resultChecker';
import { followTask, missingCapabilityText, MISSING_CLIENT_CAPABILITY, taskOf } from './taskExtension';
import { callToolAsTask, mustRunAsTask } from './toolTasks';
import type { CallToolResult, Tool } from './types';
import { satisfyUrlElicitations } from './urlElicitationRequired';

/** JSON-RPC codes this adapter sends or recognises (METHOD_NOT_FOUND: core/errors.ts). */
const URL_ELICITATION_REQUIRED = -32042;

/** A tool call as its caller asks for it; `onTask`: each status of the task the server runs it as, if it does. */
export interface ToolRequest extends ToolCallOptions {
  name: string;
  args: Record<string, unknown>;
  signal?: AbortSignal;
  onTask?: (task: RunningTask) => void;
}

/** A tool call under way: what its questions name, its end, and who hears of its task. */
export interface RunningCall {
  id: number;
  tool: string;
  args: Record<string, unknown>;
  signal?: AbortSignal;
  onTask?: (task: RunningTask) => void;
  /** False when whoever called cannot outlive the window (the gateway's agent): its rounds end with it. */
  keepRounds: boolean;
  /** Who the call is for, when not the person themself (ToolCallOptions.caller). */
  caller?: string;
}

/** What the tool calls use of their connection. */
export interface ToolCallParts {
  readonly name: string;
  /** Who asks, on every question. */
  readonly askerName: string;
  readonly options: Pick<ConnectionOptions, 'ask'>;
  /** The connection's client, connecting if needed. */
  connect(): Promise<Client>;
  /** The SDK, loaded before any call: its errors are the ones a caller expects. */
  sdk(): McpSdk;
  /** Runs a request; when the server needs the person to sign in (again), does that and retries once. */
  signedIn<T>(operation: () => Promise<T>): Promise<T>;
  /** Ids from the server's `notifications/elicitation/complete`. */
  readonly onDidCompleteElicitation: Emitter<string>['event'];
  readonly rounds: Pick<RequestRounds, 'send' | 'inRoundContext'>;
  readonly tasks: Pick<CallTasks, 'taskRun' | 'changed' | 'ended' | 'statusLog' | 'trackCancel' | 'cancelUnfollowed'>;
}

export class ToolCalls {
  private readonly calls = new Map<number, RunningCall>();
  /** Tools as last listed, for their `execution.taskSupport` and `outputSchema`. */
  private readonly listedTools = new Map<string, Tool>();
  /** Checks tool results against their outputSchema off the host's thread (resultCheck/). */
  private resultChecks: ResultChecker | undefined;
  private nextCallId = 1;

  constructor(private readonly parts: ToolCallParts) {}

  /** The tool calls under way, oldest first. */
  get running(): RunningCall[] {
    return [...this.calls.values()];
  }

  async list(): Promise<Tool[]> {
    const client = await this.parts.connect();
    const tools = await allPages(async (cursor) => {
      const page = await this.parts.signedIn(() => client.listTools(cursor ? { cursor } : undefined));
      return { items: page.tools, next: page.nextCursor };
    });
    for (const tool of tools) this.listedTools.set(tool.name, tool);
    return tools;
  }

  async call(client: Client, request: ToolRequest): Promise<CallToolResult> {
    const { name, signal, caller } = request;
    const call: RunningCall = {
      id: this.nextCallId++,
      tool: name,
      args: request.args,
      ...(signal ? { signal } : {}),
      onTask: request.onTask,
      keepRounds: request.keepRoundsAcrossReload ?? true,
      ...(caller !== undefined ? { caller } : {}),
    };
    this.calls.set(call.id, call);
    const attempt = (): Promise<CallToolResult> => this.parts.signedIn(() => this.invoke(client, call));
    try {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof this.parts.sdk().ProtocolError) || error.code !== URL_ELICITATION_REQUIRED) throw error;
        // -32042 (2025-11-25): the URL elicitations in the error first, then one retry (a second -32042 is the caller's).
        await satisfyUrlElicitations(error.data, {
          ask: this.parts.options.ask,
          asker: { kind: 'mcp', name: this.parts.askerName, detail: callSubject(`tool ${name}`, caller) },
          what: name,
          onDidComplete: this.parts.onDidCompleteElicitation,
          signal,
        });
        return await attempt();
      }
    } finally {
      this.calls.delete(call.id);
      this.parts.tasks.ended(call.id);
    }
  }

  /** The result-check worker ends with the connection; a later call with an outputSchema starts another. */
  stopResultChecks(): void {
    this.resultChecks?.dispose();
    this.resultChecks = undefined;
  }

  /**
   * A plain `tools/call` (with its rounds, or followed as a task when the server makes it one: the
   * tasks extension), or a 2025-11-25 task-augmented one for tools that only run as tasks.
   */
  private async invoke(client: Client, call: RunningCall): Promise<CallToolResult> {
    const name = call.tool;
    if (!this.listedTools.has(name)) await this.list();
    const outputSchema = this.listedTools.get(name)?.outputSchema;
    // As the SDK would, but in a worker with a deadline (resultCheck/): refused before the call when unusable.
    if (outputSchema) this.throwIfUnchecked(name, await this.resultChecker().prepare(outputSchema), true);
    const result = await this.run(client, call);
    if (outputSchema && result.structuredContent !== undefined && !result.isError) {
      this.throwIfUnchecked(name, await this.resultChecker().check(outputSchema, result.structuredContent), false);
    }
    return result;
  }

  /** The SDK's own errors for a schema that cannot be used and a result that breaks it, with the worker's reasons. */
  private throwIfUnchecked(tool: string, checked: CheckOutcome, before: boolean): void {
    if (checked.outcome === 'valid') return;
    const { ProtocolError } = this.parts.sdk();
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

  private async run(client: Client, call: RunningCall): Promise<CallToolResult> {
    const { tool: name, args, signal } = call;
    const { rounds, tasks } = this.parts;
    if (!mustRunAsTask(client, this.listedTools.get(name))) {
      const params = { name, arguments: args };
      try {
        return (await rounds.send(client, { method: 'tools/call', params }, signal, call.keepRounds, call.caller)) as CallToolResult;
      } catch (error) {
        // The tasks extension: the server runs the call as a task (maybe after rounds of its own).
        const task = taskOf(error, this.parts.name);
        if (!task) throw this.readableFailure(error);
        return rounds.inRoundContext(
          taskSubject({ method: 'tools/call', params }),
          signal,
          call.keepRounds,
          (context) =>
            followTask(
              tasks.taskRun(client, params, context, signal, (t) => tasks.changed(call, name, t)),
              task,
            ),
          call.caller,
        );
      }
    }
    const logStatus = tasks.statusLog(name);
    return callToolAsTask(client, name, args, {
      signal,
      timeout: NO_TIMEOUT_MS,
      startGraceMs: TASK_ANSWER_GRACE_MS,
      cancelUnfollowed: (taskId) => tasks.cancelUnfollowed(client, name, taskId),
      onStatus: (task) => logStatus(task.status),
      onCancel: (sent) => tasks.trackCancel(sent),
    });
  }

  /** -32021 as a sentence naming what the server needs; other errors as they are. */
  private readableFailure(error: unknown): unknown {
    const { ProtocolError } = this.parts.sdk();
    if (error instanceof ProtocolError && error.code === MISSING_CLIENT_CAPABILITY) {
      return new Error(missingCapabilityText(this.parts.name, error.data, error.message), { cause: error });
    }
    return error;
  }
}
