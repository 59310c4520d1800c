/**
 * The widgets the project's seeds asked for (issue #34 item 3), in a real VS Code, answered by
 * mouse at a person's pace and by keyboard, asserted on what the fixture server received:
 * "Rate this clip: ★☆☆☆☆ to ★★★★★" as a quick pick of stars and as a row of stars in the form,
 * "Enter desired BPM: [slider 60-180]" as a slider beside its box, a small range as a row of
 * choices, and each option's preview beside it, shown as inert text.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import {
  chooseInDropdown,
  clickAtPersonsPace,
  expectKeyboardInQuickInput,
  pressAtPersonsPace,
  runMcpTool,
  screenshot,
  waitForQuickInput,
  waitForRenderedText,
  webviewFrame,
} from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, RecordCursor } from '../support/records';
import { waitUntil } from '../support/waitUntil';

describe("The seeds' widgets in code-server", { timeout: 600_000 }, () => {
  const record = newRecordFile();
  let session: ElicitSession;
  // Each test reads only the records of the tool calls it made (after the known-editor step).
  const records = new RecordCursor(record);

  before(async () => {
    const mcpJson = { servers: { 'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: record }) } };
    session = await openElicitSession(JSON.stringify(mcpJson), {});
  });

  after(async () => {
    await session?.close();
  });

  beforeEach(() => records.begin());

  async function nextResult(): Promise<unknown> {
    return (await records.next()).result;
  }

  async function openReview(): Promise<FrameLocator> {
    await runMcpTool(session.workbench.page, 'ask_clip_review');
    const form = await webviewFrame(session.workbench.page, 'ask-server asks · tool ask_clip_review');
    await form.getByRole('slider', { name: 'Desired BPM' }).waitFor({ timeout: 30_000 });
    return form;
  }

  it('asks a one-question rating as a quick pick of stars, picked by mouse and by keyboard', async () => {
    const { page } = session.workbench;
    await runMcpTool(page, 'ask_rating');
    const pick = await waitForQuickInput(page, (q) => q.items.length >= 5);
    assert.deepEqual(
      pick.items.slice(0, 5).map((i) => [i.label, i.description]),
      [
        ['★☆☆☆☆', '1 of 5'],
        ['★★☆☆☆', '2 of 5'],
        ['★★★☆☆', '3 of 5'],
        ['★★★★☆', '4 of 5'],
        ['★★★★★', '5 of 5'],
      ],
    );
    await screenshot(page, 'rating-quick-pick');
    await clickAtPersonsPace(page, page.locator('.quick-input-list .monaco-list-row', { hasText: '★★★★☆' }));
    assert.deepEqual(await nextResult(), { action: 'accept', content: { rating: 4 } });
    // The person sees the run's result before running the tool again.
    await waitForRenderedText(page, 'ask-server › ask_rating');

    await runMcpTool(page, 'ask_rating');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === '★★★★★'));
    await expectKeyboardInQuickInput(page);
    for (const key of ['ArrowDown', 'ArrowDown', 'Enter']) await pressAtPersonsPace(page, key);
    assert.deepEqual(await nextResult(), { action: 'accept', content: { rating: 3 } });
  });

  it('draws a slider beside the BPM box, stars for the rating, a row for a small range and previews; answered by mouse', async () => {
    const { page } = session.workbench;
    const form = await openReview();
    const slider = form.getByRole('slider', { name: 'Desired BPM' });
    assert.equal(await slider.inputValue(), '120', 'the slider starts at the default');
    // A click at the slider's far end, as a person drags it there.
    const box = (await slider.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 10 });
    await page.mouse.down();
    await page.waitForTimeout(110);
    await page.mouse.up();
    await waitForValue(form, 'bpm', '180');

    const stars = form.getByRole('radiogroup', { name: 'Rating' });
    assert.equal(await stars.getByRole('radio').count(), 5);
    await clickAtPersonsPace(page, stars.locator('.scale-option').nth(3));
    assert.equal(await stars.getByRole('radio', { name: '4 stars' }).isChecked(), true);
    assert.equal((await stars.innerText()).replace(/\s/g, ''), '★★★★☆');
    await clickAtPersonsPace(page, form.getByRole('radiogroup', { name: 'Take' }).locator('.scale-option', { hasText: '2' }));

    // Each option's preview beside it; the chosen one's under the dropdown, as text.
    await chooseInDropdown(page, form.locator('.field[data-name="layout"] select'), /^List/);
    const preview = form.locator('.field[data-name="layout"] .option-preview');
    await preview.getByText('[x](command:workbench.action.quit) B').waitFor({ timeout: 10_000 });
    assert.equal(await preview.locator('b').count(), 0, 'the preview is text, never HTML');
    await screenshot(page, 'seed-widgets-form');
    await clickAtPersonsPace(page, form.getByRole('button', { name: 'Submit' }));
    assert.deepEqual(await nextResult(), { action: 'accept', content: { bpm: 180, rating: 4, take: 2, layout: 'list' } });
  });

  it('answers the slider and the stars by keyboard: arrows move them, Tab goes from one to the next', async () => {
    const { page } = session.workbench;
    const form = await openReview();
    await form.getByRole('slider', { name: 'Desired BPM' }).focus();
    for (let i = 0; i < 5; i++) await pressAtPersonsPace(page, 'ArrowLeft');
    await waitForValue(form, 'bpm', '115');
    // Into the rating: a radio group takes one Tab; the arrows choose.
    await pressAtPersonsPace(page, 'Tab');
    for (const key of ['ArrowRight', 'ArrowRight']) await pressAtPersonsPace(page, key);
    assert.equal(await form.getByRole('radio', { name: '3 stars' }).isChecked(), true);
    await pressAtPersonsPace(page, 'Tab');
    await pressAtPersonsPace(page, 'ArrowRight');
    await chooseInDropdown(page, form.locator('.field[data-name="layout"] select'), /^Grid/);
    await form.locator('.field[data-name="layout"] .option-preview').getByText('│ A  │ │ B  │').waitFor({ timeout: 10_000 });
    await form.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(await nextResult(), { action: 'accept', content: { bpm: 115, rating: 3, take: 2, layout: 'grid' } });
  });
});

/** The number box of a field, once it shows `value`. */
async function waitForValue(form: FrameLocator, name: string, value: string): Promise<void> {
  const box = form.locator(`.field[data-name="${name}"] input.text-input`);
  const shown = (): Promise<string> => box.inputValue();
  await waitUntil(async () => (await shown()) === value, `the ${name} box to show ${value}`, 10_000);
}
