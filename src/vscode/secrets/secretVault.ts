/**
 * Secret answers (fields with `format: "password"` or `writeOnly: true`) kept in
 * VS Code's SecretStorage, under a key of the asker's origin and the field
 * (secretKeys.ts), so the same server or agent, and no other of that name, can
 * be answered with "Use saved value" next time. An index of the saved names
 * (never values) lives in global state for Manage Saved Secrets.
 */
import * as vscode from 'vscode';
import type { Question } from '../../core/broker/broker';
import { secretFields } from '../../core/form/fields';
import type { Asker, ElicitResult } from '../../core/request';
import { namedSecretKey, savedSecretKey } from '../../core/secretKeys';
import { CONFIGURATION_INPUT, type SavedInput, type SavedSecret, type SavedSecrets } from '../savedSecrets';

const INDEX_KEY = 'elicit.savedSecrets';
const INPUT_INDEX_KEY = 'elicit.savedInputs';

export class SecretVault implements SavedSecrets, vscode.Disposable {
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
    const key = savedSecretKey(asker, field);
    return key !== undefined && this.list().some((s) => entryKey(s) === key);
  }

  get(asker: Asker, field: string): Promise<string | undefined> {
    const key = savedSecretKey(asker, field);
    return key === undefined ? Promise.resolve(undefined) : Promise.resolve(this.secrets.get(key));
  }

  /** Saves every secret field of an accepted answer. */
  async saveFrom(question: Question, result: ElicitResult): Promise<void> {
    if (result.action !== 'accept' || !question.form || !result.content) return;
    // Saved by ConfigInputs under the config file instead (see saveInput).
    if (question.request.asker.detail === CONFIGURATION_INPUT) return;
    const asker = question.request.asker;
    // The elicit tool and the gateway save theirs by name themselves (askToolQuestion's saveSecret).
    if (asker.kind === 'tool' || asker.kind === 'gateway') return;
    for (const { name: answerName, property: field } of secretFields(question.form)) {
      const value = result.content[answerName];
      const key = savedSecretKey(asker, field);
      // No key: an asker whose origin is unknown or only claimed; nothing is kept for it.
      if (typeof value !== 'string' || value === '' || key === undefined) continue;
      await this.secrets.store(key, value);
      const others = this.list().filter((s) => entryKey(s) !== key);
      await this.state.update(INDEX_KEY, [...others, { askerKind: asker.kind, askerName: asker.name, field, savedAt: Date.now(), key }]);
    }
    this.changes.fire();
  }

  /** Saves a named secret for `${secret:NAME}` references. */
  async storeNamed(name: string, value: string): Promise<void> {
    await this.secrets.store(namedSecretKey(name), value);
    const others = this.list().filter((s) => !(s.askerKind === 'named' && s.field === name));
    await this.state.update(INDEX_KEY, [...others, { askerKind: 'named', askerName: '', field: name, savedAt: Date.now() }]);
    this.changes.fire();
  }

  /** The value behind `${secret:NAME}`, if one was saved. */
  getNamed(name: string): Promise<string | undefined> {
    return Promise.resolve(this.secrets.get(namedSecretKey(name)));
  }

  async forget(entries: SavedSecret[]): Promise<void> {
    for (const entry of entries) await this.secrets.delete(entryKey(entry));
    const gone = new Set(entries.map(entryKey));
    await this.state.update(
      INDEX_KEY,
      this.list().filter((s) => !gone.has(entryKey(s))),
    );
    this.changes.fire();
  }

  listInputs(): SavedInput[] {
    return this.state.get<SavedInput[]>(INPUT_INDEX_KEY, []);
  }

  getInput(file: string, id: string): Promise<string | undefined> {
    return Promise.resolve(this.secrets.get(inputStorageKey(file, id)));
  }

  async saveInput(file: string, id: string, server: string, value: string): Promise<void> {
    await this.secrets.store(inputStorageKey(file, id), value);
    const others = this.listInputs().filter((s) => s.file !== file || s.id !== id);
    await this.state.update(INPUT_INDEX_KEY, [...others, { file, id, server, savedAt: Date.now() }]);
    this.changes.fire();
  }

  async forgetInputs(entries: Array<Pick<SavedInput, 'file' | 'id'>>): Promise<void> {
    for (const entry of entries) await this.secrets.delete(inputStorageKey(entry.file, entry.id));
    const gone = new Set(entries.map((e) => inputStorageKey(e.file, e.id)));
    await this.state.update(
      INPUT_INDEX_KEY,
      this.listInputs().filter((s) => !gone.has(inputStorageKey(s.file, s.id))),
    );
    this.changes.fire();
  }

  // SavedSecretSource, for the form webview: it learns names only.
  available(question: Question): string[] {
    if (!question.form) return [];
    return secretFields(question.form)
      .filter((field) => this.has(question.request.asker, field.property))
      .map((field) => field.name);
  }

  read(question: Question, field: string): Promise<string | undefined> {
    const property = secretFields(question.form).find((f) => f.name === field)?.property ?? field;
    return this.get(question.request.asker, property);
  }

  /** The SecretStorage keys of everything listed: saved answers, then inputs. */
  storageKeys(): string[] {
    return [...this.list().map(entryKey), ...this.listInputs().map((entry) => inputStorageKey(entry.file, entry.id))];
  }

  dispose(): void {
    this.changes.dispose();
  }
}

/** An index entry's SecretStorage key; entries from before origin keys were keyed by kind, name and field. */
function entryKey(entry: SavedSecret): string {
  if (entry.key !== undefined) return entry.key;
  if (entry.askerKind === 'named') return namedSecretKey(entry.field);
  return `elicit.secret:${JSON.stringify([entry.askerKind, entry.askerName, entry.field])}`;
}

/** JSON keeps "a:b" + "c" apart from "a" + "b:c". */
export function inputStorageKey(file: string, id: string): string {
  return `elicit.input:${JSON.stringify([file, id])}`;
}
