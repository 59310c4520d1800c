/**
 * Every end-to-end test of a session starts from the same editor: no editor tab, no question pending,
 * no quick input, dialog or context menu open, no notification. Whatever an earlier test left (it
 * failed halfway, say) is put away the way a person would put it away, so that one failure stays
 * one failure instead of failing every test after it on what it left behind.
 */
import type { Page } from 'playwright-core';
import { CONTEXT_MENU_ITEM, evaluate, exactText, readFirst, readQuickInput, runCommand, whereThings } from './workbench';

/** What the window shows that a test starting afresh would not expect. */
export interface Leftovers {
  quickInput?: string;
  dialog?: string;
  contextMenu: boolean;
  tabs: string[];
  /** The status bar's "N questions" while anything is pending. */
  pending?: string;
  toasts: string[];
  /** The notification bell's dot: a notification the person has not looked at (a running progress among them). */
  unseenNotification: boolean;
  notificationCenterOpen: boolean;
}

/** The status bar item Elicit shows while questions wait ("1 question", "3 questions"). */
const PENDING_STATUS = /^\s*\d+ questions?\s*$/;

/** What is left on screen, read in one look. */
export async function lookForLeftovers(page: Page, keepTabs: readonly string[] = []): Promise<Leftovers> {
  const shown = await evaluate(
    page,
    (menuItem: string) => {
      const visible = (el: Element): boolean => (el as HTMLElement).offsetParent !== null;
      const texts = (selector: string): string[] =>
        Array.from(document.querySelectorAll(selector))
          .filter(visible)
          .map((el) => (el.textContent ?? '').trim().slice(0, 120));
      return {
        dialog: texts('.monaco-dialog-box')[0],
        contextMenu: texts(menuItem).length > 0,
        tabs: Array.from(document.querySelectorAll('.tabs-container .tab .label-name')).map((el) => (el.textContent ?? '').trim()),
        pending: Array.from(document.querySelectorAll<HTMLElement>('.statusbar-item'))
          .filter(visible)
          .map((el) => el.innerText.trim())
          .find((text) => /^\d+ questions?$/.test(text)),
        toasts: texts('.notifications-toasts .notification-toast .notification-list-item-message'),
        unseenNotification: document.querySelector('[id="status.notifications"] .codicon-bell-dot') !== null,
        notificationCenterOpen: texts('.notifications-center.visible').length > 0,
      };
    },
    CONTEXT_MENU_ITEM,
  );
  const quickInput = await readQuickInput(page);
  return {
    ...shown,
    tabs: shown.tabs.filter((tab) => !keepTabs.includes(tab)),
    quickInput: quickInput && JSON.stringify(quickInput).slice(0, 300),
    pending: shown.pending ?? undefined,
    dialog: shown.dialog ?? undefined,
  };
}

function isKnownEditor(left: Leftovers): boolean {
  return (
    !left.quickInput &&
    !left.dialog &&
    !left.contextMenu &&
    left.tabs.length === 0 &&
    !left.pending &&
    left.toasts.length === 0 &&
    !left.unseenNotification &&
    !left.notificationCenterOpen
  );
}

/** The leftovers in a sentence, for the test's log and for a failure. */
export function describeLeftovers(left: Leftovers): string {
  const parts = [
    left.quickInput && `a quick input ${left.quickInput}`,
    left.dialog && `a dialog "${left.dialog}"`,
    left.contextMenu && 'a context menu',
    left.tabs.length > 0 && `tabs ${JSON.stringify(left.tabs)}`,
    left.pending && `pending: ${left.pending}`,
    left.toasts.length > 0 && `notifications ${JSON.stringify(left.toasts)}`,
    left.toasts.length === 0 && left.unseenNotification && 'an unseen notification (the bell has its dot)',
    left.notificationCenterOpen && 'the notification center open',
  ];
  return parts.filter(Boolean).join('; ') || 'nothing';
}

/**
 * Puts away what an earlier test left, as a person would: Escape out of a quick input, dialog or menu,
 * Decline (or Dismiss) each pending question from the Pending Questions view, View: Close All Editors
 * (Don't Save), Notifications: Clear All Notifications. Then looks again, until the window shows
 * nothing of the kind; fails, saying what is still there, when it cannot get there within `timeoutMs`.
 * Returns what it found, or undefined when the editor was already as expected.
 */
