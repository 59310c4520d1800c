import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ElicitationTasks, isTaskAugmented, requestedTtl, TaskRequestError } from '../../src/mcp/elicitationTasks';

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));

describe('elicitation as a task (2025-11-25)', () => {
  it('recognizes task-augmented params and their ttl', () => {
    assert.equal(isTaskAugmented({ message: 'x', task: { ttl: 1000 } }), true);
    assert.equal(isTaskAugmented({ message: 'x' }), false);
    assert.equal(isTaskAugmented(undefined), false);
    assert.equal(requestedTtl({ task: { ttl: 1000 } }), 1000);
    assert.equal(requestedTtl({ task: { ttl: -5 } }), undefined);
    assert.equal(requestedTtl({ task: {} }), undefined);
  });

  it('answers with a working task at once; tasks/result waits for the answer and carries the related task', async () => {
    const tasks = new ElicitationTasks();
    let answer!: (value: { action: 'accept'; content: { name: string } }) => void;
    const { task } = tasks.start(60_000, () => new Promise((resolve) => (answer = resolve)));
    assert.equal(task.status, 'working');
    assert.equal(task.ttl, 60_000);
    assert.match(task.createdAt, /^\d{4}-\d\d-\d\dT/);
    const pending = tasks.handle('tasks/result', { taskId: task.taskId });
    assert.equal(((await tasks.handle('tasks/get', { taskId: task.taskId })) as { status: string }).status, 'working');
    answer({ action: 'accept', content: { name: 'Ada' } });
    assert.deepEqual(await pending, {
      action: 'accept',
      content: { name: 'Ada' },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } },
    });
    assert.equal(((await tasks.handle('tasks/get', { taskId: task.taskId })) as { status: string }).status, 'completed');
    const listed = (await tasks.handle('tasks/list', {})) as { tasks: Array<{ taskId: string }> };
    assert.deepEqual(
      listed.tasks.map((t) => t.taskId),
      [task.taskId],
    );
    tasks.close();
  });

  it('closes the question when the server cancels the task, and fails the task when asking fails', async () => {
    const tasks = new ElicitationTasks();
    let seen: AbortSignal | undefined;
    const { task } = tasks.start(undefined, (signal) => {
      seen = signal;
      return new Promise(() => undefined);
    });
    const cancelled = (await tasks.handle('tasks/cancel', { taskId: task.taskId })) as { status: string };
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(seen?.aborted, true);
    await assert.rejects(
      tasks.handle('tasks/cancel', { taskId: task.taskId }),
      (error) => error instanceof TaskRequestError && error.code === -32602,
    );

    const failing = tasks.start(undefined, async () => {
      throw new Error('property "address" is a nested object');
    });
    await tick();
    const failed = (await tasks.handle('tasks/get', { taskId: failing.task.taskId })) as { status: string; statusMessage?: string };
    assert.equal(failed.status, 'failed');
    assert.match(failed.statusMessage ?? '', /nested object/);
    await assert.rejects(tasks.handle('tasks/result', { taskId: failing.task.taskId }), /nested object/);
    await assert.rejects(
      tasks.handle('tasks/get', { taskId: 'nope' }),
      (error) => error instanceof TaskRequestError && error.code === -32602,
    );
    tasks.close();
  });
});
