/**
 * Tasks as an extension of the client, both revisions in one place: 2025-11-25's tasks (a server may
 * run its `elicitation/create` as a task, then polls it: elicitationTasks.ts) and 2026-07-28's tasks
 * extension (a `tools/call` answered with a task, which the SDK would refuse: taskExtension.ts).
 */
import type { Result } from '../types';
import { CLIENT_TASK_CAPABILITIES, TASK_METHODS, TaskRequestError, type ElicitationTasks } from '../elicitationTasks';
import { TASKS_EXTENSION, surfaceTaskResults } from '../taskExtension';
import type { ClientExtension } from './clientExtension';

/** `questionTasks`: this connection's questions asked as tasks, which the server's task requests reach. */
export function tasksExtension(questionTasks: ElicitationTasks): ClientExtension {
  const answer = async (method: string, params: unknown): Promise<Result> => {
    try {
      return await questionTasks.handle(method, params);
    } catch (error) {
      if (error instanceof TaskRequestError) throw Object.assign(new Error(error.message), { code: error.code });
      throw error;
    }
  };
  return {
    // 2025-11-25's tasks (dropped by the SDK on 2026-07-28), and 2026's tasks extension (sent on every request there).
    capabilities: { tasks: CLIENT_TASK_CAPABILITIES, extensions: { [TASKS_EXTENSION]: {} } },
    requests: Object.fromEntries([...TASK_METHODS].map((method) => [method, (request) => answer(method, request.params)])),
    // A tools/call the server answers with a task reaches the tool call as an error carrying the task.
    onConnected: (client) => {
      if (client.transport) surfaceTaskResults(client.transport);
    },
    onClose: () => questionTasks.close(),
  };
}
