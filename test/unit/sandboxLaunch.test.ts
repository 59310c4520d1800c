/**
 * How a sandboxed server is launched (issue #32, item 4): through VS Code's
 * own sandbox runtime with a settings file of the file's rules plus VS Code's
 * defaults, each word shell-quoted; never without it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { emptySandbox, type StdioServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { sandboxedLaunch, type SandboxRuntime } from '../../src/mcp/sandboxLaunch';

describe('sandboxedLaunch', () => {
  const appRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-approot-'));
  const cli = path.join(appRoot, 'node_modules', '@vscode', 'sandbox-runtime', 'dist', 'cli.js');
  const ripgrep = path.join(appRoot, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', 'linux-x64');
  fs.mkdirSync(path.dirname(cli), { recursive: true });
  fs.writeFileSync(cli, '');
  fs.mkdirSync(ripgrep, { recursive: true });
  after(() => fs.rmSync(appRoot, { recursive: true, force: true }));
  const runtime: SandboxRuntime = {
    appRoot,
    execPath: '/opt/node',
    platform: 'linux',
    arch: 'x64',
    home: '/home/ada',
    env: { PATH: '/usr/bin' },
  };
  const launch: StdioServerConfig = { type: 'stdio', command: 'node', args: ["it's.js", '--x'], env: { K: 'v' } };

  it("runs the runtime's CLI with a settings file of the rules and VS Code's defaults, the command quoted", () => {
    const rules = emptySandbox();
    rules.filesystem.allowWrite.push('/ws/out');
    rules.network.allowedDomains.push('*.example.com');
    const sandboxed = sandboxedLaunch('boxed', launch, rules, '/ws', runtime);
    assert.equal(sandboxed.command, '/opt/node');
    assert.deepEqual(sandboxed.args.slice(0, 2), [cli, '--settings']);
    assert.deepEqual(sandboxed.args.slice(3), ['--', "'node'", "'it'\\''s.js'", "'--x'"]);
    const settings = JSON.parse(fs.readFileSync(sandboxed.args[2]!, 'utf8'));
    assert.deepEqual(settings, {
      network: { allowedDomains: ['*.example.com', 'registry.npmjs.org'], deniedDomains: [] },
      filesystem: { allowWrite: ['/ws/out', '~/.npm', '/ws'], denyRead: [], denyWrite: [] },
    });
    assert.equal(fs.statSync(sandboxed.args[2]!).mode & 0o777, 0o600);
    assert.deepEqual(sandboxed.env, {
      K: 'v',
      ELECTRON_RUN_AS_NODE: '1',
      NODE_USE_ENV_PROXY: '1',
      PATH: `/usr/bin${path.delimiter}${ripgrep}`,
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
});
