/**
 * Tools that run as tasks (`execution.taskSupport: "required"`): `tools/call`
 * with `task` returns a handle at once; the SDK then polls `tasks/get` and
 * fetches the outcome with `tasks/result`. Elicitations the task needs arrive
 * during that wait (queued by the server, tagged with the task) and go through
 * the connection's usual elicitation handler.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult, type Task, type Tool } from '@modelcontextprotocol/sdk/types.js';

export interface TaskCallOptions {
  signal?: AbortSignal;
  /** The SDK's per-request timeout, for each poll and for the long `tasks/result` wait. */
  timeout: number;
  /** Each status the server reports (working, input_required, …). */
  onStatus?: (task: Task) => void;
}

/** A tool that can only be called as a task, on a server that runs tool calls as tasks. */
export function mustRunAsTask(client: Client, tool: Pick<Tool, 'execution'> | undefined): boolean {
  return tool?.execution?.taskSupport === 'required' && client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

export async function callToolAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
): Promise<CallToolResult> {
  let taskId: string | undefined;
  // Cancelling the call cancels the task on the server too, not only our wait for it.
  const cancelTask = (): void => void (taskId && client.experimental.tasks.cancelTask(taskId).catch(() => undefined));
  options.signal?.addEventListener('abort', cancelTask, { once: true });
  try {
    const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
      signal: options.signal,
      timeout: options.timeout,
      task: {},
    });
    for await (const message of stream) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      else if (message.type === 'taskStatus') options.onStatus?.(message.task);
      else if (message.type === 'result') return message.result as CallToolResult;
      else if (message.type === 'error') throw options.signal?.aborted ? options.signal.reason ?? message.error : message.error;
    }
    throw new Error(`the task for tool "${name}" ended without a result`);
  } finally {
    options.signal?.removeEventListener('abort', cancelTask);
  }
}
