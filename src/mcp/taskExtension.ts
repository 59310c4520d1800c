/**
 * MCP's tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663, final with
 * 2026-07-28), client side. Elicit declares it on every request; a server may
 * then answer a `tools/call` with a task instead of a result. Elicit polls
 * `tasks/get` at the task's `pollIntervalMs`; each `input_required` poll's
 * `inputRequests` are asked as one round (rounds.ts: one grouped question, kept
 * across a reload), each key once in the task's life, and answered with
 * `tasks/update`. Cancelling the run sends `tasks/cancel`. Over Streamable HTTP
 * the SDK sets the `Mcp-Name` header to the task id on these three requests.
 *
 * The v2 SDK (2.4) has no runtime for the extension and refuses a `tools/call`
 * result whose `resultType` is "task" (it would lose the task's id), so
 * `surfaceTaskResults` turns such a response into an error that carries the
 * task, which `taskOf` reads back. Nothing else of the transport changes.
 */
import { randomUUID } from 'node:crypto';
import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { errorText } from '../core/errors';
import { delay } from '../core/time/delay';
import { ANY_RESULT } from './anyResult';
import { answerRound, checkInputRequests, roundLanguage, type OpenRound, type RoundContext } from './rounds';
import { contentLanguageIn } from '../core/language';
import type { CallToolResult } from './types';
import type { EarlierAnswer } from '../core/request';
import type { RawValues } from '../core/form/formState';
import { joinSignals } from '../core/joinSignals';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** JSON-RPC: the server needs a capability the client did not declare (2026-07-28). */
export const MISSING_CLIENT_CAPABILITY = -32021;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const FINAL: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** A task as the server reports it (tasks/get's DetailedTask, or the task a tools/call created). */
export interface ExtensionTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  pollIntervalMs?: number;
  inputRequests?: Record<string, unknown>;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
  /** The language the server says its questions are in (its contentLanguage). */
  language?: string;
}

const DEFAULT_POLL_MS = 1000;
/** A server's poll interval is kept between these: no busy loop, and no task forgotten for an hour. */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 30_000;
/** Input rounds one task may take before Elicit stops asking (a task may ask more than a request's rounds). */
export const MAX_TASK_ROUNDS = 50;
const MAX_ID_LENGTH = 512;
const MAX_STATUS_MESSAGE = 300;

/** Set on the error a task result is turned into; a server cannot guess it, so cannot fake a task. */
const MARK = randomUUID();
const TASK_RESULT_CODE = -32099;

/**
 * Watches `transport` (already connected by the client) for responses to
 * `tools/call` whose result is a task, and hands them to the client as an error
 * that carries the task: the SDK refuses that result type.
 */
export function surfaceTaskResults(transport: Transport): void {
  const calls = new Set<string | number>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) calls.add(message.id);
    return send(message, options);
  };
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    deliver?.(asTaskError(message, calls), extra);
  };
}

function asTaskError(message: JSONRPCMessage, calls: Set<string | number>): JSONRPCMessage {
  if ('method' in message || !('id' in message) || message.id === undefined || message.id === null || !calls.delete(message.id)) {
    return message;
  }
  const result = 'result' in message ? (message.result as Record<string, unknown> | undefined) : undefined;
  if (result?.resultType !== 'task') return message;
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: TASK_RESULT_CODE, message: 'the server started a task', data: { mark: MARK, task: result } },
  } as JSONRPCMessage;
}

/** The task a `tools/call` was answered with, when `error` is how surfaceTaskResults handed it over. */
export function taskOf(error: unknown, server: string): ExtensionTask | undefined {
  const data = (error as { code?: unknown; data?: { mark?: unknown; task?: unknown } } | null)?.data;
  if ((error as { code?: unknown } | null)?.code !== TASK_RESULT_CODE || data?.mark !== MARK) return undefined;
  return readTask(data.task, server);
}

/**
 * tasks/cancel, for both task kinds (this extension, and 2025-11-25's tool tasks). Never rejects: the
 * task is given up either way; the promise says when the request is answered or failed.
 */
export function sendTaskCancel(client: Pick<Client, 'request'>, taskId: string, options?: { timeout: number }): Promise<void> {
  return client.request({ method: 'tasks/cancel', params: { taskId } }, ANY_RESULT, options).then(
    () => undefined,
    () => undefined,
  );
}

