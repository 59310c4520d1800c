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
import { pickQuickPickItem, runCommand, screenshot, typeAndSubmit, waitForNotification, waitForQuickInput } from './harness/workbench';
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
async function copiedConfig(session: ElicitSession): Promise<{ url: string; port: number; token: string }> {
  const { page } = session.workbench;
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
