import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { StoredOAuthProvider } from '../../src/mcp/oauthProvider';
import { credentialsKey, MemorySecretStore, serverOfKey, ServerCredentials } from '../../src/mcp/oauthStore';

const server = { name: 'remote', url: 'https://mcp.example.com/mcp' };

async function provider(store = new MemorySecretStore()): Promise<{ provider: StoredOAuthProvider; store: MemorySecretStore }> {
  const p = new StoredOAuthProvider(server, store, { clientName: 'Elicit' });
  await p.prepare();
  return { provider: p, store };
}

describe('OAuth credentials in a secret store', () => {
  it('names each server by name and URL, and reads the key back', () => {
    const key = credentialsKey(server);
    assert.deepEqual(serverOfKey(key), server);
    assert.notEqual(credentialsKey({ name: 'a:b', url: 'c' }), credentialsKey({ name: 'a', url: 'b:c' }));
    assert.equal(serverOfKey('elicit.secret:["mcp","x","y"]'), undefined);
  });

  it('keeps tokens, registration, verifier and discovery in one record, and deletes it when empty', async () => {
    const { provider: p, store } = await provider();
    await p.saveCodeVerifier('verifier-1');
    await p.saveClientInformation({ client_id: 'client-1', redirect_uris: [p.redirectUrl] });
    await p.saveTokens({ access_token: 'at-1', token_type: 'bearer', refresh_token: 'rt-1' });
    const record = JSON.parse(store.values.get(credentialsKey(server))!);
    assert.equal(record.tokens.access_token, 'at-1');
    assert.equal(record.client.client_id, 'client-1');
    assert.equal(record.registeredRedirectUri, p.redirectUrl);
    assert.equal(record.codeVerifier, undefined, 'a verifier is dropped once tokens arrive');
    await p.invalidateCredentials('all');
    assert.equal(store.values.size, 0);
  });

  it('registers again when the registered loopback port cannot be had', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    after(() => blocker.close());
    const store = new MemorySecretStore();
    const credentials = new ServerCredentials(store, server);
    const taken = `http://127.0.0.1:${(blocker.address() as AddressInfo).port}/callback`;
    await credentials.update((c) => {
      c.client = { client_id: 'old', redirect_uris: [taken] };
      c.registeredRedirectUri = taken;
    });
    const { provider: p } = await provider(store);
    assert.notEqual(p.redirectUrl, taken);
    assert.equal(await p.clientInformation(), undefined);
  });

  it('keeps a pre-registered client whatever the port', async () => {
    const store = new MemorySecretStore();
    await new ServerCredentials(store, server).update((c) => (c.client = { client_id: 'pre', client_secret: 's' }));
    const { provider: p } = await provider(store);
    assert.equal((await p.clientInformation())?.client_id, 'pre');
    assert.deepEqual(p.clientMetadata.redirect_uris, [p.redirectUrl]);
    assert.equal(p.clientMetadata.token_endpoint_auth_method, 'none');
  });

  it('hides the refresh token while a wider scope is needed, so the SDK authorizes anew', async () => {
    const { provider: p } = await provider();
    await p.saveTokens({ access_token: 'at', token_type: 'bearer', refresh_token: 'rt', scope: 'read' });
    await p.requireScope('read');
    assert.equal((await p.tokens())?.refresh_token, 'rt', 'the scope is granted already: refresh is fine');
    await p.requireScope('read write');
    assert.equal((await p.tokens())?.refresh_token, undefined);
    assert.equal((await p.tokens())?.access_token, 'at');
    p.abandonStepUp();
    assert.equal((await p.tokens())?.refresh_token, 'rt', 'nothing was lost when the step-up did not happen');
  });

  it('gives the sign-in the authorization URL once, and keeps its verifier while it finishes', async () => {
    const { provider: p } = await provider();
    const state = p.state();
    await p.saveCodeVerifier('v1');
    p.redirectToAuthorization(new URL(`https://auth.example.com/authorize?state=${state}`));
    const request = p.takeAuthorizationRequest()!;
    assert.equal(request.state, state);
    assert.equal(p.takeAuthorizationRequest(), undefined);
    p.holdAuthorization(request);
    await p.saveCodeVerifier('v2');
    p.redirectToAuthorization(new URL('https://auth.example.com/authorize?state=other'));
    assert.equal(await p.codeVerifier(), 'v1');
    assert.equal(p.takeAuthorizationRequest(), undefined);
  });

  // Issue #37 (the soak): at Reload Window VS Code cuts the host off from SecretStorage ("Canceled") before
  // the HTTP sessions' DELETE goes out; the SDK asks for tokens for that request too.
  it('gives the credentials last read or written once the store can no longer be reached, and none it never had', async () => {
    const store = new MemorySecretStore();
    let reachable = true;
    const cutOff = {
      get: (key: string) => (reachable ? store.get(key) : Promise.reject(new Error('Canceled'))),
      store: (key: string, value: string) => store.store(key, value),
      delete: (key: string) => store.delete(key),
    };
    const p = new StoredOAuthProvider(server, cutOff, { clientName: 'Elicit' });
    await p.saveTokens({ access_token: 'at-written', token_type: 'bearer' });
    reachable = false;
    assert.equal((await p.tokens())?.access_token, 'at-written');
    reachable = true;
    await store.store(credentialsKey(server), JSON.stringify({ tokens: { access_token: 'at-from-another-window', token_type: 'bearer' } }));
    assert.equal((await p.tokens())?.access_token, 'at-from-another-window', 'read from the store while it answers');
    reachable = false;
    assert.equal((await p.tokens())?.access_token, 'at-from-another-window');

    const never = new StoredOAuthProvider({ ...server, name: 'never-read' }, cutOff, { clientName: 'Elicit' });
    await assert.rejects(never.tokens(), /Canceled/);
  });

  it('treats a damaged record as no record', async () => {
    const store = new MemorySecretStore();
    await store.store(credentialsKey(server), '{not json');
    const { provider: p } = await provider(store);
    assert.equal(await p.tokens(), undefined);
  });
});
