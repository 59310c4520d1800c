/**
 * The gateway in a real VS Code: enabled by setting, its client configuration
 * copied through the real command (the token comes from the clipboard, as a
 * person would paste it), an MCP SDK client standing in for a CLI agent calls
 * ask_user, Playwright answers the native UI, and the client receives the
 * answer — for a secret only a reference, while SecretStorage holds the value.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as http from 'node:http';
import type { Page } from 'playwright-core';
import {
  focusEditorArea,
  notificationCenter,
  pickQuickPickItem,
  reloadWindow,
  runCommand,
  screenshot,
  typeAndSubmit,
  waitForNotification,
  waitForQuickInput,
} from './harness/workbench';
import { fixtureServer, openElicitSession, type ElicitSession } from './elicitSession';
import { findInFiles } from '../support/leakScan';
import { newRecordFile } from '../support/records';
import { waitForSavedSecret } from '../support/secretReport';
import { waitUntil } from '../support/waitUntil';
import { freePort } from '../support/freePort';

const SECRET = 'gw-e2e-secret-5a7c9e1b3d';

describe('Elicit gateway in code-server', { timeout: 600_000 }, () => {
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-gw-')), 'secrets.json');
  let session: ElicitSession;
  let port: number;
  let token: string;
  let client: Client;

  before(async () => {
    port = await freePort();
    const mcpJson = { servers: { 'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: newRecordFile() }) } };
    session = await openElicitSession(
      JSON.stringify(mcpJson),
      { 'elicit.gateway.enabled': true, 'elicit.gateway.port': port },
      { ELICIT_TEST_REPORT: report },
    );
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await session?.close();
  });

  it('runs on the configured port and copies a client configuration with the token', async () => {
    const { page } = session.workbench;
    await page.locator('.statusbar-item', { hasText: 'Elicit gateway' }).first().waitFor({ timeout: 30_000 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session.server.url).origin });
    await runCommand(page, 'Elicit: Copy Gateway Config');
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Claude Code'));
    await pickQuickPickItem(page, 'Claude Code');
    let copied = '';
    await waitUntil(async () => (copied = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '')).includes('Bearer'));
    const match =
      /^claude mcp add --transport http elicit (http:\/\/127\.0\.0\.1:(\d+)\/mcp) --header "Authorization: Bearer ([\w-]+)"$/.exec(copied);
    assert.ok(match, copied);
    assert.equal(Number(match[2]), port);
    token = match[3]!;
    client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(match[1]!), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'ask_user'));
    assert.ok(
      tools.some((t) => t.name === 'ask-server__ask_name'),
      'configured servers are forwarded',
    );
  });

  it('blocks the external call until the person answers in VS Code', async () => {
    const { page } = session.workbench;
    const call = client.callTool({ name: 'ask_user', arguments: { kind: 'text', question: 'Which branch should I deploy?' } });
    const box = await waitForQuickInput(page, (q) => q.title === 'gateway · e2e-agent asks');
    assert.match(box.message ?? '', /Which branch should I deploy\?/);
    await screenshot(page, 'gateway-ask-user');
    await typeAndSubmit(page, 'release/1.2');
    const result = await call;
    assert.deepEqual(JSON.parse((result.content as Array<{ text: string }>)[0]!.text), { action: 'accept', answer: 'release/1.2' });
  });

  it('returns a reference for a secret while SecretStorage holds the value', async () => {
    const { page } = session.workbench;
    const call = client.callTool({
      name: 'ask_user',
      arguments: { kind: 'secret', question: 'Paste the registry password', secretName: 'registry-password' },
    });
    // The previous question's box may still be closing: wait for this one's prompt.
    await waitForQuickInput(page, (q) => q.title === 'gateway · e2e-agent asks' && q.message?.includes('registry password') === true);
    assert.equal(await page.locator('.quick-input-widget .quick-input-box input').getAttribute('type'), 'password');
    await typeAndSubmit(page, SECRET);
    const result = await call;
    assert.ok(!JSON.stringify(result).includes(SECRET));
    assert.equal(JSON.parse((result.content as Array<{ text: string }>)[0]!.text).reference, '${secret:registry-password}');
    await waitForSavedSecret(report, 'elicit.secret:["named","","registry-password"]', SECRET);
  });

  it('keeps the secret and the gateway token out of every file VS Code and the extension wrote', async () => {
    const roots = [session.server.userDataDir, session.server.extensionsDir, session.workspaceDir];
    assert.deepEqual(findInFiles(roots, SECRET), []);
    assert.deepEqual(findInFiles(roots, token), []);
  });
});

/** Copies the Claude Code configuration through the real command and reads its address and token. */
async function copiedConfig(session: ElicitSession, page = session.workbench.page): Promise<{ url: string; port: number; token: string }> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session.server.url).origin });
  await page.evaluate(() => navigator.clipboard.writeText('')).catch(() => undefined);
  await runCommand(page, 'Elicit: Copy Gateway Config');
  await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'Claude Code'));
  await pickQuickPickItem(page, 'Claude Code');
  let copied = '';
  await waitUntil(async () => (copied = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '')).includes('Bearer'));
  const match = /(http:\/\/127\.0\.0\.1:(\d+)\/mcp) --header "Authorization: Bearer ([\w-]+)"$/.exec(copied);
  assert.ok(match, copied);
  return { url: match[1]!, port: Number(match[2]), token: match[3]! };
}

