/**
 * What Manage Saved Secrets needs of the keys typed for agents' sign-in: the
 * agent feature keeps them (acp/agentKeys.ts), the secrets feature lists and
 * forgets them, and neither imports the other.
 */
import type * as vscode from 'vscode';

export interface SavedAgentKey {
  agent: string;
  /** Digest of the agent's destination (agentOrigin). */
  binding: string;
  variable: string;
  savedAt: number;
}

export interface SavedAgentKeys {
  readonly onDidChange: vscode.Event<void>;
  list(): SavedAgentKey[];
  forget(entries: readonly SavedAgentKey[]): Promise<void>;
  /** The SecretStorage keys, for the end-to-end tests' report. */
  storageKeys(): string[];
}
