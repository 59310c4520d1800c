/**
 * The tasks extension's client side (src/mcp/taskExtension.ts) on its own:
 * the transport hook that hands a task result to Elicit (and only for
 * tools/call, and never a server's look-alike error), the checks on what a
 * server says of a task, -32021 as a sentence, and the task loop's limits
 * against a server that misbehaves. The loop with a real server is in
 * test/integration/taskExtension.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import {
  followTask,
  MAX_TASK_ROUNDS,
  missingCapabilityText,
  readTask,
  surfaceTaskResults,
  taskOf,
  type ExtensionTask,
  type TaskRun,
} from '../../src/mcp/taskExtension';
import type { RoundContext } from '../../src/mcp/rounds';

/** A connected pair; the client side's messages, as the SDK's protocol would receive them. */
async function pair(): Promise<{ server: InMemoryTransport; received: JSONRPCMessage[]; send(message: JSONRPCMessage): Promise<void> }> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  client.onmessage = (message) => void received.push(message);
  await client.start();
  await server.start();
  surfaceTaskResults(client);
  return { server, received, send: (message) => client.send(message) };
}

const task = { resultType: 'task', taskId: 't-1', status: 'working', createdAt: '', lastUpdatedAt: '', ttlMs: null, pollIntervalMs: 200 };

describe('surfaceTaskResults', () => {
  it('turns a task answering tools/call into an error that carries the task', async () => {
    const { server, received, send } = await pair();
    await send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'export', arguments: {} } });
    await server.send({ jsonrpc: '2.0', id: 7, result: task });
    const error = (received[0] as { error?: { code: number; message: string; data: unknown } }).error;
    assert.ok(error, JSON.stringify(received));
    assert.deepEqual(taskOf(error, 'reports'), { taskId: 't-1', status: 'working', pollIntervalMs: 200 });
  });

  it('leaves every other response as it was: a complete tools/call, and a task answering another method', async () => {
    const { server, received, send } = await pair();
    await send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick' } });
    await send({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'p' } });
    const complete = { resultType: 'complete', content: [] };
    await server.send({ jsonrpc: '2.0', id: 1, result: complete });
    await server.send({ jsonrpc: '2.0', id: 2, result: task });
    assert.deepEqual(received, [
      { jsonrpc: '2.0', id: 1, result: complete },
      { jsonrpc: '2.0', id: 2, result: task },
    ]);
  });

  it("never takes a server error for a task, even one shaped like Elicit's", async () => {
    const forged = { code: -32099, message: 'the server started a task', data: { mark: 'guess', task } };
    assert.equal(taskOf(forged, 'reports'), undefined);
    assert.equal(taskOf({ code: -32099, data: { task } }, 'reports'), undefined);
    assert.equal(taskOf(new Error('plain'), 'reports'), undefined);
  });
});

describe('readTask', () => {
  it('refuses what is not a task a client can follow', () => {
    assert.throws(() => readTask([], 'reports'), /reports sent a task that is not an object/);
    assert.throws(() => readTask({ status: 'working' }, 'reports'), /without a usable taskId/);
    assert.throws(() => readTask({ taskId: 'x'.repeat(600), status: 'working' }, 'reports'), /without a usable taskId/);
    assert.throws(() => readTask({ taskId: 't', status: 'paused' }, 'reports'), /task status Elicit does not know: "paused"/);
    assert.throws(() => readTask({ taskId: 't', status: 'working' }, 'reports', 'other'), /another task than the one asked about/);
    assert.throws(
      () => readTask({ taskId: 't', status: 'input_required', inputRequests: [] }, 'reports'),
      /input requests are not an object/,
    );
  });

  it('keeps a short status message and leaves out fields of the wrong type', () => {
    const read = readTask({ taskId: 't', status: 'working', statusMessage: 'x'.repeat(5000), pollIntervalMs: '5', error: 'no' }, 'r');
    assert.equal(read.statusMessage?.length, 300);
    assert.equal('pollIntervalMs' in read, false);
    assert.equal('error' in read, false);
  });
});

