/**
 * Answering on a paired device through VS Code's own forwarding (issue #23):
 * `elicit.devices.address: "forwarded"` in code-server. The device server
 * listens on loopback HTTP only; the phone reaches it through code-server's
 * port proxy (`vscode.env.asExternalUri`), behind code-server's own front
 * door, at an address of the port's own (code-server's --proxy-domain:
 * `http://<port>.localhost:<code-server's port>/`). Pairs a phone-sized browser
 * through that address, with the confirmation in the editor, and answers a
 * question there: it reaches the phone live, through a proxy that compresses
 * (events must not wait in its buffer). Forwarding under a path of code-server's
 * own address (`/proxy/<port>/`), which every forwarded port shares, is refused
 * (issue #33, finding 7).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, devices, type Browser, type Page } from 'playwright-core';
import * as http from 'node:http';
import { runCommand, runMcpTool, waitForNotification, waitForQuickInput, webviewFrame } from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { newRecordFile, waitForRecords } from '../support/records';

describe('answering on a paired device through VS Code’s forwarding, in code-server', { timeout: 600_000 }, () => {
  const record = newRecordFile();
  let session: ElicitSession;
  let browser: Browser;
  let phone: Page;
  let squatter: http.Server | undefined;
  let port = 0;

  before(async () => {
    const mcpJson = { servers: { 'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: record }) } };
    session = await openElicitSession(
      JSON.stringify(mcpJson),
      { 'elicit.devices.address': 'forwarded' },
      {},
      [],
      {},
      { portsOwnAddress: true },
    );
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    phone = await (await browser.newContext({ ...devices['Pixel 7'] })).newPage();
  });

  after(async () => {
    squatter?.close();
    await browser?.close();
    await session?.close();
  });

  it('pairs through code-server’s port proxy, at an address of the port’s own, and answers there', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: Answer on Another Device…');
    const panel = await webviewFrame(page, 'Pair a Device');
    const link = (await panel.locator('#pairing-url').textContent({ timeout: 30_000 }))!;
    const codeServer = new URL(session.server.url);
    const forwarded = new URL(link);
    const own = new RegExp(`^(\\d+)\\.localhost:${codeServer.port}$`).exec(forwarded.host);
    assert.ok(own, `an address of the port's own, through code-server: ${link}`);
    assert.equal(forwarded.pathname, '/');
    port = Number(own[1]);
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
    assert.equal(device.domain, forwarded.hostname, 'kept to the port’s own address: code-server and other ports never get it');
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

  // Issue #33, finding 6: the port taken while devices were off. Before, Elicit took the holder for another
  // of its windows and waited on it, while the phone's bookmark (plain HTTP behind the proxy) gave it the cookie.
  it('a program that took the port gets a challenge, never trust: the devices are signed out and the person told', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: Stop Answering on Other Devices');
    const seen: Array<{ path: string; cookie: string | undefined }> = [];
    squatter = http.createServer((req, res) => {
      seen.push({ path: req.url ?? '', cookie: req.headers.cookie });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"proof":"' + '00'.repeat(32) + '"}');
    });
    // The server stops a moment after the command: the squatter binds the port as soon as it is free.
    await new Promise<void>((resolve, reject) => {
      const attempt = (tries: number): void => {
        squatter!.once('error', (error) => (tries > 0 ? setTimeout(() => attempt(tries - 1), 200) : reject(error)));
        squatter!.listen(port, '127.0.0.1', () => resolve());
      };
      attempt(50);
    });
    // The person turns devices on again (to pair another phone): the port is found taken.
    await runCommand(page, 'Elicit: Answer on Another Device…');
    const warning = await waitForNotification(page, 'did not prove it is Elicit', 30_000);
    assert.match(warning, new RegExp(`Port ${port}, where Elicit served your paired devices`));
    assert.match(warning, /signed out 1 device\(s\)/);
    assert.ok(seen.length > 0 && seen.every((r) => r.path.startsWith('/elicit-proof/') && r.cookie === undefined), JSON.stringify(seen));
    // The phone's cookie, which the squatter could now collect, opens nothing: the device is gone from the list.
    await runCommand(page, 'Elicit: Manage Paired Devices…');
    const list = await waitForQuickInput(page, (q) => q.items.some((i) => i.label.includes('Pair Another Device')));
    assert.ok(!list.items.some((i) => i.label.includes('Forwarded Pixel')), JSON.stringify(list.items));
    await page.keyboard.press('Escape');
  });
});

describe('forwarding under a path every forwarded port shares, in code-server', { timeout: 600_000 }, () => {
  let session: ElicitSession;

  before(async () => {
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.devices.address': 'forwarded' });
  });

  after(async () => {
    await session?.close();
  });

  // Issue #33, finding 7: behind code-server's /proxy/<port>/ every forwarded port is one origin.
  it('is refused with the reason and what to do instead: a page of another port could use the phone’s sign-in', async () => {
    const { page } = session.workbench;
    await runCommand(page, 'Elicit: Answer on Another Device…');
    const panel = await webviewFrame(page, 'Pair a Device');
    const problem = panel.locator('.problem');
    await problem.waitFor({ timeout: 30_000 });
    assert.match(
      (await problem.textContent()) ?? '',
      /under a path of an address every forwarded port shares .*\/proxy\/\d+\/.*--proxy-domain/,
    );
    assert.equal(await panel.locator('#pairing-url').count(), 0, 'no link to pair through');
  });
});
