import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryEntry } from '../../src/core/broker/history';
import { HISTORY_WRITE_EVERY_MS, HistoryLog, type HistoryStore } from '../../src/core/broker/historyLog';
import { manualClock } from './manualClock';

function entry(message: string): HistoryEntry {
  return { asker: { kind: 'mcp', name: 'notes' }, message, mode: 'form', askedAt: 1, answeredAt: 2, action: 'accept', answers: [] };
}

/** Global state as VS Code keeps it: what was written, and each write made. */
function memoryStore(): HistoryStore & { stored: HistoryEntry[]; writes: number } {
  const store = {
    stored: [] as HistoryEntry[],
    writes: 0,
    read: () => store.stored,
    write: async (entries: HistoryEntry[]) => {
      store.writes++;
      store.stored = entries;
    },
  };
  return store;
}

const messages = (entries: HistoryEntry[]) => entries.map((e) => e.message);

describe('HistoryLog', () => {
  it('writes at once after a quiet period, then what came during a period together at its end', () => {
    const clock = manualClock();
    const store = memoryStore();
    const log = new HistoryLog(store, 200, clock);
    log.add(entry('q1'));
    assert.equal(store.writes, 1, 'the first answer is written at once');
    for (let n = 2; n <= 40; n++) log.add(entry(`q${n}`));
    assert.equal(store.writes, 1, 'thirty-nine answers within the second wait for its end');
    assert.deepEqual(messages(log.entries()).slice(0, 2), ['q40', 'q39'], 'listed at once, newest first');
    clock.advance(HISTORY_WRITE_EVERY_MS);
    assert.equal(store.writes, 2, 'then written together, once');
    assert.equal(store.stored.length, 40);
    assert.deepEqual(messages(store.stored).slice(0, 2), ['q40', 'q39']);
    clock.advance(5 * HISTORY_WRITE_EVERY_MS);
    assert.equal(store.writes, 2, 'nothing new, nothing written');
  });

  it('keeps what another window wrote meanwhile, and at most max entries', () => {
    const clock = manualClock();
    const store = memoryStore();
    const log = new HistoryLog(store, 3, clock);
    log.add(entry('here 1'));
    log.add(entry('here 2'));
    store.stored = [entry('there'), ...store.stored];
    clock.advance(HISTORY_WRITE_EVERY_MS);
    assert.deepEqual(messages(store.stored), ['here 2', 'there', 'here 1']);
    log.add(entry('here 3'));
    log.add(entry('here 4'));
    assert.deepEqual(messages(log.entries()), ['here 4', 'here 3', 'here 2']);
  });

  it('writes what waits when the window closes, and forgets all on clear', async () => {
    const clock = manualClock();
    const store = memoryStore();
    const log = new HistoryLog(store, 200, clock);
    log.add(entry('first'));
    log.add(entry('last before closing'));
    await log.dispose();
    assert.deepEqual(messages(store.stored), ['last before closing', 'first']);
    const writes = store.writes;
    clock.advance(HISTORY_WRITE_EVERY_MS);
    assert.equal(store.writes, writes, 'no write after dispose');

    const other = new HistoryLog(store, 200, clock);
    other.add(entry('again'));
    other.add(entry('waiting'));
    await other.clear();
    assert.deepEqual(other.entries(), []);
    clock.advance(HISTORY_WRITE_EVERY_MS);
    assert.deepEqual(store.stored, [], 'what waited is not written after a clear');
  });
});