describe('missingCapabilityText', () => {
  it('names what the server needs, then what it said', () => {
    assert.equal(
      missingCapabilityText(
        'reports',
        { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
        'MCP error -32021: Missing required client capability',
      ),
      'reports needs a client capability that Elicit does not offer (io.modelcontextprotocol/tasks): Missing required client capability',
    );
    assert.equal(
      missingCapabilityText('reports', { requiredCapabilities: { sampling: {} } }, ''),
      'reports needs a client capability that Elicit does not offer (sampling)',
    );
    assert.equal(
      missingCapabilityText('reports', 'junk', 'no'),
      'reports needs a client capability that Elicit does not offer (one it did not name): no',
    );
  });
});

/** A server scripted as a list of tasks/get answers; records what the loop sent. */
function scriptedServer(polls: Array<Record<string, unknown>>): {
  client: TaskRun['client'];
  sent: Array<{ method: string; params: unknown }>;
} {
  const sent: Array<{ method: string; params: unknown }> = [];
  const client = {
    request: async (request: { method: string; params?: unknown }) => {
      sent.push({ method: request.method, params: request.params });
      if (request.method !== 'tasks/get') return {};
      const next = polls.shift();
      if (!next) throw new Error('no more polls scripted');
      return next;
    },
  } as unknown as TaskRun['client'];
  return { client, sent };
}

function context(ask: RoundContext['ask']): RoundContext {
  return { server: 'reports', origin: 'stdio:test', asker: { kind: 'mcp', name: 'reports' }, ask };
}

const question = (key: string): Record<string, unknown> => ({
  [key]: {
    method: 'elicitation/create',
    params: { message: key, requestedSchema: { type: 'object', properties: { v: { type: 'string' } } } },
  },
});

describe('followTask given a run already cancelled', () => {
  it('cancels the task at once: the abort came before it could listen (between the answer naming the task and now)', async () => {
    const { client, sent } = scriptedServer([]);
    const why = new Error('the window closed');
    const run: TaskRun = {
      client,
      request: { method: 'tools/call', params: { name: 'export' } },
      context: { ...context(() => assert.fail('nothing is asked')), signal: AbortSignal.abort(why) },
      cancelledBy: AbortSignal.abort(why),
      timeout: 1000,
    };
    await assert.rejects(followTask(run, readTask({ taskId: 't4', status: 'working' }, 'reports')), /the window closed/);
    assert.deepEqual(sent, [{ method: 'tasks/cancel', params: { taskId: 't4' } }]);
  });
});

describe('followTask against a server that misbehaves', () => {
  it('stops a task that keeps asking new questions after the cap', async () => {
    const polls = Array.from({ length: MAX_TASK_ROUNDS + 5 }, (_, i) => ({
      taskId: 't',
      status: 'input_required',
      pollIntervalMs: 0,
      inputRequests: question(`q${i}`),
    }));
    const first = readTask(polls.shift(), 'reports');
    const { client, sent } = scriptedServer(polls);
    let asked = 0;
    const run: TaskRun = {
      client,
      request: { method: 'tools/call', params: { name: 'export' } },
      context: context(async () => {
        asked++;
        return { action: 'accept', content: { v: 'x' } };
      }),
      timeout: 1000,
    };
    await assert.rejects(followTask(run, first), new RegExp(`asked for input more than ${MAX_TASK_ROUNDS} times`));
    assert.equal(asked, MAX_TASK_ROUNDS);
    assert.equal(sent.filter((s) => s.method === 'tasks/update').length, MAX_TASK_ROUNDS);
  });

  it('asks a key once though the server lists it again, and ends on a completed task without a result', async () => {
    const again = { taskId: 't', status: 'input_required', pollIntervalMs: 0, inputRequests: question('only') };
    const { client, sent } = scriptedServer([again, again, { taskId: 't', status: 'completed' }]);
    const asked: string[] = [];
    const run: TaskRun = {
      client,
      request: { method: 'tools/call', params: { name: 'export' } },
      context: context(async (request) => {
        asked.push(request.message);
        return { action: 'decline' };
      }),
      timeout: 1000,
    };
    await assert.rejects(followTask(run, readTask(again, 'reports') as ExtensionTask), /reports's task completed without a tool result/);
    assert.equal(asked.length, 1);
    assert.deepEqual(
      sent.filter((s) => s.method === 'tasks/update').map((s) => s.params),
      [{ taskId: 't', inputResponses: { only: { action: 'decline' } } }],
    );
  });
});
