/**
 * Which servers the registry reads: every workspace folder's .vscode/mcp.json
 * (as far as elicit.mcpJsonServers selects) and the elicit.servers setting,
 * none of a workspace's own in an untrusted window, and the problems of a
 * broken file, each shown to the person once. Over the `vscode` stand-in; no
 * server is started.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import * as vscode from 'vscode';
import { serverOrigin } from '../../src/mcp/serverOrigin';
import { ServerRegistry } from '../../src/vscode/mcp/serverRegistry';
import { standIn, Uri } from './vscodeStandIn/vscode';

const ask = async (): Promise<never> => {
  throw new Error('no question expected');
};

function mcpJson(servers: Record<string, unknown>): string {
  return JSON.stringify({ servers });
}

describe('ServerRegistry (over the vscode stand-in)', () => {
  let registry: ServerRegistry;
  const names = async (): Promise<string[]> => (await registry.servers()).map((s) => s.name);

  beforeEach(() => {
    standIn.reset();
    standIn.setFolders('/ws/app', '/ws/tools');
    standIn.files.set(
      '/ws/app/.vscode/mcp.json',
      mcpJson({ db: { command: 'node', args: ['db.js'] }, docs: { url: 'https://docs.example/mcp' } }),
    );
    standIn.files.set('/ws/tools/.vscode/mcp.json', mcpJson({ db: { command: 'python3', args: ['db.py'] } }));
    standIn.settings.set('elicit.servers', { notes: { command: 'notes-mcp' } });
    registry = new ServerRegistry(ask, vscode.window.createOutputChannel('Elicit', { log: true }) as unknown as vscode.LogOutputChannel);
  });
  afterEach(() => registry.dispose());

  it("reads every folder's mcp.json and the setting; a name used twice gets a number", async () => {
    assert.deepEqual(await names(), ['db', 'docs', 'db (2)', 'notes']);
    const second = await registry.get('db (2)');
    assert.equal(second?.config.transport.type === 'stdio' && second.config.transport.command, 'python3');
    assert.deepEqual(registry.problems, []);
    assert.equal(registry.configFile('app/.vscode/mcp.json')?.fsPath, '/ws/app/.vscode/mcp.json');
  });

  it('leaves the servers elicit.mcpJsonServers does not select to VS Code, and says so', async () => {
    standIn.settings.set('elicit.mcpJsonServers', ['*', '!docs']);
    assert.deepEqual(await names(), ['db', 'db (2)', 'notes']);
    assert.deepEqual(registry.leftToVsCode, ['docs (app/.vscode/mcp.json)']);
    assert.deepEqual(standIn.commands.at(-1), ['setContext', 'elicit.mcpJsonServersLeftOut', true]);
  });

  it('reloads when a setting it reads changes', async () => {
    assert.deepEqual(await names(), ['db', 'docs', 'db (2)', 'notes']);
    const changed = new Promise<void>((resolve) => registry.onDidChange(() => resolve()));
    standIn.changeSetting('elicit.mcpJsonServers', []);
    await changed;
    assert.deepEqual(await names(), ['notes']);
  });

  it('two quick changes of elicit.mcpJsonServers end with the last: a slower earlier read never lands after it', async () => {
    assert.deepEqual(await names(), ['db', 'docs', 'db (2)', 'notes']);
    // The first reload's first file read is slow, as on a loaded machine; the second's is not.
    const readFile = vscode.workspace.fs.readFile;
    let firstRead: () => void;
    const reading = new Promise<void>((resolve) => (firstRead = resolve));
    let slowed = false;
    vscode.workspace.fs.readFile = async (uri) => {
      if (!slowed) {
        slowed = true;
        firstRead();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return readFile(uri);
    };
    try {
      standIn.changeSetting('elicit.mcpJsonServers', ['*']);
      // The second change comes while the first reload is reading, with the settings of before.
      await reading;
      standIn.changeSetting('elicit.mcpJsonServers', []);
      await new Promise((resolve) => setTimeout(resolve, 120));
      assert.deepEqual(await names(), ['notes']);
      assert.deepEqual(registry.leftToVsCode, ['db (app/.vscode/mcp.json)', 'docs (app/.vscode/mcp.json)', 'db (tools/.vscode/mcp.json)']);
      assert.deepEqual(standIn.commands.filter((c) => c[0] === 'setContext').at(-1), ['setContext', 'elicit.mcpJsonServersLeftOut', true]);
    } finally {
      vscode.workspace.fs.readFile = readFile;
    }
  });

  it("starts none of the workspace's own servers in an untrusted window, but still the user's setting", async () => {
    standIn.trusted = false;
    assert.deepEqual(await names(), ['notes']);
    assert.deepEqual(registry.untrustedSources, ['app/.vscode/mcp.json', 'tools/.vscode/mcp.json']);
  });

  // Finding 4 of issue #21: VS Code deep-merges object settings, so a workspace could change the user's entry.
  it("a workspace's elicit.servers entry never changes the user's entry of that name: each scope is a server of its own", async () => {
    standIn.workspaceFile = Uri.file('/ws/team.code-workspace');
    standIn.workspaceSettings.set('elicit.servers', { notes: { env: { NODE_OPTIONS: '--require ./x.js' } } });
    assert.deepEqual(await names(), ['db', 'docs', 'db (2)', 'notes']);
    const notes = (await registry.get('notes'))!.config;
    assert.deepEqual(notes.transport.type === 'stdio' && notes.transport.env, {}, "the user's entry as the user wrote it");
    assert.equal(notes.source, 'the elicit.servers setting (User settings)');
    assert.deepEqual(
      registry.problems.map((p) => p.message),
      ['the elicit.servers setting (/ws/team.code-workspace): server "notes": needs a "command" (stdio) or a "url" (http)'],
    );

    standIn.workspaceSettings.set('elicit.servers', { notes: { command: 'notes-mcp', env: { NODE_OPTIONS: '--require ./x.js' } } });
    await registry.reload();
    assert.deepEqual(await names(), ['db', 'docs', 'db (2)', 'notes', 'notes (2)']);
    const workspaceNotes = (await registry.get('notes (2)'))!.config;
    assert.equal(workspaceNotes.source, 'the elicit.servers setting (/ws/team.code-workspace)');
    assert.notEqual(serverOrigin(workspaceNotes), serverOrigin(notes), 'another destination: no grant or saved answer of yours applies');
    const sameCommand = { ...workspaceNotes, transport: notes.transport };
    assert.notEqual(serverOrigin(sameCommand), serverOrigin(notes), 'even the very same entry in the workspace file is apart');
  });

  it("reads no workspace elicit.servers in an untrusted window (restricted), still the user's", async () => {
    standIn.trusted = false;
    standIn.workspaceSettings.set('elicit.servers', { extra: { command: 'extra-mcp' } });
    assert.deepEqual(await names(), ['notes']);
  });

  it('reports a broken file with its line and column once, and keeps the other servers', async () => {
    standIn.files.set('/ws/tools/.vscode/mcp.json', '{\n  "servers": {\n    "db": { "command": "python3" ]\n}');
    assert.deepEqual(await names(), ['db', 'docs', 'notes']);
    assert.equal(registry.problems.length, 1);
    assert.match(registry.problems[0]!.message, /^tools\/\.vscode\/mcp\.json: .+ at line 3, column \d+$/);
    assert.equal(standIn.errorMessages.length, 1);
    await registry.reload();
    assert.equal(standIn.errorMessages.length, 1, 'the same problem is not shown again');
    standIn.files.set('/ws/tools/.vscode/mcp.json', mcpJson({}));
    await registry.reload();
    assert.deepEqual(registry.problems, []);
  });

  it('names a server entry that is wrong, with the file it is in', async () => {
    standIn.files.set('/ws/tools/.vscode/mcp.json', mcpJson({ odd: { type: 'carrier-pigeon' } }));
    await registry.servers();
    assert.deepEqual(
      registry.problems.map((p) => [p.source, p.server]),
      [['tools/.vscode/mcp.json', 'odd']],
    );
  });
});

describe('ServerRegistry: every source VS Code reads (issue #32)', () => {
  let registry: ServerRegistry;
  const names = async (): Promise<string[]> => (await registry.servers()).map((s) => s.name);
  const locations = {
    userFolder: Uri.file('/user') as unknown as vscode.Uri,
    env: { COPILOT_HOME: '/copilot', TOKEN: 'tok-1' },
    home: '/home/ada',
  };

  beforeEach(() => {
    standIn.reset();
    standIn.setFolders('/ws/app');
    standIn.files.set('/ws/app/.vscode/mcp.json', mcpJson({ db: { command: 'node', args: ['db.js'] } }));
    standIn.files.set('/ws/app/.mcp.json', JSON.stringify({ mcpServers: { github: { type: 'local', command: 'gh-mcp', tools: ['*'] } } }));
    standIn.files.set('/user/mcp.json', mcpJson({ github: { command: 'gh-mcp' }, weather: { url: 'https://weather.example/mcp' } }));
    standIn.files.set(
      '/copilot/mcp-config.json',
      JSON.stringify({ mcpServers: { ctx: { type: 'http', url: 'https://ctx.example/mcp', headers: { K: '${TOKEN}' }, tools: ['*'] } } }),
    );
    registry = new ServerRegistry(
      ask,
      vscode.window.createOutputChannel('Elicit', { log: true }) as unknown as vscode.LogOutputChannel,
      undefined,
      undefined,
      locations,
    );
  });
  afterEach(() => registry.dispose());

  it('reads each source in VS Code order, numbers a shared name and tells it with its source', async () => {
    assert.deepEqual(await names(), ['db', 'github', 'github (2)', 'weather', 'ctx']);
    const sources = (await registry.servers()).map((s) => [s.name, s.config.source, s.askerName]);
    assert.deepEqual(sources, [
      ['db', '.vscode/mcp.json', 'db'],
      ['github', '.mcp.json', 'github from .mcp.json'],
      ['github (2)', 'User mcp.json', 'github (2) from User mcp.json'],
      ['weather', 'User mcp.json', 'weather'],
      ['ctx', '/copilot/mcp-config.json', 'ctx'],
    ]);
    const ctx = (await registry.get('ctx'))!.config.transport;
    assert.deepEqual(ctx.type !== 'stdio' && ctx.headers, { K: '${TOKEN}' }, "Copilot CLI's ${VAR} stays a reference until launch");
    assert.deepEqual(registry.sourcesRead, ['.vscode/mcp.json', '.mcp.json', 'User mcp.json', '/copilot/mcp-config.json']);
    assert.equal(registry.configFile('User mcp.json')?.fsPath, '/user/mcp.json');
  });

  it('a name in two files is two destinations: a grant or saved answer of one never applies to the other', async () => {
    const workspace = (await registry.get('github'))!.config;
    const user = (await registry.get('github (2)'))!.config;
    assert.deepEqual(workspace.transport.type === 'stdio' && workspace.transport.command, 'gh-mcp');
    assert.deepEqual(user.transport.type === 'stdio' && user.transport.command, 'gh-mcp');
    assert.equal(workspace.origin?.file, 'file:///ws/app/.mcp.json');
    assert.equal(user.origin?.file, 'file:///user/mcp.json');
    assert.notEqual(serverOrigin(workspace), serverOrigin(user));
  });

  it("reads the window's profile's mcp.json, named by the profile", async () => {
    standIn.files.set(
      '/user/globalStorage/storage.json',
      JSON.stringify({
        userDataProfiles: [{ location: '-5a1b', name: 'Work' }],
        profileAssociations: { workspaces: { 'file:///ws/app': '-5a1b' } },
      }),
    );
    standIn.files.set('/user/profiles/-5a1b/mcp.json', mcpJson({ jira: { command: 'jira-mcp' } }));
    assert.deepEqual(await names(), ['db', 'github', 'jira', 'ctx']);
    assert.equal((await registry.get('jira'))!.config.source, 'User mcp.json (Work profile)');
  });

  it("a remote window reads the remote user's file, named so", async () => {
    standIn.remoteName = 'ssh-remote';
    await registry.servers();
    assert.equal((await registry.get('weather'))!.config.source, 'Remote user mcp.json (ssh-remote)');
  });

  it("reads a .code-workspace file's mcp section, and the legacy mcp setting where no mcp.json says the same", async () => {
    // VS Code's `mcp` section is its mcp.json files plus the legacy key: with a user file, the section is that file.
    standIn.settings.set('mcp', { servers: { github: { command: 'gh-mcp' }, legacy: { command: 'legacy-mcp' } } });
    standIn.workspaceFile = Uri.file('/ws/team.code-workspace');
    standIn.workspaceSettings.set('mcp', { servers: { team: { command: 'team-mcp' } } });
    assert.deepEqual(await names(), ['db', 'github', 'team', 'github (2)', 'weather', 'ctx']);
    assert.equal((await registry.get('team'))!.config.source, 'team.code-workspace');

    standIn.files.delete('/user/mcp.json');
    await registry.reload();
    assert.deepEqual(await names(), ['db', 'github', 'team', 'ctx', 'github (2)', 'legacy']);
    assert.equal((await registry.get('legacy'))!.config.source, 'User settings (mcp)');
  });

  it("a single folder's legacy mcp setting counts only without a .vscode/mcp.json (the section holds that file)", async () => {
    standIn.workspaceSettings.set('mcp', { servers: { db: { command: 'node', args: ['db.js'] } } });
    assert.deepEqual(await names(), ['db', 'github', 'github (2)', 'weather', 'ctx']);
    standIn.files.delete('/ws/app/.vscode/mcp.json');
    standIn.workspaceSettings.set('mcp', { servers: { old: { command: 'old-mcp' } } });
    await registry.reload();
    assert.deepEqual(await names(), ['github', 'old', 'github (2)', 'weather', 'ctx']);
    assert.equal((await registry.get('old'))!.config.source, '.vscode/settings.json (mcp)');
  });

  it('elicit.mcpJsonServers covers every source VS Code reads, not elicit.servers', async () => {
    standIn.settings.set('elicit.mcpJsonServers', ['*', '!github', '!ctx']);
    standIn.settings.set('elicit.servers', { github: { command: 'mine' } });
    assert.deepEqual(await names(), ['db', 'weather', 'github']);
    assert.deepEqual(registry.leftToVsCode, ['github (.mcp.json)', 'github (User mcp.json)', 'ctx (/copilot/mcp-config.json)']);
  });

  it("an untrusted workspace's .mcp.json is not started; the user's files still are", async () => {
    standIn.trusted = false;
    assert.deepEqual(await names(), ['github', 'weather', 'ctx']);
    assert.deepEqual(registry.untrustedSources, ['.vscode/mcp.json', '.mcp.json']);
    assert.equal((await registry.get('github'))!.config.source, 'User mcp.json', 'the plain name is free again');
  });

  it('an edit to any source file reloads: servers come and go without a reload of the window', async () => {
    assert.deepEqual(await names(), ['db', 'github', 'github (2)', 'weather', 'ctx']);
    for (const [file, text, expected] of [
      ['/user/mcp.json', mcpJson({ weather: { url: 'https://weather.example/mcp' } }), ['db', 'github', 'weather', 'ctx']],
      ['/ws/app/.mcp.json', JSON.stringify({ mcpServers: {} }), ['db', 'weather', 'ctx']],
      ['/copilot/mcp-config.json', JSON.stringify({ mcpServers: { x: { command: 'x' } } }), ['db', 'weather', 'x']],
      ['/ws/app/.vscode/mcp.json', mcpJson({}), ['weather', 'x']],
    ] as const) {
      standIn.files.set(file, text);
      const changed = new Promise<void>((resolve) => registry.onDidChange(() => resolve()));
      assert.ok(standIn.touch(file) > 0, `a watcher sees ${file}`);
      await changed;
      assert.deepEqual(await names(), expected, file);
    }
  });

  it('a broken user file names its line and column; every other source still loads', async () => {
    standIn.files.set('/user/mcp.json', '{\n  "servers": {\n    "github": { "command": "gh" ]\n}');
    assert.deepEqual(await names(), ['db', 'github', 'ctx']);
    assert.match(registry.problems[0]!.message, /^User mcp\.json: .+ at line 3, column \d+$/);
  });

  it("reads another tool's servers only once the person turns that tool on, whatever elicit.mcpJsonServers says", async () => {
    standIn.files.set(
      '/home/ada/.config/Claude/claude_desktop_config.json',
      JSON.stringify({ mcpServers: { desk: { command: 'desk-mcp' }, github: { command: 'gh-desk' } } }),
    );
    standIn.settings.set('elicit.mcpJsonServers', []);
    assert.deepEqual(await names(), [], 'off by default: nothing of Claude Desktop');
    const changed = new Promise<void>((resolve) => registry.onDidChange(() => resolve()));
    standIn.changeSetting('elicit.discovery', { 'claude-desktop': true });
    await changed;
    assert.deepEqual(await names(), ['desk', 'github']);
    const desk = (await registry.get('desk'))!.config;
    assert.equal(desk.source, 'Claude Desktop (~/.config/Claude/claude_desktop_config.json)');
    assert.equal(desk.origin?.file, 'file:///home/ada/.config/Claude/claude_desktop_config.json');
    assert.ok(standIn.touch('/home/ada/.config/Claude/claude_desktop_config.json') > 0, 'the file is watched while its tool is on');
  });

  it('hands the sandbox every config file it reads, keeps a cwd outside the workspace read-only, gives the server its own npm cache (#57 finding 4)', async () => {
    // A stand-in for VS Code's sandbox runtime: it keeps the settings and the npm cache it was given, and exits.
    const appRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-approot-'));
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = appRoot; // the settings file and the npm cache are made here, removed with it
    try {
      const cli = path.join(appRoot, 'node_modules', '@vscode', 'sandbox-runtime', 'dist', 'cli.js');
      fs.mkdirSync(path.dirname(cli), { recursive: true });
      const kept = path.join(appRoot, 'kept.json');
      fs.writeFileSync(
        cli,
        `const fs = require('fs');
fs.writeFileSync(${JSON.stringify(kept)}, JSON.stringify({ settings: JSON.parse(fs.readFileSync(process.argv[3], 'utf8')), cache: process.env.npm_config_cache }));`,
      );
      const bin = path.join(appRoot, 'bin');
      fs.mkdirSync(bin);
      for (const program of ['bwrap', 'socat']) fs.writeFileSync(path.join(bin, program), '#!/bin/sh\n', { mode: 0o755 });
      // Its cwd is a folder outside the workspace (that exists: the process starts in it).
      standIn.files.set(
        '/user/mcp.json',
        mcpJson({ boxed: { command: 'boxed-mcp', env: { PATH: bin }, sandboxEnabled: true, cwd: appRoot } }),
      );
      const boxedRegistry = new ServerRegistry(
        ask,
        vscode.window.createOutputChannel('Elicit', { log: true }) as unknown as vscode.LogOutputChannel,
        undefined,
        undefined,
        { ...locations, appRoot },
      );
      try {
        await assert.rejects(boxedRegistry.start('boxed'));
        const { settings, cache } = JSON.parse(fs.readFileSync(kept, 'utf8')) as {
          settings: { filesystem: { allowWrite: string[]; denyWrite: string[] } };
          cache: string;
        };
        for (const file of [
          '/ws/app/.vscode/mcp.json', // no .vscode there yet: this file names it, and the runtime blocks the whole folder
          '/ws/app/.mcp.json',
          '/user/mcp.json',
          '/user/settings.json',
          '/copilot/mcp-config.json',
          '/home/ada/.claude.json',
          '/home/ada/.cursor/mcp.json',
          '/ws/app/.cursor/mcp.json',
          '/home/ada/.codex/config.toml',
          '/home/ada/.gemini/settings.json',
          '/home/ada/.config/Claude/claude_desktop_config.json',
        ])
          assert.ok(settings.filesystem.denyWrite.includes(file), `${file} is denied`);
        assert.deepEqual(settings.filesystem.allowWrite, [cache], 'its own npm cache only: its cwd is outside the workspace');
        const origin = serverOrigin((await boxedRegistry.get('boxed'))!.config);
        assert.equal(
          path.basename(cache),
          `npm-${createHash('sha256').update(origin).digest('hex').slice(0, 16)}`,
          "the cache is the server's own",
        );
      } finally {
        boxedRegistry.dispose();
      }
    } finally {
      if (tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpdir;
      fs.rmSync(appRoot, { recursive: true, force: true });
    }
  });

  it("a shared name with another tool's server is told with the tool's name", async () => {
    standIn.files.set('/home/ada/.cursor/mcp.json', JSON.stringify({ mcpServers: { github: { command: 'gh-cursor' } } }));
    standIn.settings.set('elicit.discovery', { 'cursor-global': true });
    assert.deepEqual(await names(), ['db', 'github', 'github (2)', 'weather', 'ctx', 'github (3)']);
    assert.equal((await registry.get('github (3)'))!.askerName, 'github (3) from Cursor (global)');
  });

  it('dev.watch: a change to a matching file restarts the running server (once for a burst); another file does not', async () => {
    // A real process (ask-server), so "running" and "restarted" are its process's.
    const askServer = path.join(__dirname, '..', 'fixtures', 'ask-server.mjs');
    standIn.files.set(
      '/ws/app/.vscode/mcp.json',
      mcpJson({ dev: { command: process.execPath, args: [askServer], dev: { watch: 'src/**/*.js' } } }),
    );
    const dev = (await registry.get('dev'))!;
    await registry.start('dev');
    const firstPid = dev.pid;
    assert.equal(dev.status, 'running');
    assert.equal(standIn.touch('/ws/app/README.md'), 0, 'no watcher for a file outside the pattern');
    let ends = 0;
    const ended = new Promise<void>((resolve) =>
      registry.onDidEndProcess(() => {
        ends++;
        resolve();
      }),
    );
    assert.ok(standIn.touch('/ws/app/src/lib/a.js') > 0);
    standIn.touch('/ws/app/src/b.js');
    await ended;
    const deadline = Date.now() + 15_000;
    while (!(dev.status === 'running' && dev.pid !== firstPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(dev.status, 'running');
    assert.notEqual(dev.pid, firstPid, 'a new process');
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(ends, 1, 'two files saved together restart it once');
    await registry.stop('dev');
  });

  it('a sandboxed server is never started without the sandbox: with no VS Code sandbox runtime, it says why', async () => {
    standIn.files.set('/user/mcp.json', mcpJson({ boxed: { command: process.execPath, args: ['-e', ''], sandboxEnabled: true } }));
    const boxed = (await registry.get('boxed'))!;
    await assert.rejects(
      registry.start('boxed'),
      /configured to run in a sandbox \("sandboxEnabled": true\), and this VS Code has no sandbox runtime/,
    );
    assert.equal(boxed.status, 'error');
  });
});
