// Drives the code-server workbench (VS Code 1.139 DOM) with playwright-core and
// Debian's Chromium. Selectors were read from the live DOM of code-server 4.139.1.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { failureShotDir, screenshotDir } from './runFolders';
import { ARRIVAL_GUARD_MS } from '../../../src/core/time/arrivalGuard';
import { waitUntil } from '../../support/waitUntil';

export interface Workbench {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export interface QuickInputItem {
  label: string;
  description?: string;
  detail?: string;
  checked?: boolean;
}

export interface QuickInputState {
  title?: string;
  /** "1/3" when the quick input has step/totalSteps set. */
  step?: string;
  placeholder?: string;
  /** The prompt or validation text below the input box. */
  message?: string;
  value: string;
  items: QuickInputItem[];
}

const widget = '.quick-input-widget';
const widgetInput = `${widget} .quick-input-box input`;

export async function openWorkbench(url: string): Promise<Workbench> {
  const browser = await chromium.launch({
    executablePath: process.env.ELICIT_E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    // A context of its own (not browser.newPage's), so page.context().newPage() opens another window of
    // the same browser profile, sharing its storage as a person's windows do.
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    // The status bar fills in once the remote extension host has connected.
    await page.waitForSelector('.statusbar-item', { timeout: 60_000 });
    await focusEditorArea(page);
    return { browser, page, close: () => browser.close() };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

/** Developer: Reload Window, then waits until the new window's extension host is connected. */
export async function reloadWindow(page: Page): Promise<void> {
  const reloaded = page.waitForEvent('load', { timeout: 60_000 });
  await runCommand(page, 'Developer: Reload Window');
  await reloaded;
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await page.waitForSelector('.statusbar-item', { timeout: 60_000 });
}

/**
 * Clicks the editor area so key presses go to the workbench, not the Chat view's input.
 * Where a webview covers that point (a form, a rendered result) it would take the click,
 * and the key presses: then whatever has the focus lets it go, back to the workbench.
 */
export async function focusEditorArea(page: Page): Promise<void> {
  try {
    await page
      .locator('.part.editor')
      .first()
      .click({ position: { x: 200, y: 200 }, timeout: 3000 });
  } catch {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  }
}

/** An item's label in the open context menu. */
export const CONTEXT_MENU_ITEM = '.context-view .monaco-menu .action-label';

/**
 * Chooses an item of the open context menu. VS Code's menu takes an item's mouse-up only from a timer
 * set 100 ms after the menu is drawn (so the right-click that opened it does not choose); on two busy
 * cores that timer can come after a scripted click, which is then ignored and the menu stays open. So
 * the click is made again while the item still shows: the first click that counts closes the menu.
 */
export async function chooseContextMenuItem(page: Page, label: string, timeoutMs = 20_000): Promise<void> {
  const item = page.locator(CONTEXT_MENU_ITEM, { hasText: label });
  const deadline = Date.now() + timeoutMs;
  await item.waitFor({ timeout: timeoutMs });
  for (;;) {
    await item.click({ timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    const closed = await item
      .waitFor({ state: 'detached', timeout: 1000 })
      .then(() => true)
      .catch(() => false);
    if (closed) return;
    if (Date.now() > deadline) throw new Error(`the context menu item "${label}" did not take a click; ${await whereThings(page)}`);
  }
}

/** Runs a command from the Command Palette by its exact title ("Category: Title"). */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await openCommandPalette(page);
    try {
      // Short timeouts: an editor opening elsewhere can take focus and close the palette.
      await page.locator(widgetInput).fill(`>${title}`, { timeout: 3000 });
      await (await waitForRow(page, title, 3000)).click({ timeout: 3000 });
      return;
    } catch (err) {
      // Right after load the extension's commands may not be registered yet and the
      // palette does not refresh its list, so close it and ask again.
      if (Date.now() > deadline) {
        const shot = path.join(failureShotDir, `command-not-found-${Date.now()}.png`);
        await fs.promises.mkdir(failureShotDir, { recursive: true });
        await page.screenshot({ path: shot }).catch(() => undefined);
        throw new Error(
          `command "${title}" not found in the palette; shown: ${JSON.stringify(await readQuickInput(page))}; screenshot: ${shot}`,
          { cause: err },
        );
      }
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }
}

/**
 * Runs a command that shows a quick input and waits for one that satisfies
 * `predicate`. The result editor of an earlier step can open a moment later,
 * take the focus and close that quick input (the command then ends): the
 * command is run again.
 */
export async function runCommandShowing(
  page: Page,
  title: string,
  predicate: (q: QuickInputState) => boolean,
  timeoutMs = 40_000,
): Promise<QuickInputState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await runCommand(page, title);
    try {
      return await waitForQuickInput(page, predicate, 8_000);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      if ((await readQuickInput(page)) !== undefined) await page.keyboard.press('Escape');
    }
  }
}

async function openCommandPalette(page: Page): Promise<void> {
  // The first key press after load is sometimes swallowed, so retry until the widget shows.
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.keyboard.press(attempt % 2 === 0 ? 'Control+Shift+P' : 'F1');
    try {
      await page.locator(widgetInput).waitFor({ state: 'visible', timeout: 3000 });
      return;
    } catch {
      await focusEditorArea(page);
    }
  }
  throw new Error('Command Palette did not open');
}

/**
 * Describes the visible quick input (QuickPick or InputBox), or undefined when none is shown.
 * The list is virtualised: `items` holds the rendered rows only (about 15-20).
 */
export async function readQuickInput(page: Page): Promise<QuickInputState | undefined> {
  const { state, shows } = await evaluate(
    page,
    (sel: string): { state: QuickInputState | undefined; shows: number } => {
      const root = document.querySelector<HTMLElement>(sel);
      // While the close animation runs the widget stays displayed with this class.
      const shown = (el: HTMLElement): boolean => el.style.display !== 'none' && !el.classList.contains('quick-input-widget-closing');
      // Counted in the page as it happens: a question hidden (Later) and shown again between two
      // looks is shown anew, and a person reads it again.
      const win = window as unknown as { elicitQuickInput?: { root: Element; shows: number } };
      if (root && win.elicitQuickInput?.root !== root) {
        let was = shown(root);
        const watch = { root, shows: was ? 1 : 0 };
        win.elicitQuickInput = watch;
        new MutationObserver(() => {
          const now = shown(root);
          if (now && !was) watch.shows++;
          was = now;
        }).observe(root, { attributes: true, attributeFilter: ['style', 'class'] });
      }
      const shows = win.elicitQuickInput?.shows ?? 0;
      if (!root || !shown(root) || root.offsetParent === null) return { state: undefined, shows };
      const text = (el: Element | null | undefined): string | undefined => {
        const t = el?.textContent?.trim();
        return t ? t : undefined;
      };
      const visible = (el: Element | null): el is HTMLElement =>
        !!el && (el as HTMLElement).offsetParent !== null && getComputedStyle(el).display !== 'none';
      const input = root.querySelector<HTMLInputElement>('.quick-input-box input');
      const titleEl = root.querySelector('.quick-input-title');
      let title = visible(titleEl) ? text(titleEl) : undefined;
      let step: string | undefined;
      // VS Code renders step/totalSteps as a "(2/3)" suffix of the title.
      const m = title?.match(/^(.*?)\s*\((\d+\/\d+)\)$/);
      if (m) {
        title = m[1] || undefined;
        step = m[2];
      }
      const messageEl = root.querySelector('.quick-input-message');
      const list = root.querySelector('.quick-input-list');
      const rows = visible(list) ? Array.from(list.querySelectorAll('.monaco-list-row')) : [];
      const items = rows
        .sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
        .map((row) => {
          // Multi-select rows carry a custom toggle (div[role=checkbox]) that reports aria-checked.
          const box = row.querySelector('[role="checkbox"]');
          return {
            label: text(row.querySelector('.label-name')) ?? '',
            description: text(row.querySelector('.label-description')),
            detail: text(row.querySelector('.quick-input-list-label-meta')),
            checked: box && visible(box) ? box.getAttribute('aria-checked') === 'true' : undefined,
          };
        });
      return {
        state: {
          title,
          step,
          placeholder: input?.placeholder || undefined,
          // InputBox prompts get VS Code's fixed hint appended; strip it so tests can compare the prompt.
          message: visible(messageEl)
            ? text(messageEl)?.replace(/\s*\(Press 'Enter' to confirm or 'Escape' to cancel\)$/, '') || undefined
            : undefined,
          value: input?.value ?? '',
          items,
        },
        shows,
      };
    },
    widget,
  );
  noteSeen(page, state, shows);
  // Drop undefined fields so tests can deepStrictEqual against plain literals.
  return state && (JSON.parse(JSON.stringify(state)) as QuickInputState);
}

/**
 * A person answers what they have read: no sooner than this after a question first showed (Elicit
 * takes no answer in a question's first moments, src/core/time/arrivalGuard.ts).
 */
const READ_MS = ARRIVAL_GUARD_MS + 250;

/** What each page's quick input showed when last looked at, and since when. */
const seen = new WeakMap<Page, { question: string; since: number }>();

/**
 * Which question a quick input shows: its title (a countdown's figures left out), step, placeholder
 * and prompt (a refusal of what was typed left out: that changes as the person types).
 */
function questionShown(state: QuickInputState): string {
  const prompt = (state.message ?? '').split(' · ⚠')[0];
  return [(state.title ?? '').replace(/\d+:\d\d/g, ''), state.step, state.placeholder, prompt].join('\n');
}

function noteSeen(page: Page, state: QuickInputState | undefined, shows: number): void {
  if (!state) return void seen.delete(page);
  const question = `${shows}\n${questionShown(state)}`;
  if (seen.get(page)?.question !== question) seen.set(page, { question, since: Date.now() });
}

/** Waits until the quick input shown has been on screen long enough for a person to have read it. */
export async function readFirst(page: Page): Promise<void> {
  for (;;) {
    if (!(await readQuickInput(page))) return;
    const left = seen.get(page)!.since + READ_MS - Date.now();
    if (left <= 0) return;
    await page.waitForTimeout(Math.min(left, 100));
  }
}

/**
 * Polls until a quick input is visible and `predicate` holds, and it has been on screen long enough
 * for a person to have read it (readFirst); returns its state.
 */
export async function waitForQuickInput(
  page: Page,
  predicate: (q: QuickInputState) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<QuickInputState> {
  const state = await glimpseQuickInput(page, predicate, timeoutMs);
  await readFirst(page);
  return state;
}

/** As waitForQuickInput, but returns as soon as the quick input shows: before a person could have read it. */
export async function glimpseQuickInput(
  page: Page,
  predicate: (q: QuickInputState) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<QuickInputState> {
  const deadline = Date.now() + timeoutMs;
  let last: QuickInputState | undefined;
  while (Date.now() < deadline) {
    last = await readQuickInput(page);
    if (last && predicate(last)) return last;
    // Often: a test that acts within a question's first moments (its arrival guard) counts from here.
    await page.waitForTimeout(25);
  }
  throw new Error(`quick input not as expected after ${timeoutMs} ms; last seen: ${JSON.stringify(last)}; ${await whereThings(page)}`);
}

/** Where the keyboard is, which editor is active, what notifications, dialog and context menu show. */
export async function workbenchState(page: Page): Promise<Record<string, unknown>> {
  return evaluate(
    page,
    (menuItem: string) => {
      const active = document.activeElement;
      const describe = (el: Element | null): string =>
        el
          ? `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(/\s+/).slice(0, 3).join('.')}` : ''}`
          : 'none';
      const part = active?.closest(
        '.quick-input-widget, .part.editor, .part.sidebar, .part.panel, .part.auxiliarybar, .notifications-toasts',
      );
      return {
        focus: `${describe(active)} in ${part ? describe(part) : 'no part'}`,
        activeTab: document.querySelector('.tabs-container .tab.active .label-name')?.textContent ?? null,
        toasts: Array.from(document.querySelectorAll('.notification-list-item-message')).map((n) => n.textContent?.slice(0, 120)),
        dialog: document.querySelector('.monaco-dialog-box')?.textContent?.slice(0, 200) ?? null,
        // An open context menu's items: a menu left open means a choice in it was not taken.
        menu: Array.from(document.querySelectorAll(menuItem)).map((n) => n.textContent?.slice(0, 80)),
      };
    },
    CONTEXT_MENU_ITEM,
  ).catch((err: unknown) => ({ unreadable: String(err) }));
}

/** What a failure message needs to be understood from CI's printout alone: the workbench's state and a screenshot's path. */
export async function whereThings(page: Page): Promise<string> {
  const state = await workbenchState(page);
  const shot = path.join(failureShotDir, `state-${Date.now()}.png`);
  await fs.promises.mkdir(failureShotDir, { recursive: true });
  await page.screenshot({ path: shot }).catch(() => undefined);
  return `workbench: ${JSON.stringify(state)}; screenshot: ${shot}`;
}

/**
 * Waits until no quick input shows. A quick input closes a moment after the
 * answer it gave has reached the asker, so a single look can still see it.
 */
export async function waitForNoQuickInput(page: Page, what = 'no quick input to show', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: QuickInputState | undefined;
  while ((last = await readQuickInput(page)) !== undefined) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; still shown: ${JSON.stringify(last)}`);
    await page.waitForTimeout(100);
  }
}

/** Whether the keyboard is in the quick input (its box or its list). */
export async function keyboardInQuickInput(page: Page): Promise<boolean> {
  return evaluate(page, (sel: string) => !!document.activeElement?.closest(sel), widget);
}

/**
 * Fails, saying where the keyboard is instead, unless the quick input shown has it: a person sees the
 * cursor there before answering with keys, and keys pressed elsewhere answer nothing (or something else).
 */
export async function expectKeyboardInQuickInput(page: Page): Promise<void> {
  if (!(await keyboardInQuickInput(page))) throw new Error(`the quick input shown does not have the keyboard; ${await whereThings(page)}`);
}

/** Replaces the quick input's text and presses Enter. */
export async function typeAndSubmit(page: Page, text: string): Promise<void> {
  await typeText(page, text);
  await readFirst(page);
  await page.locator(widgetInput).press('Enter');
}

/** Accepts the quick pick row whose label is exactly `label` (filters first if it is not rendered); gives up after `timeoutMs` at each step. */
export async function pickQuickPickItem(page: Page, label: string, timeoutMs = 20_000): Promise<void> {
  await page
    .locator(widgetInput)
    .waitFor({ state: 'visible', timeout: timeoutMs })
    .catch(async (error: unknown) => {
      // A pick that closed before the person could choose: say where the keyboard went and what shows.
      throw new Error(`no quick input to pick "${label}" from; ${await whereThings(page)}`, { cause: error });
    });
  const row = rowByLabel(page, label);
  if ((await row.count()) === 0) await page.locator(widgetInput).fill(label);
  const found = await waitForRow(page, label, timeoutMs);
  // The pointer rests away while the person reads: resting on a row, it opens a hover over the rows.
  await page.mouse.move(0, 0);
  await readFirst(page);
  await found.click({ timeout: timeoutMs });
}

/**
 * Elicit: Run MCP Tool → the server (when named; offered only when there are several) → the tool.
 *
 * An editor that opens elsewhere in the same moment (the previous run's result, a form) can take the
 * focus, and a quick input closes when it loses it: when a list closed before its pick, the command is
 * run again, at most twice. A failure while a quick input still shows is a real one. Nothing has been
 * asked of the server before the tool is picked, so running the command again changes nothing for it.
 */
export async function runMcpTool(
  page: Page,
  tool: string,
  server?: string,
  options: {
    /** Looks at the tool list before the tool is picked. */
    inspectToolList?: (list: QuickInputState) => Promise<void>;
    /**
     * What the server list must show before `server` is picked: after mcp.json changed, the list
     * catches up a moment later (until then one server goes straight to its tools), and the command
     * is run again.
     */
    serversReady?: (list: QuickInputState) => boolean;
  } = {},
): Promise<void> {
  const { inspectToolList, serversReady = () => true } = options;
  if (server !== undefined) {
    await runCommandShowing(
      page,
      'Elicit: Run MCP Tool',
      (q) => q.placeholder === 'Pick an MCP server' && q.items.some((i) => i.label === server) && serversReady(q),
    );
    await pickQuickPickItem(page, server, 10_000);
  } else {
    await runCommand(page, 'Elicit: Run MCP Tool');
  }
  // Not run again when the tool list closes: something took the keyboard from it, which a person
  // would meet too (a result's preview taking the focus as it loads, say), so it is a failure to see.
  const list = await waitForQuickInput(page, (q) => q.placeholder === 'Pick a tool' && q.items.length > 0, 10_000).catch(
    async (error: unknown) => {
      throw new Error(`the tool list did not show or closed: ${String(error)}; ${await whereThings(page)}`);
    },
  );
  // Long lists draw only the rows in view: pickQuickPickItem filters when the row is not drawn.
  await inspectToolList?.(list);
  await pickQuickPickItem(page, tool, 10_000);
}

/** Replaces the quick input's text without submitting (e.g. to trigger validation). */
export async function typeText(page: Page, text: string): Promise<void> {
  const input = page.locator(widgetInput);
  await input.waitFor({ state: 'visible' });
  await input.fill(text);
}

export async function pressKey(page: Page, key: string): Promise<void> {
  await page.keyboard.press(key);
}

/** Saves what the page shows as `<name>.png` in test/e2e/.runs/screenshots (ignored by git). */
export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.promises.mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * The content frame of the visible webview. Hidden webviews are either not in the DOM
 * or hidden (retainContextWhenHidden), and the outer iframe carries no title, so with
 * `title` the editor tab of that name is activated first.
 */
export async function webviewFrame(page: Page, title?: string): Promise<FrameLocator> {
  if (!title) {
    const outer = page.locator('iframe.webview:visible').first();
    await outer.waitFor({ state: 'visible' });
    return outer.contentFrame().frameLocator('iframe#active-frame');
  }
  const tabs = page.locator('.tabs-container .tab').filter({ has: page.locator('.label-name', { hasText: exactText(title) }) });
  // An answered form's tab waits a moment for the asker's next form, then closes: the same title may
  // show twice while it goes. A person looks at the tab that stays.
  await waitUntil(async () => (await tabs.count()) === 1, `one tab "${title}"`, 5_000, 50).catch(() => undefined);
  const tab = tabs.first();
  try {
    await tab.click();
  } catch (error) {
    // Say what was there instead: the tabs, and a quick input if one shows.
    const tabs = await page.locator('.tabs-container .tab .label-name').allTextContents();
    const shot = path.join(failureShotDir, `no-tab-${Date.now()}.png`);
    await fs.promises.mkdir(failureShotDir, { recursive: true });
    await page.screenshot({ path: shot }).catch(() => undefined);
    throw new Error(
      `no tab "${title}"; tabs: ${JSON.stringify(tabs)}; quick input: ${JSON.stringify(await readQuickInput(page))}; screenshot ${shot}`,
      { cause: error },
    );
  }
  // Webviews float above the editor area, outside their group's DOM: with groups side by side,
  // take the visible one that lies inside the group of the clicked tab.
  const group = await tab
    .locator('xpath=ancestor::*[contains(concat(" ", normalize-space(@class), " "), " editor-group-container ")][1]')
    .boundingBox();
  // Another editor's webview in that group (a result's Markdown preview) can stay "visible" beneath
  // the active one: take the one on top, as a person sees it; after a while, the first in the group.
  const deadline = Date.now() + 10_000;
  const anyOnTop = Date.now() + 3_000;
  for (;;) {
    const frames = page.locator('iframe.webview:visible');
    let inGroup: number | undefined;
    for (let i = 0; i < (await frames.count()); i++) {
      const box = await frames.nth(i).boundingBox();
      if (!box || !group) continue;
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      if (x < group.x || x > group.x + group.width || y < group.y || y > group.y + group.height) continue;
      inGroup ??= i;
      if (await onTop(frames.nth(i))) return frames.nth(i).contentFrame().frameLocator('iframe#active-frame');
    }
    if (inGroup !== undefined && Date.now() > anyOnTop) return frames.nth(inGroup).contentFrame().frameLocator('iframe#active-frame');
    if (Date.now() > deadline) throw new Error(`no webview shown in the group of the tab "${title}"`);
    await page.waitForTimeout(100);
  }
}

/** Whether `element` is what shows at one of a few points inside it (a toast or a menu may cover one). */
function onTop(element: Locator): Promise<boolean> {
  return element
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      const points = [
        [r.x + r.width / 2, r.y + r.height / 2],
        [r.x + 20, r.y + 20],
        [r.x + r.width - 20, r.y + 20],
        [r.x + 20, r.y + r.height - 20],
      ];
      return points.some(([x, y]) => document.elementFromPoint(x!, y!) === el);
    })
    .catch(() => false);
}

/**
 * Until the form in `frame` takes answers: its buttons are drawn unavailable for a moment after
 * it appears (the arrival guard), and a person reads it before a key answers it. A click waits by
 * itself (Playwright clicks only an enabled button); a key pressed in the form does not.
 */
export async function readForm(frame: FrameLocator, timeoutMs = 10_000): Promise<void> {
  await frame.locator('.actions .buttons button').first().waitFor({ timeout: 30_000 });
  const held = frame.locator('.actions .buttons button[aria-disabled="true"]');
  await waitUntil(async () => (await held.count()) === 0, 'the form to take answers', timeoutMs, 50);
}

/**
 * Waits until a shown webview (a result in the Markdown preview) holds `text`;
 * returns that webview's content frame.
 */
export async function waitForRenderedText(page: Page, text: string, timeoutMs = 30_000): Promise<FrameLocator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frames = page.locator('iframe.webview:visible');
    for (let i = 0; i < (await frames.count()); i++) {
      const frame = frames.nth(i).contentFrame().frameLocator('iframe#active-frame');
      const found = await frame
        .locator('body', { hasText: text })
        .count()
        .catch(() => 0);
      if (found > 0) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no webview shows "${text}"`);
    await page.waitForTimeout(200);
  }
}

/** Texts of the notification toasts currently shown. */
export async function notifications(page: Page): Promise<string[]> {
  const toasts = page.locator('.notification-toast-container .notification-list-item-message');
  return (await toasts.allTextContents()).map((t) => t.trim());
}

/** Every notification of the window, including ones whose toast has already been hidden. */
export async function notificationCenter(page: Page): Promise<string[]> {
  await runCommand(page, 'Notifications: Show Notifications');
  const items = page.locator('.notifications-center .notification-list-item-message');
  await page.waitForTimeout(300);
  const texts = (await items.allTextContents()).map((t) => t.trim());
  await page.keyboard.press('Escape');
  return texts;
}

/**
 * Waits for a notification containing `substring`: first among the toasts, then
 * (toasts hide after a while, or when other UI opens) in the notification center.
 */
export async function waitForNotification(page: Page, substring: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last: string[] = [];
  let checkedCenter = false;
  while (Date.now() < deadline) {
    last = await notifications(page);
    let hit = last.find((t) => t.includes(substring));
    if (hit === undefined && !checkedCenter && Date.now() > deadline - timeoutMs / 2) {
      checkedCenter = true;
      last = await notificationCenter(page);
      hit = last.find((t) => t.includes(substring));
    }
    if (hit !== undefined) return hit;
    await page.waitForTimeout(200);
  }
  throw new Error(`no notification containing "${substring}" after ${timeoutMs} ms; seen: ${JSON.stringify(last)}`);
}

/**
 * page.evaluate for functions with inner helpers: tsx/esbuild's keepNames wraps
 * them in __name(), which does not exist in the page, so a no-op one is supplied.
 */
export async function evaluate<A, R>(page: Page, fn: (arg: A) => R, arg: A): Promise<R> {
  return page.evaluate(`(() => { const __name = (f) => f; return (${fn.toString()})(${JSON.stringify(arg)}); })()`) as Promise<R>;
}

/** The OK button of a multi-select quick pick. */
export function quickPickOk(page: Page): Locator {
  return page.locator(`${widget} .quick-input-action .monaco-button`, { hasText: 'OK' });
}

function rowByLabel(page: Page, label: string) {
  return page
    .locator(`${widget} .quick-input-list .monaco-list-row`)
    .filter({ has: page.locator('.label-name', { hasText: exactText(label) }) });
}

async function waitForRow(page: Page, label: string, timeoutMs: number) {
  const row = rowByLabel(page, label).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  return row;
}

/** Matches an element's whole text, `s` exactly (spaces around it aside): for labels, tab titles, rows. */
export function exactText(s: string): RegExp {
  return new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/**
 * Clicks as a person does: the pointer travels to the target over about a third of a
 * second, a frame at a time, rests, presses, holds about a tenth of a second, releases.
 * Playwright's own click() jumps there, waits for nothing in its way to go, and presses and
 * releases at once, where the widget has no time to change between the two.
 */
export async function clickAtPersonsPace(page: Page, target: Locator): Promise<void> {
  // A person does not click a button drawn unavailable (a form's, for its first moment): they wait for it.
  await (await target.elementHandle())?.waitForElementState('enabled');
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to click: the target is not on screen');
  const to = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const from = pointer.get(page) ?? { x: to.x - 120, y: to.y + 80 };
  const frames = 20;
  for (let frame = 1; frame <= frames; frame++) {
    // Fast at first, slow near the target, as a hand moves.
    const t = 1 - (1 - frame / frames) ** 2;
    await page.mouse.move(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
    await page.waitForTimeout(16);
  }
  pointer.set(page, to);
  await page.waitForTimeout(150);
  await page.mouse.down();
  await page.waitForTimeout(110);
  await page.mouse.up();
}

/** Where clickAtPersonsPace left each page's pointer. */
const pointer = new WeakMap<Page, { x: number; y: number }>();

/**
 * A key pressed by a person after a click: the hand goes from the mouse to the keyboard
 * (no one does that in under a fifth of a second), presses, holds, releases.
 */
export async function pressAtPersonsPace(page: Page, key: string): Promise<void> {
  await page.waitForTimeout(250);
  await page.keyboard.down(key);
  await page.waitForTimeout(90);
  await page.keyboard.up(key);
}

/**
 * Chooses `label` in a form's dropdown (a <select>) as a person does: a click opens its list
 * (drawn by the platform, outside the page), the arrows move to the option, Enter chooses it.
 */
export async function chooseInDropdown(page: Page, select: Locator, label: string | RegExp): Promise<void> {
  await select.waitFor({ timeout: 30_000 });
  const pattern = typeof label === 'string' ? exactText(label) : label;
  const { from, to } = await select.evaluate(
    (element, { source, flags }) => {
      const options = Array.from((element as HTMLSelectElement).options);
      const wanted = new RegExp(source, flags);
      return { from: (element as HTMLSelectElement).selectedIndex, to: options.findIndex((o) => wanted.test(o.label)) };
    },
    { source: pattern.source, flags: pattern.flags },
  );
  if (to < 0) throw new Error(`the dropdown has no option ${String(label)}`);
  await clickAtPersonsPace(page, select);
  const steps = to - Math.max(from, 0);
  for (let i = 0; i < Math.abs(steps); i++) await pressAtPersonsPace(page, steps > 0 ? 'ArrowDown' : 'ArrowUp');
  await pressAtPersonsPace(page, 'Enter');
  const chosen = async (): Promise<boolean> => (await select.evaluate((element) => (element as HTMLSelectElement).selectedIndex)) === to;
  const deadline = Date.now() + 5_000;
  while (!(await chosen())) {
    if (Date.now() > deadline) throw new Error(`choosing ${String(label)} in the dropdown did not take`);
    await page.waitForTimeout(50);
  }
}
