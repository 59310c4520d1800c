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
}

/** What entryFields reads: the fields, and whether the entry asks for VS Code's sandbox. */
export interface EntryFields extends ServerFields {
  sandboxed?: true;
}

/** Fields that describe an entry (written by VS Code's gallery install) without changing how it runs. */
const DESCRIPTIVE = new Set(['gallery', 'version', 'description', 'title']);

/**
 * What Elicit makes of the entry's other fields. `read`: the fields the
 * transport parser took. `extraRead`: further fields a format reads itself.
 */
export function entryFields(entry: Record<string, unknown>, read: readonly string[]): EntryFields {
  const fields: EntryFields = {};
  const notSupported: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (read.includes(key) || DESCRIPTIVE.has(key)) continue;
    if (key === 'sandboxEnabled') {
      if (value === true) fields.sandboxed = true;
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
