/**
 * Where "always" answers live: one SecretStorage entry, never a state or
 * workspace file (a remembered value may be anything the person typed).
 */
import type * as vscode from 'vscode';
import type { MemoryVault } from '../../core/memory/answerMemory';

export const REMEMBERED_ANSWERS_KEY = 'elicit.rememberedAnswers';

export function secretMemoryVault(secrets: vscode.SecretStorage): MemoryVault {
  return {
    read: () => Promise.resolve(secrets.get(REMEMBERED_ANSWERS_KEY)),
    write: (text) =>
      Promise.resolve(text === undefined ? secrets.delete(REMEMBERED_ANSWERS_KEY) : secrets.store(REMEMBERED_ANSWERS_KEY, text)),
  };
}
