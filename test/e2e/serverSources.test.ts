/**
 * Every MCP server a person already has (issue #32), in a real VS Code: one
 * server only in the user profile's mcp.json, one only in the workspace's
 * portable .mcp.json, one only in Copilot CLI's $COPILOT_HOME/mcp-config.json
 * (a temporary folder), one only in .vscode/mcp.json, and a "github" in both
 * the user file and .mcp.json. Each is listed with its source, a tool's
 * question of each is answered (asserted on what the fixture servers
 * recorded), a secret answered to the user file's "github" is not offered to
 * the workspace's, and editing each file adds and removes servers with no
 * reload of the window.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  pickQuickPickItem,
  pressKey,
  quickPickOk,
  runCommand,
  runMcpTool,
  screenshot,
  typeAndSubmit,
  waitForNoQuickInput,
  waitForQuickInput,
} from './harness/workbench';
import { fixtureServer, fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, RecordCursor } from '../support/records';
import { assertNoSecretLeak } from '../support/leakScan';

const TOKEN = 'ghp-e2e-user-file-51c0a9';

describe('MCP servers from every source VS Code reads, in code-server', { timeout: 900_000 }, () => {
  const record = newRecordFile();
  // Each test reads only the records of the tool calls it made (after the known-editor step).
  const records = new RecordCursor(record);
  const copilotHome = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-copilot-home-'));
  const copilotFile = path.join(copilotHome, 'mcp-config.json');
  // Claude Desktop's file on Linux is $XDG_CONFIG_HOME/Claude/claude_desktop_config.json.
  const xdgConfig = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-xdg-config-'));
  let session: ElicitSession;
  let userFile: string;
  let dotMcpJson: string;
  let vscodeMcpJson: string;

  /** A stdio entry of VS Code's format that runs ask-server as `fixture`. */
  const vscodeEntry = (fixture: string): Record<string, unknown> =>
    fixtureServer('ask-server.mjs', { RECORD_FILE: record, FIXTURE_NAME: fixture });
  /** The same in the portable format, as Copilot CLI writes it; the record file comes through `${E2E_RECORD}`. */
  const portableEntry = (fixture: string): Record<string, unknown> => ({
    type: 'local',
    command: process.execPath,
    args: [path.join(fixtures, 'ask-server.mjs')],
    env: { RECORD_FILE: '${E2E_RECORD}', FIXTURE_NAME: fixture },
    tools: ['*'],
  });
  const userMcpJson = (servers: Record<string, unknown>): string => JSON.stringify({ servers }, null, 2);
  const portable = (servers: Record<string, unknown>): string => JSON.stringify({ mcpServers: servers }, null, 2);

  before(async () => {
    fs.writeFileSync(copilotFile, portable({ 'copilot-server': portableEntry('copilot') }));
    fs.mkdirSync(path.join(xdgConfig, 'Claude'));
    fs.writeFileSync(
      path.join(xdgConfig, 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({
        mcpServers: {
          'desk-server': {
            command: process.execPath,
            args: [path.join(fixtures, 'ask-server.mjs')],
            env: { RECORD_FILE: record, FIXTURE_NAME: 'desk' },
          },
        },
      }),
    );
    session = await openElicitSession(
      userMcpJson({ 'folder-server': vscodeEntry('folder') }),
      {},
      { COPILOT_HOME: copilotHome, E2E_RECORD: record, XDG_CONFIG_HOME: xdgConfig },
      [],
      {
        workspace: { '.mcp.json': portable({ 'dot-server': portableEntry('dot'), github: portableEntry('dot-github') }) },
        user: { 'mcp.json': userMcpJson({ 'user-server': vscodeEntry('user'), github: vscodeEntry('user-github') }) },
      },
    );
    userFile = path.join(session.server.userDataDir, 'User', 'mcp.json');
    dotMcpJson = path.join(session.workspaceDir, '.mcp.json');
    vscodeMcpJson = path.join(session.workspaceDir, '.vscode', 'mcp.json');
  });

  after(async () => {
    await session?.close();
    fs.rmSync(copilotHome, { recursive: true, force: true });
    fs.rmSync(xdgConfig, { recursive: true, force: true });
  });

  beforeEach(() => records.begin());

  function serversView(page: Page): Locator {
    return page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: 'MCP Servers' }) });
  }

  /** The view's rows as "label — description". */
  async function rows(page: Page): Promise<string[]> {
    return serversView(page)
      .locator('.monaco-list-row')
      .evaluateAll((list) =>
        list.map((row) => {
          const label = row.querySelector('.label-name')?.textContent?.trim() ?? '';
          const description = row.querySelector('.label-description')?.textContent?.trim() ?? '';
          return description ? `${label} — ${description}` : label;
        }),
      );
  }

  async function waitForRows(page: Page, check: (rows: string[]) => boolean, what: string): Promise<string[]> {
    const deadline = Date.now() + 30_000;
    let last: string[] = [];
    while (Date.now() < deadline) {
      last = await rows(page);
      if (check(last)) return last;
      await page.waitForTimeout(250);
    }
    throw new Error(`${what}: the MCP Servers view shows ${JSON.stringify(last)}`);
  }

  const names = (list: string[]): string[] => list.map((row) => row.split(' — ')[0]!);
  const folderName = (): string => path.basename(session.workspaceDir);

  it('lists every server, each shared name with its source', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: Focus on MCP Servers View');
    const shown = await waitForRows(page, (list) => list.length === 6, 'six servers');
    assert.deepEqual(names(shown), ['folder-server', 'dot-server', 'github', 'user-server', 'github (2)', 'copilot-server']);
    // VS Code's own names for the sources: a folder's file with the folder's name, "User mcp.json".
    assert.deepEqual(shown, [
      'folder-server — stopped',
      'dot-server — stopped',
      `github — stopped · ${folderName()}/.mcp.json`,
      'user-server — stopped',
      'github (2) — stopped · User mcp.json',
      'copilot-server — stopped',
    ]);
    await screenshot(page, 'servers-view-sources');
  });

  it("answers a tool's question of each server", async () => {
    const { page } = session.workbench;
    const cases = [
      ['folder-server', 'folder-server', 'folder'],
      ['dot-server', 'dot-server', 'dot'],
      ['github', `github from ${folderName()}/.mcp.json`, 'dot-github'],
      ['user-server', 'user-server', 'user'],
      ['github (2)', 'github (2) from User mcp.json', 'user-github'],
      ['copilot-server', 'copilot-server', 'copilot'],
    ] as const;
    for (const [server, asker, fixture] of cases) {
      await waitForNoQuickInput(page, 'the last question to close');
      await runMcpTool(page, 'ask_name', server);
      const box = await waitForQuickInput(page, (q) => q.title === `${asker} asks · tool ask_name`);
      assert.equal(box.message?.includes('What is your name?'), true, JSON.stringify(box));
      await typeAndSubmit(page, `Ada via ${fixture}`);
      const entry = await records.next((r) => r.server === fixture && r.tool === 'ask_name', 30_000);
      assert.deepEqual(entry.result, { action: 'accept', content: { name: `Ada via ${fixture}` } }, server);
    }
  });

  it("does not offer a secret answered to the user file's github to the workspace's github", async () => {
    const { page } = session.workbench;
    const outcome = (fixture: string): Promise<Record<string, unknown>> =>
      records.next((r) => r.server === fixture && r.tool === 'ask_api_key', 30_000);
    await waitForNoQuickInput(page, 'the last question to close');
    await runMcpTool(page, 'ask_api_key', 'github (2)');
    await waitForQuickInput(page, (q) => q.title === 'github (2) from User mcp.json asks · tool ask_api_key');
    await typeAndSubmit(page, TOKEN);
    assert.deepEqual((await outcome('user-github')).result, { action: 'accept', content: { apiKey: TOKEN } });

    await waitForNoQuickInput(page, 'the last question to close');
    await runMcpTool(page, 'ask_api_key', 'github');
    const box = await waitForQuickInput(page, (q) => q.title === `github from ${folderName()}/.mcp.json asks · tool ask_api_key`);
    assert.ok(!box.items.some((i) => i.label.includes('Use saved value')), JSON.stringify(box.items));
    assert.equal(await page.locator('.quick-input-widget .quick-input-box input').getAttribute('type'), 'password');
    assert.equal(box.value, '');
    await pressKey(page, 'Escape');
    assert.deepEqual((await outcome('dot-github')).result, { action: 'cancel' });

    // The user file's own server is still offered what it was given.
    await waitForNoQuickInput(page, 'the last question to close');
    await runMcpTool(page, 'ask_api_key', 'github (2)');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label.includes('Use saved value')));
    await pickQuickPickItem(page, 'Use saved value');
    assert.deepEqual((await outcome('user-github')).result, { action: 'accept', content: { apiKey: TOKEN } });
  });

  it('adds and removes servers as each file is edited, with no reload', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: Focus on MCP Servers View');
    const edits: Array<[string, string, (list: string[]) => boolean, string]> = [
      [
        userFile,
        userMcpJson({ 'user-server': vscodeEntry('user'), github: vscodeEntry('user-github'), 'user-extra': vscodeEntry('extra') }),
        (list) => names(list).includes('user-extra'),
        'user mcp.json: a server added',
      ],
      [
        dotMcpJson,
        portable({ 'dot-server': portableEntry('dot') }),
        (list) => !names(list).includes('github (2)') && list.includes('github — stopped'),
        '.mcp.json: its github removed, so the user file\'s is "github" again, with no source in its row',
      ],
      [copilotFile, portable({}), (list) => !names(list).includes('copilot-server'), "Copilot CLI's file: its server removed"],
      [
        vscodeMcpJson,
        userMcpJson({ 'folder-server': vscodeEntry('folder'), 'folder-extra': vscodeEntry('folder-extra') }),
        (list) => names(list).includes('folder-extra'),
        '.vscode/mcp.json: a server added',
      ],
      [
        userFile,
        userMcpJson({}),
        (list) => !names(list).some((n) => ['user-server', 'github', 'user-extra'].includes(n)),
        'user mcp.json emptied',
      ],
    ];
    for (const [file, text, check, what] of edits) {
      fs.writeFileSync(file, text);
      await waitForRows(page, check, what);
    }
    assert.deepEqual(names(await rows(page)), ['folder-server', 'folder-extra', 'dot-server']);
    // A server whose file changed around it still answers.
    await runMcpTool(page, 'ask_name', 'dot-server');
    await waitForQuickInput(page, (q) => q.title === 'dot-server asks · tool ask_name');
    await typeAndSubmit(page, 'Ada again');
    const entry = await records.next((r) => r.server === 'dot' && r.tool === 'ask_name', 30_000);
    assert.deepEqual(entry.result, { action: 'accept', content: { name: 'Ada again' } });
  });

  it("lists a Claude Desktop config's servers only after the person turns that tool on", async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: Focus on MCP Servers View');
    assert.ok(!names(await rows(page)).includes('desk-server'), 'off by default');
    await runCommand(page, 'Elicit: Find MCP Servers of Other Tools…');
    const list = await waitForQuickInput(
      page,
      (q) => q.title === 'MCP Servers of Other Tools' && q.items.some((i) => i.label === 'Claude Desktop'),
    );
    const claude = list.items.find((i) => i.label === 'Claude Desktop')!;
    assert.equal(claude.description, '1 server: desk-server');
    assert.equal(list.items.find((i) => i.label === 'Windsurf')?.description, 'no configuration found');
    assert.ok(!names(await rows(page)).includes('desk-server'), 'listing starts and adds nothing');
    await screenshot(page, 'other-tools-list');
    // As a person does: tick the row's box with the mouse, then OK.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Claude Desktop' }).locator('[role="checkbox"]').click();
    await quickPickOk(page).click();
    await waitForNoQuickInput(page, 'OK to close the list');
    await waitForRows(page, (shown) => shown.includes('desk-server — stopped'), 'Claude Desktop turned on');
    const settings = JSON.parse(fs.readFileSync(path.join(session.server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.equal((settings['elicit.discovery'] as Record<string, boolean>)['claude-desktop'], true);
    await runMcpTool(page, 'ask_name', 'desk-server');
    await waitForQuickInput(page, (q) => q.title === 'desk-server asks · tool ask_name');
    await typeAndSubmit(page, 'Ada at the desk');
    const entry = await records.next((r) => r.server === 'desk' && r.tool === 'ask_name', 30_000);
    assert.deepEqual(entry.result, { action: 'accept', content: { name: 'Ada at the desk' } });
  });

  it('never writes the token into any file VS Code or the extension wrote', () => {
    assertNoSecretLeak(session, [TOKEN]);
  });
});
