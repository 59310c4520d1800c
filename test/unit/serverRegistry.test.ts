/**
 * Which servers the registry reads: every workspace folder's .vscode/mcp.json
 * (as far as elicit.mcpJsonServers selects) and the elicit.servers setting,
 * none of a workspace's own in an untrusted window, and the problems of a
 * broken file, each shown to the person once. Over the `vscode` stand-in; no
 * server is started.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
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