/** -32021 as a sentence: what the server needs that Elicit does not offer, then the server's own words. */
export function missingCapabilityText(server: string, data: unknown, message: string): string {
  const required = (data as { requiredCapabilities?: unknown } | null)?.requiredCapabilities;
  const names: string[] = [];
  if (typeof required === 'object' && required !== null) {
    for (const [key, value] of Object.entries(required)) {
      if (key === 'extensions' && typeof value === 'object' && value !== null) names.push(...Object.keys(value));
      else names.push(key);
    }
  }
  const what = names.length > 0 ? names.slice(0, 5).join(', ') : 'one it did not name';
  const said = message.replace(/^MCP error -?\d+:\s*/, '').slice(0, 500);
  return `${server} needs a client capability that Elicit does not offer (${what})${said ? `: ${said}` : ''}`;
}

export interface TaskRun {
  client: Pick<Client, 'request'>;
  /** The request that created the task: its tool and arguments, for titles and a kept round. */
  request: { method: 'tools/call'; params: Record<string, unknown> };
  /** Its signal ends the wait (the run cancelled, or the connection gone). */
  context: RoundContext;
  /**
   * The person cancelling the run: the task is cancelled too (tasks/cancel). The connection
   * ending (a window reload) is not a cancel: the task goes on, and a kept round can resume it.
   */
  cancelledBy?: AbortSignal;
  /** Each status the server reports, for the progress and the Servers view. */
  onStatus?: (task: ExtensionTask) => void;
  /** The tasks/cancel request as it goes out: a window that closes waits for it (nobody else would end the task). */
  onCancel?: (sent: Promise<void>) => void;
  /** The SDK's per-request timeout for tasks/get, tasks/update and tasks/cancel. */
  timeout: number;
}

/** Where a task resumed after a reload left off. */
export interface TaskResume {
  asked: string[];
  round: number;
  earlier: EarlierAnswer[];
  draft?: RawValues;
}

/**
 * Follows `task` until it ends: polls, asks what it needs, sends the answers.
 * Resolves with the tool's result; rejects when the task fails or is cancelled,
 * and when `context.signal` aborts (after sending tasks/cancel).
 */
export async function followTask(
  run: TaskRun,
  first: ExtensionTask,
  resumed: TaskResume = { asked: [], round: 0, earlier: [] },
): Promise<CallToolResult> {
  const { client, context } = run;
  const taskId = first.taskId;
  const options = { timeout: run.timeout };
  const poll = (): Promise<ExtensionTask> => getTask(run, taskId);
  // Cancelling the run cancels the task (tasks/cancel, never notifications/cancelled).
  const cancel = (): void => {
    // Sent whether or not anyone waits for it (an optional call would skip its argument).
    const sent = sendTaskCancel(client, taskId, options);
    run.onCancel?.(sent);
  };
  run.cancelledBy?.addEventListener('abort', cancel, { once: true });
  // Given up between the answer that named the task and now: no abort event is left to hear.
  if (run.cancelledBy?.aborted) cancel();
  const asked = new Set(resumed.asked);
  const earlier = [...resumed.earlier];
  let round = resumed.round;
  let draft = resumed.draft;
  let task = first;
  try {
    for (;;) {
      run.onStatus?.(task);
      if (FINAL.has(task.status)) return ended(task, context.server);
      if (task.status === 'input_required') {
        const fresh = unaskedRequests(task, asked, context.server);
        if (Object.keys(fresh).length > 0) {
          if (++round > MAX_TASK_ROUNDS) {
            throw new Error(`${context.server}'s task asked for input more than ${MAX_TASK_ROUNDS} times, so Elicit stopped following it`);
          }
          for (const key of Object.keys(fresh)) asked.add(key);
          const language = task.language ?? roundLanguage(undefined, fresh);
          const open: OpenRound = {
            server: context.server,
            origin: context.origin,
            ...run.request,
            inputRequests: fresh,
            round,
            earlier: [...earlier],
            task: { taskId, asked: [...asked] },
            ...(draft ? { draft } : {}),
            ...(language ? { language } : {}),
          };
          draft = undefined;
          const outcome = await askWhileWatching(open, context, earlier, poll, pollMs(task));
          if ('ended' in outcome) {
            task = outcome.ended;
            continue;
          }
          if (Object.keys(outcome.responses).length > 0) {
            await client.request({ method: 'tasks/update', params: { taskId, inputResponses: outcome.responses } }, ANY_RESULT, options);
          }
        }
      }
      await delay(pollMs(task), context.signal);
      task = await poll();
    }
  } catch (error) {
    throw context.signal?.aborted ? (context.signal.reason ?? error) : error;
  } finally {
    run.cancelledBy?.removeEventListener('abort', cancel);
  }
}

/**
 * Asks one round, kept across a reload while it waits; meanwhile the task is
 * polled, and a task that ends (completed, failed, cancelled by the server)
 * closes the round's question: its answer could no longer be used.
 */