export async function startFromKnownEditor(
  page: Page,
  /** Tabs a file's tests share on purpose (an agent session they all talk to): kept, the others closed. */
  keepTabs: readonly string[] = [],
  timeoutMs = 60_000,
): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  let found: string | undefined;
  for (;;) {
    const left = await lookForLeftovers(page, keepTabs);
    if (isKnownEditor(left)) return found;
    found ??= describeLeftovers(left);
    if (Date.now() > deadline) {
      throw new Error(
        `cannot start this test from a known editor (no tab, question pending, quick input or notification): ` +
          `found ${found}; still ${describeLeftovers(left)}; ${await whereThings(page)}`,
      );
    }
    await putAway(page, left, keepTabs);
    await page.waitForTimeout(300);
  }
}

async function putAway(page: Page, left: Leftovers, keepTabs: readonly string[]): Promise<void> {
  if (left.dialog) await answerDialog(page);
  if (left.contextMenu || left.quickInput) {
    // A question takes no answer in its first moments (Escape included): read it first, as a person does.
    await readFirst(page);
    await page.keyboard.press('Escape');
  }
  if (left.notificationCenterOpen) await page.keyboard.press('Escape');
  if (left.quickInput || left.contextMenu || left.dialog) return; // look again before the next step
  if (left.pending) await declinePending(page);
  if (left.tabs.length > 0 && keepTabs.length === 0) {
    await runCommand(page, 'View: Close All Editors');
    await answerDialog(page);
  } else if (left.tabs.length > 0) {
    // Tabs shared on purpose stay: each other tab is brought to the front and closed, as a person would.
    const tab = page.locator('.tabs-container .tab').filter({ has: page.locator('.label-name', { hasText: exactText(left.tabs[0]!) }) });
    await tab.first().click();
    await runCommand(page, 'View: Close Editor');
    await answerDialog(page);
  }
  if (left.toasts.length > 0 || left.unseenNotification) await runCommand(page, 'Notifications: Clear All Notifications');
}

/** A dialog a closing editor or an earlier test left: Don't Save when it asks that, otherwise Escape. */
async function answerDialog(page: Page): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box');
  const shows = await dialog
    .waitFor({ state: 'visible', timeout: 1000 })
    .then(() => true)
    .catch(() => false);
  if (!shows) return;
  const dontSave = dialog.locator('.monaco-button', { hasText: "Don't Save" });
  if ((await dontSave.count()) > 0) await dontSave.first().click();
  else await page.keyboard.press('Escape');
}

/**
 * Opens the Pending Questions view from the status bar and takes each row off the list with its own
 * inline button: Decline for a question, Dismiss for one whose turn ended or that a reload kept or ended;
 * a row that offers only Answer (arguments Elicit asks for the person, a question of another window)
 * is opened and cancelled with Escape.
 */
async function declinePending(page: Page): Promise<void> {
  const status = page.locator('.statusbar-item').filter({ hasText: PENDING_STATUS }).first();
  // The question may have ended since the look (its asker gave up, or an answer was on its way): the
  // item is gone, and the next look says whether anything is still pending.
  if (!(await status.isVisible())) return;
  await status.click({ timeout: 5000 }).catch(() => undefined);
  const view = page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: 'Pending Questions' }) });
  const rows = view.locator('.monaco-list-row');
  await rows
    .first()
    .waitFor({ timeout: 5000 })
    .catch(() => undefined);
  for (let i = 0; i < 20 && (await rows.count()) > 0; i++) {
    const row = rows.first();
    const before = await row.innerText().catch(() => '');
    await row.hover();
    const takeOff = row.locator('.action-label[aria-label="Decline"], .action-label[aria-label="Dismiss"]');
    if ((await takeOff.count()) > 0) {
      await takeOff.first().click();
    } else {
      await row.locator('.action-label[aria-label="Answer"]').click();
      if (await readQuickInput(page)) {
        await readFirst(page);
        await page.keyboard.press('Escape');
      }
    }
    // The view redraws a moment later: wait for that row to go before the next.
    const deadline = Date.now() + 5000;
    while (
      Date.now() < deadline &&
      (await rows.count()) > 0 &&
      (await rows
        .first()
        .innerText()
        .catch(() => '')) === before
    ) {
      await page.waitForTimeout(100);
    }
  }
}
