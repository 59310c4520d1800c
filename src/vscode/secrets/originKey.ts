/**
 * The key of destination digests (core/origin.ts), random per install and kept
 * in SecretStorage, the OS keychain: grants, saved answers and agent keys are
 * keyed by a digest that state files hold, and without this key nobody can test
 * guesses of a value in a destination (a weak password in an envFile) against it.
 * If SecretStorage cannot be read, digests hold for this window only: answers
 * are asked again, never given to a destination that was not allowed.
 */
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import { useOriginKey } from '../../core/origin';
import { errorText } from '../../core/errors';

const STORAGE_KEY = 'elicit.originKey';

export async function loadOriginKey(secrets: vscode.SecretStorage, log: vscode.LogOutputChannel): Promise<void> {
  try {
    let stored = await secrets.get(STORAGE_KEY);
    if (!stored) {
      await secrets.store(STORAGE_KEY, randomBytes(32).toString('base64'));
      // Another window may have stored its own at the same moment: the one kept is the one used.
      stored = await secrets.get(STORAGE_KEY);
    }
    if (stored) useOriginKey(Buffer.from(stored, 'base64'));
  } catch (error) {
    log.warn(`SecretStorage could not be read (${errorText(error)}): grants and saved answers hold for this window only`);
  }
}
