/**
 * What a person must know before opening a URL an asker sent: the full URL,
 * the host on its own, and warnings. Only http(s) may ever be opened; anything
 * else (javascript:, file:, data:, vscode:, …) is refused outright.
 */
import { domainToUnicode } from 'node:url';

export interface UrlReview {
  /** The URL exactly as it will be opened (normalized by the URL parser). */
  url: string;
  /** The host as sent (ASCII / punycode). */
  host: string;
  /** The host as a person reads it (Unicode), when different. */
  displayHost?: string;
  warnings: string[];
}

export type UrlVerdict = { ok: true; review: UrlReview } | { ok: false; reason: string };

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
/** Latin letters mixed with letters of scripts that have look-alikes (Cyrillic, Greek, Armenian…). */
const LOOKALIKE_SCRIPTS = /[\u0370-\u03ff\u0400-\u052f\u0530-\u058f\u10a0-\u10ff\u13a0-\u13ff]/u;

export function reviewUrl(raw: string): UrlVerdict {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'the URL is empty' };
  if (raw.length > 8192) return { ok: false, reason: 'the URL is longer than 8192 characters' };
  if (/[\u0000-\u001f\u007f\s]/.test(raw)) return { ok: false, reason: 'the URL contains spaces or control characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'the URL cannot be parsed' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `only http and https links can be opened, not ${url.protocol.replace(/:$/, '')}:` };
  }
  if (url.hostname === '') return { ok: false, reason: 'the URL has no host' };
  const host = url.host;
  const unicode = domainToUnicode(url.hostname);
  const warnings: string[] = [];
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    warnings.push('This link is not encrypted (http, not https).');
  }
  if (url.hostname.split('.').some((label) => label.startsWith('xn--'))) {
    warnings.push(`The host is an internationalized name (${url.hostname}); it may imitate another site.`);
  }
  if (/[a-z]/i.test(unicode) && LOOKALIKE_SCRIPTS.test(unicode)) {
    warnings.push('The host mixes Latin letters with look-alike letters from another alphabet.');
  }
  if (url.username || url.password) warnings.push('The link contains a user name or password before the host.');
  const review: UrlReview = { url: url.href, host, warnings };
  if (unicode && unicode !== url.hostname) review.displayHost = unicode + (url.port ? `:${url.port}` : '');
  return { ok: true, review };
}
