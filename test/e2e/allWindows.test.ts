/**
 * Issue #24, one queue across every window, in code-server with two windows on
 * two folders: a question asked in one is listed in the other's Pending
 * Questions, answered there, and reaches the server that asked; a secret field
 * is answered only in its own window; a window closed takes its questions out
 * of the other within 2 s. A phone paired with one window lists and answers the
 * other window's questions.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  focusEditorArea,
  runCommand,
  runMcpTool,
  screenshot,
  typeAndSubmit,
  waitForNoQuickInput,
  waitForNotification,
  waitForQuickInput,
  webviewFrame,
} from './harness/workbench';
import { screenshotDir } from './harness/runFolders';
import { newPhone, pairPhone } from './harness/phone';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, waitForRecords } from '../support/records';
import { waitUntil } from '../support/waitUntil';

describe('One queue across every window, in code-server', { timeout: 900_000 }, () => {
  const record = newRecordFile();
  const otherFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-other-'));
  let session: ElicitSession;
  /** The window on the folder whose server asks. */
  let asking: Page;
  /** A second window, on another folder with no servers. */
  let other: Page;

  before(async () => {
    const mcpJson = { servers: { songs: fixtureServer('ask-server.mjs', { RECORD_FILE: record, FIXTURE_NAME: 'songs' }) } };
    // Devices on loopback, for the phone paired with the other window.
    session = await openElicitSession(JSON.stringify(mcpJson), { 'elicit.devices.address': '127.0.0.1' });
    asking = session.workbench.page;
    other = await openWindow(otherFolder);
  });

  after(async () => {
    await session?.close();
    fs.rmSync(otherFolder, { recursive: true, force: true });
    fs.rmSync(path.dirname(record), { recursive: true, force: true });
  });

  async function openWindow(folder: string): Promise<Page> {
    const page = await session.workbench.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const url = new URL(session.server.url);
    url.searchParams.set('folder', folder);
    await page.goto(url.toString());
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    await page.waitForSelector('.statusbar-item', { timeout: 60_000 });
    await focusEditorArea(page);
    await runCommand(page, 'Elicit: Show Pending Questions');
    return page;
  }

  /** Runs one of the songs server's tools in the asking window and waits for its question there. */
  async function ask(tool: string): Promise<void> {
    // The person works in one window at a time: the one in front has the focus.
    await asking.bringToFront();
    // With one server, Run MCP Tool lists its tools at once. It is run again if the last result, opening
    // in this window, closed the list.
    await runMcpTool(asking, tool);
    try {
      await waitForQuickInput(asking, (q) => q.title === `songs asks · tool ${tool}`);
    } catch (error) {
      await screenshot(asking, `all-windows-ask-${tool}-failed`);
      await screenshot(other, `all-windows-ask-${tool}-failed-other`);
      throw error;
    }
  }

  const row = (page: Page, text: string): ReturnType<Page['locator']> => page.locator('.pane-body .monaco-list-row', { hasText: text });
  const askingFolder = (): string => path.basename(session.workspaceDir);

  it('a question asked in one window is answered in the other and reaches the server', async () => {
    await ask('ask_name');
    const listed = row(other, 'What is your name?');
    await listed.waitFor({ timeout: 20_000 });
    const text = await listed.innerText();
    assert.ok(text.includes('songs') && text.includes(`in ${askingFolder()}`), text);
    await waitUntil(
      async () => (await other.locator('.statusbar-item', { hasText: '1 question' }).count()) > 0,
      'the other window’s status bar counts the question',
    );
    await screenshot(other, 'all-windows-listed');

    await other.bringToFront();
    await listed.click();
    await waitForQuickInput(other, (q) => q.title === 'songs asks · tool ask_name');
    await typeAndSubmit(other, 'Ada, from the other window');
    const [answered] = await waitForRecords(record, 1, (r) => r.tool === 'ask_name');
    assert.deepEqual(answered!.result, { action: 'accept', content: { name: 'Ada, from the other window' } });
    // Answered there: gone here and in the window that asked.
    await waitForNoQuickInput(asking, 'the asking window’s quick input to close');
    await waitUntil(async () => (await listed.count()) === 0, 'the row to leave the other window');
  });

  it('a secret field is shown only in its own window', async () => {
    await ask('ask_api_key');
    const listed = row(other, 'Paste your API key');
    await listed.waitFor({ timeout: 20_000 });
    assert.ok((await listed.innerText()).includes(`answer it in ${askingFolder()}`));
    await other.bringToFront();
    await listed.click();
    await waitForNotification(other, `Answer this question in the window of ${askingFolder()}`);
    await waitForNoQuickInput(other, 'no quick input for a secret in the other window', 2_000);
    // The person answers it where it was asked.
    await asking.bringToFront();
    await typeAndSubmit(asking, 'sk-all-windows-e2e');
    const [answered] = await waitForRecords(record, 1, (r) => r.tool === 'ask_api_key');
    assert.equal((answered!.result as { action: string }).action, 'accept');
    await waitUntil(async () => (await listed.count()) === 0, 'the secret question to leave the other window');
  });

  /** Flips elicit.allWindows in the Settings editor of the other window (user settings: every window reads them). */
  async function toggleAllWindows(): Promise<void> {
    await other.bringToFront();
    await runCommand(other, 'Preferences: Open Settings (UI)');
    await other.locator('.settings-editor').waitFor({ timeout: 20_000 });
    // The search box keeps its last text: replace it.
    await other.keyboard.press('Control+A');
    await other.keyboard.type('elicit.allWindows');
    const checkbox = other.locator('.setting-item-bool', { hasText: 'All Windows' }).locator('.setting-value-checkbox');
    await checkbox.waitFor({ timeout: 20_000 });
    await checkbox.click();
    await runCommand(other, 'View: Close Editor');
  }

  it('elicit.allWindows off takes the other window’s questions out; on brings them back', async () => {
    await ask('ask_name');
    const listed = row(other, 'What is your name?');
    await listed.waitFor({ timeout: 20_000 });
    await toggleAllWindows();
    await waitUntil(async () => (await listed.count()) === 0, 'the question to leave the other window with the setting off');
    await toggleAllWindows();
    await listed.waitFor({ timeout: 20_000 });
    await asking.bringToFront();
    await typeAndSubmit(asking, 'Ada, in her own window');
    await waitForRecords(record, 2, (r) => r.tool === 'ask_name');
    await waitUntil(async () => (await listed.count()) === 0, 'the answered question to leave the other window');
  });

  it('a phone paired with the other window lists the question, names its window, and its answer reaches the server', async () => {
    // Pairing from the window on the folder with no servers: it serves the phone.
    await other.bringToFront();
    await runCommand(other, 'Elicit: Answer on Another Device…');
    const frame = await webviewFrame(other, 'Pair a Device');
    await frame.locator('#pairing-url').waitFor({ timeout: 30_000 });
    const link = ((await frame.locator('#pairing-url').textContent()) ?? '').trim();
    const paired = await newPhone(session.workbench.browser, 'Ada’s Pixel 7', 'Pixel 7');
    const { context, page: phone } = paired;
    try {
      await pairPhone(other, paired, link);

      // The question is asked in the window with the server, and shows on the phone with that window's name.
      await ask('ask_name');
      const question = phone.locator('article.card').filter({ hasText: 'What is your name?' });
      await question.waitFor({ timeout: 20_000 });
      assert.match((await question.locator('header').textContent()) ?? '', new RegExp(`songs.*in ${askingFolder()}`));
      await phone.screenshot({ path: path.join(screenshotDir, 'device-phone-other-window.png') });
      await question.getByRole('textbox').first().fill('Ada, from her phone');
      await question.getByRole('button', { name: 'Submit' }).tap();
      const answered = await waitForRecords(record, 3, (r) => r.tool === 'ask_name');
      assert.deepEqual(answered.at(-1)!.result, { action: 'accept', content: { name: 'Ada, from her phone' } });
      await waitForNoQuickInput(asking, 'the asking window’s quick input to close');
      await question.waitFor({ state: 'detached', timeout: 10_000 });
    } finally {
      await context.close();
    }
  });

  it('a window closed takes its questions out of the other within 2 s', async () => {
    await ask('ask_name');
    const listed = row(other, 'What is your name?');
    await listed.waitFor({ timeout: 20_000 });
    const closed = Date.now();
    await asking.close({ runBeforeUnload: true });
    await waitUntil(async () => (await listed.count()) === 0, 'the closed window’s question to leave', 10_000);
    const took = Date.now() - closed;
    assert.ok(took <= 2_000, `took ${took} ms`);
  });
});
