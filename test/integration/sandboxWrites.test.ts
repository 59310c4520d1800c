/**
 * What a sandboxed server may write, for real (issue #57, finding 4): VS Code's own sandbox
 * runtime (the one code-server ships, bubblewrap underneath) runs test/fixtures/sandbox-writes.mjs
 * with the launch Elicit builds, in a home folder and a workspace of the test's own. A server
 * must not plant code that runs outside its sandbox: not in the shared npm cache (`~/.npm`,
 * which an unsandboxed `npx -y` runs from), not through a `cwd` outside the workspace, not in a
 * file Elicit reads servers from, not even by renaming that file's folder away. Each run is
 * bounded (30 s) and everything is made under one temporary folder, removed afterwards.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { emptySandbox, type SandboxRules } from '../../src/core/mcpConfig/serverConfig';
import { sandboxedLaunch, type SandboxRuntime } from '../../src/mcp/sandboxLaunch';
import { childEnvironment } from '../../src/process/processGroup';

const repoRoot = path.resolve(__dirname, '..', '..');
/** VS Code's install folder inside code-server (installed for the end-to-end tests). */
const appRoot = path.join(repoRoot, '.vscode-test', 'cs', 'node_modules', 'code-server', 'lib', 'vscode');
const cli = path.join(appRoot, 'node_modules', '@vscode', 'sandbox-runtime', 'dist', 'cli.js');
const fixture = path.join(repoRoot, 'test', 'fixtures', 'sandbox-writes.mjs');