async function askWhileWatching(
  open: OpenRound,
  context: RoundContext,
  earlier: EarlierAnswer[],
  poll: () => Promise<ExtensionTask>,
  intervalMs: number,
): Promise<{ responses: Record<string, unknown> } | { ended: ExtensionTask }> {
  const asking = new AbortController();
  const ends = joinSignals([context.signal, asking.signal]);
  let endedTask: ExtensionTask | undefined;
  const watching = (async () => {
    while (!asking.signal.aborted) {
      await delay(Math.max(intervalMs, DEFAULT_POLL_MS), asking.signal);
      const now = await poll().catch(() => undefined);
      if (now && FINAL.has(now.status) && !asking.signal.aborted) {
        endedTask = now;
        asking.abort(new Error(`${context.server}'s task ended (${now.status}) while its question was open`));
      }
    }
  })().catch(() => undefined);
  const kept = context.keeper?.keep(open);
  try {
    const responses = await answerRound(open, { ...context, signal: ends.signal }, earlier, kept?.id);
    return { responses };
  } catch (error) {
    if (endedTask) return { ended: endedTask };
    throw error;
  } finally {
    kept?.release();
    asking.abort();
    ends.dispose();
    await watching;
  }
}

/** The task's input requests whose keys were not asked before (keys are unique for its whole life). */
function unaskedRequests(task: ExtensionTask, asked: ReadonlySet<string>, server: string): Record<string, unknown> {
  const listed = task.inputRequests === undefined ? {} : checkInputRequests(task.inputRequests, server);
  return Object.fromEntries(Object.entries(listed).filter(([key]) => !asked.has(key)));
}

function ended(task: ExtensionTask, server: string): CallToolResult {
  if (task.status === 'completed') {
    const result = task.result;
    if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      throw new Error(`${server}'s task completed without a tool result`);
    }
    return result as CallToolResult;
  }
  if (task.status === 'failed') {
    const message = typeof task.error?.message === 'string' ? task.error.message.slice(0, 500) : task.statusMessage;
    throw new Error(`${server}'s task failed${message ? `: ${message}` : ''}`);
  }
  throw new Error(`${server} cancelled the task${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
}

function pollMs(task: ExtensionTask): number {
  const asked = task.pollIntervalMs;
  return typeof asked === 'number' && Number.isFinite(asked) ? Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, asked)) : DEFAULT_POLL_MS;
}

/** A task from the server, checked; `expectedId`: a poll must report the task it asked about. */
export function readTask(value: unknown, server: string, expectedId?: string): ExtensionTask {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${server} sent a task that is not an object`);
  const task = value as Record<string, unknown>;
  const { taskId, status } = task;
  if (typeof taskId !== 'string' || taskId === '' || taskId.length > MAX_ID_LENGTH)
    throw new Error(`${server} sent a task without a usable taskId`);
  if (expectedId !== undefined && taskId !== expectedId) throw new Error(`${server} answered about another task than the one asked about`);
  if (typeof status !== 'string' || !STATUSES.has(status)) {
    throw new Error(`${server} reported a task status Elicit does not know: ${JSON.stringify(String(status).slice(0, 40))}`);
  }
  const inputRequests = task.inputRequests;
  const language = contentLanguageIn(task._meta);
  if (inputRequests !== undefined && (typeof inputRequests !== 'object' || inputRequests === null || Array.isArray(inputRequests))) {
    throw new Error(`${server} sent a task whose input requests are not an object`);
  }
  return {
    taskId,
    status: status as TaskStatus,
    ...(typeof task.statusMessage === 'string' ? { statusMessage: task.statusMessage.slice(0, MAX_STATUS_MESSAGE) } : {}),
    ...(typeof task.pollIntervalMs === 'number' ? { pollIntervalMs: task.pollIntervalMs } : {}),
    ...(inputRequests !== undefined ? { inputRequests: inputRequests as Record<string, unknown> } : {}),
    ...('result' in task ? { result: task.result } : {}),
    ...(typeof task.error === 'object' && task.error !== null ? { error: task.error as ExtensionTask['error'] } : {}),
    ...(language ? { language } : {}),
  };
}

/** tasks/get: the task as the server has it now, checked. */
async function getTask(run: Pick<TaskRun, 'client' | 'timeout' | 'context'>, taskId: string): Promise<ExtensionTask> {
  const now = await run.client.request({ method: 'tasks/get', params: { taskId } }, ANY_RESULT, { timeout: run.timeout });
  return readTask(now, run.context.server, taskId);
}

/** A poll after a reload: the kept round's task as the server has it now. */
export async function currentTask(run: Pick<TaskRun, 'client' | 'timeout' | 'context'>, taskId: string): Promise<ExtensionTask> {
  try {
    return await getTask(run, taskId);
  } catch (error) {
    throw new Error(`${run.context.server} no longer has the task this question belonged to: ${errorText(error)}`, { cause: error });
  }
}
