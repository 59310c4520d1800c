/**
 * Answering on a paired device through VS Code's own forwarding (issue #23):
 * `elicit.devices.address: "forwarded"` in code-server. The device server
 * listens on loopback HTTP only; the phone reaches it through code-server's
 * port proxy (`vscode.env.asExternalUri`), behind code-server's own front
 * door. Pairs a phone-sized browser through that address, with the
 * confirmation in the editor, and answers a question there: it reaches the
 * phone live, through a proxy that compresses (events must not wait in its buffer).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, devices, type Browser, type Page } from 'playwright-core';
import { runCommand, runMcpTool, webviewFrame } from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, waitForRecords } from '../support/records';

describe('answering on a paired device through VS Code’s forwarding, in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  let session: ElicitSession;
  let browser: Browser;
  let phone: Page;

  before(async () => {
    const mcpJson = { servers: { 'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: record }) } };
    session = await openElicitSession(JSON.stringify(mcpJson), { 'elicit.devices.address': 'forwarded' });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    phone = await (await browser.newContext({ ...devices['Pixel 7'] })).newPage();
  });

  after(async () => {
    await browser?.close();
    await session?.close();
  });

  it('pairs through code-server’s port proxy and answers there; the cookie is kept to the proxy’s path', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: Answer on Another Device…');
    const panel = await webviewFrame(page, 'Pair a Device');
    const link = (await panel.locator('#pairing-url').textContent({ timeout: 30_000 }))!;
    const codeServer = new URL(session.server.url);
    const forwarded = new URL(link);
    assert.equal(forwarded.origin, codeServer.origin, `the link goes through code-server itself: ${link}`);
    const proxyPath = /^\/(?:.*\/)?proxy\/(\d+)\/$/.exec(forwarded.pathname);
    assert.ok(proxyPath, `a port proxy path: ${forwarded.pathname}`);
    assert.equal(await panel.locator('#fingerprint').count(), 0, 'no certificate of Elicit’s behind forwarding');

    await phone.goto(link);
    await phone.getByRole('textbox', { name: 'Name of this phone' }).fill('Forwarded Pixel');
    await phone.getByRole('button', { name: 'Pair' }).tap();
    const digits = (await phone.locator('.big').textContent({ timeout: 20_000 }))!.trim();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 20_000 });
    assert.match((await dialog.locator('.dialog-message-text').textContent()) ?? '', /Pair “Forwarded Pixel” with Elicit\?/);
    assert.ok(((await dialog.locator('.dialog-message-detail').textContent()) ?? '').includes(digits));
    await dialog.getByRole('button', { name: 'Pair', exact: true }).click();
    await phone.getByText('No questions waiting').waitFor({ timeout: 20_000 });

    const cookies = await phone.context().cookies();
    const device = cookies.find((c) => c.name.includes('elicit-device'));
    assert.ok(device, 'the device cookie is set');
    assert.equal(device.path, forwarded.pathname, 'kept to the proxy’s path: code-server’s other pages never get it');
    assert.ok(device.httpOnly);
    assert.equal(device.sameSite, 'Strict');

    await runMcpTool(page, 'ask_name');
    const card = phone.locator('article.card').first();
    await card.waitFor({ timeout: 20_000 });
    await card.locator('input').first().fill('from the proxy');
    await card.getByRole('button', { name: 'Submit' }).tap();
    const [answer] = await waitForRecords(record, 1);
    assert.deepEqual((answer as { result: { action: string } }).result.action, 'accept');
    assert.ok(JSON.stringify(answer).includes('from the proxy'));
  });
});
