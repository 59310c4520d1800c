/**
 * File fields (draft SEP-2356/2631, `x-mcp-file`) in a real VS Code, as a person
 * meets them: with `elicit.experimental.fileFields` off, a server that asks for a
 * file anyway is refused and the person is offered to turn the setting on, then to
 * restart the server; then a document answered in a quick-input step through
 * code-server's own file dialog, a file far over the field's limit refused before it
 * is read (a sparse 4 GB file: reading it would fail otherwise), and screenshots
 * chosen with the form's button. The server (official v2 SDK, file-server.mjs)
 * records the files it decoded, checked here byte for byte.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  chooseInDropdown,
  clickAtPersonsPace,
  readQuickInput,
  runMcpTool,
  screenshot,
  typeAndSubmit,
  waitForNotification,
  waitForQuickInput,
  waitForRenderedText,
  webviewFrame,
} from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { waitUntil } from '../support/waitUntil';

const DOC_TITLE = 'files asks · tool attach_document';
const BUG_TITLE = 'files asks · tool file_bug';

describe('file fields in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  let session: ElicitSession;
  let report: { path: string; sha256: string; size: number };
  let shot: { path: string; sha256: string; size: number };
  let huge: string;

  before(async () => {
    // FILE_DECLARE=always: the server sends the keyword even before Elicit declares fileInputs.
    const mcpJson = {
      servers: { files: fixtureServer('file-server.mjs', { RECORD_FILE: record, FIXTURE_NAME: 'files', FILE_DECLARE: 'always' }) },
    };
    session = await openElicitSession(JSON.stringify(mcpJson));
    const write = (name: string, bytes: Buffer): { path: string; sha256: string; size: number } => {
      const file = path.join(session.workspaceDir, name);
      fs.writeFileSync(file, bytes);
      return { path: file, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
    };
    report = write('report.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(20_000, 0x2e), Buffer.from('\n%%EOF\n')]));
    shot = write('shot.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]));
    // 4 GB that take no room: sparse. Reading it whole would fail (past Node's 2 GB read limit).
    huge = path.join(session.workspaceDir, 'scan.pdf');
    fs.writeFileSync(huge, '');
    fs.truncateSync(huge, 4 * 1024 ** 3);
  });

  after(async () => {
    await session?.close();
  });

  const page = (): Page => session.workbench.page;
  const answers = (tool: string): Array<Record<string, unknown>> => readRecords(record).filter((r) => r.tool === tool);

  /** Presses a notification's button the way a person does. */
  async function clickNotificationButton(text: string, label: string): Promise<void> {
    const toast = page().locator('.notification-toast-container .notification-list-item', { hasText: text });
    await toast.first().waitFor({ timeout: 20_000 });
    await clickAtPersonsPace(page(), toast.first().locator('.monaco-button', { hasText: label }));
  }

  /** code-server's file dialog (VS Code's simple file dialog, a quick input): the path typed, Enter. */
  async function pickInFileDialog(file: string): Promise<void> {
    await waitForQuickInput(page(), (q) => q.title?.includes('—') === true && q.value.startsWith('/'), 20_000);
    await typeAndSubmit(page(), file);
  }

  it('off: a file question is refused, and the person is offered to turn file fields on and restart the server', async () => {
    await runMcpTool(page(), 'attach_document');
    const told = await waitForNotification(page(), 'asked for a file, and file fields are off');
    assert.match(told, /^files asked for a file/);
    // The run fails with what the server was told: a refusal, never a text box for base64.
    assert.match(await waitForNotification(page(), 'file fields are off in Elicit'), /attach_document failed/);
    assert.deepEqual(answers('attach_document'), [], 'nothing was answered');
    await clickNotificationButton('asked for a file', 'Turn On File Fields');
    await waitForNotification(page(), 'File fields are now on');
    await clickNotificationButton('File fields are now on', 'Restart Servers');
  });

  it('a document answered in a quick-input step through the file dialog reaches the server byte for byte', async () => {
    const before = answers('attach_document').length;
    await runMcpTool(page(), 'attach_document');
    const step = await waitForQuickInput(page(), (q) => q.title === DOC_TITLE && q.items.some((i) => i.label === 'Choose File…'), 30_000);
    assert.equal(step.items.find((i) => i.label === 'Choose File…')?.description, 'PDF, TXT · at most 1 MB');
    await screenshot(page(), 'file-field-step');
    await clickAtPersonsPace(page(), page().locator('.quick-input-widget .monaco-list-row', { hasText: 'Choose File…' }));
    await pickInFileDialog(report.path);
    await waitForRenderedText(page(), `Received report.pdf (application/pdf, ${report.size} bytes)`);
    const [entry] = (await waitForRecords(record, before + 1, (r) => r.tool === 'attach_document')).slice(-1);
    assert.equal(entry!.declared, true, 'fileInputs declared after the restart (and the keyword sent to it)');
    assert.deepEqual(entry!.files, [
      { field: 'document', name: 'report.pdf', mediaType: 'application/pdf', size: report.size, sha256: report.sha256 },
    ]);
  });

  it('a file far over the limit is refused before it is read, and the step says so until another is chosen or it is declined', async () => {
    const before = answers('attach_document').length;
    await runMcpTool(page(), 'attach_document');
    await waitForQuickInput(page(), (q) => q.title === DOC_TITLE, 30_000);
    await clickAtPersonsPace(page(), page().locator('.quick-input-widget .monaco-list-row', { hasText: 'Choose File…' }));
    const started = Date.now();
    await pickInFileDialog(huge);
    const refused = await waitForQuickInput(
      page(),
      (q) => q.title === DOC_TITLE && (q.message ?? q.placeholder ?? '').includes('⚠'),
      20_000,
    );
    // Its size, from the file system; reading 4 GB would have failed with another message, or taken far longer.
    assert.match(refused.message ?? refused.placeholder ?? '', /scan\.pdf is 4 GB; this field takes at most 1 MB/);
    assert.ok(Date.now() - started < 15_000);
    await screenshot(page(), 'file-field-too-large');
    await clickAtPersonsPace(page(), page().locator('.quick-input-widget .monaco-list-row', { hasText: 'Decline' }));
    const [entry] = (await waitForRecords(record, before + 1, (r) => r.tool === 'attach_document')).slice(-1);
    assert.equal(entry!.action, 'decline');
    assert.equal(await readQuickInput(page()), undefined);
  });

  it('screenshots chosen with the form button go with the other fields; the page shows the name and size only', async () => {
    const before = answers('file_bug').length;
    await runMcpTool(page(), 'file_bug');
    const frame = await webviewFrame(page(), BUG_TITLE);
    const row = frame.locator('.field[data-name="0:screenshots"]');
    await row.waitFor({ timeout: 30_000 });
    assert.match((await row.locator('.field-hint').textContent()) ?? '', /image files · at most 256 KB · 1 to 3 files/);
    await frame.locator('.field[data-name="0:title"] input.text-input').fill('Crash on save');
    await chooseInDropdown(page(), frame.locator('.field[data-name="0:severity"] select'), 'high');
    // Submit with no screenshot: the page says what is missing before anything is sent.
    await frame.getByRole('button', { name: 'Submit' }).click();
    await waitUntil(
      async () => ((await row.locator('.field-error').textContent()) ?? '').includes('Choose at least one file'),
      'the missing file is pointed at',
      10_000,
    );
    await clickAtPersonsPace(page(), row.getByRole('button', { name: 'Screenshots: Choose Files…' }));
    await pickInFileDialog(shot.path);
    await row.locator('.file-list li', { hasText: `shot.png (${shot.size} bytes)` }).waitFor({ timeout: 20_000 });
    assert.equal(await row.locator('.field-error').isVisible(), false, 'the problem is gone once a file is chosen');
    assert.doesNotMatch(await frame.locator('#app').innerHTML(), /base64|data:image/, 'the file itself never reaches the page');
    await screenshot(page(), 'file-field-form');
    await frame.getByRole('button', { name: 'Submit' }).click();
    const [entry] = (await waitForRecords(record, before + 1, (r) => r.tool === 'file_bug')).slice(-1);
    assert.deepEqual(entry!.content, { title: 'Crash on save', severity: 'high' });
    assert.deepEqual(entry!.files, [
      { field: 'screenshots', name: 'shot.png', mediaType: 'image/png', size: shot.size, sha256: shot.sha256 },
    ]);
  });
});
