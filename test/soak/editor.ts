/**
 * The person at the editor (issue #37): answers a share of the questions in VS Code's own quick
 * input, with Playwright, at a person's pace: the questions of one asker, and the round of a tool the
 * person ran with Run MCP Tool once it is back after Reload Window (the phone leaves those to the
 * editor). A soak question is three quick-input steps (its token, a pick, a number); each step
 * is checked to still belong to the same question before anything is typed, since a question its
 * asker gives up closes and the next one takes its place.
 */
import type { Page } from 'playwright-core';
import {
  clickAtPersonsPace,
  notifications,
  pickQuickPickItem,
  pressKey,
  readFirst,
  readQuickInput,
  typeText,
  type QuickInputState,
} from '../e2e/harness/workbench';
import type { LedgerEvent } from './ledger';
import { contentFor, tokenIn } from './phone';
import { waitUntil } from '../support/waitUntil';

/** The asker whose questions are answered in the editor. */
export const EDITOR_ASKER = 's01';

/** A round of a tool the person ran (its call id "p<n>"), kept across a reload and answered after it. */
export const personRun = (token: string): boolean => /-p\d+$/.test(token);

export const answeredInEditor = (token: string): boolean => token.startsWith(`${EDITOR_ASKER}-`) || personRun(token);

/**
 * What the phone leaves to the editor: the editor's asker's questions asked alone, and any form with a
 * person-run round in it (a round is a form of its own, or a section of one that came with others).
 */
export const leftToEditor = (tokens: readonly string[], alone: boolean): boolean =>
  tokens.some(personRun) || (alone && tokens.some(answeredInEditor));

/**
 * Answers the editor's share until `stop` is aborted; returns what went wrong on the way (for the
 * report). A person-run round is answered once it is in `kept` (back after the reload), not before.
 */
export async function answerInEditor(
  page: Page,
  log: (event: LedgerEvent) => void,
  stop: AbortSignal,
  kept: ReadonlySet<string>,
): Promise<string[]> {
  const troubles: string[] = [];
  while (!stop.aborted) {
    const shown = await readQuickInput(page).catch(() => undefined);
    const said = shown?.message || shown?.placeholder || '';
    const recurring = RECURRING.exec(said)?.[1];
    if (recurring) {
      try {
        if (await answerRemembering(page, said)) {
          log({ event: 'remembered', asker: recurring, content: REMEMBERED, at: Date.now() });
        }
      } catch (error) {
        troubles.push(`${recurring}'s recurring question: ${String(error).slice(0, 200)}`);
      }
      continue;
    }
    const token = tokenIn(shown?.message);
    const from = /^([1-3])\/3$/.exec(shown?.step ?? '')?.[1];
    if (!shown || !token || !answeredInEditor(token) || (personRun(token) && !kept.has(token)) || !from) {
      await pause(200);
      continue;
    }
    try {
      if (await answerSteps(page, token, Number(from) - 1)) {
        log({ event: 'gave', question: token, via: 'editor', action: 'accept', content: contentFor(token), at: Date.now() });
      }
    } catch (error) {
      troubles.push(`${token}: ${String(error).slice(0, 200)}`);
    }
  }
  return troubles;
}

/**
 * The three steps of one question, from the one shown (a question that lost the focus midway, to a
 * second window, comes back at the step it had reached); false when it went away on the way.
 */
async function answerSteps(page: Page, token: string, from: number): Promise<boolean> {
  const content = contentFor(token);
  const ours = (state: QuickInputState | undefined, i: number): boolean =>
    tokenIn(state?.message) === token && state?.step === `${i + 1}/3`;
  /** Types, then looks again before Enter: the screen may have moved on meanwhile (it lags under load). */
  const typeAndSubmit = async (text: string, i: number): Promise<boolean> => {
    await typeText(page, text);
    await readFirst(page);
    if (!ours(await readQuickInput(page).catch(() => undefined), i)) return false;
    await pressKey(page, 'Enter');
    return true;
  };
  const steps: Array<(i: number) => Promise<boolean>> = [
    (i) => typeAndSubmit(token, i),
    () => pickQuickPickItem(page, String(content.pick), 5_000).then(() => true),
    (i) => typeAndSubmit(String(content.n), i),
  ];
  for (const [i, step] of steps.entries()) {
    if (i < from) continue;
    // A person reads the step first.
    await pause(300 + Math.random() * 700);
    if (!ours(await readQuickInput(page).catch(() => undefined), i)) return false;
    if (!(await step(i))) return false;
  }
  return true;
}

/** A recurring question (soak-server.mjs --recurring), and its asker. */
const RECURRING = /^Soak recurring question from (r\d+)/;
/** What the person answers it, every time. */
const REMEMBERED = { colour: 'green' };

/**
 * Answers a recurring question with Remember: always (the pin in the title bar goes from no, to this
 * session, to always), so Elicit answers the next ones itself; false when it went away on the way.
 */
async function answerRemembering(page: Page, message: string): Promise<boolean> {
  await pause(300 + Math.random() * 700);
  const pin = page.locator('.quick-input-widget .quick-input-titlebar a[aria-label^="Remember this answer"]');
  for (let i = 0; i < 3; i++) {
    const state = await readQuickInput(page).catch(() => undefined);
    if ((state?.message || state?.placeholder) !== message) return false;
    if (/: always/.test((await pin.getAttribute('aria-label', { timeout: 2_000 })) ?? '')) break;
    await pin.click({ timeout: 2_000 });
    await pause(150);
  }
  if (!/: always/.test((await pin.getAttribute('aria-label', { timeout: 2_000 })) ?? '')) return false;
  await pickQuickPickItem(page, REMEMBERED.colour, 5_000);
  return true;
}

/**
 * Opens a round kept across the reload from Pending Questions (the view, shown by the driver as a
 * keybinding would), with a click on its row, as a person does; answerInEditor then answers it.
 *
 * The click goes where the row is drawn, at a person's pace: the view is drawn again every second
 * while questions come and go, and VS Code's list reuses a row's element for another row, so a click
 * on the element found a moment before may land on the row drawn in it since.
 */
export async function openKeptRound(page: Page, token: string): Promise<void> {
  const view = page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: 'Pending Questions' }) });
  const row = view.locator('.monaco-list-row', { hasText: token });
  await row.waitFor({ timeout: 30_000 });
  await pause(300 + Math.random() * 700);
  await clickAtPersonsPace(page, row);
  // It shows in a quick input (answerInEditor answers it there, a step at a time). When it does not,
  // say what the person saw instead: once, in a CI run, it was never answered and no form was open.
  const shown = async (): Promise<boolean> => tokenIn((await readQuickInput(page).catch(() => undefined))?.message) === token;
  const didShow = await waitUntil(shown, `${token} to show`, 15_000, 200).then(
    () => true,
    () => false,
  );
  if (didShow) return;
  const rows = await view
    .locator('.monaco-list-row')
    .evaluateAll((elements) => elements.map((e) => `${e.classList.contains('selected') ? '[selected] ' : ''}${e.textContent ?? ''}`));
  const tabs = await page.locator('.tabs-container .tab .label-name').allTextContents();
  // The report keeps the first 1000 characters: what explains most comes first, the rows last.
  throw new Error(
    `it did not show in 15 s after a click on its row; notifications: ${JSON.stringify(await notifications(page).catch(() => []))}; ` +
      `quick input: ${JSON.stringify(await readQuickInput(page).catch(() => undefined))}; tabs: ${JSON.stringify(tabs)}; ` +
      `the view's rows: ${JSON.stringify(rows)}`,
  );
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
