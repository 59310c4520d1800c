/**
 * Secret answers (fields with `format: "password"` or `writeOnly: true`) kept in
 * VS Code's SecretStorage, under a key namespaced by asker and field, so the
 * same asker can be answered with "Use saved value" next time. An index of the
 * saved names (never values) lives in global state for Manage Saved Secrets.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Question } from '../core/broker';
import { secretFieldNames } from '../core/fields';
import type { Asker, ElicitResult } from '../core/request';
import type { SavedSecretSource } from './formPanel';

export interface SavedSecret {
  askerKind: Asker['kind'];
  askerName: string;
  field: string;
  savedAt: number;
}

const INDEX_KEY = 'elicit.savedSecrets';

export class SecretVault implements SavedSecretSource, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  list(): SavedSecret[] {
    return this.state.get<SavedSecret[]>(INDEX_KEY, []);
  }

  has(asker: Asker, field: string): boolean {
    return this.list().some((s) => sameEntry(s, asker, field));
  }

  get(asker: Asker, field: string): Promise<string | undefined> {
    return Promise.resolve(this.secrets.get(storageKey(asker.kind, asker.name, field)));
  }

  /** Saves every secret field of an accepted answer. */
  async saveFrom(question: Question, result: ElicitResult): Promise<void> {
    if (result.action !== 'accept' || !question.form || !result.content) return;
    const asker = question.request.asker;
    for (const field of secretFieldNames(question.form)) {
      const value = result.content[field];
      if (typeof value !== 'string' || value === '') continue;
      await this.secrets.store(storageKey(asker.kind, asker.name, field), value);
      const others = this.list().filter((s) => !sameEntry(s, asker, field));
      await this.state.update(INDEX_KEY, [...others, { askerKind: asker.kind, askerName: asker.name, field, savedAt: Date.now() }]);
    }
    this.changes.fire();
  }

  async forget(entries: SavedSecret[]): Promise<void> {
    for (const entry of entries) await this.secrets.delete(storageKey(entry.askerKind, entry.askerName, entry.field));
    const gone = new Set(entries.map((e) => storageKey(e.askerKind, e.askerName, e.field)));
    await this.state.update(
      INDEX_KEY,
      this.list().filter((s) => !gone.has(storageKey(s.askerKind, s.askerName, s.field))),
    );
    this.changes.fire();
  }

  // SavedSecretSource, for the form webview: it learns names only.
  available(question: Question): string[] {
    if (!question.form) return [];
    return [...secretFieldNames(question.form)].filter((field) => this.has(question.request.asker, field));
  }

  read(question: Question, field: string): Promise<string | undefined> {
    return this.get(question.request.asker, field);
  }

  /**
   * For the end-to-end tests only (ELICIT_TEST_REPORT): what SecretStorage holds,
   * as key names and SHA-256 digests — never the values.
   */
  async writeTestReport(file: string): Promise<void> {
    const report: Record<string, string | null> = {};
    for (const entry of this.list()) {
      const key = storageKey(entry.askerKind, entry.askerName, entry.field);
      const value = await this.secrets.get(key);
      report[key] = value === undefined ? null : createHash('sha256').update(value).digest('hex');
    }
    await writeFile(file, JSON.stringify(report, null, 2));
  }

  dispose(): void {
    this.changes.dispose();
  }
}

/** JSON keeps "a:b" + "c" apart from "a" + "b:c". */
export function storageKey(kind: string, name: string, field: string): string {
  return `elicit.secret:${JSON.stringify([kind, name, field])}`;
}

function sameEntry(entry: SavedSecret, asker: Asker, field: string): boolean {
  return entry.askerKind === asker.kind && entry.askerName === asker.name && entry.field === field;
}
