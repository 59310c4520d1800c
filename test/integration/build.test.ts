/**
 * The build (esbuild.mjs) starts from an empty dist/: a bundle that was renamed or dropped must not
 * stay behind, where `vsce package` would ship it (.vscodeignore takes every dist/*.js).
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

  it('removes what an earlier build left in dist/ that this one does not make', async () => {
    for (const entry of ['src', 'webview', 'node_modules', 'package.json', 'esbuild.mjs']) {
      symlinkSync(join(root, entry), join(project, entry));
    }
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
});
