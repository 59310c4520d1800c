/**
 * The fields of a server entry beyond how it is reached: what Elicit does with
 * each, so none is dropped without a word. `dev.watch` restarts the server on a
 * change; a server configured to run in VS Code's sandbox (`sandboxEnabled`) is
 * run in it (mcp/sandboxLaunch.ts), never without it; any other field Elicit
 * does not act on is named (the view lists it).
 */
import { isObject } from '../json';

export interface ServerFields {
  /** Fields of the entry Elicit does not act on, as written ("dev.debug", "timeout"): named, never silently dropped. */
  notSupported?: string[];
  /** Why Elicit does not start it: starting would run it otherwise than it is configured. */
  notStarted?: string;
  /** `dev.watch`: glob patterns; a change to a matching file restarts the running server. */
  watch?: string[];
  /** A client registered ahead with the authorization server. */
  oauthClientId?: string;
  /** Run in VS Code's sandbox with these rules (the entry says `"sandboxEnabled": true`). */
  sandbox?: SandboxRules;
}

/**
 * The rules of VS Code's sandbox (a `mcp.json` file's top-level `sandbox`):
 * where a server may write and not read, which domains it may reach.
 */
export interface SandboxRules {
  filesystem: { allowWrite: string[]; denyRead: string[]; denyWrite: string[] };
  network: { allowedDomains: string[]; deniedDomains: string[] };
}

/** No rules is VS Code's defaults: no writes but the server's folder, no network but the npm registry. */
export function emptySandbox(): SandboxRules {
  return { filesystem: { allowWrite: [], denyRead: [], denyWrite: [] }, network: { allowedDomains: [], deniedDomains: [] } };
}

/** Fields that describe an entry (written by VS Code's gallery install) without changing how it runs. */
const DESCRIPTIVE = new Set(['gallery', 'version', 'description', 'title']);

/**
 * What Elicit makes of the entry's other fields. `read`: the fields the
 * transport parser took. `transport`: a process may be sandboxed (VS Code's
 * default rules until the file's own are known); a URL may not.
 */
export function entryFields(entry: Record<string, unknown>, read: readonly string[], transport: 'stdio' | 'http' | 'sse'): ServerFields {
  const fields: ServerFields = {};
  const notSupported: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (read.includes(key) || DESCRIPTIVE.has(key)) continue;
    if (key === 'sandboxEnabled') {
      if (value === true && transport === 'stdio') fields.sandbox = emptySandbox();
      continue;
    }
    if (key === 'dev' && isObject(value)) {
      for (const [devKey, devValue] of Object.entries(value)) {
        if (devKey === 'watch' && watchPatterns(devValue)) fields.watch = watchPatterns(devValue);
        else notSupported.push(`dev.${devKey}`);
      }
      continue;
    }
    if (key === 'oauth' && isObject(value)) {
      for (const [oauthKey, oauthValue] of Object.entries(value)) {
        if (oauthKey === 'clientId' && typeof oauthValue === 'string' && oauthValue !== '') fields.oauthClientId = oauthValue;
        else notSupported.push(`oauth.${oauthKey}`);
      }
      continue;
    }
    if (key === 'oauthClientId' && typeof value === 'string' && value !== '') {
      fields.oauthClientId = value;
      continue;
    }
    notSupported.push(key);
  }
  if (notSupported.length > 0) fields.notSupported = notSupported;
  return fields;
}

function watchPatterns(value: unknown): string[] | undefined {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((p) => typeof p === 'string' && p.trim() !== '')) return undefined;
  return list as string[];
}
