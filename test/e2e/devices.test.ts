/**
 * Answering on a paired phone (issue #23) in a real VS Code: code-server with
 * `elicit.devices.address` on loopback, and phones played by Playwright's mobile
 * emulation (a phone-sized touch screen, a phone's user agent) in browser
 * contexts of their own, which trust nothing (ignoreHTTPSErrors: Elicit's
 * certificate is its own, compared here with the fingerprint the editor shows).
 *
 * Pairing completes only with the person's yes in the editor's modal, which
 * names the device and the digits the phone shows; then a form, a multi-select
 * and a round are answered on the phone and reach the fixture servers (what
 * they recorded, and the result the editor shows), leaving the editor; one is
 * declined there; a secret is kept for the editor; an ACP agent's permission
 * request offers allow once and reject only. Requests that must be
 * refused are refused alike (same status, same body): a wrong token, a wrong
 * Host, another site's Origin, plain HTTP. A revoked phone's next request is
 * refused while another paired phone's still works, and once no phone is
 * paired nothing listens. The device tokens are written nowhere in plain text.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { APIResponse, FrameLocator, Locator, Page } from 'playwright-core';
import {
  pickQuickPickItem,
  pressKey,
  readQuickInput,
  runCommand,
  runCommandShowing,
  runMcpTool,
  screenshot,
  waitForNoQuickInput,
  waitForNotification,
  waitForQuickInput,
  waitForRenderedText,
  webviewFrame,
} from './harness/workbench';
import { agentPanel, newAgentSession, send } from './agentPanelDriver';
import { fixtureServer, fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { screenshotDir } from './harness/runFolders';
import { DEVICE_COOKIE, newPhone, pairPhone, type Phone } from './harness/phone';
import { axeViolations, axeViolationsIn, setColorTheme, THEMES } from './harness/axe';
import { assertNoSecretLeak } from '../support/leakScan';
import { readRecords, newRecordFile, waitForRecords } from '../support/records';
import { waitUntil } from '../support/waitUntil';

const FIRST_PHONE = 'Ada’s Pixel 7';
const SECOND_PHONE = 'Grace’s Pixel 5';
const PANEL = 'Pair a Device';

describe('Answering on a paired phone in code-server', { timeout: 900_000 }, () => {
  const asks = newRecordFile();
  const songs = newRecordFile();
  const agent = newRecordFile();
  let session: ElicitSession;
  /** "https://127.0.0.1:PORT", read from the pairing link the editor shows. */
  let origin = '';
  /** The code of the first pairing (used up by it). */
  let firstCode = '';
  let first: Phone;
  let second: Phone;
  const phones: Phone[] = [];
  /** The device tokens (from the phones' cookie jars), for the leak scan at the end. */
  const tokens: string[] = [];
  /** Every 403 a refused request got: all must be alike. */
  const refusals: Array<{ why: string; status: number; body: string }> = [];

  before(async () => {
    const mcpJson = {
      servers: {
        'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: asks }),
        songs: fixtureServer('mrtr-server.mjs', { RECORD_FILE: songs, FIXTURE_NAME: 'songs' }),
      },
    };
    const agents = {
      fixture: {
        command: process.execPath,
        args: [path.join(fixtures, 'acp-agent.mjs')],
        env: { RECORD_FILE: agent, FIXTURE_NAME: 'fixture' },
      },
    };
    session = await openElicitSession(JSON.stringify(mcpJson), { 'elicit.devices.address': '127.0.0.1', 'elicit.agents': agents });
  });

  after(async () => {
    for (const phone of phones) await phone.context.close().catch(() => undefined);
    await session?.close();
  });

  const editor = (): Page => session.workbench.page;

  /** A phone (harness/phone.ts), closed when the file ends. */
  async function phoneOf(name: string, device: string): Promise<Phone> {
    const phone = await newPhone(session.workbench.browser, name, device);
    phones.push(phone);
    return phone;
  }

  async function panel(): Promise<FrameLocator> {
    return webviewFrame(editor(), PANEL);
  }

  /** The phone's card for the waiting question that says `message` (or whose asker line says it). */
  function card(phone: Phone, text: string): Locator {
    return phone.page.locator('article.card').filter({ hasText: text });
  }

  /** The tool's editor tab (a form) is gone: the question left the editor. */
  async function tabCloses(title: string): Promise<void> {
    const tabs = editor().locator('.tabs-container .tab', { hasText: title });
    await waitUntil(async () => (await tabs.count()) === 0, `the tab "${title}" to close`, 15_000);
  }

  /** Elicit's status bar item for paired devices. */
  function deviceStatus(): Locator {
    return editor().locator('.statusbar-item', { hasText: /Elicit: \d+ devices?/ });
  }

  async function statusShows(text: string): Promise<void> {
    const shown = async (): Promise<string[]> => (await deviceStatus().allTextContents()).map((t) => t.trim());
    await waitUntil(async () => (await shown()).includes(text), `the status bar to say "${text}"`, 10_000).catch(async (error: Error) => {
      const all = (await editor().locator('.statusbar-item').allTextContents()).map((t) => t.trim()).filter(Boolean);
      throw new Error(`${error.message}; the status bar shows ${JSON.stringify(all)}`);
    });
  }

  async function refused(why: string, response: APIResponse): Promise<void> {
    const body = await response.text();
    assert.equal(response.status(), 403, `${why}: ${body}`);
    refusals.push({ why, status: response.status(), body });
  }

  /** The phone's own API request (its cookie jar: the device cookie goes along). */
  function api(phone: Phone, route: string, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; data?: unknown } = {}) {
    const url = `${origin}/${route}`;
    return options.method === 'POST'
      ? phone.page.request.post(url, { headers: options.headers, data: options.data, failOnStatusCode: false })
      : phone.page.request.get(url, { headers: options.headers, failOnStatusCode: false });
  }

  /**
   * Pairs `phone` as a person does (harness/phone.ts); while the editor's modal asks, takes the
   * pictures of both screens and checks the phone's questions are still refused.
   */
  async function pair(phone: Phone, link: string, shot: string): Promise<void> {
    const token = await pairPhone(editor(), phone, link, async () => {
      await screenshot(editor(), `device-confirm-${shot}`);
      await phone.page.screenshot({ path: path.join(screenshotDir, `device-phone-confirm-${shot}.png`) });
      await refused('a phone not yet confirmed', await api(phone, 'api/questions'));
    });
    tokens.push(token);
  }

  it('pairs a phone from the pairing link, only after the person confirms its name and digits in the editor', async () => {
    await runCommand(editor(), 'Elicit: Answer on Another Device…');
    const frame = await panel();
    const urlText = frame.locator('#pairing-url');
    await urlText.waitFor({ timeout: 30_000 });
    const link = ((await urlText.textContent()) ?? '').trim();
    const code = ((await frame.locator('#pairing-code').textContent()) ?? '').trim();
    assert.match(code, /^[A-Z0-9]{3}-[A-Z0-9]{3}$/);
    firstCode = code;
    const parsed = /^(https:\/\/127\.0\.0\.1:(\d+))\/#code=([A-Z0-9-]+)$/.exec(link);
    assert.ok(parsed, `an HTTPS link on loopback with the code in its fragment: ${link}`);
    assert.equal(parsed[3], code);
    origin = parsed[1]!;
    assert.equal((await frame.locator('svg#qr rect').count()) > 10, true, 'a QR code of the link');

    // The fingerprint shown is the one of the certificate the server really presents.
    const shownFingerprint = ((await frame.locator('#fingerprint').textContent()) ?? '').replace(/[^0-9A-Fa-f]/g, '').toUpperCase();
    const served = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port: Number(parsed[2]), rejectUnauthorized: false }, () => {
        resolve(socket.getPeerX509Certificate()!.fingerprint256.replace(/:/g, ''));
        socket.end();
      });
      socket.on('error', reject);
    });
    assert.equal(shownFingerprint, served);
    await screenshot(editor(), 'device-pairing-panel');
    // The pairing page passes WCAG 2.1 A and AA (axe-core) in the three themes (issue #34 item 2).
    for (const theme of THEMES) {
      await setColorTheme(editor(), theme);
      const violations = await axeViolations(await panel());
      assert.deepEqual(violations, [], `pairing page, ${theme.name}: ${JSON.stringify(violations, null, 2)}`);
    }
    await setColorTheme(editor(), THEMES[0]);

    first = await phoneOf(FIRST_PHONE, 'Pixel 7');
    await pair(first, link, 'first');
    await first.page.getByRole('heading', { name: 'No questions waiting' }).waitFor();
    await first.page.screenshot({ path: path.join(screenshotDir, 'device-phone-paired.png') });

    const listed = (await panel()).locator('#devices li');
    await waitUntil(async () => (await listed.count()) === 1, 'the panel lists the paired phone');
    assert.match((await listed.first().textContent()) ?? '', new RegExp(FIRST_PHONE));
    await statusShows('Elicit: 1 device');
    // The code was used up: the same link pairs nothing more.
    const again = await phoneOf('Mallory’s phone', 'Pixel 5');
    await again.page.goto(link);
    await again.page.getByRole('textbox', { name: 'Name of this phone' }).fill('Mallory’s phone');
    await again.page.getByRole('button', { name: 'Pair' }).tap();
    await again.page.getByText('That code did not work').waitFor({ timeout: 10_000 });
    assert.equal(await editor().locator('.monaco-dialog-box').count(), 0, 'the editor is not asked');
    await again.context.close();
  });

  it('answers a form of many fields on the phone: the server gets its answers and the form leaves the editor', async () => {
    const title = 'ask-server asks · tool ask_everything';
    await runMcpTool(editor(), 'ask_everything', 'ask-server');
    const form = await webviewFrame(editor(), title);
    await form.locator('.field[data-name="name"] input.text-input').waitFor({ timeout: 30_000 });

    const { page } = first;
    // An in-page alert names the asker the moment the question arrives.
    const alert = page.getByRole('alert').filter({ hasText: 'New question from ask-server' });
    await alert.waitFor({ timeout: 10_000 });
    const question = card(first, 'Please provide inputs for the following fields:');
    await question.waitFor();
    // It floats at the bottom, never over the question at the top of the list, and a tap dismisses it.
    const [alertBox, headerBox] = await Promise.all([alert.boundingBox(), question.locator('header').boundingBox()]);
    assert.ok(alertBox && headerBox && alertBox.y >= headerBox.y + headerBox.height, JSON.stringify({ alertBox, headerBox }));
    await alert.tap();
    await alert.waitFor({ state: 'detached', timeout: 1000 });
    assert.match((await question.locator('header').textContent()) ?? '', /ask-server/);
    // The page follows the phone's own light or dark setting, and passes WCAG 2.1 A and AA (axe-core) in both.
    const backgrounds = { light: ['rgb(246, 246, 246)', 'rgb(255, 255, 255)'], dark: ['rgb(18, 18, 18)', 'rgb(30, 30, 30)'] };
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const shown = await page.evaluate(() =>
        [document.body, document.querySelector('.card')!].map((el) => getComputedStyle(el).backgroundColor),
      );
      assert.deepEqual(shown, backgrounds[colorScheme], `backgrounds, ${colorScheme}`);
      assert.deepEqual(await axeViolationsIn(page.mainFrame()), [], `axe, ${colorScheme}`);
    }
    await page.screenshot({ path: path.join(screenshotDir, 'device-phone-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await question.getByRole('textbox', { name: 'String', exact: true }).fill('Grace Hopper');
    await question.getByRole('textbox', { name: 'String with email format' }).fill('grace@example.com');
    await question.getByRole('checkbox', { name: 'Boolean', exact: true }).tap();
    await question.getByRole('textbox', { name: 'Integer' }).fill('7');
    await question.getByRole('radio', { name: 'Rachel' }).tap();
    await question.getByRole('checkbox', { name: 'Drums' }).tap();
    await question.getByRole('radio', { name: 'Wonder Woman' }).tap();
    await question.getByRole('checkbox', { name: 'Salmon' }).tap();
    await question.getByRole('radio', { name: 'Dogs' }).tap();
    await page.screenshot({ path: path.join(screenshotDir, 'device-phone-form.png'), fullPage: true });
    await question.getByRole('button', { name: 'Submit' }).tap();

    const [entry] = await waitForRecords(asks, 1, (r) => r.tool === 'ask_everything');
    assert.deepEqual(entry!.result, {
      action: 'accept',
      content: {
        name: 'Grace Hopper',
        check: true,
        firstLine: 'It was a dark and stormy night.',
        email: 'grace@example.com',
        integer: 7,
        number: 3.14,
        untitledSingleSelectEnum: 'Rachel',
        untitledMultipleSelectEnum: ['Guitar', 'Drums'],
        titledSingleSelectEnum: 'hero-3',
        titledMultipleSelectEnum: ['fish-1', 'fish-2'],
        legacyTitledEnum: 'pet-2',
      },
    });
    await tabCloses(title);
    await waitForRenderedText(editor(), '"name":"Grace Hopper"');
    await question.waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByRole('heading', { name: 'No questions waiting' }).waitFor();
  });

  it('answers a multi-select on the phone, its limits checked there; the quick pick leaves the editor', async () => {
    await runMcpTool(editor(), 'ask_instruments', 'ask-server');
    await waitForQuickInput(
      editor(),
      (q) => q.title === 'ask-server asks · tool ask_instruments' && q.items.some((i) => i.label === 'Drums'),
    );
    const question = card(first, 'Which instruments play the intro?');
    await question.waitFor({ timeout: 20_000 });
    const box = (label: string): Locator => question.getByRole('checkbox', { name: label });
    assert.equal(await box('Piano').isChecked(), true, 'the default is ticked');
    // Three ticked where at most two may be: refused on the phone, nothing sent.
    await box('Guitar').tap();
    await box('Drums').tap();
    await question.getByRole('button', { name: 'Submit' }).tap();
    await question.locator('.field-error').filter({ hasText: /\S/ }).first().waitFor({ timeout: 5_000 });
    await first.page.waitForTimeout(1000);
    assert.equal(readRecords(asks).filter((r) => r.tool === 'ask_instruments').length, 0, 'nothing reached the server');
    assert.ok(await readQuickInput(editor()), 'the question still waits in the editor');

    await box('Piano').tap();
    await first.page.screenshot({ path: path.join(screenshotDir, 'device-phone-multi-select.png') });
    await question.getByRole('button', { name: 'Submit' }).tap();
    const [entry] = await waitForRecords(asks, 1, (r) => r.tool === 'ask_instruments');
    assert.deepEqual(entry!.result, { action: 'accept', content: { instruments: ['Guitar', 'Drums'] } });
    await waitForNoQuickInput(editor(), 'the quick pick to close');
    await waitForRenderedText(editor(), '"instruments":["Guitar","Drums"]');
    await question.waitFor({ state: 'detached', timeout: 10_000 });
  });

  // Issue #34 item 3: the slider beside a bounded number, stars for a rating, a row for a small range,
  // and each option's preview, on the phone too.
  it('answers a slider, stars, a small range and an option with its preview on the phone, by touch', async () => {
    await runMcpTool(editor(), 'ask_clip_review', 'ask-server');
    await webviewFrame(editor(), 'ask-server asks · tool ask_clip_review');
    const question = card(first, 'Review the clip');
    await question.waitFor({ timeout: 20_000 });
    const slider = question.getByRole('slider', { name: 'Desired BPM' });
    assert.equal(await slider.inputValue(), '120', 'the slider starts at the default');
    const track = (await slider.boundingBox())!;
    await first.page.touchscreen.tap(track.x + track.width - 2, track.y + track.height / 2);
    await waitUntil(async () => (await question.getByRole('textbox', { name: 'Desired BPM' }).inputValue()) === '180', 'the box follows');
    await question.getByRole('radiogroup', { name: 'Rating' }).locator('.scale-option').nth(4).tap();
    assert.equal(await question.getByRole('radio', { name: '5 stars' }).isChecked(), true);
    await question.getByRole('radiogroup', { name: 'Take' }).locator('.scale-option', { hasText: '3' }).tap();
    const grid = question.locator('.option-detail', { hasText: 'Cards in rows' });
    assert.match(await grid.locator('.option-preview').innerText(), /│ A {2}│ │ B {2}│/);
    assert.equal(await question.locator('.option-preview b').count(), 0, 'a preview is text, never HTML');
    await question.getByRole('radio', { name: 'Grid' }).tap();
    await first.page.screenshot({ path: path.join(screenshotDir, 'device-phone-seed-widgets.png') });
    await question.getByRole('button', { name: 'Submit' }).tap();
    const [entry] = await waitForRecords(asks, 1, (r) => r.tool === 'ask_clip_review');
    assert.deepEqual(entry!.result, { action: 'accept', content: { bpm: 180, rating: 5, take: 3, layout: 'grid' } });
    await question.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('answers a four-question round on the phone: the server receives all four in one retry', async () => {
    const title = 'songs asks · tool song_sketch';
    await runMcpTool(editor(), 'song_sketch', 'songs');
    const form = await webviewFrame(editor(), title);
    await form.locator('.field[data-name="0:name"]').waitFor({ timeout: 30_000 });

    const question = card(first, 'songs');
    await question.waitFor({ timeout: 20_000 });
    // Each question of the round under its own words, as the editor's form shows them.
    assert.deepEqual(await question.locator('.section-message').allTextContents(), [
      'What is the song called?',
      'Which key?',
      'How fast?',
      'Loop the sketch?',
    ]);
    await question.getByRole('textbox', { name: 'Song name' }).fill('Amber');
    await question.getByRole('radio', { name: 'A minor' }).tap();
    await question.getByRole('textbox', { name: 'BPM' }).fill('96');
    await question.getByRole('checkbox', { name: 'Loop' }).tap();
    await first.page.screenshot({ path: path.join(screenshotDir, 'device-phone-round.png'), fullPage: true });
    await question.getByRole('button', { name: 'Submit' }).tap();

    const legs = await waitForRecords(songs, 2, (r) => r.tool === 'song_sketch');
    assert.deepEqual(legs[1]!.inputResponses, {
      name: { action: 'accept', content: { name: 'Amber' } },
      key: { action: 'accept', content: { key: 'Am' } },
      bpm: { action: 'accept', content: { bpm: 96 } },
      loop: { action: 'accept', content: { loop: true } },
    });
    await tabCloses(title);
    await waitForRenderedText(editor(), 'Sketched "Amber" in Am at 96 BPM, looped');
    await question.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('declines on the phone: the asker is told so, and the question leaves the editor', async () => {
    await runMcpTool(editor(), 'ask_name', 'ask-server');
    await waitForQuickInput(editor(), (q) => q.title === 'ask-server asks · tool ask_name');
    const question = card(first, 'What is your name?');
    await question.waitFor({ timeout: 20_000 });
    await question.getByRole('button', { name: 'Decline' }).tap();
    const [entry] = await waitForRecords(asks, 1, (r) => r.tool === 'ask_name');
    assert.deepEqual(entry!.result, { action: 'decline' });
    await waitForNoQuickInput(editor(), 'the input box to close');
    await waitForRenderedText(editor(), 'The person chose decline.');
  });

  it('keeps a secret for the editor: the phone says so, shows no field and cannot answer it', async () => {
    await runMcpTool(editor(), 'ask_api_key', 'ask-server');
    await waitForQuickInput(editor(), (q) => q.title === 'ask-server asks · tool ask_api_key');
    const question = card(first, 'answer this in the editor');
    await question.waitFor({ timeout: 20_000 });
    assert.match((await question.textContent()) ?? '', /It asks for a secret: answer this in the editor\./);
    assert.match((await question.locator('header').textContent()) ?? '', /ask-server/);
    assert.equal(await question.locator('input, textarea, button').count(), 0, 'no field, no button');
    assert.doesNotMatch((await first.page.locator('#app').textContent()) ?? '', /API key/, 'nothing of what it asks');
    await first.page.screenshot({ path: path.join(screenshotDir, 'device-phone-secret.png') });

    // Sent anyway, from the phone's own page origin: refused, the question still waits in the editor.
    const listed = (await (await api(first, 'api/questions')).json()) as { questions: Array<{ id: number; kind: string }> };
    const secret = listed.questions.find((q) => q.kind === 'editorOnly');
    assert.ok(secret, JSON.stringify(listed));
    const sent = await api(first, `api/questions/${secret.id}`, {
      method: 'POST',
      headers: { origin },
      data: { action: 'accept', content: { apiKey: 'sk-typed-on-the-phone' } },
    });
    assert.equal(sent.status(), 422);
    assert.equal(readRecords(asks).filter((r) => r.tool === 'ask_api_key').length, 0);
    assert.ok(await readQuickInput(editor()), 'still asked in the editor');

    await pressKey(editor(), 'Escape');
    const [entry] = await waitForRecords(asks, 1, (r) => r.tool === 'ask_api_key');
    assert.deepEqual(entry!.result, { action: 'cancel' });
    await question.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('answers an agent’s permission request on the phone with allow once or reject only; a lasting choice is refused there', async () => {
    await newAgentSession(editor(), 'fixture', false);
    await send(await agentPanel(editor(), 'fixture'), 'permission');
    await waitForQuickInput(editor(), (q) => q.items.some((i) => i.label === 'Always allow'));
    const question = card(first, 'Run the tests');
    await question.waitFor({ timeout: 20_000 });
    assert.match((await question.locator('header').textContent()) ?? '', /fixture/);
    assert.deepEqual(
      (await question.getByRole('button').allTextContents()).map((t) => t.trim()),
      ['Allow once', 'Reject'],
      'no choice that lasts',
    );
    await first.page.screenshot({ path: path.join(screenshotDir, 'device-phone-permission.png') });

    // A lasting choice sent anyway, from the page's own origin: refused, the editor still asks.
    const listed = (await (await api(first, 'api/questions')).json()) as { questions: Array<{ id: number; kind: string }> };
    const permission = listed.questions.find((q) => q.kind === 'permission');
    assert.ok(permission, JSON.stringify(listed));
    const lasting = await api(first, `api/questions/${permission.id}`, {
      method: 'POST',
      headers: { origin },
      data: { action: 'select', optionId: 'allow-always' },
    });
    assert.notEqual(lasting.status(), 200);
    assert.equal(readRecords(agent).filter((r) => r.kind === 'permission').length, 0);
    assert.ok(await readQuickInput(editor()), 'still asked in the editor');

    await question.getByRole('button', { name: 'Allow once' }).tap();
    const [entry] = await waitForRecords(agent, 1, (r) => r.kind === 'permission');
    assert.deepEqual(entry!.result, { outcome: { outcome: 'selected', optionId: 'allow-once' } });
    await waitForNoQuickInput(editor(), 'the permission pick to close');
    await question.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('counts down an agent’s own timer on the phone, as the editor does; a Decline there reaches the agent', async () => {
    const asked = readRecords(agent).filter((r) => r.kind === 'agent-question').length;
    // claude's questions: codex's have a secret field, kept for the editor (its card counts down as well).
    await newAgentSession(editor(), 'fixture', false);
    await send(await agentPanel(editor(), 'fixture'), 'agent-question-timed claude-ask 90000');
    const question = card(first, 'Which package manager should I use?');
    await question.waitFor({ timeout: 20_000 });
    const countdown = question.locator('.countdown');
    const shown = (await countdown.textContent()) ?? '';
    assert.match(shown, /^fixture answers for you in 1:[0-3]\d \(its own timer\)$/);
    await waitUntil(async () => ((await countdown.textContent()) ?? '') !== shown, 'the countdown to move');
    // Screen readers are told through a polite region of the card's own, not every second.
    assert.equal(await countdown.getAttribute('aria-live'), 'off');
    assert.match((await question.locator('[role="status"][aria-live="polite"]').textContent()) ?? '', /^fixture answers for you in 1:/);
    await first.page.screenshot({ path: path.join(screenshotDir, 'device-phone-countdown.png') });
    // The editor's Pending Questions row counts it down too.
    await runCommand(editor(), 'Elicit: Focus on Pending Questions View');
    const row = editor()
      .locator('.pane')
      .filter({ has: editor().locator('.pane-header', { hasText: 'Pending Questions' }) })
      .locator('.monaco-list-row .label-description', { hasText: 'left on its timer' });
    await row.waitFor({ timeout: 10_000 });
    const listed = (await row.textContent()) ?? '';
    assert.match(listed, /^fixture · .* · 1:[0-3]\d left on its timer · /);
    await waitUntil(async () => ((await row.textContent()) ?? '') !== listed, 'the row’s countdown to move');
    await question.getByRole('button', { name: 'Decline' }).tap();
    const answers = await waitForRecords(agent, asked + 1, (r) => r.kind === 'agent-question');
    assert.deepEqual(answers.at(-1)!.result, { action: 'decline' });
    await question.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('refuses a wrong token, a wrong Host, another site’s Origin and plain HTTP alike, learning nothing', async () => {
    // A question waits, so a refused answer would have something to answer.
    await runMcpTool(editor(), 'ask_confirm', 'ask-server');
    await waitForQuickInput(editor(), (q) => q.title === 'ask-server asks · tool ask_confirm');
    const own = await api(first, 'api/questions');
    assert.equal(own.status(), 200, 'the phone itself is served');
    const { questions } = (await own.json()) as { questions: Array<{ id: number; message?: string }> };
    const waiting = questions.find((q) => q.message === 'Publish the release notes?');
    assert.ok(waiting);

    const wrongToken = randomBytes(32).toString('base64url');
    await refused('a wrong token', await api(first, 'api/questions', { headers: { cookie: `${DEVICE_COOKIE}=${wrongToken}` } }));
    const port = new URL(origin).port;
    await refused('a wrong Host', await api(first, 'api/questions', { headers: { host: `evil.example:${port}` } }));
    await refused(
      'another site’s Origin on a POST',
      await api(first, `api/questions/${waiting.id}`, {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
        data: { action: 'accept', content: { publish: true } },
      }),
    );
    await refused(
      'a POST without Origin',
      await api(first, `api/questions/${waiting.id}`, { method: 'POST', data: { action: 'accept', content: { publish: true } } }),
    );
    let plain: string;
    try {
      const response = await first.page.request.get(`http://127.0.0.1:${port}/api/questions`, { timeout: 10_000, failOnStatusCode: false });
      plain = `answered ${response.status()}`;
    } catch (error) {
      plain = `failed: ${(error as Error).message.split('\n')[0]}`;
    }
    assert.match(plain, /^failed: /, 'plain HTTP gets no HTTP answer');

    assert.equal(readRecords(asks).filter((r) => r.tool === 'ask_confirm').length, 0, 'nothing refused reached the server');
    assert.ok(await readQuickInput(editor()), 'the question still waits');
    for (const refusal of refusals) assert.deepEqual([refusal.status, refusal.body], [refusals[0]!.status, refusals[0]!.body], refusal.why);

    // The same answer from the page's own origin is taken.
    const taken = await api(first, `api/questions/${waiting.id}`, {
      method: 'POST',
      headers: { origin },
      data: { action: 'accept', content: { publish: true } },
    });
    assert.equal(taken.status(), 200);
    const [entry] = await waitForRecords(asks, 1, (r) => r.tool === 'ask_confirm');
    assert.deepEqual(entry!.result, { action: 'accept', content: { publish: true } });
    await waitForNoQuickInput(editor(), 'the quick pick to close');
  });

  it('names the phone in the history of the questions it answered', async () => {
    await runCommand(editor(), 'Elicit: Show History');
    const history = await waitForRenderedText(editor(), 'Elicit question history');
    const text = (await history.locator('body').textContent()) ?? '';
    assert.match(text, new RegExp(`Answered on ${FIRST_PHONE}`), 'an answer given on the phone names it');
    assert.match(text, new RegExp(`Declined on ${FIRST_PHONE}`), 'so does a decline');
  });

  it('revokes a phone: its next request is refused while another paired phone is served; with none paired nothing listens', async () => {
    // A second phone, paired with a new code from the panel.
    await runCommand(editor(), 'Elicit: Answer on Another Device…');
    const frame = await panel();
    const codeText = frame.locator('#pairing-code');
    await codeText.waitFor({ timeout: 30_000 });
    const opened = ((await codeText.textContent()) ?? '').trim();
    await frame.getByRole('button', { name: 'New Code' }).first().click();
    await waitUntil(
      async () => (await codeText.count()) === 1 && ![firstCode, opened].includes(((await codeText.textContent()) ?? '').trim()),
      'a new pairing code',
      15_000,
    );
    const link = ((await frame.locator('#pairing-url').textContent()) ?? '').trim();
    const code = ((await codeText.textContent()) ?? '').trim();
    assert.equal(link, `${origin}/#code=${code}`, 'the link carries the code the panel shows');
    second = await phoneOf(SECOND_PHONE, 'Pixel 5');
    await pair(second, link, 'second');
    const rows = (await panel()).locator('#devices li');
    await waitUntil(async () => (await rows.count()) === 2, 'the panel lists both phones');
    await statusShows('Elicit: 2 devices');

    // Revoke the first from Manage Paired Devices.
    await runCommandShowing(editor(), 'Elicit: Manage Paired Devices…', (q) => q.items.some((i) => i.label === FIRST_PHONE));
    await pickQuickPickItem(editor(), FIRST_PHONE);
    await waitForQuickInput(editor(), (q) => q.items.some((i) => i.label === 'Revoke'));
    await pickQuickPickItem(editor(), 'Revoke');
    await waitForNotification(editor(), `${FIRST_PHONE} is no longer paired.`);

    await refused('a revoked phone', await api(first, 'api/questions'));
    assert.equal((await api(second, 'api/questions')).status(), 200, 'the other phone is still served');
    for (const refusal of refusals) assert.deepEqual([refusal.status, refusal.body], [refusals[0]!.status, refusals[0]!.body], refusal.why);
    await first.page.getByText('This phone is no longer paired.').waitFor({ timeout: 20_000 });
    await first.page.screenshot({ path: path.join(screenshotDir, 'device-phone-revoked.png') });
    await waitUntil(async () => (await rows.count()) === 1, 'the panel lists one phone');
    assert.match((await rows.first().textContent()) ?? '', new RegExp(SECOND_PHONE));

    // Revoke the last from the panel: nothing is paired, no code is open, so nothing listens.
    await (await panel()).getByRole('button', { name: `Revoke ${SECOND_PHONE}` }).click();
    await waitForNotification(editor(), `${SECOND_PHONE} is no longer paired.`);
    await (await panel()).getByText('None yet.').waitFor({ timeout: 10_000 });
    await waitUntil(
      async () => {
        try {
          const response = await api(second, 'api/questions');
          assert.equal(response.status(), 403, 'refused until the server stops');
          return false;
        } catch (error) {
          if (error instanceof assert.AssertionError) throw error;
          return /ECONNREFUSED/.test((error as Error).message);
        }
      },
      'the device server to stop listening',
      20_000,
    );
    await waitUntil(async () => (await deviceStatus().count()) === 0, 'the status bar item to go');
  });

  it('never writes a device token in plain text to any file VS Code or the extension wrote', () => {
    assert.equal(tokens.length, 2);
    assertNoSecretLeak(session, tokens);
  });
});
