/**
 * OAuth sign-in in a real VS Code whose browser is not on the extension's
 * machine (code-server): the loopback redirect is registered as the URL
 * VS Code's asExternalUri gives (code-server's /proxy/PORT/), the browser tab
 * opened on consent comes back through that proxy, and the protected server's
 * tool then elicits as any other. Tokens never reach a log or a state file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pickQuickPickItem, runCommand, screenshot, typeAndSubmit, waitForQuickInput } from './harness/workbench';
import { openElicitSession, type ElicitSession } from './elicitSession';
import { assertNoSecretLeak } from '../support/leakScan';
import { startOAuthFixture, type OAuthFixture } from '../support/oauthFixture';
import { waitForRecords } from '../support/records';

describe('OAuth sign-in in code-server', { timeout: 600_000 }, () => {
  let fixture: OAuthFixture;
  let session: ElicitSession;

  before(async () => {
    fixture = await startOAuthFixture();
    session = await openElicitSession(JSON.stringify({ servers: { secured: { type: 'http', url: fixture.mcpUrl } } }));
  });

  after(async () => {
    await session?.close();
    fixture?.stop();
  });

  it("signs in through the forwarded loopback redirect, then answers the protected server's question", async () => {
    const { page } = session.workbench;
    const browserTab = page.context().waitForEvent('page', { timeout: 60_000 });
    await runCommand(page, 'Elicit: Run MCP Tool');

    // Consent first: nothing is opened before the person agrees.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    assert.match((await dialog.locator('.dialog-message-text').textContent()) ?? '', /open 127\.0\.0\.1:\d+\?/);
    assert.match((await dialog.locator('.dialog-message-detail').textContent()) ?? '', /Sign in to use "secured"/);
    await screenshot(page, 'oauth-consent');
    await dialog.locator('.dialog-buttons').getByRole('button', { name: 'Open', exact: true }).click();

    // The client registered the redirect as the browser reaches it: through code-server's port proxy.
    const [registration] = await waitForRecords(fixture.recordFile, 1, (r) => r.event === 'register');
    const redirect = new RegExp(`^http://127\\.0\\.0\\.1:${session.server.port}/proxy/\\d+/callback$`);
    assert.match(String((registration!.redirectUris as string[])[0]), redirect);

    // The browser tab follows the authorization server back to Elicit's loopback page.
    const tab = await browserTab;
    await tab.getByText('You can close this tab and return to VS Code.').waitFor({ timeout: 30_000 });
    const returned = new URL(tab.url());
    assert.match(`${returned.origin}${returned.pathname}`, redirect);
    await tab.close();
    const [token] = await waitForRecords(fixture.recordFile, 1, (r) => r.event === 'token');

    // Signed in: the server's tools are offered, and its question is answered natively.
    await waitForQuickInput(page, (q) => q.items.some((i) => i.label === 'ask_name'));
    await pickQuickPickItem(page, 'ask_name');
    await waitForQuickInput(page, (q) => q.title === 'secured asks · tool ask_name');
    await typeAndSubmit(page, 'Ada');
    const [answer] = await waitForRecords(fixture.recordFile, 1, (r) => r.event === 'answer');
    assert.deepEqual(answer!.result, { action: 'accept', content: { name: 'Ada' } });

    assertNoSecretLeak(session, [String(token!.accessToken), String(token!.refreshToken)]);
  });
});
