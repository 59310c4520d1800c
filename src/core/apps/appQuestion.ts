/**
 * A server's own app for a question (draft SEP-3118 on MCP Apps, extension
 * `io.modelcontextprotocol/ui`): a form question whose `_meta.ui.resourceUri`
 * names a `ui://` resource of the server that asks may be answered in that app,
 * an HTML page the editor shows in a sandbox. The question keeps its whole
 * `requestedSchema`: the app is only another way to draw it, and whatever it
 * answers is checked exactly as a typed answer.
 *
 * Pure: what the metadata says, the app's resource read from a `resources/read`
 * result, and the Content-Security-Policy the app's page gets (only the domains
 * the resource declares, nothing of the editor's, and nothing of the person's own
 * machine or network unless the server itself is there).
 */
import { privateIpv4 } from '../device/addressScope';

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The MCP Apps bridge's own protocol version (ui/initialize). */
export const APP_BRIDGE_VERSION = '2026-01-26';
/** The capability Elicit declares when app questions are on. */
export const UI_EXTENSION_SETTINGS = Object.freeze({ mimeTypes: [APP_MIME_TYPE], elicitation: {} });

/** Largest app page Elicit shows. */
export const MAX_APP_HTML = 2 * 1024 * 1024;
const MAX_URI_LENGTH = 2_000;
const MAX_DOMAINS = 50;
/** Longest source a resource may declare: a host name is at most 253 characters (and the person reads each one). */
const MAX_SOURCE_LENGTH = 300;

/** The domains the resource lets its page reach (`_meta.ui.csp`), each already checked. */
export interface AppCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

export interface AppResource {
  uri: string;
  html: string;
  csp: AppCsp;
}

/**
 * A question's app, bound to the server that asked it: `read` fetches the resource
 * from that server's connection and no other (a question cannot name another
 * server's app).
 */
export interface AppRef {
  resourceUri: string;
  read(signal: AbortSignal): Promise<AppResource>;
}

/** The `ui://` resource a question's `_meta` names, or undefined (no app, or a malformed one: the form is drawn natively). */
export function appUriIn(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const ui = (meta as Record<string, unknown>).ui;
  if (typeof ui !== 'object' || ui === null) return undefined;
  const uri = (ui as Record<string, unknown>).resourceUri;
  if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH || !/^ui:\/\/[^\s]+$/.test(uri)) return undefined;
  return uri;
}

/** Why an app cannot be shown: the question is then drawn as Elicit's own form, saying so. */
export class AppUnavailable extends Error {
  override readonly name = 'AppUnavailable';
}

/** What the caller knows of the server that serves the app (core cannot see its transport). */
export interface AppServer {
  /**
   * The server is on this machine or the person's network (stdio, a local socket, or an
   * HTTP URL whose host is: serverUrlIsLocal). Only then may its app reach hosts there.
   */
  isLocal: boolean;
}

/**
 * The app page of a `resources/read` result for `uri`: its HTML and checked CSP domains, or
 * AppUnavailable. A server that is not local may not declare hosts of the person's own machine
 * or network: its app would call the person's router, printer or dev servers from inside the
 * editor.
 */
export function readAppResource(result: unknown, uri: string, server: AppServer = { isLocal: false }): AppResource {
  const contents = typeof result === 'object' && result !== null ? (result as Record<string, unknown>).contents : undefined;
  if (!Array.isArray(contents)) throw new AppUnavailable('the server sent no contents for it');
  const item = contents.find(
    (c): c is Record<string, unknown> => typeof c === 'object' && c !== null && (c as Record<string, unknown>).uri === uri,
  );
  if (!item) throw new AppUnavailable('the server sent another resource');
  if (typeof item.mimeType !== 'string' || item.mimeType.replace(/\s+/g, '').toLowerCase() !== APP_MIME_TYPE) {
    throw new AppUnavailable(`it is not an MCP App (${APP_MIME_TYPE})`);
  }
  let html: string;
  if (typeof item.text === 'string') html = item.text;
  else if (typeof item.blob === 'string' && item.blob.length <= (MAX_APP_HTML * 4) / 3 + 4) html = decodeBase64(item.blob);
  else throw new AppUnavailable('it has no page');
  if (html.length > MAX_APP_HTML) throw new AppUnavailable('its page is larger than 2 MB');
  const meta = item._meta;
  const ui = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).ui : undefined;
  const csp = typeof ui === 'object' && ui !== null ? (ui as Record<string, unknown>).csp : undefined;
  const domains = readCsp(csp);
  if (!server.isLocal) {
    const inside = appDomains(domains).filter(reachesPersonsNetwork);
    if (inside.length > 0) {
      const more = inside.length > 3 ? ` and ${inside.length - 3} more` : '';
      throw new AppUnavailable(
        `it asks to reach your own machine or network, which only a local server's app may: ${inside.slice(0, 3).join(', ')}${more}`,
      );
    }
  }
  return { uri, html, csp: domains };
}

/** Every source the app's page may reach, each once: what the person is shown before the app. */
export function appDomains(csp: AppCsp): string[] {
  return [...new Set([...csp.connectDomains, ...csp.resourceDomains, ...csp.frameDomains, ...csp.baseUriDomains])];
}

function decodeBase64(blob: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(blob), (c) => c.charCodeAt(0)));
  } catch {
    throw new AppUnavailable('its page is not valid base64');
  }
}

