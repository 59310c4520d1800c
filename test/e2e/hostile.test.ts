/**
 * Hostile requests (test/fixtures/hostile-server.mjs) in a real VS Code: every
 * refused case reaches the server as -32602, HTML and scripts are drawn as text
 * in the webview form and in quick inputs, no injected script runs (checked
 * with the marker the payload would set, in every frame), bidi controls are
 * stripped, long text is cut with a way to see it, a flood is grouped and cut at the
 * per-asker limit, the extension keeps working, and the secret typed in
 * between is in no file VS Code or the extension wrote.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  pickQuickPickItem,
  pressKey,
  readFirst,
  readQuickInput,
  runMcpTool,
  screenshot,
  typeAndSubmit,
  typeText,
  waitForNoQuickInput,
  waitForNotification,
  waitForQuickInput,
  webviewFrame,
} from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { MAX_GROUP_SECTIONS } from '../../src/core/form/group';
import { descendants, extensionHostOf, isRunning } from './harness/processes';
import { BURST, cases, ICON, IMG, LINK, SCRIPT, SVG } from '../fixtures/hostile-cases.mjs';
import { assertNoSecretLeak } from '../support/leakScan';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';

const SECRET = 'sk-hostile-e2e-93b1f07c2d';
const INVISIBLE = /[\u202a-\u202e\u2066-\u2069\u200b]/u;

describe('hostile requests in code-server', { timeout: 900_000 }, () => {
  const record = newRecordFile();
  let session: ElicitSession;

  before(async () => {
    const mcpJson = { servers: { 'hostile-server': fixtureServer('hostile-server.mjs', { RECORD_FILE: record }) } };
    session = await openElicitSession(JSON.stringify(mcpJson));
  });

  after(async () => {
    await session?.close();
  });

  /** Runs one of the server's tools and returns once it is called. */
  async function runTool(tool: string): Promise<void> {
    const { page } = session.workbench;
    await runMcpTool(page, tool);
  }

  async function outcome(tool: string): Promise<Record<string, unknown>> {
    const records = await waitForRecords(record, 1, (r) => r.tool === tool, 30_000);
    return records.at(-1)!;
  }

  /** No frame of the page (the workbench, every webview's outer and inner frame) shows the payload's marker. */
  async function assertNoScriptRan(page: Page, expectForm = false): Promise<void> {
    const frames = page.frames();
    let sawForm = false;
    for (const frame of frames) {
      const state = await frame
        .evaluate(() => ({
          pwned: (window as unknown as { __elicitPwned?: unknown }).__elicitPwned,
          title: document.title,
          injected: document.querySelectorAll('[onerror], [onload]').length,
          form: document.querySelector('.message')?.textContent ?? '',
        }))
        .catch((error: Error) => {
          if (frame.isDetached() || /detached/i.test(error.message)) return undefined; // closed meanwhile (an earlier panel)
          throw error;
        });
      if (!state) continue;
      sawForm ||= state.form.includes('__elicitPwned');
      assert.equal(state.pwned, undefined, `the marker is set in ${frame.url()}`);
      assert.notEqual(state.title, 'PWNED', `the title was changed in ${frame.url()}`);
      assert.equal(state.injected, 0, `an element with an inline handler exists in ${frame.url()}`);
    }
    // The check reached into the webview's inner frame, where the payload's text is shown.
    if (expectForm) assert.ok(sawForm, `the form's frame was not among ${frames.length} frames`);
  }

  it('answers every unsupported or dangerous request with -32602', async () => {
    for (const [tool, c] of Object.entries(cases).filter(([, c]) => c.refused)) {
      await runTool(tool);
      const error = (await outcome(tool)).error as { code: number; message: string } | undefined;
      assert.equal(error?.code, -32602, `${tool}: ${JSON.stringify(error)}`);
      assert.match(error!.message, c.refused!);
    }
  });

  it('draws HTML and scripts as text in the form, and no injected script runs', async () => {
    const { page } = session.workbench;
    await runTool('hostile_html_form');
    const form = await webviewFrame(page, 'hostile-server asks · tool hostile_html_form');
    const name = form.locator('.field[data-name="name"] input.text-input');
    await name.waitFor({ timeout: 30_000 });
    assert.ok((await form.locator('.message').textContent())?.includes(`Hello ${SCRIPT} ${IMG} <b>not bold</b>`));
    assert.ok((await form.locator('.field[data-name="name"] .field-title').textContent())?.includes(`Name ${IMG}`));
    assert.ok((await form.locator('.field[data-name="name"] .field-description').textContent())?.includes(`Description ${SCRIPT}`));
    assert.ok((await form.locator('.field[data-name="color"] .field-title').textContent())?.includes(`Color ${SVG}`));
    const tagLabels = await form
      .locator('.field[data-name="tags"] label.checkbox-label')
      .evaluateAll((labels) => labels.map((label) => label.textContent ?? ''));
    assert.deepEqual(tagLabels, [`X ${IMG}`, `Y ${SCRIPT}`]);
    // Nothing from the asker became an element.
    assert.equal(await form.locator('img').count(), 0);
    assert.equal(await form.locator('b').count(), 0);
    assert.equal(await form.locator('script', { hasText: '__elicitPwned' }).count(), 0, 'no script element from the asker');
    await screenshot(page, 'hostile-html-form');
    await assertNoScriptRan(page, true);
    // The script text is data: typed in, it reaches the server unchanged.
    await name.fill(SCRIPT);
    await form.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual((await outcome('hostile_html_form')).result, { action: 'accept', content: { name: SCRIPT } });
    await assertNoScriptRan(page);
  });

  it('draws HTML and scripts as text in a quick pick', async () => {
    const { page } = session.workbench;
    await runTool('hostile_html_quick');
    const pick = await waitForQuickInput(page, (q) => q.items.some((i) => i.label.startsWith('Red')));
    assert.deepEqual(
      pick.items.slice(0, 2).map((i) => i.label),
      [`Red ${IMG}`, `Blue ${SCRIPT}`],
    );
    assert.ok(pick.placeholder?.includes(`Choose ${SCRIPT} ${IMG}`), pick.placeholder);
    assert.equal(await page.locator('.quick-input-widget img').count(), 0);
    await screenshot(page, 'hostile-html-quickpick');
    await pickQuickPickItem(page, `Blue ${SCRIPT}`);
    assert.deepEqual((await outcome('hostile_html_quick')).result, { action: 'accept', content: { color: 'blue' } });
    await assertNoScriptRan(page);
  });

  it('strips bidi controls from what a quick pick shows', async () => {
    const { page } = session.workbench;
    await runTool('hostile_bidi');
    const pick = await waitForQuickInput(page, (q) => q.items.some((i) => i.label.startsWith('invoice')));
    for (const text of [pick.title, pick.placeholder, ...pick.items.map((i) => i.label)]) {
      assert.doesNotMatch(text ?? '', INVISIBLE, JSON.stringify(text));
    }
    assert.equal(pick.items[0]!.label, 'invoicegnp.exe isolate zero-width');
    // The value differs from its label only by what was cleaned: it is not repeated beside it.
    assert.equal(pick.items[0]!.description, undefined);
    await pressKey(page, 'Escape');
    assert.deepEqual((await outcome('hostile_bidi')).result, { action: 'cancel' });
  });

  it('strips bidi controls from what a form shows, where the form is built', async () => {
    const { page } = session.workbench;
    await runTool('hostile_bidi_form');
    const form = await webviewFrame(page, 'hostile-server asks · tool hostile_bidi_form');
    await form.locator('.field[data-name="file"] input.text-input').waitFor({ timeout: 30_000 });
    // Every text the page shows or holds (a dropdown's options too), and any label a widget draws in a shadow root.
    const shown = await form.locator('body').evaluate((body) => {
      const texts = [(body as HTMLElement).innerText, body.textContent ?? ''];
      for (const el of Array.from(body.querySelectorAll('*'))) {
        const label = (el as unknown as { label?: unknown }).label;
        if (typeof label === 'string') texts.push(label);
        if (el.shadowRoot) texts.push(el.shadowRoot.textContent ?? '');
      }
      return texts;
    });
    for (const text of shown) assert.doesNotMatch(text, INVISIBLE, JSON.stringify(text));
    const body = shown[0]!;
    for (const cleaned of ['Open gnp.exe isolate zero-width?', 'File gnp.exe isolate zero-width', 'Saved as gnp.exe isolate zero-width']) {
      assert.ok(body.includes(cleaned), `"${cleaned}" in ${JSON.stringify(body.slice(0, 400))}`);
    }
    await form.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual((await outcome('hostile_bidi_form')).result, { action: 'cancel' });
  });

  it('cuts a 1 MB message: "Show more" in the form, clipped in a quick input', async () => {
    const { page } = session.workbench;
    await runTool('hostile_huge_message_form');
    const form = await webviewFrame(page, 'hostile-server asks · tool hostile_huge_message_form');
    const message = form.locator('.message');
    await form.locator('.field[data-name="a"] input.text-input').waitFor({ timeout: 30_000 });
    const first = (await message.textContent()) ?? '';
    assert.ok(first.startsWith('HUGE-FORM') && first.length < 3_000, `shown first: ${first.length} characters`);
    await screenshot(page, 'hostile-long-message');
    await form.locator('.show-more').click();
    const all = (await message.textContent()) ?? '';
    assert.ok(all.length > 1_000_000 && all.endsWith('THE-VERY-END'), `after Show more: ${all.length} characters`);
    await form.getByRole('button', { name: 'Decline' }).click();
    assert.deepEqual((await outcome('hostile_huge_message_form')).result, { action: 'decline' });

    await runTool('hostile_huge_message_quick');
    const box = await waitForQuickInput(page, (q) => q.title === 'hostile-server asks · tool hostile_huge_message_quick');
    assert.ok(
      box.message?.startsWith('HUGE-QUICK') && box.message.length <= 500 && box.message.endsWith('…'),
      `prompt: ${box.message?.length} characters`,
    );
    await pressKey(page, 'Escape');
    assert.deepEqual((await outcome('hostile_huge_message_quick')).result, { action: 'cancel' });
  });

  it('offers all 10 000 options of a huge enum', async () => {
    const { page } = session.workbench;
    await runTool('hostile_huge_enum');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'option-0'));
    await pickQuickPickItem(page, 'option-9999');
    assert.deepEqual((await outcome('hostile_huge_enum')).result, { action: 'accept', content: { pick: 'option-9999' } });
  });

  it('warns about a punycode look-alike host and opens nothing on Decline', async () => {
    const { page } = session.workbench;
    await runTool('hostile_url_punycode');
    const box = page.locator('.monaco-dialog-box');
    await box.waitFor({ timeout: 20_000 });
    assert.match((await box.locator('.dialog-message-detail').textContent()) ?? '', /look-alike letters/);
    await box.locator('.dialog-buttons').getByRole('button', { name: 'Decline', exact: true }).click();
    assert.deepEqual((await outcome('hostile_url_punycode')).result, { action: 'decline' });
  });

  it('takes a secret behind an HTML title in a masked input box', async () => {
    const { page } = session.workbench;
    await runTool('hostile_secret');
    const box = await waitForQuickInput(page, (q) => q.title === 'hostile-server asks · tool hostile_secret');
    assert.ok(box.message?.includes(`Token ${SCRIPT}`) || box.placeholder?.includes(`Token ${SCRIPT}`), JSON.stringify(box));
    assert.equal(await page.locator('.quick-input-widget .quick-input-box input').getAttribute('type'), 'password');
    await typeAndSubmit(page, SECRET);
    assert.deepEqual((await outcome('hostile_secret')).result, { action: 'accept', content: { token: SECRET } });
  });

  /**
   * Runs a flood tool and answers what it shows. The default limit is 5 open questions per
   * server, and questions arriving together count as one: at most 5 prompts show, and everything
   * beyond them is refused. How a flood splits into groups depends on how the host reads it (a
   * loaded machine reads it in more pieces), so sizes are checked against what each prompt showed.
   */
  async function answerFlood(tool: 'hostile_burst' | 'hostile_burst_in_pieces'): Promise<number[]> {
    const { page } = session.workbench;
    const isBurst = (r: Record<string, unknown>): boolean => r.tool === tool;
    const isRefused = (r: Record<string, unknown>): boolean => isBurst(r) && r.error !== undefined;
    const isAnswered = (r: Record<string, unknown>): boolean => isBurst(r) && r.result !== undefined;
    assert.equal(readRecords(record).filter(isBurst).length, 0);
    await runTool(tool);
    const perAsker = 5;
    await waitForRecords(record, BURST - perAsker * MAX_GROUP_SECTIONS, isRefused, 30_000);
    // The whole flood has reached the editor once the refusals stop coming.
    let refusedSoFar = -1;
    while (readRecords(record).filter(isRefused).length !== refusedSoFar) {
      refusedSoFar = readRecords(record).filter(isRefused).length;
      await page.waitForTimeout(2000);
    }
    // Answer every prompt with Cancel: a grouped form's Cancel answers all of its questions; a
    // question that came alone, or with one or two others, shows in a quick input instead.
    const shownPerPrompt: number[] = [];
    const deadline = Date.now() + 180_000;
    while (readRecords(record).filter(isBurst).length < BURST) {
      assert.ok(Date.now() < deadline, `outcomes: ${readRecords(record).filter(isBurst).length} of ${BURST}; prompts: ${shownPerPrompt}`);
      assert.ok(shownPerPrompt.length < perAsker, `more than ${perAsker} prompts: ${shownPerPrompt}`);
      const answered = readRecords(record).filter(isAnswered).length;
      const box = await readQuickInput(page);
      if (box && JSON.stringify(box).includes('Burst question')) {
        // A question asked alone is taken back when others follow it at once, to be asked with
        // them: act only on one that stays.
        await page.waitForTimeout(500);
        if ((await readQuickInput(page))?.message !== box.message) continue;
        // Up to three questions are asked as the steps of one quick input; Escape cancels them all.
        shownPerPrompt.push(box.step ? Number(box.step.split('/')[1]) : 1);
        // Escape pressed in the quick input itself: a form opened a moment before it may have
        // been given the keyboard after it showed. Once read: an Escape in its first moment is not taken.
        await readFirst(page);
        await page.locator('.quick-input-widget .quick-input-box input').press('Escape');
        // It closes a moment after it answered; the next question may reuse the widget.
        const gone = Date.now() + 10_000;
        while ((await readQuickInput(page))?.message === box.message && Date.now() < gone) await page.waitForTimeout(100);
      } else {
        const form = await webviewFrame(page, `hostile-server asks · tool ${tool}`);
        await form.locator('.section').first().waitFor({ timeout: 30_000 });
        const sections = await form.locator('.section').count();
        assert.ok(sections >= 2 && sections <= MAX_GROUP_SECTIONS, `a grouped form of ${sections} questions`);
        shownPerPrompt.push(sections);
        if (shownPerPrompt.length === 1) await screenshot(page, `${tool}-grouped-form`);
        await form.getByRole('button', { name: 'Cancel' }).click();
      }
      await waitForRecords(record, answered + shownPerPrompt.at(-1)!, isAnswered, 30_000).catch((error: Error) => {
        const outcomes = readRecords(record)
          .filter(isAnswered)
          .map((r) => r.index);
        throw new Error(`${error.message}; prompts showed ${shownPerPrompt}; outcomes ${outcomes}`);
      });
    }
    const burst = readRecords(record).filter(isBurst);
    assert.equal(burst.length, BURST);
    assert.equal(new Set(burst.map((r) => r.index)).size, BURST);
    const shown = shownPerPrompt.reduce((sum, n) => sum + n, 0);
    const refused = burst.filter((r) => r.error);
    assert.equal(refused.length, BURST - shown, `prompts showed ${shownPerPrompt}`);
    assert.equal(refused.length, refusedSoFar, 'nothing was refused after the first prompt was answered');
    for (const r of refused) assert.match((r.error as { message: string }).message, /Too many open questions from hostile-server/);
    assert.deepEqual(
      new Set(burst.filter((r) => r.result).map((r) => JSON.stringify(r.result))),
      new Set([JSON.stringify({ action: 'cancel' })]),
    );
    await waitForNoQuickInput(page, 'nothing to be left open');
    return shownPerPrompt;
  }

  it(`groups a flood of ${BURST} into forms and cuts it at the per-asker limit; every request gets an outcome`, async () => {
    const shown = await answerFlood('hostile_burst');
    assert.ok(shown.length > 0, 'something was shown');
  });

  it(`does the same when the flood is read in pieces: each piece is asked until the limit, and no request is lost`, async () => {
    // The pieces are 7, 13, one alone and the rest: at least five prompts' worth, so the limit is
    // reached, and the lone question is asked on its own in an input box.
    const shown = await answerFlood('hostile_burst_in_pieces');
    assert.equal(shown.length, 5, `prompts showed ${shown}`);
    assert.ok(shown.includes(1), `prompts showed ${shown}`);
    const firstPiece = readRecords(record).filter((r) => r.tool === 'hostile_burst_in_pieces' && Number(r.index) < 7);
    assert.deepEqual(
      firstPiece.map((r) => r.result),
      Array.from({ length: 7 }, () => ({ action: 'cancel' })),
    );
  });

  it('is still up afterwards: a command still works, and no script ran anywhere', async () => {
    await runTool('ping');
    assert.equal((await outcome('ping')).pong, true);
    await assertNoScriptRan(session.workbench.page);
  });

  it('never writes the secret into any file VS Code or the extension wrote', () => {
    assertNoSecretLeak(session, [SECRET]);
  });

  it(
    'ends the server, with a question of it pending, when the extension host is killed with SIGKILL',
    { skip: process.platform !== 'linux' && 'reads /proc' },
    async () => {
      const { page } = session.workbench;
      await runTool('hostile_html_quick'); // left open: the server waits for the answer
      await waitForQuickInput(page, (q) => q.items.some((i) => i.label.startsWith('Red')));
      const host = extensionHostOf(session.server.userDataDir);
      assert.ok(host, 'the extension host of this code-server was found');
      const servers = descendants(host.pid).filter((p) => p.args.includes('hostile-server.mjs'));
      assert.equal(servers.length, 1, JSON.stringify(descendants(host.pid)));
      process.kill(host.pid, 'SIGKILL');
      const deadline = Date.now() + 10_000;
      while (isRunning(servers[0]!.pid) && Date.now() < deadline) await page.waitForTimeout(100);
      assert.equal(isRunning(servers[0]!.pid), false, `the server (${servers[0]!.pid}) outlived its extension host`);
    },
  );
});

