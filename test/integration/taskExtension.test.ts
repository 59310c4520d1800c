/**
 * MCP's tasks extension (io.modelcontextprotocol/tasks, final with 2026-07-28)
 * against a fixture written with the official v2 server package
 * (test/fixtures/task-server.mjs), through McpConnection and the real broker with
 * a scripted answerer, over stdio and Streamable HTTP (where the SDK's server
 * refuses a tasks/* request whose Mcp-Name header is not its task id): a task
 * that asks twice, each key asked once though the server lists an answered key
 * for one more poll; the task's statuses; tasks/cancel when the run is
 * cancelled; a failed task; a task that ends while its question is open closes
 * that question; a task's round kept across a reload and answered afterwards.
 * The assertions are on what the server recorded.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { McpConnection, type RunningTask } from '../../src/mcp/connection';
import type { RoundKeeper } from '../../src/mcp/rounds';
import { KeptAcrossReload } from '../support/keptAcrossReload';
import { fixture, httpServer, startHttpFixture, stdioServer, textOf, waitFor } from '../support/mcpServers';
import { newRecordFile, readRecords } from '../support/records';
import { answerFields, scriptedBroker, type Script } from '../support/scriptedRenderer';
import type { Question } from '../../src/core/broker/broker';

const serverFile = fixture('task-server.mjs');
const opened: McpConnection[] = [];
const children: ChildProcess[] = [];
after(async () => {
  await Promise.all(opened.map((c) => c.stop()));
  for (const child of children) child.kill();
});

function connect(
  config: ServerConfig,
  script: Script,
  keeper?: RoundKeeper,
  acceptLanguage?: string,
): { connection: McpConnection; seen: Question[]; logs: string[] } {
  const { broker, renderer } = scriptedBroker(script);
  const logs: string[] = [];
  const connection = new McpConnection(config, {
    ask: (r) => broker.ask(r),
    log: (l) => logs.push(l),
    ...(keeper ? { rounds: keeper } : {}),
    ...(acceptLanguage ? { acceptLanguage } : {}),
  });
  opened.push(connection);
  return { connection, seen: renderer.seen, logs };
}

async function startHttp(record: string): Promise<string> {
  const server = await startHttpFixture('task-server.mjs', { RECORD_FILE: record });
  children.push(server.process);
  return server.url;
}

/** The answers the report's two questions get. */
const answerReport: Script = (q) => {
  const names = q.form!.fields.map((f) => f.property ?? f.name);
  if (names.includes('title')) return answerFields(q, { title: 'Q3 numbers', pages: 12 });
  if (names.includes('format')) return answerFields(q, { format: 'html' });
  return assert.fail(`unexpected question: ${names.join(', ')}`);
};

