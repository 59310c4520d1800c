/** CrashRecovery: restarts after crashes with a growing delay, a limit, and a reset after a stable run or by the person. */
import assert from 'node:assert/strict';
import { beforeEach, describe, it, mock } from 'node:test';
import { Emitter } from '../../src/core/events';
import type { McpConnection, ServerStatus } from '../../src/mcp/connection';
import { CrashRecovery, restartDelay, type RestartPolicy } from '../../src/mcp/crashRecovery';

const policy: RestartPolicy = { maxRestarts: 3, baseDelayMs: 100, maxDelayMs: 250, stableMs: 10_000 };

/** A stand-in connection: tests move its status; connect() counts and, by default, starts fine. */
class FakeConnection {
  readonly name = 'flaky';
  status: ServerStatus = 'stopped';
  connects = 0;
  startFails = false;
  private readonly changes = new Emitter<ServerStatus>();
  readonly onDidChangeStatus = this.changes.event;
  set(status: ServerStatus): void {
    this.status = status;
    this.changes.fire(status);
  }
  async connect(): Promise<void> {
    this.connects++;
    this.set('starting');
    this.set(this.startFails ? 'error' : 'running');
  }
  crash(): void {
    this.set('error');
  }
}

describe('restartDelay', () => {
  it('doubles from the base delay up to the maximum', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => restartDelay(n, policy)),
      [100, 200, 250, 250],
    );
  });
});

describe('CrashRecovery', () => {
  let now = 0;
  let fake: FakeConnection;
  let logs: string[];
  let recovery: CrashRecovery;

  beforeEach(() => {
    mock.timers.reset();
    mock.timers.enable({ apis: ['setTimeout'] });
    now = 0;
    fake = new FakeConnection();
    logs = [];
    recovery = new CrashRecovery(
      fake as unknown as McpConnection,
      policy,
      (l) => logs.push(l),
      () => now,
    );
  });

  function advance(ms: number): void {
    now += ms;
    mock.timers.tick(ms);
  }

  it('restarts a crashed server after the delay, then with growing delays, then gives up', async () => {
    await fake.connect();
    fake.crash();
    assert.equal(recovery.nextRestartAt, 100);
    advance(99);
    assert.equal(fake.connects, 1, 'not before the delay');
    advance(1);
    assert.equal(fake.connects, 2);
    assert.equal(fake.status, 'running');
    fake.crash();
    advance(200);
    assert.equal(fake.connects, 3);
    fake.crash();
    advance(250);
    assert.equal(fake.connects, 4);
    fake.crash();
    assert.equal(recovery.gaveUp, true);
    assert.equal(recovery.nextRestartAt, undefined);
    advance(60_000);
    assert.equal(fake.connects, 4, 'no restart after the limit');
    assert.equal(fake.status, 'error');
    assert.deepEqual(logs.slice(0, 3), [
      'flaky stopped unexpectedly; restarting in 100 ms (attempt 1 of 3)',
      'flaky stopped unexpectedly; restarting in 200 ms (attempt 2 of 3)',
      'flaky stopped unexpectedly; restarting in 250 ms (attempt 3 of 3)',
    ]);
    assert.equal(logs[3], 'flaky stopped unexpectedly 4 times in a row; it stays stopped until you restart it');
  });

  it('a restart that fails to start counts as a crash', async () => {
    await fake.connect();
    fake.crash();
    fake.startFails = true;
    advance(100);
    assert.equal(fake.status, 'error');
    assert.equal(recovery.nextRestartAt, now + 200, 'the next attempt is scheduled');
    advance(200);
    advance(250);
    assert.equal(fake.connects, 4);
    assert.equal(recovery.gaveUp, true);
  });

  it('never retries a server that failed its first start (that needs a fix, not a loop)', async () => {
    fake.startFails = true;
    await fake.connect();
    assert.equal(recovery.nextRestartAt, undefined);
    advance(10_000);
    assert.equal(fake.connects, 1);
  });

  it('a stable run resets the count', async () => {
    await fake.connect();
    for (let i = 0; i < 3; i++) {
      fake.crash();
      advance(restartDelay(i + 1, policy));
    }
    assert.equal(fake.connects, 4);
    advance(policy.stableMs);
    fake.crash();
    assert.equal(recovery.gaveUp, false);
    assert.equal(recovery.nextRestartAt, now + 100, 'counting starts again at the first delay');
  });

  it('stop by the person cancels a scheduled restart; reset() forgets that it gave up', async () => {
    await fake.connect();
    fake.crash();
    fake.set('stopped');
    advance(1000);
    assert.equal(fake.connects, 1);
    for (let i = 0; i < 4; i++) {
      await fake.connect();
      fake.crash();
      advance(1000);
    }
    recovery.reset();
    assert.equal(recovery.gaveUp, false);
    await fake.connect();
    fake.crash();
    assert.equal(recovery.nextRestartAt, now + 100);
  });

  it('dispose() cancels a scheduled restart and stops listening', async () => {
    await fake.connect();
    fake.crash();
    recovery.dispose();
    advance(1000);
    assert.equal(fake.connects, 1);
  });
});
