/**
 * MCP's tasks extension in a real VS Code: a tool that a server written with
 * the official v2 SDK (test/fixtures/task-server.mjs, over Streamable HTTP, so
 * it outlives a window reload as a remote server does) runs as a task, which
 * asks twice — a form, then a choice — answered in the editor, once straight
 * through and once with Developer: Reload Window between the two questions;
 * and Cancel on the run's progress sends tasks/cancel. Checked in what the
 * server recorded.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import {
  chooseInDropdown,
  notifications,
  reloadWindow,
  runCommand,
  runMcpTool,
  screenshot,
  typeAndSubmit,
  waitForQuickInput,
  waitForRenderedText,
  webviewFrame,
} from './harness/workbench';
import { openElicitSession, type ElicitSession } from './elicitSession';
import { startHttpFixture } from '../support/mcpServers';
import { newRecordFile, readRecords, RecordCursor } from '../support/records';
import { waitUntil } from '../support/waitUntil';

const TITLE = 'reports asks · tool export_report (task)';

describe('the tasks extension in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  // Each test reads only the records of the tasks it started (after the known-editor step).
  const records = new RecordCursor(record);
  let server: ChildProcess | undefined;
  let session: ElicitSession;

  before(async () => {
    const started = await startHttpFixture('task-server.mjs', { RECORD_FILE: record, FIXTURE_NAME: 'reports' });
    server = started.process;
    session = await openElicitSession(JSON.stringify({ servers: { reports: { type: 'http', url: started.url } } }));
  });

  after(async () => {
    await session?.close();
    server?.kill();
  });

  const page = (): Page => session.workbench.page;
  beforeEach(() => records.begin());

  /** The answers this test's tasks were sent. */
  const updates = (): Array<Record<string, unknown>> => records.mine((r) => r.method === 'tasks/update');

  /** The first question: two short fields, asked as quick-input steps. */
  async function answerDetails(title: string, pages: string): Promise<void> {
    await waitForQuickInput(page(), (q) => q.title === TITLE && q.step === '1/2', 30_000);
    await typeAndSubmit(page(), title);
    await waitForQuickInput(page(), (q) => q.title === TITLE && q.step === '2/2');
    await typeAndSubmit(page(), pages);
  }

  /** The second: a later question of the task, drawn as a form under the answers already given. */
  async function formatForm(): Promise<FrameLocator> {
    const frame = await webviewFrame(page(), TITLE);
    await frame.locator('.field[data-name="0:format"]').waitFor({ timeout: 30_000 });
    return frame;
  }

  async function chooseFormat(frame: FrameLocator, format: string): Promise<void> {
    await chooseInDropdown(page(), frame.locator('.field[data-name="0:format"] select'), format);
    await frame.getByRole('button', { name: 'Submit' }).click();
  }

  it('answers a task that asks twice, a form then a choice, and shows its result', async () => {
    await runMcpTool(page(), 'export_report');
    await answerDetails('Quarterly numbers', '12');
    const frame = await formatForm();
    assert.match((await frame.locator('.earlier').textContent()) ?? '', /Report title: Quarterly numbers/);
    // The server said which language it asked in (draft SEP-2792): the question is marked so for a screen reader.
    assert.equal(await frame.locator('header').getAttribute('lang'), 'en');
    assert.equal(await frame.locator('.fields').getAttribute('lang'), 'en');
    await screenshot(page(), 'task-second-question');
    await chooseFormat(frame, 'HTML');
    await waitForRenderedText(page(), 'Exported "Quarterly numbers" (12 pages) as html');
    const sent = updates();
    assert.deepEqual(
      sent.map((u) => u.inputResponses),
      [
        { details: { action: 'accept', content: { title: 'Quarterly numbers', pages: 12 } } },
        { format: { action: 'accept', content: { format: 'html' } } },
      ],
    );
    assert.equal(new Set(sent.map((u) => u.taskId)).size, 1, 'both answers went to the one task');
    // VS Code's display language went to the server on every request, in _meta and the header alike.
    const requests = readRecords(record).filter((r) => typeof r.http === 'string');
    assert.ok(requests.length > 5);
    for (const request of requests) assert.deepEqual([request.meta, request.header], ['en', 'en'], String(request.http));
  });

  it('keeps the task going across a window reload: its open question is answered after it', async () => {
    await runMcpTool(page(), 'export_report');
    await answerDetails('Across the reload', '3');
    await formatForm();
    const taskId = (await records.next((r) => r.method === 'tasks/update')).taskId;

    await reloadWindow(page());

    await runCommand(page(), 'Elicit: Show Pending Questions');
    const kept = page().locator('.pane-body .monaco-list-row', { hasText: 'kept from before the reload' });
    await kept.waitFor({ timeout: 30_000 });
    assert.match((await kept.textContent()) ?? '', /Export it as\?/);
    await kept.click();
    const frame = await formatForm();
    assert.match((await frame.locator('.earlier').textContent()) ?? '', /Report title: Across the reload/);
    await chooseFormat(frame, 'PDF');
    await waitForRenderedText(page(), 'Exported "Across the reload" (3 pages) as pdf');
    const sent = updates();
    assert.deepEqual(
      sent.map((u) => [u.taskId, Object.keys(u.inputResponses as object)]),
      [
        [taskId, ['details']],
        [taskId, ['format']],
      ],
      'the same task got the answer kept across the reload',
    );
    assert.equal(
      readRecords(record).some((r) => r.method === 'tasks/cancel' && r.taskId === taskId),
      false,
      'the reload did not cancel the task',
    );
    await waitUntil(async () => (await kept.count()) === 0, 'the kept question leaves Pending Questions', 10_000);
  });

  it('sends tasks/cancel when the person cancels the run', async () => {
    const running = 'Running reports › long_job';
    await runMcpTool(page(), 'long_job');
    // The task's status under the progress's title.
    await waitUntil(
      async () => (await notifications(page())).some((t) => t.includes(running) && t.includes('Task working')),
      'the progress toast with the task status',
      15_000,
    );
    const toast = page().locator('.notification-toast-container', { hasText: running });
    await screenshot(page(), 'task-progress');
    await toast.getByRole('button', { name: 'Cancel' }).click();
    const cancel = await records.next((r) => r.method === 'tasks/cancel');
    const started = records.mine((r) => r.method === 'tasks/get' && r.taskId === cancel.taskId);
    assert.ok(started.length > 0, 'the cancelled task is the one that was polled');
  });
});