// Issue #33, finding 3: the remembered port taken while the gateway was off (another user of a
// shared machine, say). Before, the gateway moved silently and CLI agents sent their token to the
// squatter, who could then call the person's tools with it.
describe('Elicit gateway whose remembered port another program took', { timeout: 600_000 }, () => {
  let session: ElicitSession;
  let squatter: http.Server | undefined;
  const seen: Array<{ path: string; authorization: string | undefined }> = [];

  before(async () => {
    session = await openElicitSession(JSON.stringify({ servers: {} }), { 'elicit.gateway.enabled': true });
  });

  after(async () => {
    squatter?.close();
    await session?.close();
  });

  it('is not trusted: the gateway moves with a new token, says so, and the squatter never sees a token', async () => {
    const { page } = session.workbench;
    await page.locator('.statusbar-item', { hasText: 'Elicit gateway' }).first().waitFor({ timeout: 30_000 });
    const before = await copiedConfig(session);
    await runCommand(page, 'Elicit: Stop Gateway');
    await page.locator('.statusbar-item', { hasText: 'Elicit gateway' }).first().waitFor({ state: 'detached', timeout: 30_000 });

    // Another program takes the port and answers everything, as a squatter collecting tokens would.
    squatter = http.createServer((req, res) => {
      seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"proof":"0000"}');
    });
    await new Promise<void>((resolve) => squatter!.listen(before.port, '127.0.0.1', () => resolve()));

    await runCommand(page, 'Elicit: Start Gateway');
    const warning = await waitForNotification(page, 'did not prove it is Elicit', 30_000);
    assert.match(warning, new RegExp(`Port ${before.port}, where the Elicit gateway ran before`));
    await screenshot(page, 'gateway-port-squatted');
    const after = await copiedConfig(session);
    assert.notEqual(after.port, before.port, 'the gateway moved');
    assert.notEqual(after.token, before.token, 'the token was replaced');

    // The squatter got a challenge, never a token.
    assert.ok(
      seen.length > 0 && seen.every((r) => r.path.startsWith('/elicit-proof/') && r.authorization === undefined),
      JSON.stringify(seen),
    );
    // The old token, stolen or not, opens nothing; the new one works.
    const refused = await fetch(after.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${before.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    assert.equal(refused.status, 401);
    const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(after.url), { requestInit: { headers: { Authorization: `Bearer ${after.token}` } } }),
    );
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'ask_user'));
    await client.close();
  });
});

/** The tools an agent set up with this address and token sees. */
async function toolNamesAt(url: string, token: string): Promise<string[]> {
  const agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await agent.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const { tools } = await agent.listTools();
  await agent.close();
  return tools.map((t) => t.name);
}

/** A status bar item by its text. */
const statusItem = (page: Page, text: string): ReturnType<Page['locator']> => page.locator('.statusbar-item', { hasText: text }).first();

/** Another window on `folder`, of the same browser profile as `first`, as a person's second window shares the first one's storage. */
async function openFolderWindow(session: ElicitSession, first: Page, folder: string): Promise<Page> {
  const other = await first.context().newPage();
  const url = new URL(session.server.url);
  url.searchParams.set('folder', folder);
  await other.goto(url.toString());
  return other;
}

