/**
 * Which profile's `mcp.json` is this window's. VS Code keeps the default
 * profile's file in `<user>/mcp.json` and a named profile's in
 * `<user>/profiles/<id>/mcp.json`, but gives extensions no profile API, and
 * `globalStorageUri` is the default profile's in every profile. The window's
 * profile is the one VS Code associated with its workspace, as recorded in
 * `<user>/globalStorage/storage.json` (`profileAssociations.workspaces`, by the
 * folder's or the workspace file's URI; `userDataProfiles` has their names and
 * folders). A profile that shares the default's MCP servers
 * (`useDefaultFlags.mcp`) reads the default file. Pure: the file's text in.
 */
import { isObject } from '../json';

export interface ProfileMcpJson {
  /** The profile's folder relative to `<user>/profiles`, or an absolute URI; undefined for the default profile. */
  location?: string;
  /** Its name, for labels ("User mcp.json (Work profile)"); undefined for the default profile. */
  name?: string;
}

/** The profile whose `mcp.json` a window of `workspaceUris` (its folder or workspace file, as URIs) reads. */
export function profileForWorkspace(storageJson: string | undefined, workspaceUris: readonly string[]): ProfileMcpJson {
  let storage: unknown;
  try {
    storage = storageJson === undefined ? undefined : JSON.parse(storageJson);
  } catch {
    return {};
  }
  if (!isObject(storage)) return {};
  const associations = isObject(storage.profileAssociations) ? storage.profileAssociations.workspaces : undefined;
  if (!isObject(associations)) return {};
  const wanted = new Set(workspaceUris.map(comparableUri));
  const id = Object.entries(associations).find(([uri]) => wanted.has(comparableUri(uri)))?.[1];
  if (typeof id !== 'string' || id === '__default__profile__') return {};
  const profiles = Array.isArray(storage.userDataProfiles) ? storage.userDataProfiles : [];
  const profile = profiles.find((p): p is Record<string, unknown> => isObject(p) && p.location === id) ?? { location: id };
  const flags = isObject(profile.useDefaultFlags) ? profile.useDefaultFlags : {};
  if (flags.mcp === true) return {};
  return { location: id, ...(typeof profile.name === 'string' && profile.name !== '' ? { name: profile.name } : {}) };
}

/** VS Code writes URIs with an encoded drive colon and a lower-case drive letter; compare without those differences. */
function comparableUri(uri: string): string {
  let decoded = uri;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    // Keep it as written.
  }
  return decoded.replace(/\/+$/, '').replace(/^file:\/\/\/([A-Za-z]):/, (_whole, drive: string) => `file:///${drive.toLowerCase()}:`);
}
