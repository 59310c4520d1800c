/**
 * How a sandboxed server is launched (issue #32, item 4): through VS Code's
 * own sandbox runtime with a settings file of the file's rules plus VS Code's
 * defaults, each word shell-quoted; never without it. Nothing it may write runs
 * outside it (issue #57, finding 4): its own npm cache, no `cwd` outside the
 * workspace, no config file Elicit reads; and a missing bubblewrap or socat is
 * named. (test/integration/sandboxWrites.test.ts runs it for real.)
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { emptySandbox, type StdioServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { sandboxedLaunch, type SandboxRuntime } from '../../src/mcp/sandboxLaunch';

describe('sandboxedLaunch', () => {
  // Everything it makes in the temp folder (settings files, npm caches) lands in one folder, removed after.
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-sandbox-unit-'));
  const ownTmp = process.env.TMPDIR;
  after(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
    fs.rmSync(ownTmp, { recursive: true, force: true });
  });
  const appRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-approot-'));
  const cli = path.join(appRoot, 'node_modules', '@vscode', 'sandbox-runtime', 'dist', 'cli.js');
  const ripgrep = path.join(appRoot, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', 'linux-x64');
  fs.mkdirSync(path.dirname(cli), { recursive: true });
  fs.writeFileSync(cli, '');
  fs.mkdirSync(ripgrep, { recursive: true });
  // The programs the runtime needs on Linux, as PATH finds them (never this machine's own).
  const bin = path.join(appRoot, 'bin');
  fs.mkdirSync(bin);
  for (const program of ['bwrap', 'socat']) fs.writeFileSync(path.join(bin, program), '#!/bin/sh\n', { mode: 0o755 });
  const cacheFolder = path.join(appRoot, 'caches');
  after(() => fs.rmSync(appRoot, { recursive: true, force: true }));
  const runtime: SandboxRuntime = {
    appRoot,
    execPath: '/opt/node',
    platform: 'linux',
    arch: 'x64',
    home: '/home/ada',
    env: { PATH: bin },
    cacheFolder,
  };
  const settingsOf = (launch: StdioServerConfig): { filesystem: Record<string, string[]>; network: Record<string, string[]> } =>
    JSON.parse(fs.readFileSync(launch.args[2]!, 'utf8'));
  const launch: StdioServerConfig = { type: 'stdio', command: 'node', args: ["it's.js", '--x'], env: { K: 'v' } };

  it("runs the runtime's CLI with a settings file of the rules and VS Code's defaults, the command quoted", () => {
    const rules = emptySandbox();
    rules.filesystem.allowWrite.push('/ws/out');
    rules.network.allowedDomains.push('*.example.com');
    const sandboxed = sandboxedLaunch('boxed', launch, rules, '/ws', runtime);
    assert.equal(sandboxed.command, '/opt/node');
    assert.deepEqual(sandboxed.args.slice(0, 2), [cli, '--settings']);
    assert.deepEqual(sandboxed.args.slice(3), ['--', "'node'", "'it'\\''s.js'", "'--x'"]);
    const settings = settingsOf(sandboxed);
    const npmCache = sandboxed.env.npm_config_cache!;
    assert.deepEqual(settings, {
      network: { allowedDomains: ['*.example.com', 'registry.npmjs.org'], deniedDomains: [] },
      filesystem: {
        allowWrite: ['/ws/out', npmCache, '/ws'],
        denyRead: [],
        denyWrite: ['/ws/.vscode/mcp.json', '/ws/.mcp.json'],
      },
    });
    assert.equal(fs.statSync(sandboxed.args[2]!).mode & 0o777, 0o600);
    assert.deepEqual(sandboxed.env, {
      K: 'v',
      ELECTRON_RUN_AS_NODE: '1',
      NODE_USE_ENV_PROXY: '1',
      npm_config_cache: npmCache,
      NPM_CONFIG_CACHE: npmCache,
      PATH: `${bin}${path.delimiter}${ripgrep}`,
    });
  });

  it('is refused, never run bare, without the runtime or on Windows', () => {
    assert.throws(
      () => sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, appRoot: '/nowhere' }),
      /this VS Code has no sandbox runtime .* it is not started/,
    );
    assert.throws(() => sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, appRoot: undefined }), /no sandbox runtime/);
    assert.throws(
      () => sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, platform: 'win32' }),
      /no sandbox on Windows/,
    );
  });
  it('gives each server an npm cache of its own, never the shared ~/.npm (#57 finding 4)', () => {
    const first = sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, identity: 'server one' });
    const again = sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, identity: 'server one' });
    const other = sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, identity: 'server two' });
    const cache = first.env.npm_config_cache!;
    assert.ok(cache.startsWith(fs.realpathSync(cacheFolder) + path.sep), cache);
    assert.equal(fs.statSync(cache).mode & 0o777, 0o700, 'made now, the runtime leaves a missing folder read-only');
    assert.equal(first.env.NPM_CONFIG_CACHE, cache);
    assert.equal(again.env.npm_config_cache, cache, 'the same server keeps its cache');
    assert.notEqual(other.env.npm_config_cache, cache, 'another server never shares it');
    for (const sandboxed of [first, other]) {
      const { allowWrite } = settingsOf(sandboxed).filesystem;
      assert.ok(allowWrite!.includes(sandboxed.env.npm_config_cache!));
      assert.ok(!allowWrite!.some((entry) => entry === '~/.npm' || entry === '/home/ada/.npm'), allowWrite!.join(', '));
    }
    // Without a cache folder from the caller, a private one of this session.
    const session = sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, cacheFolder: undefined });
    assert.equal(fs.statSync(path.dirname(session.env.npm_config_cache!)).mode & 0o777, 0o700);
  });

  it('never makes a cwd outside the workspace writable: "~", a path out, a link out (#57 finding 4)', () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-home-')));
    after(() => fs.rmSync(home, { recursive: true, force: true }));
    const ws = path.join(home, 'ws');
    fs.mkdirSync(path.join(ws, 'sub'), { recursive: true });
    fs.symlinkSync(home, path.join(ws, 'up'));
    const boxed = { ...runtime, home, workspaceFolders: [ws] };
    const writable = (cwd: string | undefined, folder: string | undefined, log?: string[]): string[] =>
      settingsOf(
        sandboxedLaunch('boxed', { ...launch, ...(cwd === undefined ? {} : { cwd }) }, emptySandbox(), folder, {
          ...boxed,
          log: (line) => log?.push(line),
        }),
      ).filesystem.allowWrite!.slice(1);
    const log: string[] = [];
    assert.deepEqual(writable('~', undefined, log), []);
    assert.deepEqual(log, ['[elicit] its cwd (~) is outside the workspace: the sandbox does not let it write there']);
    assert.deepEqual(writable('~', ws), [], "not even for a server of the workspace's own file");
    assert.deepEqual(writable(home, ws), []);
    assert.deepEqual(writable(path.join(ws, '..'), ws), []);
    assert.deepEqual(writable(path.join(ws, 'up'), ws), [], 'a link in the workspace to the home folder is the home folder');
    assert.deepEqual(writable('/', ws), []);
    assert.deepEqual(writable(path.join(ws, 'sub'), ws), [path.join(ws, 'sub')]);
    assert.deepEqual(writable(path.join(ws, 'sub'), undefined), [path.join(ws, 'sub')], "in one of the window's folders");
    assert.deepEqual(writable(undefined, ws), [ws], "no cwd: its file's workspace folder");
    assert.deepEqual(writable(undefined, undefined), []);
  });

  it("denies writes to every config file Elicit reads (a workspace's .vscode whole), and pins each folder between, so none is moved away (#57 finding 4)", () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-home-')));
    after(() => fs.rmSync(home, { recursive: true, force: true }));
    const ws = path.join(home, 'ws');
    const bare = path.join(home, 'bare'); // a second folder, with no .vscode yet
    for (const dir of ['ws/.cursor', 'ws/.vscode', 'bare', '.cursor', '.config/Claude', 'linked'])
      fs.mkdirSync(path.join(home, dir), { recursive: true });
    fs.symlinkSync(path.join(home, 'linked'), path.join(home, '.codex'));
    const configFiles = [
      path.join(home, '.cursor', 'mcp.json'),
      path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      path.join(home, '.claude.json'),
      path.join(home, '.codex', 'config.toml'),
      path.join(home, '.gemini', 'settings.json'),
      path.join(ws, '.cursor', 'mcp.json'),
      // As the registry names them too: inside a .vscode denied whole, or missing, they are left to it.
      path.join(ws, '.vscode', 'settings.json'),
      path.join(bare, '.vscode', 'settings.json'),
    ];
    const boxed = { ...runtime, home, workspaceFolders: [ws, bare], configFiles };
    const workspaceOnly = settingsOf(sandboxedLaunch('boxed', launch, emptySandbox(), ws, boxed)).filesystem;
    assert.deepEqual(workspaceOnly.denyWrite, [
      path.join(ws, '.vscode'),
      // A missing .vscode is named by a file in it: the runtime then mounts an empty read-only folder there, never a file.
      path.join(bare, '.vscode', 'mcp.json'),
      path.join(ws, '.mcp.json'),
      path.join(bare, '.mcp.json'),
      ...configFiles.slice(0, 3),
      path.join(home, 'linked', 'config.toml'),
      ...configFiles.slice(4, 6),
    ]);
    assert.deepEqual(workspaceOnly.allowWrite!.slice(1), [ws, path.join(ws, '.cursor')]);
    // Started in the folder with no .vscode, the runtime denies `.vscode` itself there: named as it names it, or the sandbox would not start.
    const inBare = settingsOf(sandboxedLaunch('boxed', { ...launch, cwd: bare }, emptySandbox(), bare, boxed)).filesystem;
    assert.ok(inBare.denyWrite!.includes(path.join(bare, '.vscode')));
    assert.ok(!inBare.denyWrite!.some((entry) => entry.startsWith(path.join(bare, '.vscode') + path.sep)));

    // The person's own rule makes the home folder writable: the folders of other tools' files are pinned too.
    const rules = emptySandbox();
    rules.filesystem.allowWrite.push('~');
    rules.filesystem.denyWrite.push('~/secrets', '~/.config');
    const homeWritable = settingsOf(sandboxedLaunch('boxed', launch, rules, ws, boxed)).filesystem;
    assert.deepEqual(homeWritable.denyWrite!.slice(0, 2), ['~/secrets', '~/.config'], "the file's own rules first");
    assert.ok(homeWritable.denyWrite!.includes(path.join(home, '.cursor', 'mcp.json')));
    assert.ok(
      !homeWritable.denyWrite!.includes(path.join(home, '.config', 'Claude', 'claude_desktop_config.json')),
      'inside a folder the rules deny already: bubblewrap could not mount over it',
    );
    // Pins last, parents first, the workspace folder among them (it is in the home folder): each bound after the folder it is in.
    assert.deepEqual(homeWritable.allowWrite!.slice(2), [
      path.join(home, '.config'),
      path.join(home, '.cursor'),
      bare,
      path.join(home, 'linked'),
      ws,
      path.join(home, '.config', 'Claude'),
      path.join(ws, '.cursor'),
    ]);

    // What denyRead hides stays hidden: the runtime would bind a pinned folder or a denied file there back over it.
    const hiding = emptySandbox();
    hiding.filesystem.allowWrite.push('~');
    hiding.filesystem.denyRead.push('~/.config/**');
    const hidden = settingsOf(sandboxedLaunch('boxed', launch, hiding, ws, boxed)).filesystem;
    const config = path.join(home, '.config');
    assert.ok(!hidden.allowWrite!.some((entry) => entry === config || entry.startsWith(config + path.sep)), hidden.allowWrite!.join(', '));
    assert.ok(!hidden.denyWrite!.some((entry) => entry.startsWith(config + path.sep)), hidden.denyWrite!.join(', '));
    assert.ok(hidden.allowWrite!.includes(path.join(home, '.cursor')), 'the others are pinned as before');
  });

  it('names a missing bubblewrap or socat and how to install it, instead of "Connection closed" (#57 finding 4)', () => {
    const empty = path.join(appRoot, 'empty-bin');
    const onlySocat = path.join(appRoot, 'socat-bin');
    fs.mkdirSync(empty);
    fs.mkdirSync(onlySocat);
    fs.writeFileSync(path.join(onlySocat, 'socat'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(empty, 'bwrap'), 'not executable\n', { mode: 0o644 });
    assert.throws(
      () => sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, env: { PATH: `${empty}${path.delimiter}${onlySocat}` } }),
      (error: Error) => {
        assert.match(
          error.message,
          /needs bubblewrap and socat: bwrap \(bubblewrap\) is not installed \(not found on PATH\), so it is not started\./,
        );
        assert.match(
          error.message,
          /\(Debian\/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap\), then start it again$/,
        );
        return true;
      },
    );
    assert.throws(
      () => sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, env: { PATH: empty } }),
      /bwrap \(bubblewrap\) and socat are not installed .* sudo apt-get install bubblewrap socat;/,
    );
    // The server's own PATH is the one the runtime searches.
    assert.throws(
      () => sandboxedLaunch('boxed', { ...launch, env: { PATH: onlySocat } }, emptySandbox(), '/ws', runtime),
      /bwrap \(bubblewrap\) is not installed/,
    );
    assert.doesNotThrow(() =>
      sandboxedLaunch('boxed', launch, emptySandbox(), '/ws', { ...runtime, platform: 'darwin', env: { PATH: empty } }),
    );
  });
});
