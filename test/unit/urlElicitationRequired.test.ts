/** satisfyUrlElicitations: the -32042 path — consent for each URL, then retry on completion or when the person says so. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../../src/core/events';
import type { ElicitRequest, ElicitResult } from '../../src/core/request';
import { satisfyUrlElicitations, UrlElicitationNotCompleted } from '../../src/mcp/urlElicitationRequired';

const asker = { kind: 'mcp' as const, name: 'reports', detail: 'tool build_report' };
const data = (...ids: string[]) => ({
  elicitations: ids.map((id) => ({ mode: 'url', elicitationId: id, url: `https://auth.example.com/${id}`, message: `Sign in (${id})` })),
});

function setup(answer: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>) {
  const completions = new Emitter<string>();
  const asked: ElicitRequest[] = [];
  const options = {
    ask: async (request: ElicitRequest) => {
      asked.push(request);
      return answer(request);
    },
    asker,
    what: 'build_report',
    onDidComplete: completions.event,
    graceMs: 50,
  };
  return { completions, asked, options };
}

describe('satisfyUrlElicitations', () => {
  it('asks each URL through the normal URL flow and returns once the server reports them complete', async () => {
    const { completions, asked, options } = setup((request) => {
      if (request.mode === 'url') setTimeout(() => completions.fire(request.elicitationId!), 5);
      return { action: 'accept' };
    });
    await satisfyUrlElicitations(data('a', 'b'), options);
    assert.deepEqual(
      asked.map((r) => r.mode === 'url' && [r.asker, r.url, r.elicitationId, r.message]),
      [
        [asker, 'https://auth.example.com/a', 'a', 'Sign in (a)'],
        [asker, 'https://auth.example.com/b', 'b', 'Sign in (b)'],
      ],
    );
  });

  it('without a completion in time, asks the person whether to retry; Submit retries', async () => {
    const { asked, options } = setup(() => ({ action: 'accept' }));
    await satisfyUrlElicitations(data('a'), options);
    assert.equal(asked.length, 2);
    const confirm = asked[1]!;
    assert.equal(confirm.mode, 'form');
    assert.deepEqual(confirm.mode === 'form' && confirm.requestedSchema, { type: 'object', properties: {} });
    assert.match(confirm.message, /Finish in your browser \(auth\.example\.com\), then choose Submit to run build_report again/);
  });

  it('the retry question closes by itself when the completion arrives late', async () => {
    let closedBySignal = false;
    const { completions, options } = setup(
      (request) =>
        new Promise<ElicitResult>((resolve) => {
          if (request.mode === 'url') return resolve({ action: 'accept' });
          request.signal!.addEventListener('abort', () => {
            closedBySignal = true;
            resolve({ action: 'cancel' });
          });
          setTimeout(() => completions.fire('a'), 20);
        }),
    );
    await satisfyUrlElicitations(data('a'), options);
    assert.equal(closedBySignal, true);
  });

  it('decline or cancel of a URL stops: nothing is retried and later URLs are not asked', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { asked, options } = setup(() => ({ action }));
      await assert.rejects(
        satisfyUrlElicitations(data('a', 'b'), options),
        (error: Error) =>
          error instanceof UrlElicitationNotCompleted &&
          error.message ===
            `build_report needs a step in your browser first (auth.example.com), which was ${action === 'decline' ? 'declined' : 'cancelled'}`,
      );
      assert.equal(asked.length, 1);
    }
  });

  it('declining the retry question stops too', async () => {
    const { options } = setup((request) => (request.mode === 'url' ? { action: 'accept' } : { action: 'decline' }));
    await assert.rejects(
      satisfyUrlElicitations(data('a'), options),
      /was not run again: you chose decline while waiting for auth\.example\.com/,
    );
  });

  it('refuses error data without URL elicitations', async () => {
    const { asked, options } = setup(() => ({ action: 'accept' }));
    await assert.rejects(satisfyUrlElicitations({}, options), /sent none/);
    await assert.rejects(satisfyUrlElicitations({ elicitations: [{ mode: 'form', message: 'x' }] }, options), /not in URL mode/);
    await assert.rejects(
      satisfyUrlElicitations({ elicitations: [{ mode: 'url', url: 'https://x' }] }, options),
      /needs a "url" and an "elicitationId"/,
    );
    assert.equal(asked.length, 0);
  });

  it('a cancelled call stops waiting at once', async () => {
    const controller = new AbortController();
    const { options } = setup(() => {
      setTimeout(() => controller.abort(), 5);
      return { action: 'accept' };
    });
    await assert.rejects(
      satisfyUrlElicitations(data('a'), { ...options, graceMs: 60_000, signal: controller.signal }),
      /build_report was cancelled/,
    );
  });
});
