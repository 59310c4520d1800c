/** One reading of elicitation/create params for the MCP and ACP adapters: the same sentences from both. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { elicitRequestFrom } from '../../src/core/broker/elicitParams';
import type { Asker } from '../../src/core/request';

const asker: Asker = { kind: 'mcp', name: 'song-sketch' };
const signal = new AbortController().signal;
const read = (params: unknown, method = 'elicitation/create') => elicitRequestFrom(method, params, asker, signal);

describe('elicitation params', () => {
  it('reads a form request, form being the default mode', () => {
    const schema = { type: 'object', properties: {} };
    assert.deepEqual(read({ message: 'Pick', requestedSchema: schema }), {
      mode: 'form',
      asker,
      message: 'Pick',
      requestedSchema: schema,
      signal,
    });
  });

  it('reads a URL request', () => {
    const request = read({ mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' });
    assert.deepEqual(request, { mode: 'url', asker, message: 'Sign in', url: 'https://example.com', elicitationId: 'e1', signal });
  });

  it('names what is wrong, with the method it was asked by', () => {
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /^session\/elicitation needs params$/],
      [{ mode: 'form' }, /^session\/elicitation needs a "message" string$/],
      [{ message: 'x', mode: 'url', elicitationId: 'e' }, /needs a "url" string/],
      [{ message: 'x', mode: 'url', url: 'https://example.com', elicitationId: '' }, /needs an "elicitationId" string/],
      [{ message: 'x', mode: 'telepathy' }, /mode "telepathy" is not supported/],
    ];
    for (const [params, message] of cases) {
      assert.throws(
        () => read(params, 'session/elicitation'),
        (error: Error & { code?: number }) => message.test(error.message) && error.code === -32602,
      );
    }
  });
});
