/**
 * The tasks of one connection's tool calls: a call the server runs as a task (2025-11-25's
 * task-only tools, toolTasks.ts, or 2026-07-28's tasks extension, taskExtension.ts) is followed
 * here with its statuses kept for the Servers view, and every tasks/cancel on its way is tracked
 * so that a window that closes waits for it (cut off, the task would wait for ever).
 */
import type { Client } from '@modelcontextprotocol/client';
import { Emitter } from '../core/events';
import { waitAtMost } from '../core/time/delay';
import type { RunningTask } from './connectionTypes';
import type { RoundContext } from './rounds';
import { sendTaskCancel, taskOf, type ExtensionTask, type TaskRun } from './taskExtension';
import { sendStartingTask } from './taskStart';

/** Each tasks/get, tasks/update and tasks/cancel: a server that does not answer by then has failed the poll. */
const TASK_REQUEST_TIMEOUT_MS = 60_000;
/** How long a stop waits for tasks/cancel requests on their way (a closing window gives its host little time). */
const TASK_CANCELS_FLUSH_MS = 1500;
/** How long a tools/call given up on its way may still be answered with a task to cancel (taskStart.ts). */
export const TASK_ANSWER_GRACE_MS = 1000;

/** What the call tasks use of their connection. */
export interface CallTaskParts {
  /** The server's name, as a task's errors name it. */
  readonly name: string;
  /** A line of the server's log, named as Elicit's. */
  logLine(line: string): void;
}

/** A call whose task reports its statuses: its id on this connection, and who wants to hear of them. */
export interface TaskWatcher {
  id: number;
  onTask?: (task: RunningTask) => void;
}

export class CallTasks {
  /** Tool calls running as tasks (the tasks extension), by call id. */
  private readonly tasks = new Map<number, RunningTask>();
  /** tasks/cancel requests on their way: a window that closes waits for them (cut off, the tasks would wait for ever). */
  private readonly cancelsInFlight = new Set<Promise<void>>();
  private readonly changes = new Emitter<void>();
  /** A tool call's task started, changed status or ended. */
  readonly onDidChange = this.changes.event;

  constructor(private readonly parts: CallTaskParts) {}

  /** Tool calls of this server running as tasks, oldest first. */
  get running(): RunningTask[] {
    return [...this.tasks.values()];
  }

  trackCancel(sent: Promise<void>): void {
    this.cancelsInFlight.add(sent);
    void sent.finally(() => this.cancelsInFlight.delete(sent));
  }

  /** Resolves once the tasks/cancel requests sent so far are answered or failed, or after 1.5 s. */
  async cancelsSent(): Promise<void> {
    if (this.cancelsInFlight.size > 0) await waitAtMost(Promise.all([...this.cancelsInFlight]), TASK_CANCELS_FLUSH_MS);
  }

  taskRun(
    client: Client,
    params: Record<string, unknown>,
    context: RoundContext,
    cancelledBy: AbortSignal | undefined,
    onStatus: TaskRun['onStatus'],
  ): TaskRun {
    const logStatus = this.statusLog(String(params.name));
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
  statusLog(tool: string): (status: string) => void {
    let last = '';
    return (status) => {
      if (status !== last) this.parts.logLine(`tool ${tool} task: ${status}`);
      last = status;
    };
  }

  /** A call's task reported a status: kept for the Servers view until the call ends, and told to the caller. */
  changed(call: TaskWatcher, tool: string, task: ExtensionTask): void {
    const running: RunningTask = { tool, status: task.status, ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}) };
    const before = this.tasks.get(call.id);
    this.tasks.set(call.id, running);
    if (before?.status !== running.status || before.statusMessage !== running.statusMessage) {
      this.changes.fire();
      call.onTask?.(running);
    }
  }

  /** The call `id` ended: its task, if it had one, leaves the Servers view. */
  ended(id: number): void {
    if (this.tasks.delete(id)) this.changes.fire();
  }

  /**
   * A 2026 tools/call, which the server may answer with a task: given up on its way, it is let
   * finish for a moment so that a task it started can be cancelled (taskStart.ts).
   */
  callMayStartTask(
    client: Client,
    params: { name: string },
    options: { signal: AbortSignal | undefined; timeout: number; allowInputRequired: boolean },
  ): Promise<unknown> {
    const call = (signal: AbortSignal | undefined): Promise<unknown> => client.callTool(params, { ...options, signal });
    if (client.getProtocolEra() !== 'modern') return call(options.signal);
    return sendStartingTask(call, {
      signal: options.signal,
      graceMs: TASK_ANSWER_GRACE_MS,
      taskIn: (answer) => ('error' in answer ? taskOf(answer.error, this.parts.name)?.taskId : undefined),
      cancelTask: (taskId) => this.cancelUnfollowed(client, params.name, taskId),
      onGivenUp: (settled) => this.trackCancel(settled),
    });
  }

  /** tasks/cancel for a task whose call was given up before the server's answer named it. */
  cancelUnfollowed(client: Pick<Client, 'request'>, tool: string, taskId: string): Promise<void> {
    this.parts.logLine(`tool ${tool}: the call ended as the server started a task; cancelling the task`);
    return sendTaskCancel(client, taskId, { timeout: TASK_REQUEST_TIMEOUT_MS });
  }
}
