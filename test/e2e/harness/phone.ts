/**
 * A phone for the end-to-end tests, and its pairing as a person does it. The phone is Playwright's
 * emulation of a device (its viewport, touch and user agent) in a browser context of its own, with
 * its own cookie jar, which trusts nothing by name (ignoreHTTPSErrors: Elicit's certificate is its
 * own). Pairing: the link opened on the phone, its name typed, Pair tapped; then the person's yes in
 * the editor's modal, which names the phone and shows the digits it shows.
 */
import assert from 'node:assert/strict';
import { devices, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { clickAtPersonsPace } from './workbench';

/** The paired phone's device token: an HttpOnly cookie. */
export const DEVICE_COOKIE = '__Host-elicit-device';

export interface Phone {
  name: string;
  context: BrowserContext;
  page: Page;
}

/** A phone called `name`, of Playwright's `device` ("Pixel 7"), on no page yet. */
export async function newPhone(browser: Browser, name: string, device: string): Promise<Phone> {
  const context = await browser.newContext({ ...devices[device], ignoreHTTPSErrors: true });
  return { name, context, page: await context.newPage() };
}

/** The editor's modal asking whether to pair, as the person reads it. */
export interface PairingAsked {
  message: string;
  detail: string;
  /** The code the phone shows, which the modal shows too. */
  digits: string;
  box: Locator;
}

/**
 * Opens the pairing `link` on the phone, names it and taps Pair; checks that the page took the code
 * from the link (and out of the address), that the editor's modal names the phone and shows its
 * digits, and that nothing is paired before the person's yes; `beforeYes` runs while the modal asks.
 * Then says yes, and checks the phone holds its device cookie out of its scripts' reach. Returns the
 * device token.
 */
export async function pairPhone(
  editor: Page,
  phone: Phone,
  link: string,
  beforeYes: (asked: PairingAsked) => Promise<void> = async () => undefined,
): Promise<string> {
  const { page } = phone;
  const code = new URLSearchParams(new URL(link).hash.slice(1)).get('code');
  assert.ok(code, `the link carries the code in its fragment: ${link}`);
  await page.goto(link);
  const codeInput = page.getByRole('textbox', { name: 'Pairing code' });
  await codeInput.waitFor({ timeout: 20_000 });
  assert.equal(await codeInput.inputValue(), code, 'the page took the code from the link');
  assert.equal(new URL(page.url()).hash, '', 'and took it out of the address at once');
  await page.getByRole('textbox', { name: 'Name of this phone' }).fill(phone.name);
  await page.getByRole('button', { name: 'Pair' }).tap();
  const digits = ((await page.locator('.big').textContent({ timeout: 20_000 })) ?? '').trim();
  assert.match(digits, /^\d{4}$/, 'the phone shows a code of its own');
  assert.equal(((await page.locator('.name').textContent()) ?? '').trim(), phone.name);

  const box = editor.locator('.monaco-dialog-box');
  await box.waitFor({ timeout: 20_000 });
  const message = ((await box.locator('.dialog-message-text').textContent()) ?? '').trim();
  const detail = ((await box.locator('.dialog-message-detail').textContent()) ?? '').trim();
  assert.equal(message, `Pair “${phone.name}” with Elicit?`);
  assert.match(detail, new RegExp(`\\b${digits}\\b`), 'the modal shows the digits the phone shows');
  // Not paired before the person's yes: the phone holds no device cookie.
  assert.ok(!(await phone.context.cookies()).some((c) => c.name === DEVICE_COOKIE), 'no device cookie before the yes');
  await beforeYes({ message, detail, digits, box });

  await clickAtPersonsPace(editor, box.locator('.dialog-buttons').getByRole('button', { name: 'Pair', exact: true }));
  await page.getByRole('heading', { name: /^(No questions waiting|\d+ waiting)$/ }).waitFor({ timeout: 20_000 });
  const cookie = (await phone.context.cookies()).find((c) => c.name === DEVICE_COOKIE);
  assert.ok(cookie, 'the phone holds its device cookie');
  assert.deepEqual([cookie.httpOnly, cookie.secure, cookie.sameSite], [true, true, 'Strict']);
  assert.ok(cookie.value.length >= 43, 'a long token');
  assert.equal(await page.evaluate(() => document.cookie), '', 'no script on the page can read it');
  return cookie.value;
}
