import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { joinSignals } from '../../src/core/joinSignals';

describe('joinSignals', () => {
  it('aborts when any source does, with that source’s reason, and then lets go of the others', () => {
    const asker = new AbortController();
    const server = new AbortController();
    const joined = joinSignals([asker.signal, server.signal]);
    assert.equal(joined.signal.aborted, false);
    const stopped = new Error('the server was stopped');
    server.abort(stopped);
    assert.equal(joined.signal.aborted, true);
    assert.equal(joined.signal.reason, stopped);
    assert.equal(getEventListeners(asker.signal, 'abort').length, 0, 'nothing left on the source that did not abort');
  });

  it('is aborted at once when a source already is', () => {
    const ended = AbortSignal.abort('gone');
    const joined = joinSignals([new AbortController().signal, ended]);
    assert.equal(joined.signal.aborted, true);
    assert.equal(joined.signal.reason, 'gone');
  });

  it('leaves the sources as they were once disposed, and no longer follows them', () => {
    const asker = new AbortController();
    const server = new AbortController();
    const joined = joinSignals([asker.signal, undefined, server.signal]);
    assert.equal(getEventListeners(server.signal, 'abort').length, 1);
    joined.dispose();
    assert.equal(getEventListeners(asker.signal, 'abort').length, 0);
    assert.equal(getEventListeners(server.signal, 'abort').length, 0);
    server.abort();
    assert.equal(joined.signal.aborted, false, 'the work it was for is over');
  });

  it('listens to a source once however many joins follow it, and lets go when the last is disposed', () => {
    const connection = new AbortController();
    const joins = Array.from({ length: 50 }, () => joinSignals([connection.signal, new AbortController().signal]));
    assert.equal(getEventListeners(connection.signal, 'abort').length, 1, 'one listener for 50 pending questions');
    for (const join of joins.slice(0, 49)) join.dispose();
    assert.equal(getEventListeners(connection.signal, 'abort').length, 1);
    const last = joins[49]!;
    const more = joinSignals([connection.signal, new AbortController().signal]);
    more.dispose();
    assert.equal(getEventListeners(connection.signal, 'abort').length, 1, 'the last join still follows it');
    connection.abort('stopped');
    assert.equal(last.signal.aborted, true);
    assert.equal(last.signal.reason, 'stopped');
    assert.ok(
      joins.slice(0, 49).every((join) => !join.signal.aborted),
      'disposed joins no longer follow it',
    );
    assert.equal(getEventListeners(connection.signal, 'abort').length, 0);
    // A new join after the last let go listens again.
    const other = new AbortController();
    const again = joinSignals([other.signal, new AbortController().signal]);
    again.dispose();
    assert.equal(getEventListeners(other.signal, 'abort').length, 0, 'nothing stays once every join is disposed');
  });

  it('is the one source itself when there is only one, and never aborts with none', () => {
    const only = new AbortController();
    const joined = joinSignals([undefined, only.signal]);
    assert.equal(joined.signal, only.signal);
    joined.dispose();
    assert.equal(only.signal.aborted, false);
    assert.equal(joinSignals([]).signal.aborted, false);
  });
});