function cannotRun(): string | false {
  if (process.platform !== 'linux') return 'bubblewrap is Linux only';
  if (!fs.existsSync(cli)) return 'no VS Code sandbox runtime here (code-server, installed by the end-to-end setup)';
  if (spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', 'true'], { timeout: 10_000 }).status !== 0)
    return 'bubblewrap is missing or cannot run here';
  if (spawnSync('socat', ['-V'], { timeout: 10_000 }).status !== 0) return 'socat is missing';
  return false;
}

type Attempt = { label: string; write: string } | { label: string; read: string } | { label: string; rename: string; to: string };

describe('a sandboxed server, in VS Code’s sandbox runtime (#57 finding 4)', { skip: cannotRun(), timeout: 120_000 }, () => {
  let base: string;
  let home: string;
  let ws: string;
  /** A second workspace folder, with no .vscode. */
  let other: string;
  let configFiles: string[];
  const tmpdir = process.env.TMPDIR;

  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-sandbox-writes-')));
    // The settings files and the runtime's empty folders (it mounts them to block a path) land here, removed after.
    process.env.TMPDIR = path.join(base, 'tmp');
    fs.mkdirSync(process.env.TMPDIR);
    home = path.join(base, 'home');
    ws = path.join(home, 'projects', 'app');
    other = path.join(home, 'projects', 'other');
    for (const dir of ['.npm/_cacache', '.cursor', '.config/Claude', 'projects/app/.cursor', 'projects/app/.vscode', 'projects/other'])
      fs.mkdirSync(path.join(home, dir), { recursive: true });
    for (const file of ['.cursor/mcp.json', '.claude.json', '.config/Claude/claude_desktop_config.json', 'projects/app/.cursor/mcp.json'])
      fs.writeFileSync(path.join(home, file), '{}\n');
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), '{"servers":{}}\n');
    // As the registry names them (serverConfigFiles): other tools' files, existing or not.
    configFiles = [
      path.join(home, '.cursor', 'mcp.json'),
      path.join(home, '.claude.json'),
      path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      path.join(home, '.copilot', 'mcp-config.json'),
      path.join(ws, '.cursor', 'mcp.json'),
      path.join(ws, '.gemini', 'settings.json'),
      path.join(ws, '.vscode', 'settings.json'),
      path.join(other, '.vscode', 'mcp.json'),
      path.join(other, '.vscode', 'settings.json'),
    ];
  });

  after(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
    fs.rmSync(base, { recursive: true, force: true, maxRetries: 3 });
  });

  /** Runs the fixture as Elicit would start the server, and returns what it says happened. */
  async function run(
    attempts: Attempt[],
    options: { cwd: string; folder?: string; rules?: SandboxRules },
  ): Promise<Record<string, string>> {
    // The extension host's environment, as the server gets it: the runtime reads `~` from its HOME.
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    delete env.NODE_OPTIONS; // the test runner's loader is not the server's
    const runtime: SandboxRuntime = {
      appRoot,
      execPath: process.execPath,
      platform: process.platform,
      arch: process.arch,
      home,
      env,
      workspaceFolders: [ws, other],
      configFiles,
      cacheFolder: path.join(base, 'caches'),
      identity: 'boxed',
    };
    const launch = sandboxedLaunch(
      'boxed',
      { type: 'stdio', command: process.execPath, args: [fixture, JSON.stringify(attempts)], env: {}, cwd: options.cwd },
      options.rules ?? emptySandbox(),
      options.folder ?? ws,
      runtime,
    );
    const child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: childEnvironment(env, launch.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    assert.equal(code, 0, `the sandboxed run ended with ${code}: ${stderr}`);
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, string>;
  }

  const refused = /^refused: (EROFS|EACCES|EPERM|EBUSY)$/;

  it('with "cwd": "~", writes neither the shared ~/.npm nor the home folder, only its own npm cache', async () => {
    const outcome = await run(
      [
        { label: 'shared npm cache', write: path.join(home, '.npm', '_cacache', 'planted.js') },
        { label: 'home folder', write: path.join(home, 'notes.txt') },
        { label: "Claude Code's file", write: path.join(home, '.claude.json') },
        { label: 'own npm cache', write: '$npm_config_cache/_cacache/own.txt' },
      ],
      { cwd: home },
    );
    assert.match(outcome['shared npm cache']!, refused);
    assert.match(outcome['home folder']!, refused);
    assert.match(outcome["Claude Code's file"]!, refused);
    assert.equal(outcome['own npm cache'], 'done');
    assert.equal(fs.existsSync(path.join(home, '.npm', '_cacache', 'planted.js')), false);
    assert.equal(fs.existsSync(path.join(home, 'notes.txt')), false);
    assert.equal(fs.readFileSync(path.join(home, '.claude.json'), 'utf8'), '{}\n');
    const caches = fs.readdirSync(path.join(base, 'caches'));
    assert.equal(caches.length, 1);
    assert.equal(fs.readFileSync(path.join(base, 'caches', caches[0]!, '_cacache', 'own.txt'), 'utf8'), 'planted by a sandboxed server\n');
  });

  it('in the workspace, writes its files but no config file Elicit reads, not even by moving its folder away', async () => {
    const denied = ['.cursor/mcp.json', 'move .cursor away', 'a new .gemini/settings.json', '.vscode/mcp.json', 'a new .vscode/tasks.json'];
    const outcome = await run(
      [
        { label: 'a workspace file', write: path.join(ws, 'out.txt') },
        { label: '.cursor/mcp.json', write: path.join(ws, '.cursor', 'mcp.json') },
        { label: 'move .cursor away', rename: path.join(ws, '.cursor'), to: path.join(ws, 'cursor-moved') },
        { label: 'a new .gemini/settings.json', write: path.join(ws, '.gemini', 'settings.json') },
        { label: '.vscode/mcp.json', write: path.join(ws, '.vscode', 'mcp.json') },
        { label: 'a new .vscode/tasks.json', write: path.join(ws, '.vscode', 'tasks.json') },
      ],
      { cwd: ws },
    );
    assert.deepEqual(Object.keys(outcome), ['a workspace file', ...denied]);
    assert.equal(outcome['a workspace file'], 'done');
    for (const label of denied) assert.match(outcome[label]!, refused, label);
    assert.equal(fs.readFileSync(path.join(ws, 'out.txt'), 'utf8'), 'planted by a sandboxed server\n');
    assert.equal(fs.readFileSync(path.join(ws, '.cursor', 'mcp.json'), 'utf8'), '{}\n');
    assert.equal(fs.existsSync(path.join(ws, 'cursor-moved')), false);
    assert.equal(fs.existsSync(path.join(ws, '.gemini')), false, 'what the runtime mounted to block it is gone');
    assert.deepEqual(fs.readdirSync(path.join(ws, '.vscode')), ['mcp.json']);
    assert.equal(fs.readFileSync(path.join(ws, '.vscode', 'mcp.json'), 'utf8'), '{"servers":{}}\n');
  });

  it("with the home folder writable by the person's own rule, other tools' files stay denied and their folders unmovable", async () => {
    const rules = emptySandbox();
    rules.filesystem.allowWrite.push('~');
    const denied = [
      "Cursor's file",
      'move .cursor away',
      'move .config away',
      'a new Copilot CLI file',
      'a new .vscode in the other folder',
      'move the other folder away',
    ];
    const outcome = await run(
      [
        { label: 'home folder', write: path.join(home, 'notes.txt') },
        { label: "Cursor's file", write: path.join(home, '.cursor', 'mcp.json') },
        { label: 'move .cursor away', rename: path.join(home, '.cursor'), to: path.join(home, 'cursor-moved') },
        { label: 'move .config away', rename: path.join(home, '.config'), to: path.join(home, 'config-moved') },
        { label: 'a new Copilot CLI file', write: path.join(home, '.copilot', 'mcp-config.json') },
        { label: 'a new .vscode in the other folder', write: path.join(other, '.vscode', 'tasks.json') },
        { label: 'move the other folder away', rename: other, to: path.join(home, 'projects', 'moved') },
      ],
      { cwd: ws, rules },
    );
    assert.equal(outcome['home folder'], 'done', 'the rule is kept: the home folder is writable');
    for (const label of denied) assert.match(outcome[label]!, refused, label);
    assert.equal(fs.readFileSync(path.join(home, '.cursor', 'mcp.json'), 'utf8'), '{}\n');
    assert.equal(fs.readFileSync(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'), 'utf8'), '{}\n');
    assert.equal(fs.existsSync(path.join(home, 'cursor-moved')), false);
    assert.equal(fs.existsSync(path.join(home, 'config-moved')), false);
    assert.equal(fs.existsSync(path.join(home, 'projects', 'moved')), false);
    assert.equal(fs.existsSync(path.join(home, '.copilot')), false, 'what the runtime mounted to block it is gone');
    assert.deepEqual(fs.readdirSync(other), [], 'nor in the other folder');
  });

  it('never shows again what the rules hide: no folder under a denyRead is made writable to pin it', async () => {
    const rules = emptySandbox();
    rules.filesystem.allowWrite.push('~');
    rules.filesystem.denyRead.push('~/.config');
    const claude = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const outcome = await run(
      [
        { label: "read Claude Desktop's file", read: claude },
        { label: "write Claude Desktop's file", write: claude },
      ],
      { cwd: ws, rules },
    );
    assert.match(outcome["read Claude Desktop's file"]!, /^refused: ENOENT$/, 'hidden, as the rule says');
    // The server sees an empty folder of its own there: what it writes in it never reaches the disk.
    assert.equal(fs.readFileSync(claude, 'utf8'), '{}\n');
    assert.deepEqual(fs.readdirSync(path.dirname(claude)), ['claude_desktop_config.json']);
  });

  it('started in a workspace folder with no .vscode, it runs, and cannot make one (the runtime denies it there too)', async () => {
    const outcome = await run(
      [
        { label: 'a file of its folder', write: path.join(other, 'notes.txt') },
        { label: 'a new .vscode/tasks.json', write: path.join(other, '.vscode', 'tasks.json') },
      ],
      { cwd: other, folder: other },
    );
    assert.equal(outcome['a file of its folder'], 'done');
    // There the runtime puts a read-only empty file in its place, so the folder cannot be made.
    assert.match(outcome['a new .vscode/tasks.json']!, /^refused: (EEXIST|ENOTDIR|EROFS)$/);
    assert.deepEqual(fs.readdirSync(other), ['notes.txt'], 'no .vscode left behind');
    fs.rmSync(path.join(other, 'notes.txt'));
  });
});