function readCsp(value: unknown): AppCsp {
  const csp = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return {
    connectDomains: domains(csp.connectDomains),
    resourceDomains: domains(csp.resourceDomains),
    frameDomains: domains(csp.frameDomains),
    baseUriDomains: domains(csp.baseUriDomains),
  };
}

/**
 * A CSP source the resource may name: a scheme, a host (a leading `*.` allowed)
 * and a port, nothing else. Anything that could end the directive or add a
 * keyword (`;`, quotes, spaces, `'unsafe-eval'`, `*` alone, `data:`) is left out.
 */
const SOURCE = /^(?:https?|wss?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::\d{1,5})?$/i;

function domains(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [
    ...new Set(
      value
        .filter((d): d is string => typeof d === 'string' && d.trim().length <= MAX_SOURCE_LENGTH && SOURCE.test(d.trim()))
        .map((d) => d.trim().toLowerCase()),
    ),
  ].slice(0, MAX_DOMAINS);
}

/**
 * Names no public DNS serves: the person's machine (`localhost`) and network (mDNS `.local`,
 * RFC 8375's `home.arpa`, and the suffixes routers and companies use).
 */
const PERSONS_NETWORK_NAMES = ['localhost', 'localdomain', 'local', 'internal', 'lan', 'home.arpa'];

/** A checked source (SOURCE) that may reach the person's machine or network. */
function reachesPersonsNetwork(source: string): boolean {
  const [, wildcard, host] = SOURCE.exec(source) ?? [];
  if (host === undefined) return true;
  if (wildcard === undefined) return onPersonsNetwork(host);
  // `*.local` reaches every name under it; `*.0.1` could only be meant for addresses.
  return underPersonsNetworkName(host.toLowerCase()) || /^(\d+|0x[0-9a-f]*)$/i.test(host.slice(host.lastIndexOf('.') + 1));
}

function underPersonsNetworkName(name: string): boolean {
  return PERSONS_NETWORK_NAMES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/**
 * Whether `host` (a URL's host: a name, an IPv4 address in any form a browser reads, or an
 * IPv6 address, bracketed or not) may be the person's own machine or network: loopback,
 * private, link-local, shared (100.64/10: carrier NAT, tailnets) or unspecified addresses;
 * a name under PERSONS_NETWORK_NAMES; a single-label name (the LAN or a search domain
 * resolves it). Anything a browser would not read as a host counts as theirs too.
 */
export function onPersonsNetwork(host: string): boolean {
  if (!/^[a-z0-9.:[\]-]+$/i.test(host)) return true;
  let hostname: string;
  try {
    // Read as a browser reads it: 127.1, 0x7f.0.0.1 and 2130706433 are all 127.0.0.1.
    hostname = new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}`).hostname.replace(/\.$/, '');
  } catch {
    return true;
  }
  if (hostname.startsWith('[')) return personsIpv6(hostname.slice(1, -1));
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(hostname);
  if (v4) return personsIpv4(Number(v4[1]), Number(v4[2]));
  return !hostname.includes('.') || underPersonsNetworkName(hostname);
}

/** This machine (0/8, 127/8) or a private network. */
function personsIpv4(a: number, b: number): boolean {
  return a === 0 || a === 127 || privateIpv4(a, b);
}

/** An IPv6 address as the URL parser writes it (compressed, hex only). */
function personsIpv6(address: string): boolean {
  const [head = '', tail] = address.split('::');
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const g = [...front, ...new Array<number>(Math.max(0, 8 - front.length - back.length)).fill(0), ...back];
  if (g.length !== 8 || g.some((n) => !Number.isInteger(n))) return true;
  const zeros = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (zeros(7) && g[7]! <= 1) return true; // :: and ::1
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // fc00::/7, unique local
  if ((g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xffc0) === 0xfec0) return true; // link local, and the old site local
  if (zeros(5) && g[5] === 0xffff) return personsIpv4(g[6]! >> 8, g[6]! & 0xff); // ::ffff:a.b.c.d
  return false;
}

/**
 * Whether a server at `url` is on this machine or the person's network: a local socket
 * (`unix:`, `pipe:`) or an HTTP URL whose host is (onPersonsNetwork). Anything else is remote.
 */
export function serverUrlIsLocal(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'unix:' || parsed.protocol === 'pipe:') return true;
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && onPersonsNetwork(parsed.hostname);
}

/**
 * The app page's policy: MCP Apps' template without `'self'` (the page's origin is the
 * editor's webview, which the app has no business reaching), and nothing beyond the
 * declared domains: no network at all when none are declared.
 */
export function appCsp(csp: AppCsp): string {
  const list = (sources: string[], fallback: string): string => (sources.length > 0 ? sources.join(' ') : fallback);
  const resources = csp.resourceDomains.join(' ');
  return [
    `default-src 'none'`,
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: ${resources}`.trim(),
    `font-src ${list(csp.resourceDomains, `'none'`)}`,
    `media-src data: ${resources}`.trim(),
    `connect-src ${list(csp.connectDomains, `'none'`)}`,
    `frame-src ${list(csp.frameDomains, `'none'`)}`,
    `object-src 'none'`,
    `base-uri ${list(csp.baseUriDomains, `'none'`)}`,
    `form-action 'none'`,
  ].join('; ');
}
