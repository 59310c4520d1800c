/**
 * Extension state whose updates run one after another. VS Code keeps all of an
 * extension's global state as one stored object, and when a write reaches
 * storage the extension host replaces its copy with what was stored. A second
 * update made while the first is on its way is then overwritten by that copy
 * and lost for good: a secret saved as a question's history was written
 * vanished from the saved-secrets index. Waiting for each update to land
 * before making the next one avoids that.
 */
import type * as vscode from 'vscode';

export class SerialMemento implements vscode.Memento {
  private last: Promise<void> = Promise.resolve();
  /** Values waiting for their turn: reads see them at once, as they would without the queue. */
  private readonly pending = new Map<string, unknown>();

  constructor(private readonly inner: vscode.Memento) {}

  keys(): readonly string[] {
    return [...new Set([...this.inner.keys(), ...this.pending.keys()])];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    if (!this.pending.has(key)) return this.inner.get(key, defaultValue);
    const value = this.pending.get(key) as T | undefined;
    return value === undefined ? defaultValue : value;
  }

  update(key: string, value: unknown): Promise<void> {
    this.pending.set(key, value);
    const run = this.last.then(() => this.inner.update(key, value));
    const settled = run.finally(() => {
      if (this.pending.get(key) === value) this.pending.delete(key);
    });
    this.last = settled.catch(() => undefined);
    return settled;
  }
}
