/**
 * Servers that go away while a person is answering, crash recovery with real
 * processes, and no process left behind: against test/fixtures/unreliable-server.mjs.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import type { McpConnection } from '../../src/mcp/connection';
import { CrashRecovery } from '../../src/mcp/crashRecovery';
import { stopAllNow } from '../../src/mcp/shutdown';
import { connectScripted, fixture, isAlive, stdioServer, textOf, waitFor } from '../support/mcpServers';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { waitForFile } from '../support/waitUntil';

const unreliable = fixture('unreliable-server.mjs');
const opened: McpConnection[] = [];
after(async () => {
  await Promise.all(opened.map((c) => c.stop()));
});

/** Like a renderer: the question stays open until its signal aborts, then the UI closes with cancel. */
function openUntilAborted(aborted: Question[]) {
  return (question: Question, signal: AbortSignal): Promise<ElicitResult> =>
    new Promise((resolve) => {
      signal.addEventListener('abort', () => {
        aborted.push(question);
        resolve({ action: 'cancel' });
      });
    });
}

function startedPids(record: string): number[] {
  return readRecords(record).flatMap((r) => (typeof r.started === 'number' ? [r.started] : []));
}

describe('a server that withdraws or loses an open question', () => {
  it('notifications/cancelled for its own elicitation closes the UI (signal aborted) and leaves nothing pending', async () => {
    const record = newRecordFile();
    const aborted: Question[] = [];
    const { connection, broker, renderer } = connectScripted(
      // Long enough for the question to be shown on a loaded machine before the server withdraws it.
      stdioServer('withdrawing', unreliable, { RECORD_FILE: record, MISBEHAVE_AFTER_MS: '1500' }),
      openUntilAborted(aborted),
      opened,
    );
    // Twice: the first request of a session has id 0, which the SDK alone would not cancel.
    for (const round of [1, 2]) {
      const result = await connection.callTool('ask_then_cancel', {});
      assert.match(textOf(result), /The question was withdrawn/);
      assert.equal(renderer.seen.length, round, 'the question was shown');
      // The tool's result may overtake the cancellation on its way through the broker.
      await waitFor(() => aborted.length === round, 'the renderer to be told to close');
      await waitFor(() => broker.pending().length === 0, 'nothing pending');
    }
    assert.equal(connection.status, 'running', 'a withdrawn question does not harm the connection');
    const outcomes = readRecords(record).filter((r) => r.tool === 'ask_then_cancel');
    assert.equal(
      outcomes.some((r) => r.result !== undefined),
      false,
      'no answer was sent for the cancelled request',
    );
  });

  it('a crash mid-question closes the UI, fails the call, and shows the server in error', async () => {
    const record = newRecordFile();
    const aborted: Question[] = [];
    const { connection, broker } = connectScripted(
      stdioServer('crashing', unreliable, { RECORD_FILE: record, MISBEHAVE_AFTER_MS: '300' }),
      openUntilAborted(aborted),
      opened,
    );
    await assert.rejects(connection.callTool('ask_then_crash', {}), /Connection closed/);
    await waitFor(() => aborted.length === 1, 'the renderer’s signal to abort');
    assert.deepEqual(broker.pending(), []);
    assert.equal(connection.status, 'error');
    assert.equal(connection.error, 'the server closed the connection');
    const [pid] = startedPids(record);
    await waitFor(() => !isAlive(pid!), 'the crashed process to be gone');
  });
});

