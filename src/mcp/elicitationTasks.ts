/**
 * Task-augmented elicitation (MCP 2025-11-25 tasks): a server may send
 * `elicitation/create` with `task`, and the client answers at once with a
 * task handle. The person answers in their own time while the server polls
 * `tasks/get`, then fetches the answer with `tasks/result` (which waits for
 * it). `tasks/cancel` from the server closes the question. The v2 SDK leaves
 * 2025-era tasks to the application, so this small store serves them; on the
 * 2026-07-28 revision questions ride the request instead and tasks are an
 * extension Elicit does not declare.
 */
import { randomUUID } from 'node:crypto';
import type { ClientCapabilities, Result, Task } from './types';
import { errorText } from '../core/errors';

/** What the client declares: elicitations may run as tasks, which the server can list and cancel. */
export const CLIENT_TASK_CAPABILITIES: NonNullable<ClientCapabilities['tasks']> = {
  list: {},
  cancel: {},
  requests: { elicitation: { create: {} } },
};

/** The task methods a server sends to this store. */
export const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']);

/** How often the server is asked to poll, and how long a task is kept without a ttl. */
const POLL_INTERVAL_MS = 1000;
const DEFAULT_TTL_MS = 60 * 60_000;
const PAGE_SIZE = 100;

/** True for request params that ask for task execution (`params.task`). */
export function isTaskAugmented(params: unknown): boolean {
  const task = (params as { task?: unknown } | undefined)?.task;
  return typeof task === 'object' && task !== null;
}

/** The ttl the server asked for, if it is a usable number of milliseconds. */
export function requestedTtl(params: unknown): number | undefined {
  const ttl = (params as { task?: { ttl?: unknown } } | undefined)?.task?.ttl;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : undefined;
}

/** A JSON-RPC error the SDK sends as is (code and message). */
export class TaskRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Entry {
  task: Task;
  controller: AbortController;
  outcome?: { result: Result } | { error: string };
  settled: Promise<void>;
  expiry?: NodeJS.Timeout;
}

type Terminal = 'completed' | 'failed' | 'cancelled';

export class ElicitationTasks {
  private readonly entries = new Map<string, Entry>();

  /** Creates a task for an elicitation and runs `work` in the background; its answer becomes the task's result. */
  start(ttl: number | undefined, work: (signal: AbortSignal) => Promise<Result>): { task: Task } {
    const now = new Date().toISOString();
    const task: Task = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttl: ttl ?? null,
      pollInterval: POLL_INTERVAL_MS,
    };
    const controller = new AbortController();
    let settle!: () => void;
    const entry: Entry = { task, controller, settled: new Promise((resolve) => (settle = resolve)) };
    this.entries.set(task.taskId, entry);
    void work(controller.signal)
      .then(
        (result) => this.finish(entry, 'completed', { result }),
        (error: unknown) => this.finish(entry, 'failed', { error: errorText(error) }),
      )
      .finally(settle);
    return { task: { ...task } };
  }

  /** Answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`. */
  async handle(method: string, params: unknown): Promise<Result> {
    if (method === 'tasks/list') return this.list(params);
    const entry = this.entries.get(taskIdOf(params));
    if (!entry) throw new TaskRequestError(-32602, `No task with id ${JSON.stringify(taskIdOf(params))}`);
    switch (method) {
      case 'tasks/get':
        return { ...entry.task };
      case 'tasks/cancel':
        if (isTerminal(entry.task.status))
          throw new TaskRequestError(-32602, `Task ${entry.task.taskId} has already ended (${entry.task.status})`);
        entry.controller.abort(new Error('the server cancelled the task'));
        this.finish(entry, 'cancelled', { error: 'cancelled by the server' }, 'Cancelled by the server.');
        return { ...entry.task };
      case 'tasks/result': {
        await entry.settled;
        const outcome = entry.outcome;
        if (outcome && 'result' in outcome) {
          return { ...outcome.result, _meta: { 'io.modelcontextprotocol/related-task': { taskId: entry.task.taskId } } };
        }
        throw new TaskRequestError(-32603, `Task ${entry.task.taskId} ${entry.task.status}: ${outcome?.error ?? 'no result'}`);
      }
      default:
        throw new TaskRequestError(-32601, `Method not found: ${method}`);
    }
  }

  /** The connection is gone: every open question closes and every timer stops. */
  close(): void {
    for (const entry of this.entries.values()) {
      entry.controller.abort(new Error('the server disconnected'));
      clearTimeout(entry.expiry);
    }
    this.entries.clear();
  }

  private list(params: unknown): Result {
    const cursor = (params as { cursor?: unknown } | undefined)?.cursor;
    const all = [...this.entries.values()].map((e) => ({ ...e.task }));
    const start = typeof cursor === 'string' ? Math.max(0, Number.parseInt(cursor, 10) || 0) : 0;
    const page = all.slice(start, start + PAGE_SIZE);
    const next = start + PAGE_SIZE < all.length ? String(start + PAGE_SIZE) : undefined;
    return next === undefined ? { tasks: page } : { tasks: page, nextCursor: next };
  }

  private finish(entry: Entry, status: Terminal, outcome: NonNullable<Entry['outcome']>, statusMessage?: string): void {
    if (isTerminal(entry.task.status)) return;
    entry.outcome = outcome;
    const message = statusMessage ?? ('error' in outcome ? outcome.error : undefined);
    entry.task = {
      ...entry.task,
      status,
      lastUpdatedAt: new Date().toISOString(),
      ...(message !== undefined ? { statusMessage: message } : {}),
    };
    // Kept for the server to fetch until its ttl runs out.
    entry.expiry = setTimeout(() => this.entries.delete(entry.task.taskId), entry.task.ttl ?? DEFAULT_TTL_MS);
    entry.expiry.unref?.();
  }
}

function isTerminal(status: Task['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

function taskIdOf(params: unknown): string {
  const id = (params as { taskId?: unknown } | undefined)?.taskId;
  return typeof id === 'string' ? id : '';
}