// Issue #37, finding B: each window serves its own servers' tools, but every window shared one
// remembered port. A window opened while the first one reloaded took that port, and the CLI agent set
// up for the first window reached a window without its servers; the reloaded first window moved.
describe('Elicit gateways of two windows on two folders', { timeout: 600_000 }, () => {
  const otherFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-gw-other-'));
  let session: ElicitSession;

  before(async () => {
    const mcpJson = { servers: { 'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: newRecordFile() }) } };
    session = await openElicitSession(JSON.stringify(mcpJson), { 'elicit.gateway.enabled': true });
  });

  after(async () => {
    await session?.close();
    fs.rmSync(otherFolder, { recursive: true, force: true });
  });

  const gatewayItem = (page: Page): ReturnType<Page['locator']> => statusItem(page, 'Elicit gateway');

  it('each keeps its own address: a window opened while the first is down does not take it', async () => {
    const first = session.workbench.page;
    await gatewayItem(first).waitFor({ timeout: 30_000 });
    const firstConfig = await copiedConfig(session, first);
    // A reload keeps the address (and has the window write what it keeps: a browser tab writes its state late).
    await reloadWindow(first);
    await gatewayItem(first).waitFor({ timeout: 30_000 });
    await focusEditorArea(first);
    assert.equal((await copiedConfig(session, first)).port, firstConfig.port);

    // The first window's gateway is down, as while it reloads; the person opens another folder meanwhile.
    await runCommand(first, 'Elicit: Stop Gateway');
    await gatewayItem(first).waitFor({ state: 'detached', timeout: 30_000 });
    const other = await openFolderWindow(session, first, otherFolder);
    await gatewayItem(other).waitFor({ timeout: 60_000 });
    await focusEditorArea(other);
    const otherConfig = await copiedConfig(session, other);
    assert.notEqual(otherConfig.port, firstConfig.port, 'the other window took the first window’s address');

    // The other window's address stays across a reload, so a configuration pasted for its folder stays valid.
    await other.bringToFront();
    await reloadWindow(other);
    await gatewayItem(other).waitFor({ timeout: 30_000 });
    await focusEditorArea(other);
    assert.equal((await copiedConfig(session, other)).port, otherConfig.port);

    // The first window comes back (Reload Window starts its gateway again) at the address its agents have,
    // though the other window wrote what it keeps meanwhile.
    await first.bringToFront();
    await reloadWindow(first);
    await gatewayItem(first).waitFor({ timeout: 30_000 });
    await focusEditorArea(first);
    assert.equal((await copiedConfig(session, first)).port, firstConfig.port);
    const tools = await toolNamesAt(firstConfig.url, firstConfig.token);
    assert.ok(tools.includes('ask-server__ask_name'), `the agent reaches the first window's servers: ${tools.join(', ')}`);

    await other.close({ runBeforeUnload: true });
  });
});

// Issue #37, finding B, with elicit.gateway.port set (as the soak has it): every window tried that one
// port. A second window showed "could not start" each time it opened, and one that opened while the
// serving window reloaded took the port, so the agents reached a window without their servers.
describe('Elicit gateway on a configured port with two windows', { timeout: 600_000 }, () => {
  const otherFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-e2e-gw-other-'));
  let session: ElicitSession;
  let port: number;

  before(async () => {
    port = await freePort();
    fs.mkdirSync(path.join(otherFolder, '.vscode'));
    fs.writeFileSync(
      path.join(otherFolder, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { 'other-server': fixtureServer('ask-server.mjs', { RECORD_FILE: newRecordFile() }) } }),
    );
    const mcpJson = { servers: { 'ask-server': fixtureServer('ask-server.mjs', { RECORD_FILE: newRecordFile() }) } };
    session = await openElicitSession(JSON.stringify(mcpJson), { 'elicit.gateway.enabled': true, 'elicit.gateway.port': port });
  });

  after(async () => {
    await session?.close();
    fs.rmSync(otherFolder, { recursive: true, force: true });
  });

  const toolsAtPort = (token: string): Promise<string[]> => toolNamesAt(`http://127.0.0.1:${port}/mcp`, token);

  it('one window serves it; the other stands by without an error, through a reload, and takes over when that window closes', async () => {
    const first = session.workbench.page;
    await statusItem(first, 'Elicit gateway').waitFor({ timeout: 30_000 });
    const { token } = await copiedConfig(session, first);

    const other = await openFolderWindow(session, first, otherFolder);
    await statusItem(other, 'Elicit gateway in another window').waitFor({ timeout: 60_000 });
    await focusEditorArea(other);
    assert.deepEqual(
      (await notificationCenter(other)).filter((n) => /gateway/i.test(n)),
      [],
      'the standby window shows no error about the gateway',
    );
    // Its configuration is the served address, with the same token.
    const fromOther = await copiedConfig(session, other);
    assert.deepEqual([fromOther.port, fromOther.token], [port, token]);

    // The serving window reloads while the other stands by: it comes back at the port, with its servers.
    await first.bringToFront();
    await reloadWindow(first);
    await statusItem(first, 'Elicit gateway').waitFor({ timeout: 30_000 });
    assert.equal(await statusItem(first, 'in another window').count(), 0, 'the reloaded window serves the port again');
    assert.ok((await toolsAtPort(token)).includes('ask-server__ask_name'));

    // The serving window closes for good: the other window takes the port over, with its own servers.
    await first.close({ runBeforeUnload: true });
    await other.bringToFront();
    await waitUntil(
      async () => (await statusItem(other, 'Elicit gateway').count()) > 0 && (await statusItem(other, 'in another window').count()) === 0,
      'the other window to take the gateway over',
      90_000,
    );
    const tools = await toolsAtPort(token);
    assert.ok(tools.includes('other-server__ask_name') && !tools.includes('ask-server__ask_name'), tools.join(', '));
  });
});
