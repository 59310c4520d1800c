import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Broker } from '../../src/core/broker/broker';
import type { ElicitRequest, ElicitResult } from '../../src/core/request';
import {
  answerRound,
  completeRounds,
  firstNextInLine,
  FlowCancelled,
  MAX_INPUT_REQUESTS,
  type OpenRound,
  type RoundContext,
} from '../../src/mcp/rounds';

const asker = { kind: 'mcp' as const, name: 'songs', detail: 'tool sketch' };
const form = (message: string, properties: Record<string, unknown>) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties } },
});

function round(inputRequests: Record<string, unknown>, requestState?: string): OpenRound {
  return {
    server: 'songs',
    origin: 'origin-of-songs',
    method: 'tools/call',
    params: { name: 'sketch', arguments: {} },
    inputRequests,
    round: 1,
    earlier: [],
    ...(requestState ? { requestState } : {}),
  };
}

/** A context whose questions go to the real broker, answered by `answer`. */
function context(
  answer: (request: ElicitRequest) => ElicitResult,
  extra: Partial<RoundContext> = {},
): RoundContext & { asked: ElicitRequest[] } {
  const asked: ElicitRequest[] = [];
  const broker = new Broker(
    { render: async (question) => answer(question.request) },
    { timeoutMs: () => 60_000, maxPendingPerAsker: () => 5, presentation: () => 'auto' },
  );
  return {
    server: 'songs',
    origin: 'origin-of-songs',
    asker,
    ask: (request) => {
      asked.push(request);
      return broker.ask(request);
    },
    asked,
    ...extra,
  };
}

describe('answerRound', () => {
  it('asks every form question of a round as one grouped question and answers each key', async () => {
    const ctx = context((request) => {
      assert.equal(request.mode, 'group');
      return { action: 'accept', content: { '0:name': 'Amber', '1:bpm': 90 } };
    });
    const responses = await answerRound(
      round({ name: form('Name?', { name: { type: 'string' } }), bpm: form('BPM?', { bpm: { type: 'integer' } }) }),
      ctx,
    );
    assert.deepEqual(responses, {
      name: { action: 'accept', content: { name: 'Amber' } },
      bpm: { action: 'accept', content: { bpm: 90 } },
    });
    assert.equal(ctx.asked.length, 1);
  });

  it('refuses a sampling request with a sentence naming the server, asking nothing', async () => {
    const ctx = context(() => assert.fail('nothing is asked'));
    await assert.rejects(
      answerRound(round({ reply: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } }), ctx),
      /^Error: songs asked for a language-model reply \(sampling\/createMessage\)\. Elicit offers no model/,
    );
  });

  it('answers roots from the context, or an empty list without one', async () => {
    const roots = [{ uri: 'file:///w', name: 'w' }];
    assert.deepEqual(
      await answerRound(
        round({ r: { method: 'roots/list' } }),
        context(() => assert.fail(), { roots: () => roots }),
      ),
      { r: { roots } },
    );
    assert.deepEqual(
      await answerRound(
        round({ r: { method: 'roots/list' } }),
        context(() => assert.fail()),
      ),
      { r: { roots: [] } },
    );
  });

  it('refuses an unknown method, an entry that is no request, and a schema Elicit cannot draw', async () => {
    const ctx = context(() => assert.fail('nothing is asked'));
    await assert.rejects(
      answerRound(round({ x: { method: 'tools/call' } }), ctx),
      /songs asked for "tools\/call", which is not an input request Elicit knows/,
    );
    await assert.rejects(answerRound(round({ x: 'hello' }), ctx), /question "x": it is not a request object/);
    await assert.rejects(
      answerRound(round({ x: form('Nested?', { address: { type: 'object', properties: {} } }) }), ctx),
      /songs sent a question Elicit cannot show: question "x": .*address/,
    );
  });

  it('declining the questions declines the links of the round too, opening nothing', async () => {
    const ctx = context((request) => {
      assert.notEqual(request.mode, 'url', 'no link is offered after a decline');
      return { action: 'decline' };
    });
    const responses = await answerRound(
      round({
        q: form('Name?', { name: { type: 'string' } }),
        link: { method: 'elicitation/create', params: { mode: 'url', message: 'Go', url: 'https://a.example.com/x' } },
      }),
      ctx,
    );
    assert.deepEqual(responses, { q: { action: 'decline' }, link: { action: 'decline' } });
  });

  it('a declined link is answered decline without a Done step; a refused URL is an error', async () => {
    const ctx = context((request) => {
      assert.equal(request.mode, 'url');
      return { action: 'decline' };
    });
    assert.deepEqual(
      await answerRound(
        round({ link: { method: 'elicitation/create', params: { mode: 'url', message: 'Go', url: 'https://a.example.com/x' } } }),
        ctx,
      ),
      { link: { action: 'decline' } },
    );
    await assert.rejects(
      answerRound(
        round({ link: { method: 'elicitation/create', params: { mode: 'url', message: 'Go', url: 'javascript:alert(1)' } } }),
        ctx,
      ),
      /songs sent a link Elicit will not open/,
    );
  });

  it('cancelling the Done step ends the flow', async () => {
    const ctx = context((request) => (request.mode === 'url' ? { action: 'accept' } : { action: 'cancel' }));
    await assert.rejects(
      answerRound(
        round({ link: { method: 'elicitation/create', params: { mode: 'url', message: 'Go', url: 'https://a.example.com/x' } } }),
        ctx,
      ),
      FlowCancelled,
    );
  });

  it(`refuses more than ${MAX_INPUT_REQUESTS} requests in one round`, async () => {
    const many = Object.fromEntries(Array.from({ length: MAX_INPUT_REQUESTS + 1 }, (_, i) => [`k${i}`, { method: 'roots/list' }]));
    await assert.rejects(
      completeRounds(
        { resultType: 'input_required', inputRequests: many },
        async () => ({}),
        { method: 'tools/call', params: {} },
        context(() => assert.fail()),
      ),
      new RegExp(`songs sent ${MAX_INPUT_REQUESTS + 1} input requests in one round`),
    );
  });
});

