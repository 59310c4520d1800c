/**
 * OAuth against a local authorization server built with the SDK's server-side
 * auth helpers (test/fixtures/oauth-server.mjs): McpConnection + the real
 * broker, a scripted answerer, and a simulated browser that follows the
 * authorization server's redirect to Elicit's loopback receiver.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import { UrlWaits } from '../../src/core/broker/urlWaits';
import { deviceVerdict } from '../../src/core/device/devicePolicy';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { McpConnection } from '../../src/mcp/connection';
import { credentialsKey, MemorySecretStore, type StoredCredentials } from '../../src/mcp/oauthStore';
import { startOAuthFixture, type OAuthFixture } from '../support/oauthFixture';
import { readRecords, waitForRecords } from '../support/records';
import { answerFields, scriptedBroker } from '../support/scriptedRenderer';
import { visitAuthorizationUrl, type BrowserVisit } from '../support/simulatedBrowser';

const open: McpConnection[] = [];
const fixtures: OAuthFixture[] = [];
const logs: string[] = [];
const consoleLines: string[] = [];
const originalConsole = { log: console.log, warn: console.warn, error: console.error };

before(() => {
  for (const method of ['log', 'warn', 'error'] as const) {
    console[method] = (...args: unknown[]) => {
      consoleLines.push(args.map(String).join(' '));
      originalConsole[method](...args);
    };
  }
});
after(async () => {
  Object.assign(console, originalConsole);
  await Promise.all(open.map((c) => c.stop()));
  for (const fixture of fixtures) fixture.stop();
});

interface Session {
  connection: McpConnection;
  /** Consent questions the person was shown. */
  consents: Question[];
  visits: BrowserVisit[];
}

/** A person who agrees to sign in (their browser follows the redirects) and answers "Ada". */
function connectTo(
  fixture: OAuthFixture,
  store: MemorySecretStore,
  consent: ElicitResult['action'] = 'accept',
  entry: Partial<ServerConfig> = {},
): Session {
  const consents: Question[] = [];
  const visits: BrowserVisit[] = [];
  const { broker } = scriptedBroker(async (q) => {
    if (q.presentation !== 'url') return answerFields(q, { name: 'Ada' });
    consents.push(q);
    if (consent === 'accept') visits.push(await visitAuthorizationUrl(q.url!.url));
    return { action: consent };
  });
  const config: ServerConfig = {
    name: 'protected',
    source: 'test',
    transport: { type: 'http', url: fixture.mcpUrl, headers: {} },
    ...entry,
  };
  const connection = new McpConnection(config, {
    ask: (r) => broker.ask(r),
    log: (line) => logs.push(line),
    urlWaits: new UrlWaits(),
    oauth: { store, clientName: 'Elicit tests' },
  });
  open.push(connection);
  return { connection, consents, visits };
}

async function fixture(env: Record<string, string> = {}): Promise<OAuthFixture> {
  const started = await startOAuthFixture(env);
  fixtures.push(started);
  return started;
}

function stored(store: MemorySecretStore, fixture: OAuthFixture): StoredCredentials {
  const text = store.values.get(credentialsKey({ name: 'protected', url: fixture.mcpUrl }));
  assert.ok(text, 'credentials are in the secret store');
  return JSON.parse(text) as StoredCredentials;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
}

/** Every secret the authorization server handed out, and every code it issued. */
function issuedSecrets(fixture: OAuthFixture): string[] {
  const secrets: string[] = [];
  for (const r of readRecords(fixture.recordFile)) {
    if (r.event === 'token') secrets.push(r.accessToken as string, r.refreshToken as string);
  }
  return secrets;
}

function assertNoSecretLogged(secrets: string[]): void {
  assert.ok(secrets.length > 0);
  for (const line of [...logs, ...consoleLines]) {
    for (const secret of secrets) assert.ok(!line.includes(secret), `a log line contains a token: ${line.slice(0, 40)}…`);
    assert.doesNotMatch(line, /code_challenge|code=|state=/, 'no authorization URL or redirect in the logs');
  }
}

