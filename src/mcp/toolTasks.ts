/**
 * Tools that run as tasks (MCP 2025-11-25, `execution.taskSupport: "required"`):
 * `tools/call` with `task` returns a handle at once; Elicit then polls
 * `tasks/get` and, once the task needs input or has ended, fetches the outcome
 * with `tasks/result` (which waits). Elicitations the task needs arrive during
 * that wait, tagged with the task, and go through the connection's usual
 * elicitation handling. The v2 SDK leaves 2025-era tasks to the application.
 */
import type { Client } from '@modelcontextprotocol/client';
import { ANY_RESULT } from './anyResult';
import type { CallToolResult, Task, Tool } from './types';
import { delay } from '../core/time/delay';
import { sendTaskCancel } from './taskExtension';
import { sendStartingTask } from './taskStart';

export interface TaskCallOptions {
  signal?: AbortSignal;
  /** The SDK's per-request timeout, for each poll and for the long `tasks/result` wait. */
  timeout: number;
  /** Each status the server reports (working, input_required, …). */
  onStatus?: (task: Task) => void;
  /** The tasks/cancel request as it goes out: a window that closes waits for it. */
  onCancel?: (sent: Promise<void>) => void;
  /** How long the creating call, given up on its way, may still be answered with a task to cancel. */
  startGraceMs: number;
  /** tasks/cancel for the task of a call given up before its answer named it. */
  cancelUnfollowed: (taskId: string) => Promise<void>;
}

const DEFAULT_POLL_MS = 1000;
const MIN_POLL_MS = 100;

/** A tool that can only be called as a task, on a server that runs tool calls as tasks. */
export function mustRunAsTask(client: Client, tool: Pick<Tool, 'execution'> | undefined): boolean {
  if (client.getProtocolEra() === 'modern') return false;
  const tasks = (client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)?.tasks;
  return tool?.execution?.taskSupport === 'required' && tasks?.requests?.tools?.call !== undefined;
}

export async function callToolAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
): Promise<CallToolResult> {
  const request = { signal: options.signal, timeout: options.timeout };
  const created = await sendStartingTask(
    (signal) => client.request({ method: 'tools/call', params: { name, arguments: args, task: {} } }, ANY_RESULT, { ...request, signal }),
    {
      signal: options.signal,
      graceMs: options.startGraceMs,
      taskIn: (answer) => ('value' in answer ? readTask(answer.value.task).taskId : undefined),
      cancelTask: options.cancelUnfollowed,
      ...(options.onCancel ? { onGivenUp: options.onCancel } : {}),
    },
  );
  const task = readTask(created.task);
  // Cancelling the call cancels the task on the server too, not only our wait for it.
  const cancelTask = (): void => {
    const sent = sendTaskCancel(client, task.taskId);
    options.onCancel?.(sent);
  };
  options.signal?.addEventListener('abort', cancelTask, { once: true });
  // Given up between the answer that named the task and now: no abort event is left to hear.
  if (options.signal?.aborted) cancelTask();
  try {
    let current = task;
    options.onStatus?.(current);
    while (current.status === 'working') {
      await delay(Math.max(MIN_POLL_MS, current.pollInterval ?? DEFAULT_POLL_MS), options.signal);
      current = readTask(await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, ANY_RESULT, request));
      options.onStatus?.(current);
    }
    if (current.status === 'failed' || current.status === 'cancelled') {
      throw new Error(`the task for tool "${name}" ${current.status}${current.statusMessage ? `: ${current.statusMessage}` : ''}`);
    }
    // input_required or completed: tasks/result waits for the end and lets the task's questions through meanwhile.
    return (await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, ANY_RESULT, request)) as CallToolResult;
  } catch (error) {
    throw options.signal?.aborted ? (options.signal.reason ?? error) : error;
  } finally {
    options.signal?.removeEventListener('abort', cancelTask);
  }
}

function readTask(value: unknown): Task {
  const task = value as Task | undefined;
  if (typeof task !== 'object' || task === null || typeof task.taskId !== 'string' || typeof task.status !== 'string') {
    throw new Error('the server answered a task-augmented call without a task');
  }
  return task;
}
