/**
 * The checks every request to the device server passes first (issue #23): a
 * strict Host allowlist (DNS rebinding), the Origin and Sec-Fetch-Site of a web
 * page in the person's browser, no query strings (no token in a URL), no CORS,
 * and the cookie's attributes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  COMMON_HEADERS,
  COOKIE_NAME,
  allowedHosts,
  clearedCookie,
  cookieScope,
  readCookies,
  refuseRequest,
  secretCookie,
  type Allowlist,
  type RequestFacts,
} from '../../src/core/device/requestChecks';

const allow: Allowlist = { hosts: allowedHosts(['192.168.1.20', 'localhost', '::1'], 8443), scheme: 'https' };

function request(overrides: Partial<RequestFacts> & { headers?: RequestFacts['headers'] } = {}): RequestFacts {
  return { method: 'GET', url: '/api/questions', ...overrides, headers: { host: '192.168.1.20:8443', ...overrides.headers } };
}

describe('device server request checks', () => {
  it('lets through a request from its own page', () => {
    assert.equal(refuseRequest(request({ headers: { 'sec-fetch-site': 'same-origin' } }), allow), undefined);
    const post = request({ method: 'POST', headers: { origin: 'https://192.168.1.20:8443', 'sec-fetch-site': 'same-origin' } });
    assert.equal(refuseRequest(post, allow), undefined);
    assert.equal(refuseRequest(request({ url: '/', headers: { 'sec-fetch-site': 'none' } }), allow), undefined, 'the QR code opened');
    assert.equal(refuseRequest(request({ headers: { host: '[::1]:8443' } }), allow), undefined);
  });

  it('refuses any Host it does not answer to: a rebound name, another port, none, two', () => {
    for (const host of ['evil.example:8443', '192.168.1.20:8444', '192.168.1.20', 'localhost.evil.example:8443']) {
      assert.equal(refuseRequest(request({ headers: { host } }), allow), 'host', host);
    }
    assert.equal(refuseRequest({ method: 'GET', url: '/', headers: {} }, allow), 'host');
    assert.equal(refuseRequest(request({ headers: { host: ['192.168.1.20:8443', 'evil:1'] } }), allow), 'host');
  });

  it('refuses a request from another site’s page, even with the right Host', () => {
    assert.equal(refuseRequest(request({ headers: { origin: 'https://evil.example' } }), allow), 'origin');
    assert.equal(refuseRequest(request({ headers: { origin: 'http://192.168.1.20:8443' } }), allow), 'origin', 'another scheme');
    assert.equal(refuseRequest(request({ headers: { origin: 'null' } }), allow), 'origin', 'a sandboxed frame');
    assert.equal(refuseRequest(request({ headers: { 'sec-fetch-site': 'cross-site' } }), allow), 'cross-site');
    assert.equal(refuseRequest(request({ headers: { 'sec-fetch-site': 'same-site' } }), allow), 'cross-site');
  });

  it('takes the origin of a forwarded address it is told of, exactly, and no other', () => {
    const forwarded: Allowlist = { ...allow, hosts: [...allow.hosts, 'localhost:8443'], origins: ['https://8443-ada.codespace.example'] };
    const from = (origin: string): RequestFacts => request({ method: 'POST', headers: { host: 'localhost:8443', origin } });
    assert.equal(refuseRequest(from('https://8443-ada.codespace.example'), forwarded), undefined);
    assert.equal(refuseRequest(from('https://8443-ada.codespace.example.evil.example'), forwarded), 'origin');
    assert.equal(refuseRequest(from('https://8443-ada.codespace.example'), allow), 'origin', 'not without being told');
  });

  it('refuses a change without an Origin (a form posted from elsewhere, a script without one)', () => {
    assert.equal(refuseRequest(request({ method: 'POST' }), allow), 'origin');
  });

  it('refuses CORS preflights and methods it does not serve', () => {
    for (const method of ['OPTIONS', 'PUT', 'DELETE', 'TRACE', 'CONNECT'])
      assert.equal(refuseRequest(request({ method }), allow), 'method');
  });

  it('refuses a query string, so no token or code ever travels in a URL', () => {
    for (const url of [
      '/api/questions?token=abc',
      '/pair?code=ABCDEF',
      '/?',
      'http://192.168.1.20:8443/',
      '/../etc/passwd',
      '/a/./b',
      '*',
    ]) {
      assert.equal(refuseRequest(request({ url }), allow), 'target', url);
    }
  });

  it('sets its cookie HttpOnly, Secure, SameSite=Strict, host-only, and clears it the same way', () => {
    const cookie = secretCookie(COOKIE_NAME, 'tok', 3600);
    assert.match(cookie, /^__Host-elicit-device=tok; /);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/', 'Max-Age=3600'])
      assert.ok(cookie.includes(attribute), attribute);
    assert.doesNotMatch(cookie, /Domain=/i);
    assert.match(clearedCookie(COOKIE_NAME), /^__Host-elicit-device=; Path=\/; Max-Age=0; HttpOnly; Secure; SameSite=Strict$/);
  });

  it('keeps its cookies to a forwarding proxy’s path, so the proxy’s other ports never get the token', () => {
    assert.deepEqual(cookieScope(), { device: '__Host-elicit-device', claim: '__Host-elicit-pairing', path: '/' });
    const proxied = cookieScope('/proxy/8443/');
    assert.deepEqual(proxied, { device: '__Secure-elicit-device', claim: '__Secure-elicit-pairing', path: '/proxy/8443/' });
    assert.equal(
      secretCookie(proxied.device, 'tok', 60, proxied.path),
      '__Secure-elicit-device=tok; Path=/proxy/8443/; Max-Age=60; HttpOnly; Secure; SameSite=Strict',
    );
    for (const bad of ['/proxy/8443', 'proxy/', '/a;b/', '/a b/']) assert.throws(() => cookieScope(bad), /cookie path/, bad);
  });

  it('reads cookies, the first of a repeated name winning', () => {
    const cookies = readCookies(request({ headers: { cookie: `a=1; ${COOKIE_NAME}=first; junk; ${COOKIE_NAME}=second` } }));
    assert.equal(cookies.get(COOKIE_NAME), 'first');
    assert.equal(cookies.get('a'), '1');
  });

  it('sends no CORS header, caches nothing and cannot be framed', () => {
    assert.ok(Object.keys(COMMON_HEADERS).every((name) => !name.startsWith('access-control-')));
    assert.equal(COMMON_HEADERS['cache-control'], 'no-store');
    assert.equal(COMMON_HEADERS['x-frame-options'], 'DENY');
  });
});