/**
 * Link and icon syntax in every string an asker or a workspace file controls: VS Code draws
 * `[label](command:…)` as a link it runs with commands allowed (in a quick input's prompt and
 * validation message, in notifications and dialogs) and `$(name)` as an icon. Elicit must show
 * both as the characters they are, and a click where the link would be must run nothing.
 */
describe('link and icon syntax from askers in code-server', { timeout: 900_000 }, () => {
  const record = newRecordFile();
  // The server's name (from mcp.json) is asker text too; a second entry, added by the last test, is
  // broken so that its problem, naming it, is shown as a notification.
  const serverName = `evil ${ICON} [Docs](command:workbench.action.openSettings)`;
  const brokenName = `broken ${LINK}`;
  const servers = { [serverName]: fixtureServer('hostile-server.mjs', { RECORD_FILE: record }) };
  let session: ElicitSession;

  before(async () => {
    session = await openElicitSession(JSON.stringify({ servers }));
  });

  after(async () => {
    await session?.close();
  });

  async function outcome(tool: string): Promise<Record<string, unknown>> {
    return (await waitForRecords(record, 1, (r) => r.tool === tool, 30_000)).at(-1)!;
  }

  async function runTool(tool: string): Promise<void> {
    const { page } = session.workbench;
    await waitForNoQuickInput(page, 'the last question to close');
    // The result of the last tool, opening a moment after its answer, can take the keyboard from the
    // tool list: the list stays open for the click all the same.
    await runMcpTool(page, tool, undefined, {
      inspectToolList: async (list) => {
        assert.ok(list.title?.startsWith('Run MCP Tool · evil'), list.title);
        await assertInert(page, 'the tool list (its title has the server name)');
      },
    });
  }

  /** No link and no asker icon in the quick input, the notifications or a dialog. */
  async function assertInert(page: Page, where: string): Promise<void> {
    const found = await page.evaluate(() => {
      const roots = Array.from(
        document.querySelectorAll('.quick-input-widget, .notifications-toasts, .notifications-center, .monaco-dialog-box'),
      );
      return {
        links: roots
          .flatMap((root) =>
            Array.from(root.querySelectorAll('a[href]'))
              // VS Code's own notice of a forwarded port ("See all forwarded ports") is a link of VS Code's,
              // not asker text. (No named function in here: the page has no helper for one's name.)
              .filter((a) => !(a.closest('.notification-list-item')?.textContent ?? '').includes('See all forwarded ports'))
              .map((a) => a.getAttribute('href') ?? ''),
          )
          .filter((href) => /^(command|https?|file):/i.test(href)),
        icons: roots.reduce((n, root) => n + root.querySelectorAll('.codicon-flame').length, 0),
      };
    });
    assert.deepEqual(found.links, [], `links in ${where}`);
    assert.equal(found.icons, 0, `an icon from asker text in ${where}`);
  }

  async function settingsOpened(page: Page): Promise<boolean> {
    return (
      (await page.locator('.settings-editor').count()) > 0 ||
      (await page.locator('.tabs-container .tab .label-name', { hasText: /^Settings$/ }).count()) > 0
    );
  }

  it('shows the message, title, description and pattern of an InputBox as text; clicking the would-be link runs nothing', async () => {
    const { page } = session.workbench;
    await runTool('hostile_links_text');
    const box = await waitForQuickInput(page, (q) => q.message?.includes('Your session expired') === true);
    assert.ok(box.message?.includes('[Open Settings]') && box.message.includes('(flame)'), JSON.stringify(box.message));
    assert.ok(box.title?.startsWith('evil $') && box.title.includes('[Docs]'), JSON.stringify(box.title));
    await assertInert(page, 'the InputBox');
    await screenshot(page, 'hostile-links-inputbox');
    await page.locator('.quick-input-widget .quick-input-message').getByText('Open Settings').first().click();
    await page.waitForTimeout(1_000);
    assert.equal(await settingsOpened(page), false, 'a click on the text opened the Settings editor');
    await typeText(page, 'abc');
    const invalid = await waitForQuickInput(page, (q) => q.message?.includes('Not in the form this field asks for') === true);
    // The mismatch quotes the field's description (link syntax and all, inert), never the pattern.
    assert.match(invalid.message ?? '', /Paste it \[Open Settings\].* · ⚠ Not in the form this field asks for$/);
    assert.doesNotMatch(invalid.message ?? '', /\[0-9\]/, 'the pattern is not shown');
    await assertInert(page, 'the validation message');
    await pressKey(page, 'Escape');
    assert.deepEqual((await outcome('hostile_links_text')).result, { action: 'cancel' });
  });

  it('shows option titles with link and icon syntax as text in a QuickPick', async () => {
    const { page } = session.workbench;
    await runTool('hostile_links_choice');
    const pick = await waitForQuickInput(page, (q) => q.items.some((i) => i.label.startsWith('Free')));
    assert.ok(pick.items[0]!.label.includes('[Open Settings]') && pick.items[0]!.label.includes('(flame)'), pick.items[0]!.label);
    await assertInert(page, 'the QuickPick');
    await pickQuickPickItem(page, pick.items[1]!.label);
    assert.deepEqual((await outcome('hostile_links_choice')).result, { action: 'accept', content: { plan: 'pro' } });
  });

  it("shows a URL question's message as text in the consent dialog", async () => {
    const { page } = session.workbench;
    await runTool('hostile_links_url');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 20_000 });
    assert.match((await dialog.textContent()) ?? '', /Sign in again .*\[Open Settings\]/);
    await assertInert(page, 'the URL consent dialog');
    await dialog.getByText('Open Settings').first().click();
    assert.equal(await settingsOpened(page), false, 'a click in the dialog opened the Settings editor');
    await dialog.locator('.dialog-buttons').getByRole('button', { name: 'Decline', exact: true }).click();
    assert.deepEqual((await outcome('hostile_links_url')).result, { action: 'decline' });
  });

  it("shows a server's error with link syntax as text in the notification", async () => {
    const { page } = session.workbench;
    await runTool('hostile_error_link');
    await outcome('hostile_error_link');
    const shown = await waitForNotification(page, 'Quota exceeded');
    assert.ok(shown.includes('[Open Settings]'), shown);
    await assertInert(page, 'the error notification');
    await page.locator('.notification-toast-container .notification-list-item-message').getByText('Open Settings').first().click();
    await page.waitForTimeout(1_000);
    assert.equal(await settingsOpened(page), false, 'a click in the notification opened the Settings editor');
    await screenshot(page, 'hostile-links-notification');
  });

  it('shows a problem of mcp.json naming a server with link syntax as text', async () => {
    const { page } = session.workbench;
    // An entry the repository's mcp.json gains, with link syntax in its name and no command.
    const broken = { servers: { ...servers, [brokenName]: { type: 'stdio' } } };
    fs.writeFileSync(path.join(session.workspaceDir, '.vscode', 'mcp.json'), JSON.stringify(broken));
    const shown = await waitForNotification(page, 'broken [Open Settings]');
    assert.ok(shown.includes('command:workbench.action.openSettings'), shown);
    await assertInert(page, 'the configuration problem notification');
  });
});

