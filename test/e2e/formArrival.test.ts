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
import { waitUntil } from '../support/waitUntil';
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
   * found without clicking its tab (a click would move the keyboard). Looked for every 20 ms: a
   * locator's own wait looks only every half second after its first tries.
   */
  async function formAppearing(tool: string): Promise<{ form: FrameLocator; submit: Locator }> {
    await runMcpTool(session.workbench.page, tool);
    const form = await webviewFrame(session.workbench.page);
    const submit = form.getByRole('button', { name: 'Submit' });
    await waitUntil(async () => (await submit.count()) > 0, 'the form’s Submit', 30_000, 20);
    return { form, submit };
  }

  /** Whether `button` is drawn unavailable; false once it is gone (a form that took the answer closes). */
  const held = async (button: Locator): Promise<boolean> =>
    (await button.getAttribute('aria-disabled', { timeout: 1_000 }).catch(() => null)) === 'true';

  /** A key or click that reached the form's page: what, when (this machine's clock), whether the buttons were held then. */
  interface Press {
    what: 'Enter' | 'click' | 'click from Enter';
    at: number;
    held: boolean;
    /** Whether it went to Submit (a key: with the page holding the keyboard). */
    onSubmit: boolean;
  }

  /**
   * Notes in the form's page, from now on, every key and click that reaches it, with the hold as it
   * was at that instant. Resolves with when the form was first on screen, on this machine's clock:
   * the page's first paint with content, which is the form (the page shows nothing before it); the
   * form's hold starts as it is drawn, a frame before. Not when the harness found Submit, which may
   * be a while later on a busy machine: a press in the last moments of the hold would pass for one in
   * its first (a locator's own wait, which looks every half second, made that happen).
   */
  async function watchArrival(form: FrameLocator, submit: Locator): Promise<{ shownAt: number; presses: () => Promise<Press[]> }> {
    const shownAt = await submit.evaluate(
      (button) =>
        new Promise<number>((resolve) => {
          const presses: Press[] = [];
          Object.assign(window, { formArrivalPresses: presses });
          for (const type of ['keydown', 'click'] as const) {
            window.addEventListener(
              type,
              (event) => {
                const what = type === 'keydown' ? 'Enter' : (event as MouseEvent).detail > 0 ? 'click' : 'click from Enter';
                const onSubmit = event.target === button && (type === 'click' || document.hasFocus());
                presses.push({
                  what,
                  at: performance.timeOrigin + event.timeStamp,
                  held: button.getAttribute('aria-disabled') === 'true',
                  onSubmit,
                });
              },
              true,
            );
          }
          setTimeout(() => resolve(NaN), 5_000);
          new PerformanceObserver((list) => {
            const paint = list.getEntriesByName('first-contentful-paint')[0];
            if (paint) resolve(performance.timeOrigin + paint.startTime);
          }).observe({ type: 'paint', buffered: true });
        }),
    );
    assert.ok(Number.isFinite(shownAt), 'the form page reports its first paint');
    return {
      shownAt,
      presses: () => form.locator('body').evaluate(() => (window as unknown as { formArrivalPresses: Press[] }).formArrivalPresses),
    };
  }

  it('an Enter and a click as the form appears do not answer it; once it has been read, Enter does', async (t) => {
    const { page } = session.workbench;
    const { form, submit } = await formAppearing('ask_go_ahead');
    const foundAt = Date.now();
    const { shownAt, presses } = await watchArrival(form, submit);
    // Enter (Submit has the keyboard: the form has nothing to fill in), and a click straight onto
    // Submit, each only in the first half of the hold as a person saw it: the time is looked at
    // before each, as a press takes a moment to land.
    const early = (): boolean => Date.now() - shownAt < ARRIVAL_GUARD_MS / 2;
    let box: { x: number; y: number; width: number; height: number } | null = null;
    for (let i = 0; i < 3 && early(); i++) {
      await page.keyboard.press('Enter');
      // A form that took the Enter is gone: then there is nothing to click, and the records say what it sent.
      box ??= await submit.boundingBox({ timeout: 1_000 }).catch(() => null);
      if (!box || !early()) break;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    }
    // A form that took an answer shows "answered" in its page: the page is still there to ask.
    const landed = await presses();
    const timeline = landed
      .map((p) => `${p.what}${p.onSubmit ? '' : ' (elsewhere)'} at ${Math.round(p.at - shownAt)} ms${p.held ? '' : ' (taking answers)'}`)
      .join(', ');
    t.diagnostic(`Submit found ${foundAt - Math.round(shownAt)} ms after the form showed; ${timeline}`);
    await screenshot(page, 'form-arriving');
    await page.waitForTimeout(ARRIVAL_GUARD_MS);
    assert.equal(readRecords(record).length, 0, `nothing was sent: ${JSON.stringify(readRecords(record))}; ${timeline}`);
    assert.ok(
      landed.some((p) => p.what === 'Enter' && p.onSubmit) && landed.some((p) => p.what === 'click' && p.onSubmit),
      `an Enter and a click reached Submit: ${timeline}`,
    );
    assert.ok(
      landed.every((p) => p.held),
      `the buttons were drawn unavailable as each press landed (ms after the form showed): ${timeline}`,
    );
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
