/**
 * The fields of a server entry beyond how it is reached: what Elicit does with
 * each, so none is dropped without a word. `dev.watch` restarts the server on a
 * change; a server configured to run in VS Code's sandbox (`sandboxEnabled`) is
 * never started without one, so Elicit does not start it and says why; any
 * other field Elicit does not act on is named (the view lists it).
 */
import { isObject } from '../json';

export interface ServerFields {
  /** Fields of the entry Elicit does not act on, as written ("dev.debug", "timeout"): named, never silently dropped. */
  notSupported?: string[];
  /** Why Elicit does not start it: starting would run it otherwise than it is configured. */
  notStarted?: string;
  /** `dev.watch`: glob patterns; a change to a matching file restarts the running server. */
  watch?: string[];
}

/** Fields that describe an entry (written by VS Code's gallery install) without changing how it runs. */
const DESCRIPTIVE = new Set(['gallery', 'version', 'description', 'title']);

export const SANDBOX_NOT_STARTED =
  'it is configured to run in a sandbox ("sandboxEnabled": true), and Elicit cannot run a server in VS Code\'s sandbox: it is not started, so that it never runs without one. Leave it to VS Code (the elicit.mcpJsonServers setting) or remove "sandboxEnabled"';

/**
 * What Elicit makes of the entry's other fields. `read`: the fields the
 * transport parser took. `extraRead`: further fields a format reads itself.
 */
export function entryFields(entry: Record<string, unknown>, read: readonly string[]): ServerFields {
  const fields: ServerFields = {};
  const notSupported: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (read.includes(key) || DESCRIPTIVE.has(key)) continue;
    if (key === 'sandboxEnabled') {
      if (value === true) fields.notStarted = SANDBOX_NOT_STARTED;
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
      notSupported.push(...Object.keys(value).map((oauthKey) => `oauth.${oauthKey}`));
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
