import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { SerialMemento } from '../../src/vscode/secrets/serialMemento';

/**
 * Like VS Code's extension state: an update changes the host's copy at once; the updates of one
 * tick go out as one write of the whole object, which lands a while later; when it lands, the host's
 * copy becomes what was stored (so an update made while a write is on its way is lost).
 */
class SlowMemento implements vscode.Memento {
  private copy: Record<string, unknown> = {};
  private stored: Record<string, unknown> = {};
  private waiting: Array<() => void> = [];
  private scheduled = false;
  /** The keys each write carried, in order. */
  readonly writes: string[][] = [];
  private changedKeys = new Set<string>();
  inFlight = 0;
  mostInFlight = 0;
  keys(): readonly string[] {
    return Object.keys(this.copy);
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return key in this.copy ? (this.copy[key] as T) : defaultValue;
  }
  read(key: string): unknown {
    return this.stored[key];
  }
  update(key: string, value: unknown): Promise<void> {
    this.copy[key] = value;
    this.changedKeys.add(key);
    const landed = new Promise<void>((resolve) => this.waiting.push(resolve));
    if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => this.write(), 0);
    }
    return landed;
  }
  private write(): void {
    this.scheduled = false;
    const snapshot = { ...this.copy };
    const done = this.waiting;
    this.waiting = [];
    this.writes.push([...this.changedKeys].sort());
    this.changedKeys.clear();
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    setTimeout(() => {
      this.stored = snapshot;
      this.copy = { ...snapshot };
      this.inFlight--;
      for (const resolve of done) resolve();
    }, 5);
  }
}

describe('SerialMemento', () => {
  it('starts a write only after the one before has landed, and reads what is queued at once', async () => {
    const inner = new SlowMemento();
    const state = new SerialMemento(inner);
    const first = state.update('index', ['a']);
    const second = state.update('history', [1]);
    const third = state.update('index', ['a', 'b']);
    assert.deepEqual(state.get('index'), ['a', 'b'], 'a read sees the latest queued value');
    assert.equal(state.get('missing', 'fallback'), 'fallback');
    assert.deepEqual([...state.keys()].sort(), ['history', 'index']);
    await Promise.all([first, second, third]);
    assert.equal(inner.mostInFlight, 1, 'never two writes on their way at once');
    assert.deepEqual(inner.read('index'), ['a', 'b']);
    assert.deepEqual(inner.read('history'), [1], 'an update made while a write was on its way is not lost');
    assert.deepEqual(state.get('history'), [1]);
  });

  it('sends the updates made while a write is on its way together, each key with its latest value', async () => {
    const inner = new SlowMemento();
    const state = new SerialMemento(inner);
    const updates = [state.update('history', [0])];
    for (let n = 1; n <= 10; n++) updates.push(state.update('history', [n]));
    updates.push(state.update('index', ['x']));
    await Promise.all(updates);
    assert.deepEqual(inner.writes, [['history'], ['history', 'index']], 'one write for the first update, one for the eleven after it');
    assert.deepEqual(inner.read('history'), [10]);
    assert.deepEqual(inner.read('index'), ['x']);
    await state.update('history', [11]);
    assert.deepEqual(inner.writes.at(-1), ['history'], 'once nothing is on its way, an update is written at once');
  });

  it('a failed update rejects its caller and does not stop the ones after it', async () => {
    const inner = new SlowMemento();
    const failing = new SerialMemento({
      keys: () => inner.keys(),
      get: inner.get.bind(inner),
      update: async (key: string, value: unknown) => {
        if (key === 'bad') throw new Error('storage full');
        return inner.update(key, value);
      },
    } as vscode.Memento);
    const bad = failing.update('bad', 1);
    const during = failing.update('good', 1);
    await assert.rejects(bad, /storage full/);
    await during;
    await failing.update('good', 2);
    assert.equal(inner.read('good'), 2);
    assert.equal(failing.get('bad'), undefined, 'a failed value is not kept as pending');
  });

  it('a value that cannot be copied fails its own write at once, and the writes after it still go', async () => {
    const inner = new SlowMemento();
    const copying = new SerialMemento({
      keys: () => inner.keys(),
      get: inner.get.bind(inner),
      // VS Code copies an object value with JSON at once, so a cycle throws before any promise.
      update: (key: string, value: unknown) => inner.update(key, JSON.parse(JSON.stringify(value))),
    } as vscode.Memento);
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    await assert.rejects(copying.update('bad', cyclic), /circular/i);
    await copying.update('good', 3);
    assert.equal(inner.read('good'), 3);
  });
});