describe('OAuth sign-in for an HTTP server', () => {
  it('asks for consent showing the authorization server, signs in through the loopback redirect, then works', async () => {
    const server = await fixture();
    const store = new MemorySecretStore();
    const { connection, consents, visits } = connectTo(server, store);

    const tools = await connection.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['admin_report', 'ask_name', 'whoami']);

    assert.equal(consents.length, 1, 'one consent question');
    const consent = consents[0]!;
    assert.equal(consent.url!.host, new URL(server.authorizationServerUrl).host);
    assert.deepEqual(consent.request.asker, { kind: 'mcp', name: 'protected', detail: 'sign-in' });
    assert.match(consent.request.message, /Sign in to use "protected"/);

    const visit = visits[0]!;
    const landing = new URL(visit.visited.at(-1)!);
    assert.equal(landing.hostname, '127.0.0.1', 'the browser came back to the loopback receiver');
    assert.equal(landing.pathname, '/callback');
    assert.equal(visit.status, 200);
    assert.match(visit.text, /You can close this tab/);

    const [registration] = readRecords(server.recordFile).filter((r) => r.event === 'register');
    assert.deepEqual(registration!.redirectUris, [`${landing.origin}/callback`]);

    const credentials = stored(store, server);
    const [issued] = readRecords(server.recordFile).filter((r) => r.event === 'token');
    assert.equal(credentials.tokens?.access_token, issued!.accessToken, 'the access token is in the secret store');
    assert.equal(credentials.tokens?.refresh_token, issued!.refreshToken);
    assert.ok(credentials.client?.client_id, 'the registration is in the secret store');
    assert.equal(credentials.codeVerifier, undefined, 'the PKCE verifier is gone once used');

    const answer = await connection.callTool('ask_name', {});
    assert.equal(textOf(answer), 'Hello, Ada!');
    const [reported] = await waitForRecords(server.recordFile, 1, (r) => r.event === 'answer');
    assert.deepEqual(reported!.result, { action: 'accept', content: { name: 'Ada' } });

    // A new connection (a window reload) uses the stored token: no browser.
    await connection.stop();
    const again = connectTo(server, store);
    assert.match(textOf(await again.connection.callTool('whoami', {})), /with scopes mcp:tools$/);
    assert.equal(again.consents.length, 0);
    assertNoSecretLogged(issuedSecrets(server));
  });

  it('signs in with a client registered ahead (oauth.clientId): no registration, the authorization names that client', async () => {
    const server = await fixture({ PREREGISTERED_CLIENT_ID: 'elicit-registered-ahead' });
    const store = new MemorySecretStore();
    const { connection, consents } = connectTo(server, store, 'accept', { oauthClientId: 'elicit-registered-ahead' });
    assert.match(textOf(await connection.callTool('whoami', {})), /^client elicit-registered-ahead with scopes mcp:tools$/);
    assert.equal(consents.length, 1);
    const records = readRecords(server.recordFile);
    assert.deepEqual(
      records.filter((r) => r.event === 'register'),
      [],
      'nothing was registered',
    );
    assert.equal(records.find((r) => r.event === 'authorize')?.clientId, 'elicit-registered-ahead');
  });

  it('asks for the sign-in in the editor only, never on a paired device (issue #23)', async () => {
    const server = await fixture();
    const { connection, consents } = connectTo(server, new MemorySecretStore());
    await connection.listTools();
    assert.equal(consents.length, 1);
    assert.deepEqual(deviceVerdict(consents[0]!), { allowed: false, reason: 'signIn' });
  });

  it('signs in to a 2026-07-28 server, answers its round, steps up a scope, and refreshes an expired token', async () => {
    const server = await fixture({ MCP_REVISION: '2026-07-28', ACCESS_TOKEN_SECONDS: '2', REFRESHED_TOKEN_SECONDS: '3600' });
    const store = new MemorySecretStore();
    const { connection, consents } = connectTo(server, store);
    assert.match(textOf(await connection.callTool('whoami', {})), /with scopes mcp:tools$/);
    assert.equal(connection.protocolVersion, '2026-07-28');
    assert.equal(consents.length, 1);
    assert.equal(textOf(await connection.callTool('ask_name', {})), 'Hello, Ada!');
    const [reported] = await waitForRecords(server.recordFile, 1, (r) => r.event === 'answer');
    assert.deepEqual(reported!.result, { action: 'accept', content: { name: 'Ada' } });
    assert.equal(textOf(await connection.callTool('admin_report', {})), 'Admin report for scopes mcp:tools mcp:admin');
    assert.equal(consents.length, 2, 'the wider scope needed the person again');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.match(textOf(await connection.callTool('whoami', {})), /with scopes mcp:tools mcp:admin$/);
    assert.equal(consents.length, 2, 'the expired token was refreshed without the person');
    assert.deepEqual(
      readRecords(server.recordFile)
        .filter((r) => r.event === 'token')
        .map((g) => g.grant),
      ['authorization_code', 'authorization_code', 'refresh_token'],
    );
    assertNoSecretLogged(issuedSecrets(server));
  });

  it('refreshes an expired access token without asking the person', async () => {
    // The first token expires at once; the refreshed one lasts, so exactly one refresh is expected.
    const server = await fixture({ ACCESS_TOKEN_SECONDS: '1', REFRESHED_TOKEN_SECONDS: '3600' });
    const store = new MemorySecretStore();
    const { connection, consents } = connectTo(server, store);
    await connection.connect();
    assert.equal(consents.length, 1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    assert.match(textOf(await connection.callTool('whoami', {})), /with scopes mcp:tools$/);
    assert.equal(consents.length, 1, 'no second sign-in');
    const grants = readRecords(server.recordFile).filter((r) => r.event === 'token');
    assert.deepEqual(
      grants.map((g) => g.grant),
      ['authorization_code', 'refresh_token'],
    );
    assert.equal(stored(store, server).tokens?.access_token, grants[1]!.accessToken, 'the refreshed token is stored');
    assertNoSecretLogged(issuedSecrets(server));
  });

  it('steps up to a wider scope in the browser when a tool needs it, though a refresh token is at hand', async () => {
    const server = await fixture();
    const store = new MemorySecretStore();
    const { connection, consents } = connectTo(server, store);
    assert.match(textOf(await connection.callTool('whoami', {})), /with scopes mcp:tools$/);

    const report = await connection.callTool('admin_report', {});
    assert.equal(textOf(report), 'Admin report for scopes mcp:tools mcp:admin');
    assert.equal(consents.length, 2, 'the wider scope needed the person again');
    const authorizations = readRecords(server.recordFile).filter((r) => r.event === 'authorize');
    assert.deepEqual(
      authorizations.map((a) => a.scopes),
      [['mcp:tools'], ['mcp:tools', 'mcp:admin']],
    );
    assert.equal(stored(store, server).tokens?.scope, 'mcp:tools mcp:admin');
    // The same session goes on with the new token.
    assert.match(textOf(await connection.callTool('whoami', {})), /with scopes mcp:tools mcp:admin$/);
    assertNoSecretLogged(issuedSecrets(server));
  });

  it('stops with a clear error when the person declines, storing no token', async () => {
    const server = await fixture();
    const store = new MemorySecretStore();
    const { connection, consents } = connectTo(server, store, 'decline');
    await assert.rejects(connection.connect(), /Could not start MCP server "protected": sign-in at 127\.0\.0\.1:\d+ was declined/);
    assert.equal(consents.length, 1);
    assert.equal(connection.status, 'error');
    assert.equal(stored(store, server).tokens, undefined);
    assert.equal(readRecords(server.recordFile).filter((r) => r.event === 'authorize').length, 0, 'nothing was opened');
  });

  it('asks again after signing out (the stored credentials are forgotten)', async () => {
    const server = await fixture();
    const store = new MemorySecretStore();
    const first = connectTo(server, store);
    await first.connection.connect();
    await first.connection.stop();
    await store.delete(credentialsKey({ name: 'protected', url: server.mcpUrl }));
    assert.equal(store.values.size, 0);

    const second = connectTo(server, store);
    await second.connection.connect();
    assert.equal(second.consents.length, 1, 'signed out: the person is asked again');
    assert.equal(readRecords(server.recordFile).filter((r) => r.event === 'register').length, 2, 'and the client registers again');
  });
});
