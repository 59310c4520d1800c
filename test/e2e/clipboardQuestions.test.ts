/**
 * Device questions of the `elicit_ask_user` tool in a real VS Code
 * (code-server), asked by another extension through vscode.lm.invokeTool:
 * clipboardWrite shows the text and copies it only when approved;
 * clipboardRead shows what the clipboard holds and returns it only when
 * approved. Refusing is `decline`, closing the dialog is `cancel`. Assertions
 * are on what the tool returned to the asking extension and on the browser's
 * clipboard itself.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageExtension } from './harness/extensionVsix';
import { runCommand, screenshot } from './harness/workbench';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { waitForFile, waitUntil } from '../support/waitUntil';

const TO_COPY = 'npm run deploy -- --prod\necho "deployed"';

describe('Clipboard questions of the elicit_ask_user tool, in code-server', { timeout: 600_000 }, () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-clipboard-'));
  let session: ElicitSession;

  before(async () => {
    const companion = await packageExtension(path.join(fixtures, 'companion-extension'));
    session = await openElicitSession(JSON.stringify({ servers: {} }), {}, { COMPANION_OUT: out }, [companion]);
    await session.workbench.page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session.server.url).origin });
  });

  after(async () => {
    try {
      await session?.close();
    } finally {
      // What the companion extension wrote live here: nothing is left in the temp directory, pass or fail.
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  const clipboard = (): Promise<string> => session.workbench.page.evaluate(() => navigator.clipboard.readText());
  const setClipboard = (text: string): Promise<void> => session.workbench.page.evaluate((t) => navigator.clipboard.writeText(t), text);

  /** Runs a companion command and answers the approval dialog; returns what the tool gave the extension. */
  async function ask(
    command: string,
    result: string,
    answer: 'Copy' | 'Share Clipboard' | 'Decline' | 'Escape',
    shot?: string,
  ): Promise<{ dialog: string; reply: Record<string, unknown> }> {
    const { page } = session.workbench;
    const file = path.join(out, `${result}.json`);
    fs.rmSync(file, { force: true });
    await runCommand(page, command);
    const box = page.locator('.monaco-dialog-box');
    await box.waitFor({ timeout: 30_000 });
    // innerText keeps the detail's line breaks, as the person sees them.
    const dialog = `${await box.locator('.dialog-message-text').innerText()}\n${await box.locator('.dialog-message-detail').innerText()}`;
    if (shot) await screenshot(page, shot);
    if (answer === 'Escape') await page.keyboard.press('Escape');
    else await box.locator('.dialog-buttons').getByRole('button', { name: answer, exact: true }).click();
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
    const parts = JSON.parse(await waitForFile(file)) as string[];
    return { dialog, reply: JSON.parse(parts[0]!) as Record<string, unknown> };
  }

  it('clipboardWrite shows the text; Decline and Escape leave the clipboard alone; Copy copies it', async () => {
    await setClipboard('what was there before');
    const declined = await ask('Companion: Copy via LM Tool', 'tool-copy', 'Decline', 'clipboard-write-approval');
    assert.match(declined.dialog, /AI agent wants to copy text to your clipboard/);
    assert.match(declined.dialog, /Copy the deploy command\?/);
    assert.ok(declined.dialog.includes(`The text to copy (40 characters):\n${TO_COPY}`), declined.dialog);
    assert.deepEqual(declined.reply, { action: 'decline' });
    assert.equal(await clipboard(), 'what was there before');

    const closed = await ask('Companion: Copy via LM Tool', 'tool-copy', 'Escape');
    assert.deepEqual(closed.reply, { action: 'cancel' });
    assert.equal(await clipboard(), 'what was there before');

    const copied = await ask('Companion: Copy via LM Tool', 'tool-copy', 'Copy');
    assert.deepEqual(copied.reply, { action: 'accept', note: 'Copied 40 characters to the clipboard.' });
    await waitUntil(async () => (await clipboard()) === TO_COPY, 'the clipboard to hold the approved text');
  });

  it('clipboardRead shows what the clipboard holds; Decline returns nothing; Share Clipboard returns it', async () => {
    await setClipboard('TypeError: boom at main.ts:3');
    const declined = await ask('Companion: Read Clipboard via LM Tool', 'tool-read', 'Decline', 'clipboard-read-approval');
    assert.match(declined.dialog, /AI agent wants to read your clipboard/);
    assert.ok(
      declined.dialog.includes('Your clipboard holds (28 characters), and this is what would be returned:\nTypeError: boom at main.ts:3'),
      declined.dialog,
    );
    assert.deepEqual(declined.reply, { action: 'decline' });

    const shared = await ask('Companion: Read Clipboard via LM Tool', 'tool-read', 'Share Clipboard');
    assert.deepEqual(shared.reply, { action: 'accept', answer: 'TypeError: boom at main.ts:3' });
  });
});