describe('completeRounds', () => {
  it('echoes requestState exactly, sends no state when none came, and keeps each open round while it is asked', async () => {
    const legs: Array<Record<string, unknown>> = [];
    const results = [
      { resultType: 'input_required', inputRequests: { b: form('B?', { b: { type: 'string' } }) } },
      { resultType: 'complete', content: [] },
    ];
    const kept: OpenRound[] = [];
    let released = 0;
    const ctx = context(
      (request) => ({ action: 'accept', content: request.mode === 'group' ? { [`0:${request.sections[0]!.key}`]: 'x' } : {} }),
      {
        keeper: {
          keep: (open) => {
            kept.push(open);
            return { id: `kept-${kept.length}`, release: () => void released++ };
          },
        },
      },
    );
    const state = ' {"opaque":"\u00e9\u0000"} ';
    const final = await completeRounds(
      { resultType: 'input_required', inputRequests: { a: form('A?', { a: { type: 'string' } }) }, requestState: state },
      async (extra) => {
        legs.push(extra);
        return results.shift()!;
      },
      { method: 'tools/call', params: { name: 'sketch', arguments: {} } },
      ctx,
    );
    assert.equal(final.resultType, 'complete');
    assert.equal(legs[0]!.requestState, state, 'byte for byte');
    assert.equal('requestState' in legs[1]!, false, 'no state when the server sent none');
    assert.deepEqual(
      kept.map((k) => [k.round, k.requestState, Object.keys(k.inputRequests)]),
      [
        [1, state, ['a']],
        [2, undefined, ['b']],
      ],
    );
    assert.equal(released, 2);
    assert.deepEqual(kept[1]!.earlier, [{ message: 'A?', lines: ['a: x'] }], 'the second round knows what the first answered');
  });

  it('asks the first question of a kept round the person opened next in line, and the rounds after it in their turn', async () => {
    const ctx = context((request) => ({
      action: 'accept',
      content: request.mode === 'group' ? { [`0:${request.sections[0]!.key}`]: 'x' } : {},
    }));
    const results = [{ resultType: 'input_required', inputRequests: { b: form('B?', { b: { type: 'string' } }) } }, { content: [] }];
    await completeRounds(
      { resultType: 'input_required', inputRequests: { a: form('A?', { a: { type: 'string' } }) } },
      async () => results.shift()!,
      { method: 'tools/call', params: { name: 'sketch', arguments: {} } },
      firstNextInLine(ctx),
    );
    assert.deepEqual(
      ctx.asked.map((r) => [r.message, r.nextInLine]),
      [
        ['A?', true],
        ['B?', undefined],
      ],
    );
  });

  it('retries a state-only round after a short pause, without asking', async () => {
    let legs = 0;
    const started = Date.now();
    await completeRounds(
      { resultType: 'input_required', requestState: 'later' },
      async (extra) => {
        legs++;
        assert.deepEqual(extra, { requestState: 'later' });
        return { content: [] };
      },
      { method: 'tools/call', params: {} },
      context(() => assert.fail('nothing is asked')),
    );
    assert.equal(legs, 1);
    assert.ok(Date.now() - started >= 200, 'paced');
  });

  it('returns a complete result untouched (2025-era servers never send input_required)', async () => {
    const result = { content: [{ type: 'text', text: 'hi' }] };
    assert.equal(
      await completeRounds(
        result,
        async () => assert.fail('no retry'),
        { method: 'tools/call', params: {} },
        context(() => assert.fail()),
      ),
      result,
    );
  });
});
