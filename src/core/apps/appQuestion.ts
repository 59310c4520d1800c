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
 * the resource declares, nothing of the editor's).
 */

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

/** The app page of a `resources/read` result for `uri`: its HTML and checked CSP domains, or AppUnavailable. */
export function readAppResource(result: unknown, uri: string): AppResource {
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
  return { uri, html, csp: readCsp(csp) };
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
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

function domains(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [
    ...new Set(value.filter((d): d is string => typeof d === 'string' && SOURCE.test(d.trim())).map((d) => d.trim().toLowerCase())),
  ].slice(0, MAX_DOMAINS);
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
