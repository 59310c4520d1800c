/**
 * A request whose answer may start a task at the server: a 2026 `tools/call` (the tasks extension
 * lets a server answer one with a task) or a 2025-11-25 task-augmented one. Given up while it is on
 * its way (a window closing ends the gateway's calls), cutting it off at once would leave behind any
 * task the server already started: only the answer names it, so nobody could cancel it, and a task
 * waiting for input would wait until its server gives up on it (its TTL, if it keeps one).
 *
 * So the caller is let go at once, but the request itself gets `graceMs` more to be answered; a task
 * the answer names is cancelled (tasks/cancel), and only a request still unanswered after the grace
 * is cut off (the SDK's cancel).
 */
export type TaskStartAnswer<T> = { value: T } | { error: unknown };

export interface TaskStartOptions<T> {
  /** The caller giving up. */
  signal: AbortSignal | undefined;
  graceMs: number;
  /** The task the answer (or the error it arrived as) names, if it names one. */
  taskIn: (answer: TaskStartAnswer<T>) => string | undefined;
  /** tasks/cancel for a task started by a request given up; never rejects. */
  cancelTask: (taskId: string) => Promise<void>;
  /** What goes on after the caller gave up, until the task is cancelled or the request cut off. */
  onGivenUp?: (settled: Promise<void>) => void;
}

export function sendStartingTask<T>(send: (signal: AbortSignal | undefined) => Promise<T>, options: TaskStartOptions<T>): Promise<T> {
  const { signal } = options;
  if (!signal) return send(undefined);
  // Not sent at all: nothing can have started.
  if (signal.aborted) return Promise.reject(signal.reason);
  const cut = new AbortController();
  const answer = send(cut.signal);
  return new Promise<T>((resolve, reject) => {
    const givenUp = (): void => {
      reject(signal.reason);
      const settled = cancelWhatItStarted(answer, cut, signal.reason, options);
      options.onGivenUp?.(settled);
    };
    signal.addEventListener('abort', givenUp, { once: true });
    // Let go of the signal as the answer comes, not a tick later: a give-up after the answer is nothing.
    answer.then(
      (value) => {
        signal.removeEventListener('abort', givenUp);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', givenUp);
        reject(error);
      },
    );
  });
}

async function cancelWhatItStarted<T>(answer: Promise<T>, cut: AbortController, why: unknown, options: TaskStartOptions<T>): Promise<void> {
  const grace = setTimeout(() => cut.abort(why), options.graceMs);
  try {
    const outcome = await answer.then(
      (value): TaskStartAnswer<T> => ({ value }),
      (error: unknown): TaskStartAnswer<T> => ({ error }),
    );
    let taskId: string | undefined;
    try {
      taskId = options.taskIn(outcome);
    } catch {
      // An answer that names no usable task: there is nothing to cancel.
    }
    if (taskId !== undefined) await options.cancelTask(taskId);
  } finally {
    clearTimeout(grace);
  }
}
