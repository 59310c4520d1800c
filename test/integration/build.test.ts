/**
 * The build (esbuild.mjs) starts from an empty dist/: a bundle that was renamed or dropped must not
 * stay behind, where `vsce package` would ship it (.vscodeignore takes every dist/*.js). What loads
 * at first use stays out of extension.js, and the host's shared state is in one file only.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';

const root = join(__dirname, '..', '..');

describe('the build', { timeout: 120_000 }, () => {
  // A copy of the project made of links, so the build writes its dist/ there, not into the repo's.
  const project = mkdtempSync(join(tmpdir(), 'elicit-build-'));
  after(() => rmSync(project, { recursive: true, force: true }));
  for (const entry of ['src', 'webview', 'node_modules', 'package.json', 'esbuild.mjs']) {
    symlinkSync(join(root, entry), join(project, entry));
  }

  it('removes what an earlier build left in dist/ that this one does not make', async () => {
    mkdirSync(join(project, 'dist', 'webview'), { recursive: true });
    writeFileSync(join(project, 'dist', 'renamed-bundle.js'), '');
    writeFileSync(join(project, 'dist', 'webview', 'dropped-page.js'), '');
    await promisify(execFile)(process.execPath, ['esbuild.mjs', '--production'], { cwd: project });
    assert.deepEqual(readdirSync(join(project, 'dist')).sort(), [
      'acp-sdk.js',
      'agent-sessions.js',
      'ajv-checks.js',
      'devices.js',
      'extension.js',
      'gateway.js',
      'host-watchdog.js',
      'mcp-bridge.js',
      'mcp-sdk.js',
      'origin.js',
      'other-tools.js',
      'result-check-worker.js',
      'webview',
    ]);
    assert.deepEqual(readdirSync(join(project, 'dist', 'webview')).sort(), ['agent.js', 'form.js', 'pairing.js', 'phone.js']);
  });

  it("leaves out of extension.js what loads at first use, and copies the host's shared state into no bundle", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['esbuild.mjs', '--production', '--analyze'], { cwd: project });
    // --analyze prints each bundle's name, then a line per file it holds.
    const holds = new Map<string, string>();
    for (const section of stdout.split(/\n(?=\s*dist\/\S+\.js\s)/)) {
      const name = /^\s*dist\/(\S+\.js)\s/.exec(section)?.[1];
      if (name) holds.set(name, section);
    }
    const extension = holds.get('extension.js') ?? '';
    assert.match(extension, /src\/extension\.ts/);
    for (const part of ['/ajv/', '/ajv-formats/', 'src/vscode/acp/agentPanel.ts', 'src/acp/connection.ts', 'src/mcp/sdk.ts']) {
      assert.ok(!extension.includes(part), `extension.js holds ${part}`);
    }
    assert.match(holds.get('ajv-checks.js') ?? '', /\/ajv\//);
    assert.match(holds.get('agent-sessions.js') ?? '', /src\/vscode\/acp\/agentPanel\.ts/);
    for (const [name, section] of holds) {
      if (name !== 'origin.js') assert.ok(!section.includes('src/core/origin.ts'), `${name} has its own origin key`);
      if (name !== 'host-watchdog.js') assert.ok(!section.includes('src/process/hostWatchdog.ts'), `${name} has its own watchdog`);
    }
  });
});
