/**
 * Searches every file under the given folders for a secret, as UTF-8 and as
 * UTF-16 (SQLite state databases and some logs use either), and also its
 * base64 form. Returns the files that contain it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { screenshotDir } from '../e2e/harness/runFolders';

export function findInFiles(roots: string[], secret: string): string[] {
  const needles = [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le'), Buffer.from(Buffer.from(secret).toString('base64'))];
  const hits: string[] = [];
  const visit = (file: string): void => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(file);
    } catch {
      return; // Removed while we looked.
    }
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file)) visit(path.join(file, entry));
      return;
    }
    if (!stat.isFile()) return;
    const content = fs.readFileSync(file);
    if (needles.some((needle) => content.includes(needle))) hits.push(file);
  };
  for (const root of roots) visit(root);
  return hits;
}

/** Where an end-to-end session's VS Code and extension write: every file under these is scanned. */
export interface WrittenPlaces {
  server: { userDataDir: string; extensionsDir: string };
  workspaceDir: string;
}

/**
 * The one leak check every end-to-end file that types a secret runs at its end:
 * the code-server user-data dir (logs, output channels, state databases,
 * history), the extensions dir, the workspace, and the folder screenshots are
 * written to.
 * Throws naming each file that holds any of the secrets.
 */
export function assertNoSecretLeak(places: WrittenPlaces, secrets: string[], extraRoots: string[] = []): void {
  const roots = [places.server.userDataDir, places.server.extensionsDir, places.workspaceDir, screenshotDir, ...extraRoots];
  const leaks = secrets.flatMap((secret) =>
    findInFiles(roots, secret).map((file) => `${JSON.stringify(secret.slice(0, 6) + '…')} in ${file}`),
  );
  if (leaks.length > 0) throw new Error(`secrets leaked into files: ${leaks.join('; ')}`);
}