describe('crash recovery with a real process', () => {
  it('restarts a crashed server with growing delays, then stays in error; a restart by the person works again', async () => {
    const record = newRecordFile();
    const { connection } = connectScripted(stdioServer('flaky', unreliable, { RECORD_FILE: record }), () => ({ action: 'cancel' }), opened);
    const notes: string[] = [];
    const recovery = new CrashRecovery(connection, { maxRestarts: 2, baseDelayMs: 50, maxDelayMs: 1000, stableMs: 60_000 }, (l) =>
      notes.push(l),
    );
    try {
      await connection.connect();
      for (let restart = 1; restart <= 2; restart++) {
        await assert.rejects(connection.callTool('crash', {}));
        await waitFor(() => connection.status === 'running' && startedPids(record).length === restart + 1, `restart ${restart}`);
      }
      await assert.rejects(connection.callTool('crash', {}));
      await waitFor(() => recovery.gaveUp, 'giving up');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(connection.status, 'error', 'no third automatic restart');
      assert.equal(startedPids(record).length, 3);
      assert.deepEqual(notes, [
        'flaky stopped unexpectedly; restarting in 50 ms (attempt 1 of 2)',
        'flaky stopped unexpectedly; restarting in 100 ms (attempt 2 of 2)',
        'flaky stopped unexpectedly 3 times in a row; it stays stopped until you restart it',
      ]);
      // The person's Restart: reset, then start.
      recovery.reset();
      await connection.connect();
      assert.equal(connection.status, 'running');
      assert.equal(startedPids(record).length, 4);
    } finally {
      recovery.dispose();
    }
  });
});

describe('no orphan processes', () => {
  it('stop() ends the stdio server process', async () => {
    const record = newRecordFile();
    const { connection } = connectScripted(
      stdioServer('orphan-check', unreliable, { RECORD_FILE: record }),
      () => ({ action: 'cancel' }),
      opened,
    );
    await connection.connect();
    const pid = connection.pid!;
    assert.ok(pid > 0 && isAlive(pid));
    assert.deepEqual(startedPids(await waitForRecords(record, 1).then(() => record)), [pid]);
    await connection.stop();
    assert.equal(isAlive(pid), false, 'the child is gone once stop() resolves');
    assert.equal(connection.pid, undefined);
    assert.equal(connection.status, 'stopped');
  });

  it('stopAllNow() (deactivation) ends every server at once', async () => {
    const records = [newRecordFile(), newRecordFile()];
    const connections = records.map(
      (record, i) =>
        connectScripted(stdioServer(`deactivate-${i}`, unreliable, { RECORD_FILE: record }), () => ({ action: 'cancel' }), opened)
          .connection,
    );
    await Promise.all(connections.map((c) => c.connect()));
    const pids = connections.map((c) => c.pid!);
    const started = Date.now();
    await stopAllNow(connections);
    assert.ok(Date.now() - started < 1900, 'without waiting out the 2 s grace');
    for (const pid of pids) assert.equal(isAlive(pid), false);
  });

  it('stop() also ends what a wrapper started (npx, uvx and shells run the real server as a grandchild)', async () => {
    const record = newRecordFile();
    const helperPidFile = `${record}.helper`;
    // A shell that leaves a helper running, then becomes the server: once the server
    // exits, the helper belongs to no one unless its process group is signalled.
    const wrapped: ServerConfig = {
      name: 'wrapped',
      source: 'test',
      transport: {
        type: 'stdio',
        command: '/bin/sh',
        args: ['-c', `sleep 300 & echo $! > "${helperPidFile}"; exec "${process.execPath}" "${unreliable}"`],
        env: { RECORD_FILE: record },
      },
    };
    const { connection } = connectScripted(wrapped, () => ({ action: 'cancel' }), opened);
    await connection.connect();
    const serverPid = connection.pid!;
    const helperPid = Number(await waitForFile(helperPidFile));
    assert.ok(isAlive(helperPid), 'the helper runs beside the server');
    await connection.stop();
    assert.equal(isAlive(serverPid), false);
    await waitFor(() => !isAlive(helperPid), `the helper (${helperPid}) to end`, 3000);
  });

  it('stop() while the server is still starting leaves no process behind', async () => {
    const record = newRecordFile();
    const { connection } = connectScripted(
      stdioServer('stopped-early', unreliable, { RECORD_FILE: record }),
      () => ({ action: 'cancel' }),
      opened,
    );
    const starting = connection.connect();
    await connection.stop();
    await assert.rejects(starting, /was stopped while it started/);
    await new Promise((r) => setTimeout(r, 300));
    for (const pid of startedPids(record)) await waitFor(() => !isAlive(pid), `process ${pid} to end`);
    assert.equal(connection.status, 'stopped');
    // And it can start again afterwards.
    await connection.connect();
    assert.equal(connection.status, 'running');
  });
});
