/**
 * A result never takes the keyboard from a question. A tool's result opens as a rendered preview,
 * whose page loads for a moment (seconds for a window's first webview); a question that shows
 * meanwhile must keep the keyboard, so that the person who answers it at once, with the keys, is
 * heard. Checked in what the fixture server recorded; the result still comes to the front for the
 * person who ran the tool.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  expectKeyboardInQuickInput,
  clickAtPersonsPace,
  pickQuickPickItem,
  readForm,
  readQuickInput,
  pressAtPersonsPace,
  runCommand,
  runMcpTool,
  screenshot,
  waitForNoQuickInput,
  whereThings,
  waitForQuickInput,
  waitForRenderedText,
  webviewFrame,
} from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, RecordCursor } from '../support/records';

describe('A result opening never takes the keyboard from a question, in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  let session: ElicitSession;

  before(async () => {
    const mcpJson = { servers: { 'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: record }) } };
    session = await openElicitSession(JSON.stringify(mcpJson, null, 2));
  });

  after(async () => {
    await session?.close();
  });

  // Each test reads only the records of the calls it made (after the known-editor step's own).
  const records = new RecordCursor(record);
  beforeEach(() => records.begin());

  /** Types as a person does, a key at a time, into whatever has the keyboard. */
  async function typeAtPersonsPace(page: Page, text: string): Promise<void> {
    await page.waitForTimeout(250);
    await page.keyboard.type(text, { delay: 60 });
  }

  /** The person reads the question, types the answer with the keys and presses Enter. */
  async function answerFollowUp(page: Page, index: number, answer: string): Promise<void> {
    const question = await waitForQuickInput(page, (q) => (q.message ?? '').includes(`Follow-up ${index}`));
    assert.match(question.title ?? '', /^ask-server asks/);
    await expectKeyboardInQuickInput(page);
    await typeAtPersonsPace(page, answer);
    await pressAtPersonsPace(page, 'Enter');
    const answered = await records.next((r) => r.tool === 'result_then_ask' && r.index === index);
    assert.deepEqual(answered.result, { action: 'accept', content: { next: answer } });
    await waitForNoQuickInput(page);
  }

  /** The result is on screen, rendered, holding `text`; a failure says what the window shows instead. */
  async function resultShows(page: Page, text: string): Promise<void> {
    await waitForRenderedText(page, text).catch(async (error: unknown) => {
      throw new Error(`${String(error)}; ${await whereThings(page)}`);
    });
  }

  it("keeps the keyboard in a question asked while the window's first result loads, the tool run again at once", async () => {
    const { page } = session.workbench;
    // A tool whose result opens: its argument typed in the step Elicit asks for it.
    await runMcpTool(page, 'echo');
    await waitForQuickInput(page, (q) => q.title === 'Run MCP Tool · ask-server · echo');
    await typeAtPersonsPace(page, 'first result');
    await pressAtPersonsPace(page, 'Enter');
    // The person sees the result's tab come to the front and, at once, runs a tool that asks a question.
    await page.locator('.tabs-container .tab.active', { hasText: 'ask-server-echo' }).waitFor({ timeout: 20_000 });
    await runCommand(page, 'Elicit: Run MCP Tool');
    await waitForQuickInput(page, (q) => q.placeholder === 'Pick a tool' && q.items.length > 0, 10_000);
    await pickQuickPickItem(page, 'ask_name', 10_000);
    const question = await waitForQuickInput(page, (q) => q.title === 'ask-server asks · tool ask_name');
    assert.match(question.message ?? '', /What is your name\?/);
    await expectKeyboardInQuickInput(page);
    await typeAtPersonsPace(page, 'Grace');
    await pressAtPersonsPace(page, 'Enter');
    const named = await records.next('ask_name');
    assert.deepEqual(named.result, { action: 'accept', content: { name: 'Grace' } });
    await resultShows(page, 'Hello, Grace!');
  });

  it('keeps the keyboard in a question the server asks the moment its result is back, while the result loads', async () => {
    const { page } = session.workbench;
    await runMcpTool(page, 'result_then_ask');
    await answerFollowUp(page, 1, 'ship it');
    // The result came to the front for the person who ran the tool, and shows what it returned.
    await resultShows(page, 'Step 1 is done.');
    const activeTab = page.locator('.tabs-container .tab.active .label-name');
    assert.equal(((await activeTab.textContent()) ?? '').trim(), 'ask-server-result_then_ask');
    await screenshot(page, 'result-focus-first');
  });

  for (const tool of ['result_then_form', 'long_result_then_form']) {
    it(`keeps in front a form the server asks the moment its result is back, though the result opens after it (${tool})`, async () => {
      const { page } = session.workbench;
      await runMcpTool(page, tool);
      // The result's tab and the form's both come; the form, asked after the result, must end in front.
      const resultTab = page.locator('.tabs-container .tab', { hasText: `ask-server-${tool}` });
      const formTab = page.locator('.tabs-container .tab', { hasText: 'ask-server asks' });
      await resultTab.waitFor({ timeout: 30_000 });
      await formTab.waitFor({ timeout: 30_000 });
      // The person looks at the screen (the result's page loads meanwhile): the form is what they see.
      await page.waitForTimeout(1_500);
      const active = (await page.locator('.tabs-container .tab.active .label-name').allTextContents()).map((t) => t.trim());
      if (!active.some((label) => label.startsWith('ask-server asks'))) {
        throw new Error(`the form is not in front: active tabs ${JSON.stringify(active)}; ${await whereThings(page)}`);
      }
      const label = ((await formTab.first().locator('.label-name').textContent()) ?? '').trim();
      const form = await webviewFrame(page, label);
      await readForm(form);
      await clickAtPersonsPace(page, form.getByRole('button', { name: 'Decline' }));
      const answered = await records.next((r) => r.tool === 'result_then_form');
      assert.deepEqual(answered.result, { action: 'decline' });
      await resultShows(page, 'Step');
    });
  }

  /**
   * Answers the question on screen with the keys, a key at a time: the keyboard must stay in it until
   * Enter, though a long result may finish loading meanwhile. Fails saying where the keys went.
   */
  async function answerWithKeys(page: Page, answer: string): Promise<void> {
    await expectKeyboardInQuickInput(page);
    await typeAtPersonsPace(page, answer);
    const held = (await readQuickInput(page))?.value;
    if (held !== answer) throw new Error(`typed "${answer}", the question holds "${held}"; ${await whereThings(page)}`);
    await expectKeyboardInQuickInput(page);
    await pressAtPersonsPace(page, 'Enter');
  }

  it('keeps the keyboard in a question asked while a long result still loads, the next tool run at once', async () => {
    const { page } = session.workbench;
    await runMcpTool(page, 'long_result');
    // The long result's tab comes to the front; its page takes seconds to render. At once, the person
    // runs a tool that asks a question, and answers it with the keys.
    await page.locator('.tabs-container .tab.active', { hasText: 'ask-server-long_result' }).waitFor({ timeout: 30_000 });
    await runCommand(page, 'Elicit: Run MCP Tool');
    // The tool picked with the keys too: its name typed into the list, then Enter.
    await waitForQuickInput(page, (q) => q.placeholder === 'Pick a tool' && q.items.length > 0, 10_000);
    await answerWithKeys(page, 'ask_name');
    const question = await waitForQuickInput(page, (q) => q.title === 'ask-server asks · tool ask_name', 30_000);
    assert.match(question.message ?? '', /What is your name\?/);
    await answerWithKeys(page, 'Ada Lovelace');
    const named = await records.next('ask_name');
    assert.deepEqual(named.result, { action: 'accept', content: { name: 'Ada Lovelace' } });
    await resultShows(page, 'Hello, Ada Lovelace!');
  });

  it('keeps the keyboard in a question the server asks the moment its long result is back, while the result loads', async () => {
    const { page } = session.workbench;
    await runMcpTool(page, 'long_result_then_ask');
    const question = await waitForQuickInput(page, (q) => /Follow-up \d+: what next\?/.test(q.message ?? ''), 30_000);
    const index = Number(/Follow-up (\d+)/.exec(question.message ?? '')![1]);
    await answerWithKeys(page, 'read the report');
    const answered = await records.next((r) => r.tool === 'result_then_ask' && r.index === index);
    assert.deepEqual(answered.result, { action: 'accept', content: { next: 'read the report' } });
    await waitForNoQuickInput(page);
    // The long result is on screen, rendered to its end, for the person who ran the tool.
    await resultShows(page, 'Part 300: what was done');
  });

  it('keeps the keyboard in a question that comes as a form closes and the result behind it shows again', async () => {
    const { page } = session.workbench;
    // A result on screen, as the person left it.
    await runMcpTool(page, 'echo');
    await waitForQuickInput(page, (q) => q.title === 'Run MCP Tool · ask-server · echo');
    await typeAtPersonsPace(page, 'the result behind');
    await pressAtPersonsPace(page, 'Enter');
    await resultShows(page, 'the result behind');
    // The server asks a form (a tab in front of the result), and the moment it is answered, a one-line question.
    await runMcpTool(page, 'form_then_ask');
    const form = await webviewFrame(page, 'ask-server asks · tool form_then_ask');
    await readForm(form);
    await clickAtPersonsPace(page, form.getByRole('button', { name: 'Decline' }));
    await records.next((r) => r.tool === 'form_then_ask' && r.index === 0);
    // The form's tab closes, the result's shows again and loads while the question comes: the question keeps the keyboard.
    await waitForQuickInput(page, (q) => (q.message ?? '').includes('And what next?'));
    await expectKeyboardInQuickInput(page);
    await typeAtPersonsPace(page, 'write the notes');
    await pressAtPersonsPace(page, 'Enter');
    const answered = await records.next((r) => r.tool === 'form_then_ask' && r.index === 1);
    assert.deepEqual(answered.result, { action: 'accept', content: { next: 'write the notes' } });
  });
});
