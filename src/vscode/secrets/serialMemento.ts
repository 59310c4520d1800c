/**
 * Extension state whose updates run one after another. VS Code keeps all of an
 * extension's global state as one stored object, and when a write reaches
 * storage the extension host replaces its copy with what was stored. A second
 * update made while the first is on its way is then overwritten by that copy
 * and lost for good: a secret saved as a question's history was written
 * vanished from the saved-secrets index. Waiting for each write to land
 * before making the next one avoids that.
 *
 * The updates made while a write is on its way go together in the next one,
 * each key with its latest value: every write sends the whole stored object
 * (and VS Code sends it back), so writing each update on its own made a busy
 * window send its history again and again, kept by the host until the editor
 * acknowledged it (the soak: 13 MB of such messages at once).
 */
import type * as vscode from 'vscode';

export class SerialMemento implements vscode.Memento {
  /** Values waiting for the next write: reads see them at once, as they would without the queue. */
  private readonly waiting = new Map<string, unknown>();
  /** Values of the write on its way, until it lands. */
  private writing = new Map<string, unknown>();
  private onItsWay = false;
  /** Settles when the next write (the one that carries `waiting`) lands. */
  private next: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor(private readonly inner: vscode.Memento) {}

  keys(): readonly string[] {
    return [...new Set([...this.inner.keys(), ...this.writing.keys(), ...this.waiting.keys()])];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const source = this.waiting.has(key) ? this.waiting : this.writing.has(key) ? this.writing : undefined;
    if (!source) return this.inner.get(key, defaultValue);
    const value = source.get(key) as T | undefined;
    return value === undefined ? defaultValue : value;
  }

  update(key: string, value: unknown): Promise<void> {
    this.waiting.set(key, value);
    if (!this.onItsWay) return this.write();
    if (!this.next) {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      this.next = { promise, resolve, reject };
    }
    return this.next.promise;
  }

  /** Hands every waiting value to VS Code at once: its state object goes out in one write. */
  private write(): Promise<void> {
    this.writing = new Map(this.waiting);
    this.waiting.clear();
    this.onItsWay = true;
    // A value VS Code cannot copy throws at once: it fails its write, not every write after it.
    const landed = Promise.all(
      [...this.writing].map(([key, value]) => new Promise<void>((resolve, reject) => this.inner.update(key, value).then(resolve, reject))),
    ).then(() => undefined);
    const after = (): void => {
      this.writing = new Map();
      this.onItsWay = false;
      const next = this.next;
      this.next = undefined;
      if (next) this.write().then(next.resolve, next.reject);
    };
    landed.then(after, after);
    return landed;
  }
}
