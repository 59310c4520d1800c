/**
 * A form that appears on its own takes no answer in its first moment (src/core/time/arrivalGuard.ts),
 * as a quick input does: a key or a click that lands as it appears was meant for what was on screen
 * before. The sharpest case: a question with nothing to fill in, drawn as a form (the person chose
 * `elicit.presentation: form`), has Submit focused, so the Enter of a person typing elsewhere would
 * answer "yes" to a deploy they never read. Asserted on what the fixture server received.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Locator } from 'playwright-core';
import { readForm, runMcpTool, screenshot, webviewFrame } from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { ARRIVAL_GUARD_MS } from '../../src/core/time/arrivalGuard';

describe('a form in its first moment, in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  let session: ElicitSession;

  before(async () => {
    const mcpJson = { servers: { 'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: record }) } };
    session = await openElicitSession(JSON.stringify(mcpJson), { 'elicit.presentation': 'form' });
  });

  after(async () => {
    await session?.close();
  });

  /**
   * The form as it first shows, found as soon as its buttons are drawn: the one webview showing,
   * found without clicking its tab (a click would move the keyboard).
   */
  async function formAppearing(tool: string): Promise<{ form: FrameLocator; submit: Locator }> {
    await runMcpTool(session.workbench.page, tool);
    const form = await webviewFrame(session.workbench.page);
    const submit = form.getByRole('button', { name: 'Submit' });
    await submit.waitFor({ timeout: 30_000 });
    return { form, submit };
  }

  /** Whether `button` is drawn unavailable; false once it is gone (a form that took the answer closes). */
  const held = async (button: Locator): Promise<boolean> =>
    (await button.getAttribute('aria-disabled', { timeout: 1_000 }).catch(() => null)) === 'true';

  it('an Enter and a click as the form appears do not answer it; once it has been read, Enter does', async () => {
    const { page } = session.workbench;
    const { form, submit } = await formAppearing('ask_go_ahead');
    const shownAt = Date.now();
    // Submit has the keyboard: the form has nothing to fill in.
    assert.ok(await submit.evaluate((button) => button === document.activeElement && document.hasFocus()), 'Submit is focused');
    const heldAsItAppears = await held(submit);
    // Enter, and a click straight onto Submit (force: past Playwright's wait for an enabled button).
    let landedWhileHeld = 0;
    for (let i = 0; i < 3 && Date.now() - shownAt < ARRIVAL_GUARD_MS / 2; i++) {
      await page.keyboard.press('Enter');
      // A form that took the answer is gone: the record file then says what it sent.
      await submit.click({ force: true, timeout: 1_000 }).catch(() => undefined);
      if (await held(submit)) landedWhileHeld++;
    }
    await screenshot(page, 'form-arriving');
    await page.waitForTimeout(ARRIVAL_GUARD_MS);
    assert.equal(readRecords(record).length, 0, `nothing was sent: ${JSON.stringify(readRecords(record))}`);
    assert.ok(heldAsItAppears, 'the buttons are drawn unavailable as the form appears');
    assert.ok(landedWhileHeld > 0, 'at least one Enter and click landed while the form was held');
    await readForm(form);
    assert.equal(await held(form.getByRole('button', { name: 'Decline' })), false, 'every button is live once read');
    await page.keyboard.press('Enter');
    const [entry] = await waitForRecords(record, 1);
    assert.deepEqual(entry!.result, { action: 'accept', content: {} });
  });

  it('Ctrl+Enter and Escape as a form appears do nothing; typing in its field works at once', async () => {
    const { page } = session.workbench;
    const { form, submit } = await formAppearing('ask_name');
    const name = form.locator('.field[data-name="name"] input.text-input');
    // Typing goes into the field at once: only answering waits.
    await name.fill('Ada');
    await page.keyboard.press('Control+Enter');
    await page.keyboard.press('Escape');
    const stillHeld = await held(submit);
    await page.waitForTimeout(ARRIVAL_GUARD_MS);
    assert.equal(readRecords(record).length, 1, `nothing more was sent: ${JSON.stringify(readRecords(record))}`);
    assert.ok(stillHeld, 'the keys landed while the form was held');
    await readForm(form);
    await page.keyboard.press('Control+Enter');
    const entries = await waitForRecords(record, 2);
    assert.deepEqual(entries[1]!.result, { action: 'accept', content: { name: 'Ada' } });
  });
});
