/**
 * Location questions in a real VS Code (code-server), asked by another extension through the
 * `elicit_ask_user` tool and the public API, answered on a phone played by Playwright's mobile
 * emulation whose geolocation is granted and set to a known place (the Brandenburg Gate).
 *
 * The editor's quick pick says the question needs the phone and offers to pair one; the person pairs
 * from it, and Share on the phone sends the known place to the asker; at low accuracy the rounded
 * place; with the browser's permission taken away, `denied`. In the editor the person can type a place
 * instead (`{place}`) or deny. The history holds "location shared (about N m)" and no coordinates.
 * Assertions are on what the asking extension received.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { packageExtension } from './harness/extensionVsix';
import {
  clickAtPersonsPace,
  pickQuickPickItem,
  runCommand,
  screenshot,
  typeAndSubmit,
  waitForNoQuickInput,
  waitForNotification,
  waitForQuickInput,
  waitForRenderedText,
  webviewFrame,
} from './harness/workbench';
import { screenshotDir } from './harness/runFolders';
import { newPhone, pairPhone, type Phone } from './harness/phone';
import { fixtures, openElicitSession, type ElicitSession } from './elicitSession';
import { waitForFile } from '../support/waitUntil';

const PHONE = 'Ada’s Pixel 7';
const GATE = { latitude: 52.516275, longitude: 13.377704, accuracy: 12 };
const TOOL_REASON = 'To show the weather where you are';
const API_REASON = 'To suggest cafés nearby';

describe('Location questions answered on a paired phone, in code-server', { timeout: 900_000 }, () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-location-'));
  let session: ElicitSession;
  let phone: Phone;
  /** The phone page's origin, "https://127.0.0.1:PORT". */
  let origin = '';

  before(async () => {
    const companion = await packageExtension(path.join(fixtures, 'companion-extension'));
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.devices.address': '127.0.0.1' }, { COMPANION_OUT: out }, [
      companion,
    ]);
  });

  after(async () => {
    try {
      await phone?.context.close().catch(() => undefined);
      await session?.close();
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  const editor = (): Page => session.workbench.page;

  /** Runs a companion command; returns what it received once it did. */
  async function ask(command: string, result: string): Promise<() => Promise<Record<string, unknown>>> {
    const file = path.join(out, `${result}.json`);
    fs.rmSync(file, { force: true });
    await runCommand(editor(), command);
    return async () => {
      const written = JSON.parse(await waitForFile(file, 60_000)) as unknown;
      return (Array.isArray(written) ? JSON.parse(written[0] as string) : written) as Record<string, unknown>;
    };
  }

  async function editorPick(reason: string): Promise<void> {
    const shown = await waitForQuickInput(editor(), (q) => (q.title ?? '').includes('asks for your location'), 30_000);
    assert.match(shown.title!, new RegExp(`asks for your location · ${reason}`));
    assert.match(shown.placeholder ?? '', /Share it from your paired phone/);
    assert.deepEqual(
      shown.items.map((i) => i.label.trim()),
      ['Pair a Phone…', 'Type a Place Instead…', 'Deny'],
    );
  }

  function card(text: string): Locator {
    return phone.page.locator('article.card.location').filter({ hasText: text });
  }

  it('needs the phone: the editor offers to pair one, and Share on the paired phone sends the asker the known place', async () => {
    const answer = await ask('Companion: Ask Location via LM Tool', 'tool-location');
    await editorPick(TOOL_REASON);
    await screenshot(editor(), 'location-editor-pick');
    await pickQuickPickItem(editor(), 'Pair a Phone…');
    // The pick makes way for the Pair a Device tab; a notification says the question waits for the phone.
    await waitForNotification(editor(), 'asks for your location: share it on your phone once it is paired');
    await waitForNoQuickInput(editor(), 'the pick to make way for pairing');

    const panel = await webviewFrame(editor(), 'Pair a Device');
    const urlText = panel.locator('#pairing-url');
    await urlText.waitFor({ timeout: 30_000 });
    const link = ((await urlText.textContent()) ?? '').trim();
    origin = new URL(link).origin;
    phone = await newPhone(session.workbench.browser, PHONE, 'Pixel 7');
    // The phone's browser lets this page read its position, and is at the Brandenburg Gate.
    await phone.context.grantPermissions(['geolocation'], { origin });
    await phone.context.setGeolocation(GATE);
    await pairPhone(editor(), phone, link);

    // The question waited meanwhile: the phone shows who asks, why, and how precisely.
    const question = card(TOOL_REASON);
    await question.waitFor({ timeout: 20_000 });
    assert.match((await question.locator('header').textContent()) ?? '', /AI agent/);
    assert.match((await question.textContent()) ?? '', /Precise: as exact as this phone can tell/);
    await phone.page.screenshot({ path: path.join(screenshotDir, 'location-phone-card.png') });
    await clickAtPersonsPace(phone.page, question.getByRole('button', { name: 'Share' }));

    assert.deepEqual(await answer(), {
      action: 'accept',
      answer: { lat: GATE.latitude, lng: GATE.longitude, accuracy: GATE.accuracy },
      note: "Shared from the phone; accuracy is the phone's own estimate, in metres.",
    });
    await waitForNoQuickInput(editor(), 'the editor’s location pick to close');
    await question.waitFor({ state: 'detached', timeout: 10_000 });
    const waiting = editor().locator('.notification-toast-container', { hasText: 'asks for your location' });
    await waiting.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('low accuracy (public API): the phone sends the place rounded to 0.01°, its accuracy widened by the rounding', async () => {
    const answer = await ask('Companion: Ask Rough Location via API', 'api-location');
    await editorPick(API_REASON);
    const question = card(API_REASON);
    await question.waitFor({ timeout: 20_000 });
    assert.match((await question.locator('header').textContent()) ?? '', /elicit-test\.companion/);
    assert.match((await question.textContent()) ?? '', /Approximate: rounded on this phone to 0\.01° \(about 1 km\)/);
    await clickAtPersonsPace(phone.page, question.getByRole('button', { name: 'Share' }));
    const got = await answer();
    assert.deepEqual(got.action, 'accept');
    assert.deepEqual(got.location, { lat: 52.52, lng: 13.38, accuracy: 12 + 787 });
    await waitForNoQuickInput(editor(), 'the editor’s location pick to close');
  });

  it('with the browser’s permission refused, the asker receives denied', async () => {
    // As a person's "Block" in the browser's own prompt: this origin may not read the position.
    await phone.context.clearPermissions();
    const cdp = await phone.context.newCDPSession(phone.page);
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    await cdp.send('Browser.setPermission', {
      permission: { name: 'geolocation' },
      setting: 'denied',
      origin,
      browserContextId: targetInfo.browserContextId,
    });
    await cdp.detach();
    const answer = await ask('Companion: Ask Location via LM Tool', 'tool-location');
    await editorPick(TOOL_REASON);
    const question = card(TOOL_REASON);
    await question.waitFor({ timeout: 20_000 });
    await clickAtPersonsPace(phone.page, question.getByRole('button', { name: 'Share' }));
    const got = await answer();
    assert.equal(got.action, 'denied');
    assert.match(String(got.note), /The phone's browser refused access to its location/);
    assert.equal(got.answer, undefined);
    await waitForNoQuickInput(editor(), 'the editor’s location pick to close');
  });

  it('in the editor: a place typed instead reaches the asker as {place}; Deny as denied; the phone’s card goes', async () => {
    const typed = await ask('Companion: Ask Location via LM Tool', 'tool-location');
    await editorPick(TOOL_REASON);
    await card(TOOL_REASON).waitFor({ timeout: 20_000 });
    await pickQuickPickItem(editor(), 'Type a Place Instead…');
    await waitForQuickInput(editor(), (q) => (q.message ?? '').includes('A place to send instead of your position'));
    await typeAndSubmit(editor(), 'Lisbon, Alfama');
    assert.deepEqual(await typed(), {
      action: 'accept',
      answer: { place: 'Lisbon, Alfama' },
      note: 'The person typed a place instead of sharing a position.',
    });
    await card(TOOL_REASON).waitFor({ state: 'detached', timeout: 10_000 });

    const denied = await ask('Companion: Ask Location via LM Tool', 'tool-location');
    await editorPick(TOOL_REASON);
    await pickQuickPickItem(editor(), 'Deny');
    const got = await denied();
    assert.equal(got.action, 'denied');
    assert.match(String(got.note), /chose not to share/);
    await waitForNoQuickInput(editor(), 'the editor’s location pick to close');
  });

  it('the history says “location shared (about N m)” and holds no coordinates nor the typed place', async () => {
    await runCommand(editor(), 'Elicit: Show History');
    const history = await waitForRenderedText(editor(), 'Elicit question history');
    const text = (await history.locator('body').textContent()) ?? '';
    assert.match(text, /location shared \(about 12 m\)/);
    assert.match(text, /location shared \(about 799 m\)/);
    assert.match(text, new RegExp(`Answered on ${PHONE}`));
    for (const secret of ['52.5', '13.3', '52.52', 'Lisbon']) assert.ok(!text.includes(secret), `the history holds ${secret}`);
  });
});
