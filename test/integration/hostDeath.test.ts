/**
 * An extension host that dies without deactivating (`kill -9`, a crash) must not leave its
 * servers and agents running: they run in process groups of their own, which nothing else
 * ends. The host here is test/fixtures/dying-host.ts running Elicit's real connections.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { newRecordFile } from '../support/records';
import { waitFor } from '../support/mcpServers';

/** Alive and not a zombie waiting to be reaped (PID 1 here may not reap at once). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return process.platform !== 'linux';
  }
}

describe('an extension host killed with SIGKILL', { skip: process.platform === 'win32' && 'no process groups on Windows' }, () => {
  it('takes its servers (with what their shell started) and agents with it', async () => {
    const record = newRecordFile();
    const host = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, '..', 'fixtures', 'dying-host.ts'), record, `${record}.helper`],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const pids = await new Promise<Record<string, number>>((resolve, reject) => {
      let out = '';
      host.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as Record<string, number>);
      });
      host.once('exit', (code) => reject(new Error(`the host exited (${code}) before it was ready`)));
    });
    const { server, helper, agent, watchdog } = pids as { server: number; helper: number; agent: number; watchdog: number };
    for (const [what, pid] of Object.entries(pids)) assert.ok(pid > 0 && running(pid), `${what} (${pid}) runs`);

    process.kill(host.pid!, 'SIGKILL');
    await waitFor(() => !running(server), `the server (${server}) to end`, 5_000);
    await waitFor(() => !running(helper), `the helper its shell left (${helper}) to end`, 5_000);
    await waitFor(() => !running(agent), `the agent (${agent}) to end`, 5_000);
    // Its work done, the watchdog leaves too.
    await waitFor(() => !running(watchdog), `the watchdog (${watchdog}) to end`, 5_000);
  });
});
