/**
 * Task-augmented elicitation (MCP tasks, the SDK's experimental API): a server
 * may send `elicitation/create` with `task`, and the client answers at once
 * with a task handle. The person answers in their own time while the server
 * polls `tasks/get`, then fetches the answer with `tasks/result`; the SDK
 * serves both from this store. `tasks/cancel` from the server closes the
 * question.
 */
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ClientCapabilities, CreateTaskResult, Result, Task } from '@modelcontextprotocol/sdk/types.js';

/** What the client declares: elicitations may run as tasks, which the server can list and cancel. */
export const CLIENT_TASK_CAPABILITIES: NonNullable<ClientCapabilities['tasks']> = {
  list: {},
  cancel: {},
  requests: { elicitation: { create: {} } },
};

/** True for request params that ask for task execution (`params.task`). */
export function isTaskAugmented(params: unknown): boolean {
  const task = (params as { task?: unknown } | undefined)?.task;
  return typeof task === 'object' && task !== null;
}

export class ElicitationTaskStore extends InMemoryTaskStore {
  private readonly running = new Map<string, AbortController>();

  override async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === 'cancelled') this.running.get(taskId)?.abort(new Error('the server cancelled the task'));
  }

  /**
   * Creates the task for the request being handled and runs `work` in the
   * background; its result (or failure) becomes the task's outcome.
   */
  async start(store: RequestTaskStore, ttl: number | undefined, work: (signal: AbortSignal) => Promise<Result>): Promise<CreateTaskResult> {
    const task = await store.createTask({ ttl: ttl ?? null });
    const controller = new AbortController();
    this.running.set(task.taskId, controller);
    void work(controller.signal)
      .then(
        (result) => store.storeTaskResult(task.taskId, 'completed', result),
        (error: unknown) => store.updateTaskStatus(task.taskId, 'failed', error instanceof Error ? error.message : String(error)),
      )
      // The task was cancelled or expired meanwhile: there is nobody left to tell.
      .catch(() => undefined)
      .finally(() => this.running.delete(task.taskId));
    return { task };
  }

  /** The connection is gone: every open question closes and every timer stops. */
  close(): void {
    for (const controller of this.running.values()) controller.abort(new Error('the server disconnected'));
    this.running.clear();
    this.cleanup();
  }
}