for (const transport of ['stdio', 'Streamable HTTP'] as const) {
  describe(`the tasks extension over ${transport}`, () => {
    const record = newRecordFile();
    let config: ServerConfig;
    before(async () => {
      config =
        transport === 'stdio'
          ? stdioServer('reports', serverFile, { RECORD_FILE: record })
          : httpServer('reports', await startHttp(record));
    });
    const of = (method: string, taskId?: string): Array<Record<string, unknown>> =>
      readRecords(record).filter((r) => r.method === method && (taskId === undefined || r.taskId === taskId));

    it('answers a task that asks twice, each question once, and returns its result', async () => {
      const { connection, seen } = connect(config, answerReport);
      const statuses: RunningTask[] = [];
      const result = await connection.callTool('export_report', {}, undefined, (t) => statuses.push(t));
      assert.equal(textOf(result), 'Exported "Q3 numbers" (12 pages) as html');
      // The server declared-checks every request: the call reached it with the extension declared.
      assert.equal(of('tools/call').at(-1)!.declared, true);
      const taskId = of('tasks/update').at(-1)!.taskId as string;
      const updates = of('tasks/update', taskId);
      assert.deepEqual(
        updates.map((u) => u.inputResponses),
        [
          { details: { action: 'accept', content: { title: 'Q3 numbers', pages: 12 } } },
          { format: { action: 'accept', content: { format: 'html' } } },
        ],
      );
      // The server lists each answered key for one more poll: it was not asked again.
      assert.equal(seen.length, 2, seen.map((q) => q.request.message).join(' | '));
      assert.ok(of('tasks/get', taskId).length >= 3, 'the task was polled');
      assert.deepEqual(
        [...new Set(statuses.map((s) => s.status))],
        ['working', 'input_required', 'completed'],
        'each status reached the caller',
      );
      assert.ok(statuses.some((s) => s.statusMessage === 'Collecting pages'));
      assert.deepEqual(connection.runningTasks, [], 'the Servers view forgets a call that ended');
    });

    it('sends tasks/cancel when the run is cancelled', async () => {
      const { connection } = connect(config, () => assert.fail('nothing is asked'));
      const controller = new AbortController();
      const call = connection.callTool('long_job', {}, controller.signal, (t) => {
        if (t.statusMessage === 'Step 2') controller.abort(new Error('cancelled by the person'));
      });
      await assert.rejects(call, /cancelled by the person/);
      await waitFor(() => of('tasks/cancel').length > 0, 'tasks/cancel');
      const cancelled = of('tasks/cancel').at(-1)!.taskId;
      assert.equal(typeof cancelled, 'string');
      assert.equal(of('tasks/get', cancelled as string).length >= 1, true);
    });

    it('cancels the task of a call given up before the answer naming it came back, before a closing window lets go', async () => {
      const { connection, logs } = connect(config, () => assert.fail('nothing is asked'));
      const controller = new AbortController();
      const call = connection.callTool('slow_answer', {}, controller.signal);
      const startedTask = (): string | undefined =>
        readRecords(record)
          .filter((r) => r.tool === 'slow_answer' && typeof r.started === 'string')
          .at(-1)?.started as string | undefined;
      const before = startedTask();
      await waitFor(() => startedTask() !== before, 'the task to start');
      // The server answers 500 ms after it started the task: the gateway's calls end now (a window closing).
      controller.abort(new Error('the window closed'));
      await assert.rejects(call, /the window closed/);
      const taskId = startedTask()!;
      assert.deepEqual(of('tasks/cancel', taskId), [], 'not cancelled before its answer came');
      // What a closing window waits for before its host goes.
      await connection.taskCancelsSent();
      assert.equal(of('tasks/cancel', taskId).length, 1, 'the task the answer named was cancelled');
      assert.ok(
        logs.some((l) => l.includes('tool slow_answer: the call ended as the server started a task; cancelling the task')),
        logs.join('\n'),
      );
    });

    it("reports a failed task with the server's reason", async () => {
      const { connection } = connect(config, () => assert.fail('nothing is asked'));
      await assert.rejects(connection.callTool('failing_job', {}), /reports's task failed: the disk is full/);
    });

    it('closes the question of a task that ends while it is open', async () => {
      let closed: string | undefined;
      const { connection, seen } = connect(
        config,
        (_q, signal) =>
          new Promise((resolve) => {
            // A person who never answers: the question stays until Elicit closes it.
            signal.addEventListener('abort', () => {
              closed = String((signal.reason as Error | undefined)?.message ?? signal.reason);
              resolve({ action: 'cancel' });
            });
          }),
      );
      await assert.rejects(connection.callTool('gives_up', {}), /reports cancelled the task: nobody answered in time/);
      assert.equal(seen.length, 1);
      assert.match(closed ?? '', /task ended \(cancelled\) while its question was open/);
    });
  });
}

describe("a task's round kept across a reload", () => {
  it('is answered after the reload: the task goes on from where it was', async () => {
    const record = newRecordFile();
    // Streamable HTTP: the server outlives the window (a stdio server ends with it, and its tasks too).
    const config = httpServer('reports', await startHttp(record));
    const keeper = new KeptAcrossReload();
    // Before the reload: the first question is answered; the second is open when the window goes
    // (its extension host stops every connection).
    const beforeReload: ReturnType<typeof connect> = connect(
      config,
      (q, signal) => {
        const names = q.form!.fields.map((f) => f.property ?? f.name);
        if (names.includes('title')) return answerFields(q, { title: 'Kept', pages: 3 });
        return new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve({ action: 'cancel' }));
          void beforeReload.connection.stop();
        });
      },
      keeper,
    );
    await assert.rejects(beforeReload.connection.callTool('export_report', {}), /reports was stopped/);
    const kept = keeper.rounds.at(-1)!;
    assert.deepEqual(Object.keys(kept.inputRequests), ['format']);
    assert.ok(kept.task, 'the kept round names its task');
    assert.deepEqual(kept.task.asked, ['details', 'format']);
    const taskId = kept.task.taskId;
    assert.equal(
      readRecords(record).some((r) => r.method === 'tasks/cancel'),
      false,
      'a window that goes does not cancel the task (only the person cancelling the run does)',
    );

    const afterReload = connect(config, (q) => answerFields(q, { format: 'pdf' }));
    const result = await afterReload.connection.resumeRound(kept);
    assert.equal(textOf(result), 'Exported "Kept" (3 pages) as pdf');
    assert.deepEqual(
      readRecords(record)
        .filter((r) => r.method === 'tasks/update' && r.taskId === taskId)
        .map((r) => Object.keys(r.inputResponses as object)),
      [['details'], ['format']],
    );
    assert.equal(afterReload.seen.length, 1, 'only the open question is asked again');
    assert.equal(afterReload.seen[0]!.request.nextInLine, true, 'the person opened it: it goes next in line');
  });
});

describe("the person's language (draft SEP-2792)", () => {
  it('is on every request as _meta and, byte for byte, as the Accept-Language header; the server answers in it', async () => {
    const record = newRecordFile();
    const config = httpServer('reports', await startHttp(record));
    const { connection, seen } = connect(
      config,
      (q) => {
        const names = q.form!.fields.map((f) => f.property ?? f.name);
        return names.includes('title') ? answerFields(q, { title: 'Zahlen', pages: 2 }) : answerFields(q, { format: 'pdf' });
      },
      undefined,
      'de-CH',
    );
    const result = await connection.callTool('export_report', {});
    assert.equal(textOf(result), 'Exported "Zahlen" (2 pages) as pdf');
    // The server chose German, and said so: the question carries the language for the form's lang.
    assert.equal(seen[0]!.request.message, 'Welcher Bericht soll exportiert werden?');
    assert.equal(seen[0]!.request.language, 'de');
    const requests = readRecords(record).filter((r) => typeof r.http === 'string');
    const kinds = new Set(requests.map((r) => r.http));
    for (const kind of ['server/discover', 'tools/list', 'tools/call', 'tasks/get', 'tasks/update'])
      assert.ok(kinds.has(kind), `${kind} was sent`);
    for (const request of requests) {
      assert.equal(request.meta, 'de-CH', `_meta on ${String(request.http)}`);
      assert.equal(request.header, 'de-CH', `the header on ${String(request.http)}`);
    }
  });
});
