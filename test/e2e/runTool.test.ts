/**
 * The foundation journey in a real VS Code: Elicit: Run MCP Tool → pick the
 * server and tool → the server asks → a native InputBox titled with the
 * server's name → the answer reaches the server (checked in what the fixture
 * recorded) → the result opens. Also Escape → cancel, Decline → decline, and
 * configuration faults shown without breaking the working server.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  pickQuickPickItem,
  pressKey,
  runCommand,
  runMcpTool,
  screenshot,
  typeAndSubmit,
  waitForNotification,
  waitForQuickInput,
  waitForRenderedText,
  webviewFrame,
} from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, RecordCursor } from '../support/records';
import { waitForFile } from '../support/waitUntil';

describe('Elicit: Run MCP Tool in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  // Each test reads only the records of the tool calls it made (after the known-editor step).
  const records = new RecordCursor(record);
  const rootsFile = `${record}.roots.json`;
  let session: ElicitSession;

  const servers = {
    'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: record, ROOTS_FILE: rootsFile }),
    'not-installed': { command: 'elicit-no-such-command', args: [] },
  };

  before(async () => {
    session = await openElicitSession(`// written by the e2e test\n${JSON.stringify({ servers }, null, 2)}`);
  });

  after(async () => {
    await session?.close();
  });

  beforeEach(() => records.begin());

  async function startAskName(): Promise<void> {
    const { page } = session.workbench;
    await runMcpTool(page, 'ask_name', 'ask-server');
  }

  it('answers the server through a native InputBox titled with its name', async () => {
    const { page } = session.workbench;
    await startAskName();
    const box = await waitForQuickInput(page, (q) => q.title?.startsWith('ask-server asks') === true);
    assert.equal(box.title, 'ask-server asks · tool ask_name');
    assert.match(box.message ?? '', /What is your name\?/);
    await screenshot(page, 'run-tool-inputbox');
    await typeAndSubmit(page, 'Ada Lovelace');
    const { callStarted, ...entry } = await records.next();
    assert.equal(typeof callStarted, 'number');
    assert.deepEqual(entry, {
      server: 'ask-server',
      tool: 'ask_name',
      result: { action: 'accept', content: { name: 'Ada Lovelace' } },
    });
    // The tool result opens rendered, read-only.
    await waitForRenderedText(page, 'Hello, Ada Lovelace!');
    await screenshot(page, 'run-tool-result');
  });

  /** Run MCP Tool → ask-server → echo, its text argument typed in the step Elicit asks for it. */
  async function runEcho(text: string): Promise<void> {
    const { page } = session.workbench;
    await runMcpTool(page, 'echo', 'ask-server');
    await waitForQuickInput(page, (q) => q.title === 'Run MCP Tool · ask-server · echo');
    await typeAndSubmit(page, text);
  }

  // Issue #25 item 8: a result reads as a person reads it, in one tab per tool, and stays inert rendered.
  it('shows a result rendered, its JSON folded away, in one tab per tool; a command link in it does nothing', async () => {
    const { page } = session.workbench;
    await runEcho('First run: [Open Settings](command:workbench.action.openSettings)');
    let view = await waitForRenderedText(page, 'First run');
    const tabs = page.locator('.tabs-container .tab', { hasText: 'ask-server-echo.md' });
    assert.equal(await tabs.count(), 1);
    // Rendered: a heading, not a line starting with "#".
    assert.equal((await view.locator('h1').innerText()).trim(), 'ask-server › echo');
    // The structured content is there, folded away under Elicit's summary.
    const details = view.locator('details');
    assert.equal(await details.count(), 1);
    assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), false);
    assert.equal((await details.locator('summary').innerText()).trim(), 'Structured content (JSON)');
    assert.equal(await view.getByText('"characters"').isVisible(), false, 'the JSON is folded away');
    await details.locator('summary').click();
    await view.getByText('"characters"').waitFor({ state: 'visible', timeout: 5_000 });
    // The server's link is text: no link to a command, and a click on it opens nothing.
    assert.equal(await view.locator('a[href^="command:"], a[data-href^="command:"]').count(), 0);
    assert.equal(await view.locator('a', { hasText: 'Open Settings' }).count(), 0);
    await view.getByText('Open Settings').first().click();
    await page.waitForTimeout(1_000);
    assert.equal(await page.locator('.settings-editor').count(), 0, 'a click on the text opened the Settings editor');
    await screenshot(page, 'run-tool-result-rendered');

    // A second run replaces what the same tab shows.
    await runEcho('Second run');
    view = await waitForRenderedText(page, 'Second run');
    assert.equal(await view.getByText('First run').count(), 0);
    assert.equal(await tabs.count(), 1, 'one tab for the tool');
  });

  it('offers the workspace folder to the server as its MCP root', async () => {
    const roots = JSON.parse(await waitForFile(rootsFile)) as unknown;
    assert.deepEqual(roots, [{ uri: pathToFileURL(session.workspaceDir).href, name: path.basename(session.workspaceDir) }]);
  });

  it('answers cancel when the InputBox is closed with Escape', async () => {
    const { page } = session.workbench;
    await startAskName();
    await waitForQuickInput(page, (q) => q.title?.startsWith('ask-server asks') === true);
    await pressKey(page, 'Escape');
    assert.deepEqual((await records.next()).result, { action: 'cancel' });
  });

  it('answers decline from the Decline button', async () => {
    const { page } = session.workbench;
    await startAskName();
    await waitForQuickInput(page, (q) => q.title?.startsWith('ask-server asks') === true);
    await page.click('.quick-input-widget .quick-input-titlebar a[aria-label^="Decline"]');
    assert.deepEqual((await records.next()).result, { action: 'decline' });
  });

  it('opens a result that comes while a form is on screen behind it: the form stays in front', async () => {
    const { page } = session.workbench;
    const title = 'ask-server asks · tool ask_everything';
    await runMcpTool(page, 'ask_everything', 'ask-server');
    const form = await webviewFrame(page, title);
    await form.locator('.field[data-name="name"] input.text-input').waitFor({ timeout: 30_000 });
    assert.deepEqual(records.unread(), [], 'nothing was answered yet');
    // Another tool's result comes while the form waits for the person.
    await runEcho('Third run, while a form is open');
    const activeTab = page.locator('.tabs-container .tab.active .label-name');
    const echoTab = page.locator('.tabs-container .tab', { hasText: 'ask-server-echo.md' });
    await echoTab.waitFor({ timeout: 10_000 });
    // The result is shown (its document holds the third run) once the person goes to its tab.
    await page.waitForTimeout(1_500);
    assert.equal(((await activeTab.textContent()) ?? '').trim(), title, 'the form is still the active editor');
    await echoTab.click();
    await waitForRenderedText(page, 'Third run, while a form is open');
    // The form is still there, and still takes its answer.
    const back = await webviewFrame(page, title);
    await back.getByRole('button', { name: 'Decline' }).click();
    assert.deepEqual((await records.next('ask_everything')).result, { action: 'decline' });
  });

  it('names the file and the problem for a bad server entry, and an error for a missing command', async () => {
    const { page } = session.workbench;
    // The person adds an entry with a type no MCP client knows; Elicit tells them as it reads the file.
    const broken = { servers: { ...servers, pigeon: { type: 'carrier-pigeon' } } };
    fs.writeFileSync(path.join(session.workspaceDir, '.vscode', 'mcp.json'), JSON.stringify(broken, null, 2));
    const problem = await waitForNotification(page, 'pigeon');
    assert.match(problem, /\.vscode\/mcp\.json/);
    assert.match(problem, /unknown type "carrier-pigeon"/);
    await runCommand(page, 'Elicit: Run MCP Tool');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'not-installed'));
    await pickQuickPickItem(page, 'not-installed');
    const failure = await waitForNotification(page, 'Could not start MCP server "not-installed"');
    assert.match(failure, /command not found/);
    await screenshot(page, 'run-tool-config-errors');
    // The working server is unaffected: nothing more was asked of it.
    assert.deepEqual(records.unread(), []);
  });
});
