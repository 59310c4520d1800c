/**
 * A request whose answer may start a task, given up on its way (src/mcp/taskStart.ts): the caller is
 * let go at once, the request gets a grace to be answered, a task its answer names is cancelled, and a
 * request still unanswered after the grace is cut off. Also the 2025-11-25 task-augmented tools/call
 * (toolTasks.ts), which goes through it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { sendStartingTask, type TaskStartAnswer } from '../../src/mcp/taskStart';
import { callToolAsTask } from '../../src/mcp/toolTasks';

/** A request in flight that the test answers, and that fails as the SDK's does when its signal aborts. */
function pendingRequest<T>(): {
  send: (signal: AbortSignal | undefined) => Promise<T>;
  answer: (value: T) => void;
  fail: (error: unknown) => void;
  signal: () => AbortSignal | undefined;
  sent: () => number;
} {
  let settle: { answer: (value: T) => void; fail: (error: unknown) => void } | undefined;
  let given: AbortSignal | undefined;
  let sent = 0;
  return {
    send: (signal) => {
      sent++;
      given = signal;
      return new Promise<T>((resolve, reject) => {
        settle = { answer: resolve, fail: reject };
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
    answer: (value) => settle!.answer(value),
    fail: (error) => settle!.fail(error),
    signal: () => given,
    sent: () => sent,
  };
}

const taskNamed = (answer: TaskStartAnswer<{ taskId?: string }>): string | undefined =>
  'value' in answer ? answer.value.taskId : undefined;

/** A call with a signal the test gives up with; what it cancelled, and what went on after it was given up. */
function startCall<T>(
  request: { send: (signal: AbortSignal | undefined) => Promise<T> },
  taskIn: (answer: TaskStartAnswer<T>) => string | undefined,
  graceMs = 5_000,
): { call: Promise<T>; controller: AbortController; cancelled: string[]; givenUp: Array<Promise<void>> } {
  const cancelled: string[] = [];
  const givenUp: Array<Promise<void>> = [];
  const controller = new AbortController();
  const call = sendStartingTask(request.send, {
    signal: controller.signal,
    graceMs,
    taskIn,
    cancelTask: async (id) => void cancelled.push(id),
    onGivenUp: (settled) => givenUp.push(settled),
  });
  return { call, controller, cancelled, givenUp };
}

const refuse = (): Promise<void> => assert.fail('nothing is cancelled');

describe('a request that may start a task', () => {
  it('without a signal is sent as it is and answered as it is', async () => {
    const request = pendingRequest<{ taskId?: string }>();
    const call = sendStartingTask(request.send, { signal: undefined, graceMs: 50, taskIn: taskNamed, cancelTask: refuse });
    assert.equal(request.signal(), undefined);
    request.answer({ taskId: 't1' });
    assert.deepEqual(await call, { taskId: 't1' });
  });

  it('given up before it is sent is not sent at all', async () => {
    const request = pendingRequest<{ taskId?: string }>();
    const options = { signal: AbortSignal.abort(new Error('gone')), graceMs: 50, taskIn: taskNamed, cancelTask: refuse };
    await assert.rejects(sendStartingTask(request.send, options), /gone/);
    assert.equal(request.sent(), 0);
  });

  it('answered before it is given up is the caller’s, and giving up afterwards cancels nothing', async () => {
    const request = pendingRequest<{ taskId?: string }>();
    const started = startCall(request, taskNamed);
    request.answer({ taskId: 't1' });
    assert.deepEqual(await started.call, { taskId: 't1' });
    started.controller.abort(new Error('later'));
    assert.deepEqual(started.givenUp, []);
    assert.deepEqual(started.cancelled, []);
  });

  it('given up on its way lets the caller go at once and cancels the task its later answer names', async () => {
    const request = pendingRequest<{ taskId?: string }>();
    const started = startCall(request, taskNamed);
    started.controller.abort(new Error('the window closed'));
    // Rejected while the request is still unanswered.
    await assert.rejects(started.call, /the window closed/);
    assert.equal(started.givenUp.length, 1);
    assert.equal(request.signal()!.aborted, false, 'the request itself goes on within the grace');
    request.answer({ taskId: 't7' });
    await started.givenUp[0];
    assert.deepEqual(started.cancelled, ['t7']);
  });

  it('reads a task from an answer that arrived as an error (how the tasks extension’s answer reaches Elicit)', async () => {
    const request = pendingRequest<unknown>();
    const started = startCall(request, (answer) => ('error' in answer ? (answer.error as { task?: string }).task : undefined));
    started.controller.abort(new Error('stopped'));
    await assert.rejects(started.call, /stopped/);
    request.fail({ task: 't9' });
    await started.givenUp[0];
    assert.deepEqual(started.cancelled, ['t9']);
  });

  it('cuts off a request still unanswered after the grace, with the reason it was given up', async () => {
    const request = pendingRequest<{ taskId?: string }>();
    const started = startCall(request, taskNamed, 30);
    const why = new Error('cancelled by the person');
    started.controller.abort(why);
    await assert.rejects(started.call, /cancelled by the person/);
    await started.givenUp[0];
    assert.equal(request.signal()!.aborted, true);
    assert.equal(request.signal()!.reason, why);
    assert.deepEqual(started.cancelled, []);
  });

  it('cancels nothing when the answer names no task, or names one that cannot be read', async () => {
    const unreadable = (): string => {
      throw new Error('not a task');
    };
    for (const [answer, taskIn] of [
      [{}, taskNamed],
      [{ taskId: 't1' }, unreadable],
    ] as const) {
      const request = pendingRequest<{ taskId?: string }>();
      const started = startCall(request, taskIn);
      started.controller.abort(new Error('gone'));
      await assert.rejects(started.call, /gone/);
      request.answer(answer);
      await started.givenUp[0];
      assert.deepEqual(started.cancelled, []);
    }
  });
});

describe('a 2025-11-25 task-augmented tools/call given up on its way', () => {
  it('cancels the task its late answer names, and the close waits for that', async () => {
    const request = pendingRequest<unknown>();
    const methods: string[] = [];
    const client = {
      request: (message: { method: string }, _schema: unknown, options: { signal?: AbortSignal }) => {
        methods.push(message.method);
        return request.send(options.signal);
      },
    } as unknown as Client;
    const cancelled: string[] = [];
    const givenUp: Array<Promise<void>> = [];
    const controller = new AbortController();
    const call = callToolAsTask(
      client,
      'research',
      {},
      {
        signal: controller.signal,
        timeout: 60_000,
        startGraceMs: 5_000,
        cancelUnfollowed: async (taskId) => void cancelled.push(taskId),
        onCancel: (sent) => givenUp.push(sent),
      },
    );
    controller.abort(new Error('the window closed'));
    await assert.rejects(call, /the window closed/);
    request.answer({ task: { taskId: 'r1', status: 'working' } });
    assert.equal(givenUp.length, 1);
    await givenUp[0];
    assert.deepEqual(cancelled, ['r1']);
    assert.deepEqual(methods, ['tools/call'], 'nothing polled after the call was given up');
  });
});
