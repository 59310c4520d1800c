import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthorizationDeniedError, LoopbackRedirect } from '../../src/mcp/oauthLoopback';

async function get(url: string): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

describe('LoopbackRedirect', () => {
  it('is a 127.0.0.1 callback URL on a free port, and keeps a preferred port that is free', async () => {
    const first = new LoopbackRedirect();
    await first.reserve();
    assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const port = LoopbackRedirect.portOf(first.url)!;
    const second = new LoopbackRedirect();
    await second.reserve(port);
    assert.equal(second.url, first.url);
    assert.equal(LoopbackRedirect.portOf('https://example.com/callback'), undefined);
  });

  it('hands over the code for the expected state and answers a page that can be closed', async () => {
    const redirect = new LoopbackRedirect();
    await redirect.reserve();
    const { code } = await redirect.receive('s1', new AbortController().signal);
    const stale = await get(`${redirect.url}?code=old&state=other`);
    assert.equal(stale.status, 400, 'another state is refused and the wait goes on');
    assert.equal((await get(`${redirect.url.replace('/callback', '/favicon.ico')}`)).status, 404);
    const page = await get(`${redirect.url}?code=c0de&state=s1&iss=${encodeURIComponent('https://auth.example.com')}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /You can close this tab and return to VS Code/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.match(page.headers.get('content-security-policy')!, /default-src 'none'/);
    assert.deepEqual(
      await code,
      { code: 'c0de', iss: 'https://auth.example.com' },
      'the issuer comes back with the code, for the RFC 9207 check',
    );
  });

  it('rejects with the authorization server error, shown as text not HTML', async () => {
    const redirect = new LoopbackRedirect();
    await redirect.reserve();
    const { code } = await redirect.receive('s2', new AbortController().signal);
    const rejected = assert.rejects(
      code,
      (e: Error) => e instanceof AuthorizationDeniedError && /access_denied: <b>no<\/b>/.test(e.message),
    );
    const page = await get(`${redirect.url}?error=access_denied&error_description=${encodeURIComponent('<b>no</b>')}&state=s2`);
    assert.equal(page.status, 400);
    assert.match(page.text, /&#60;b&#62;no&#60;\/b&#62;/);
    await rejected;
  });

  it('registers the URL the browser reaches in a remote window, and takes the return through a forwarding proxy', async () => {
    let local = '';
    const redirect = new LoopbackRedirect(async (loopbackUrl) => {
      local = loopbackUrl;
      return `https://editor.example/proxy/${new URL(loopbackUrl).port}/callback`;
    });
    await redirect.reserve();
    const port = new URL(local).port;
    assert.match(local, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal(redirect.url, `https://editor.example/proxy/${port}/callback`);
    assert.equal(LoopbackRedirect.portOf(redirect.url), undefined, 'a forwarded URI names no loopback port');
    const { code } = await redirect.receive('s4', new AbortController().signal);
    // A proxy that keeps its prefix (code-server's /absproxy/) still reaches the callback.
    const page = await get(`http://127.0.0.1:${port}/absproxy/${port}/callback?code=f0rw&state=s4`);
    assert.equal(page.status, 200);
    assert.deepEqual(await code, { code: 'f0rw' });
  });

  it('stops listening when the sign-in is abandoned', async () => {
    const redirect = new LoopbackRedirect();
    await redirect.reserve();
    const abandon = new AbortController();
    const { code } = await redirect.receive('s3', abandon.signal);
    abandon.abort(new Error('cancelled by the person'));
    await assert.rejects(code, /cancelled by the person/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await assert.rejects(fetch(`${redirect.url}?code=late&state=s3`));
  });
});
