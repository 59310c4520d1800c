/**
 * A question ends; the signals that outlive it (a server connection's, the gateway's)
 * must not keep anything of it. Node's AbortSignal.any leaves an entry in each of its
 * sources for every signal it makes, so a window open all day collected one per question.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Broker } from '../../src/core/broker/broker';
import { BurstGrouper } from '../../src/core/broker/burst';
import { joinSignals } from '../../src/core/joinSignals';
import type { FormRequest } from '../../src/core/request';
import { retainedBytes } from '../support/retainedMemory';

const QUESTIONS = 40_000;
/**
 * Well under what one entry per question takes (Node 20: about 60 bytes; Node 24: about 175),
 * and over what the heap grows or shrinks by anyway once as many questions were asked before.
 */
const MAX_BYTES_PER_QUESTION = 30;

describe('signals that outlive a question', () => {
  it('keep nothing of the questions asked one after another with them (a server asking all day)', async () => {
    const broker = new Broker(
      { render: async (q) => ({ action: 'accept', content: { n: q.request.message } }) },
      { timeoutMs: () => 60_000, maxPendingPerAsker: () => 10, presentation: () => 'auto' },
    );
    const grouper = new BurstGrouper((request) => broker.ask(request));
    const connection = new AbortController();
    const ask = async (n: number): Promise<void> => {
      const request: FormRequest = {
        mode: 'form',
        asker: { kind: 'mcp', name: 'all-day' },
        message: `Question ${n}`,
        requestedSchema: { type: 'object', properties: { n: { type: 'string' } } },
        signal: connection.signal,
      };
      const result = await grouper.add(request);
      assert.equal(result.action, 'accept');
    };
    // As many before: what the heap grows to hold once (its tables, compiled code) is not counted.
    for (let n = 0; n < QUESTIONS; n++) await ask(n);
    const kept = await retainedBytes(async () => {
      for (let n = 0; n < QUESTIONS; n++) await ask(n);
    });
    assert.ok(kept < QUESTIONS * MAX_BYTES_PER_QUESTION, `${kept} bytes kept after ${QUESTIONS} questions`);
    assert.equal(connection.signal.aborted, false);
  });

  it('a joined signal lets go of its sources once disposed', async () => {
    const lifetime = new AbortController();
    for (let n = 0; n < 5_000; n++) joinSignals([lifetime.signal, new AbortController().signal]).dispose();
    const kept = await retainedBytes(async () => {
      for (let n = 0; n < QUESTIONS; n++) joinSignals([lifetime.signal, new AbortController().signal]).dispose();
    });
    assert.ok(kept < QUESTIONS * MAX_BYTES_PER_QUESTION, `${kept} bytes kept after ${QUESTIONS} joins`);
  });
});
