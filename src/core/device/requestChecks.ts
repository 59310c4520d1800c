/**
 * What a request to the device server must be before anything else looks at
 * it. A web page in the person's own browser can send requests to the server
 * (it knows the LAN address); DNS rebinding can make it look same-origin. So:
 *
 * - the Host header must name the server exactly (an allowlist), which
 *   rebinding cannot fake;
 * - a request that changes anything must carry an Origin of the server itself,
 *   and no request may come from another site (Origin, Sec-Fetch-Site);
 * - no CORS: no Access-Control-* header is ever sent, and a preflight is refused;
 * - no query strings at all, so no token or code can travel in a URL (the
 *   pairing code rides in the page's fragment, which never reaches a server);
 * - the device token travels only in an HttpOnly, SameSite=Strict, Secure cookie.
 *
 * Pure: the server (src/device) passes in the method, URL and headers.
 */
import { allowedHosts, refuseHostOrOrigin, singleHeader, type HostAllowlist, type RequestHeaders } from '../http/hostOrigin';

export interface RequestFacts {
  method: string;
  /** The request target as sent: "/api/questions". */
  url: string;
  /** As `headersDistinct` gives them: a repeated header is seen (hostOrigin.ts). */
  headers: RequestHeaders;
}

/** The Host and Origin allowlist (core/http/hostOrigin.ts). */
export type Allowlist = HostAllowlist;

/** Why a request is refused; the server answers every reason the same way, so nothing is learned. */
export type Refusal = 'host' | 'origin' | 'cross-site' | 'target' | 'method';

export const COOKIE_NAME = '__Host-elicit-device';
export const CLAIM_COOKIE_NAME = '__Host-elicit-pairing';

/** Where the server's cookies live: the whole host, or the path a forwarding proxy serves it under. */
export interface CookieScope {
  device: string;
  claim: string;
  path: string;
}

/**
 * At the root, `__Host-` cookies (the browser holds them to Secure, Path=/ and
 * no Domain). Under a proxy's path ("/proxy/8443/") the cookie is kept to that
 * path, so the proxy's other ports and the proxy itself never get the token:
 * `__Secure-` then, as `__Host-` allows Path=/ only.
 */
export function cookieScope(path = '/'): CookieScope {
  if (path === '/') return { device: COOKIE_NAME, claim: CLAIM_COOKIE_NAME, path };
  if (!/^\/[A-Za-z0-9._~/-]*\/$/.test(path)) throw new Error(`a cookie path is "/…/", not ${JSON.stringify(path)}`);
  return { device: '__Secure-elicit-device', claim: '__Secure-elicit-pairing', path };
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);
const METHODS = new Set(['GET', 'HEAD', 'POST']);
const PATH = /^\/[A-Za-z0-9._~/-]*$/;

function header(facts: RequestFacts, name: string): string | undefined {
  return singleHeader(facts.headers, name);
}

export { allowedHosts };

/** Undefined when the request may go on; otherwise why it may not. */
export function refuseRequest(facts: RequestFacts, allow: Allowlist): Refusal | undefined {
  if (!METHODS.has(facts.method)) return 'method';
  // Only a path: no absolute-form target, no query string, no fragment, no dot segments.
  if (!PATH.test(facts.url) || facts.url.split('/').some((part) => part === '..' || part === '.')) return 'target';
  const hostOrOrigin = refuseHostOrOrigin(facts.headers, allow);
  if (hostOrOrigin === 'host') return 'host';
  const site = facts.headers['sec-fetch-site'];
  if (site !== undefined && !['same-origin', 'none'].includes(singleHeader(facts.headers, 'sec-fetch-site') ?? '')) return 'cross-site';
  if (hostOrOrigin === 'origin') return 'origin';
  // A request that changes anything carries the page's own Origin.
  if (!SAFE_METHODS.has(facts.method) && header(facts, 'origin') === undefined) return 'origin';
  return undefined;
}

/** The cookies of a request by name; the first of a repeated name wins, malformed parts are skipped. */
export function readCookies(facts: RequestFacts): Map<string, string> {
  const cookies = new Map<string, string>();
  const raw = header(facts, 'cookie');
  if (raw === undefined) return cookies;
  for (const part of raw.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

/**
 * A Set-Cookie value for a secret: HttpOnly (no script reads it), Secure,
 * SameSite=Strict (no other site's page sends it), no Domain (this host only),
 * kept to `path`.
 */
export function secretCookie(name: string, value: string, maxAgeSeconds: number, path = '/'): string {
  return `${name}=${value}; Path=${path}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; HttpOnly; Secure; SameSite=Strict`;
}

/** Ends a cookie in the browser. */
export function clearedCookie(name: string, path = '/'): string {
  return secretCookie(name, '', 0, path);
}

/**
 * Headers on every answer: nothing cached, nothing framed, no referrer, no
 * sniffing. Deliberately no Access-Control-* header.
 */
export const COMMON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
});