/**
 * You saved a token for your own "github" server (the elicit.servers setting); later a cloned repo's
 * mcp.json names its server "github" too. It is listed first and takes the name ("github"), yours
 * becomes "github (2)". A secret is kept under the origin of the server it was given to (the config it
 * comes from, its command and arguments), so the look-alike is not offered it, and yours still is.
 */
describe('a workspace server named like one of yours in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  const OWN_TOKEN = 'ghp-e2e-own-server-7c1d44';
  let session: ElicitSession;

  before(async () => {
    const own = fixtureServer('ask-server.mjs', { RECORD_FILE: record, FIXTURE_NAME: 'own' });
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.servers': { github: own } });
  });

  after(async () => {
    await session?.close();
  });

  /** Run MCP Tool → (the server, when there are several) → ask_api_key. */
  async function askApiKey(server?: string): Promise<void> {
    const { page } = session.workbench;
    await waitForNoQuickInput(page, 'the last question to close');
    // With a server named: the list has caught up with mcp.json once your own server is "github (2)".
    await runMcpTool(page, 'ask_api_key', server, { serversReady: (q) => q.items.some((i) => i.label === 'github (2)') });
  }

  async function outcome(server: string, count: number): Promise<Record<string, unknown>> {
    return (await waitForRecords(record, count, (r) => r.server === server && r.tool === 'ask_api_key', 30_000)).at(-1)!;
  }

  it('keeps the token you gave your own "github" server', async () => {
    const { page } = session.workbench;
    await askApiKey();
    await waitForQuickInput(page, (q) => q.title === 'github asks · tool ask_api_key');
    await typeAndSubmit(page, OWN_TOKEN);
    assert.deepEqual((await outcome('own', 1)).result, { action: 'accept', content: { apiKey: OWN_TOKEN } });
  });

  it('does not offer it to a server a cloned repo names "github": it gets an empty password box', async () => {
    const { page } = session.workbench;
    const cloned = fixtureServer('ask-server.mjs', { RECORD_FILE: record, FIXTURE_NAME: 'impostor' });
    const mcpJson = { servers: { github: { ...cloned, args: [...(cloned.args as string[]), '--from-a-cloned-repo'] } } };
    fs.writeFileSync(path.join(session.workspaceDir, '.vscode', 'mcp.json'), JSON.stringify(mcpJson));
    await askApiKey('github');
    // Two sources name a server "github": each question says which one asks.
    const box = await waitForQuickInput(
      page,
      (q) => q.title === `github from ${path.basename(session.workspaceDir)}/.vscode/mcp.json asks · tool ask_api_key`,
    );
    assert.ok(!box.items.some((i) => i.label.includes('Use saved value')), JSON.stringify(box.items));
    assert.equal(await page.locator('.quick-input-widget .quick-input-box input').getAttribute('type'), 'password');
    assert.equal(box.value, '');
    await pressKey(page, 'Escape');
    assert.deepEqual((await outcome('impostor', 1)).result, { action: 'cancel' });
  });

  it('still offers it to your own server, now "github (2)"', async () => {
    const { page } = session.workbench;
    await askApiKey('github (2)');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label.includes('Use saved value')));
    await pickQuickPickItem(page, 'Use saved value');
    assert.deepEqual((await outcome('own', 2)).result, { action: 'accept', content: { apiKey: OWN_TOKEN } });
  });

  it('never writes the token into any file VS Code or the extension wrote', () => {
    assertNoSecretLeak(session, [OWN_TOKEN]);
  });
});
