/**
 * What features need of the secrets the person saved: the form and the quick
 * input offer them again, an agent's tool saves them by name, a configuration
 * input reads its saved password, the walkthrough sees that one exists. The
 * secrets feature keeps them (secrets/secretVault.ts).
 */
import type * as vscode from 'vscode';
import type { Question } from '../core/broker/broker';
import type { Asker, ElicitResult } from '../core/request';

export interface SavedSecret {
  /** 'named': a secret an agent asked for by name, used as `${secret:NAME}`. */
  askerKind: Asker['kind'] | 'named';
  /** Shown in Manage Saved Secrets; not what the secret is keyed by. */
  askerName: string;
  field: string;
  savedAt: number;
  /** The SecretStorage key. Absent in entries saved before keys named the origin (keyed by name; never offered). */
  key?: string;
}

/** A password input of an mcp.json (`${input:id}`), kept per config file so servers sharing it share it. */
export interface SavedInput {
  /** The config file's URI. */
  file: string;
  id: string;
  /** The server that first needed it, to recognise it by. */
  server: string;
  savedAt: number;
}

/** The asker detail of configuration-input questions: their answers are saved as inputs, not as answers. */
export const CONFIGURATION_INPUT = 'configuration input';

/** Where the form may reuse secrets saved earlier; the webview only ever learns their names. */
export interface SavedSecretSource {
  /** Names of this question's secret fields that have a saved value. */
  available(question: Question): string[] | Promise<string[]>;
  /** The saved value, read only when the person chose to reuse it. */
  read(question: Question, field: string): Promise<string | undefined>;
}

export interface SavedSecrets extends SavedSecretSource {
  readonly onDidChange: vscode.Event<void>;
  list(): SavedSecret[];
  has(asker: Asker, field: string): boolean;
  get(asker: Asker, field: string): Promise<string | undefined>;
  /** Saves every secret field of an accepted answer. */
  saveFrom(question: Question, result: ElicitResult): Promise<void>;
  /** Saves a named secret for `${secret:NAME}` references. */
  storeNamed(name: string, value: string): Promise<void>;
  /** The value behind `${secret:NAME}`, if one was saved. */
  getNamed(name: string): Promise<string | undefined>;
  getInput(file: string, id: string): Promise<string | undefined>;
  saveInput(file: string, id: string, server: string, value: string): Promise<void>;
}
