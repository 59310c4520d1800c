import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitationTaskStore, isTaskAugmented } from '../../src/mcp/elicitationTasks';

/** What the SDK hands a request handler: the store bound to one request. */
function boundTo(store: ElicitationTaskStore): RequestTaskStore {
  return {
    createTask: (options) => store.createTask(options, 1, { method: 'elicitation/create', params: {} }),
    getTask: async (taskId) => (await store.getTask(taskId))!,
    storeTaskResult: (taskId, status, result) => store.storeTaskResult(taskId, status, result),
    getTaskResult: (taskId) => store.getTaskResult(taskId),
    updateTaskStatus: (taskId, status, message) => store.updateTaskStatus(taskId, status, message),
    listTasks: (cursor) => store.listTasks(cursor),
  };
}

describe('elicitation as a task', () => {
  it('recognizes task-augmented params', () => {
    assert.equal(isTaskAugmented({ message: 'x', task: { ttl: 1000 } }), true);
    assert.equal(isTaskAugmented({ message: 'x' }), false);
    assert.equal(isTaskAugmented(undefined), false);
  });

  it('answers with a task at once and stores the answer as its result when the person is done', async () => {
    const store = new ElicitationTaskStore();
    let answer!: (value: { action: 'accept'; content: { name: string } }) => void;
    const created = await store.start(boundTo(store), 60_000, () => new Promise((resolve) => (answer = resolve)));
    const { taskId } = created.task;
    assert.equal((await store.getTask(taskId))?.status, 'working');
    answer({ action: 'accept', content: { name: 'Ada' } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal((await store.getTask(taskId))?.status, 'completed');
    assert.deepEqual(await store.getTaskResult(taskId), { action: 'accept', content: { name: 'Ada' } });
    store.close();
  });

  it('closes the question when the server cancels the task, and fails the task when asking fails', async () => {
    const store = new ElicitationTaskStore();
    let seen: AbortSignal | undefined;
    const { task } = await store.start(boundTo(store), undefined, (signal) => {
      seen = signal;
      return new Promise(() => undefined);
    });
    await store.updateTaskStatus(task.taskId, 'cancelled', 'Client cancelled task execution.');
    assert.equal(seen?.aborted, true);

    const failing = await store.start(boundTo(store), undefined, async () => {
      throw new Error('property "address" is a nested object');
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const failed = await store.getTask(failing.task.taskId);
    assert.equal(failed?.status, 'failed');
    assert.match(failed?.statusMessage ?? '', /nested object/);
    store.close();
  });
});
