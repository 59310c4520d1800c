/**
 * `npm run demo` as a person runs it: it prints what it installs, how long that
 * took and the address (no test-harness lines, no vsce file list), the address
 * answers, and SIGINT or SIGTERM sent to the npm process (not a terminal's
 * Ctrl+C, which reaches every process) stops it: npm exits, code-server and
 * everything it started are gone, and so is its temp folder.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './harness/codeServer';
import { allProcesses } from './harness/processes';
import { freePort } from '../support/freePort';
import { waitUntil } from '../support/waitUntil';

async function demoStoppedBy(signal: NodeJS.Signals): Promise<void> {
  const port = await freePort();
  const npm = spawn('npm', ['run', 'demo', '--', '--port', String(port)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, sig) => resolve({ code, signal: sig })),
  );
  let sessionDir = '';
  try {
    await waitUntil(() => output.includes('Press Ctrl+C to stop') || npm.exitCode !== null, 'the demo to start', 240_000);
    assert.match(output, new RegExp(`Elicit demo is running: +http://127\\.0\\.0\\.1:${port}/\\?folder=`), output);
    sessionDir = /code-server's log: (.*)\/user-data\/code-server\.log/.exec(output)?.[1] ?? '';
    assert.ok(fs.existsSync(sessionDir), `the log line names the session folder: ${output}`);
    assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).ok, true);
    // What a demo user needs, and nothing of the test harness or of vsce.
    for (const noise of [/^\[e2e\]/m, /Files included in the VSIX/, /Packaged:/, /[├└]─/]) assert.doesNotMatch(output, noise);
    assert.match(output, /Building Elicit/);
    assert.match(output, /✔ elicit-[\d.]+\.vsix \(\d+ s\)/);
    assert.match(output, /code-server [\d.]+ is installed|✔ installed/);
    // Issue #25 item 11: Ctrl+C ends the page's server too, so the tab is to be closed; no port-forwarding toasts.
    assert.match(output, /Press Ctrl\+C to stop the demo, then close the browser tab/);
    const settings = JSON.parse(fs.readFileSync(path.join(sessionDir, 'user-data', 'User', 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.equal(settings['remote.autoForwardPorts'], false);

    npm.kill(signal);
    const end = await Promise.race([exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000))]);
    assert.notEqual(end, 'still running', `npm run demo was still running 20 s after ${signal}`);
    await waitUntil(() => !allProcesses().some((p) => p.args.includes(sessionDir)), `code-server of ${sessionDir} to end`, 10_000);
    await waitUntil(() => !fs.existsSync(sessionDir), `${sessionDir} to be removed`, 10_000);
    assert.match(output, /Stopped\./);
  } finally {
    if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
    for (const p of sessionDir ? allProcesses().filter((p) => p.args.includes(sessionDir)) : []) process.kill(p.pid, 'SIGKILL');
  }
}

describe('npm run demo', { timeout: 600_000 }, () => {
  it('stops on SIGINT sent to the npm process', () => demoStoppedBy('SIGINT'));
  it('stops on SIGTERM sent to the npm process', () => demoStoppedBy('SIGTERM'));
});
