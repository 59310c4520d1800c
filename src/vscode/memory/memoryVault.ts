/**
 * Where "always" answers live: one SecretStorage entry, never a state or
 * workspace file (a remembered value may be anything the person typed).
 */
import type * as vscode from 'vscode';
import type { MemoryVault } from '../../core/memory/answerMemory';

export const REMEMBERED_ANSWERS_KEY = 'elicit.rememberedAnswers';
/** The person's rules per asker (always decline, never open links): the person's own, never a workspace's. */
export const ASKER_RULES_KEY = 'elicit.askerRules';

export function secretMemoryVault(secrets: vscode.SecretStorage, key = REMEMBERED_ANSWERS_KEY): MemoryVault {
  return {
    read: () => Promise.resolve(secrets.get(key)),
    write: (text) => Promise.resolve(text === undefined ? secrets.delete(key) : secrets.store(key, text)),
  };
}
