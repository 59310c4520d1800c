import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { SerialMemento } from '../../src/vscode/secrets/serialMemento';

/** Like VS Code's global state: an update lands a while later. */
class SlowMemento implements vscode.Memento {
  readonly values = new Map<string, unknown>();
  readonly calls: string[] = [];
  inFlight = 0;
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.inFlight++;
    this.calls.push(`${key} start (${this.inFlight} in flight)`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.values.set(key, value);
    this.inFlight--;
  }
}

describe('SerialMemento', () => {
  it('starts an update only after the one before has landed, and reads what is queued at once', async () => {
    const inner = new SlowMemento();
    const state = new SerialMemento(inner);
    const first = state.update('index', ['a']);
    const second = state.update('history', [1]);
    const third = state.update('index', ['a', 'b']);
    assert.deepEqual(state.get('index'), ['a', 'b'], 'a read sees the latest queued value');
    assert.equal(state.get('missing', 'fallback'), 'fallback');
    assert.deepEqual([...state.keys()].sort(), ['history', 'index']);
    await Promise.all([first, second, third]);
    assert.deepEqual(inner.calls, ['index start (1 in flight)', 'history start (1 in flight)', 'index start (1 in flight)']);
    assert.deepEqual(inner.get('index'), ['a', 'b']);
    assert.deepEqual(state.get('history'), [1]);
  });

  it('a failed update rejects its caller and does not stop the ones after it', async () => {
    const inner = new SlowMemento();
    const failing = new SerialMemento({
      ...inner,
      keys: () => inner.keys(),
      get: inner.get.bind(inner),
      update: async (key: string, value: unknown) => {
        if (key === 'bad') throw new Error('storage full');
        return inner.update(key, value);
      },
    } as vscode.Memento);
    await assert.rejects(failing.update('bad', 1), /storage full/);
    await failing.update('good', 2);
    assert.equal(inner.get('good'), 2);
    assert.equal(failing.get('bad'), undefined, 'a failed value is not kept as pending');
  });
});
