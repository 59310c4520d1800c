import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keepHttpSession, type HttpSessionTransport } from '../../src/mcp/httpSession';
import { PARTING_FOR_MS, SessionParting } from '../../src/mcp/sessionParting';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  redirect?: RequestRedirect;
  body?: unknown;
}

/**
 * A server behind a network that is down until `up()`: every request made while it is down fails
 * without a reply (as fetch does when a connection is refused); `status` is each reply's status.
 */
function network(status = 200) {
  const sent: Sent[] = [];
  let down = false;
  const net = {
    sent,
    tries: 0,
    down: () => (down = true),
    up: () => (down = false),
    fetch: async (input: string | URL, init?: RequestInit): Promise<Response> => {
      net.tries++;
      if (down) throw new TypeError('fetch failed');
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
      sent.push({
        url: String(input),
        method: init?.method ?? 'GET',
        headers,
        ...(init?.redirect ? { redirect: init.redirect } : {}),
        ...(typeof init?.body === 'string' ? { body: JSON.parse(init.body) } : {}),
      });
      return new Response(null, { status: status === 200 && init?.method === 'POST' ? 202 : status });
    },
  };
  return net;
}

/** A clock that sleeping moves on, and a count of the sleeps. */
function clock() {
  const time = { now: 1_000, sleeps: 0 };
  return {
    time,
    now: () => time.now,
    sleep: async (ms: number) => {
      time.sleeps++;
      time.now += ms;
    },
  };
}

/** A request the SDK's transport makes on its session: the session id, the sign-in, and headers of that request only. */
function sessionRequest(method: string): RequestInit {
  return {
    method,
    headers: new Headers({
      'mcp-session-id': 'session-1',
      'mcp-protocol-version': '2025-11-25',
      authorization: 'Bearer token-1',
      'x-api-tenant': 'notes',
      accept: 'text/event-stream',
      'last-event-id': 'stream_7',
    }),
  };
}

const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { action: 'accept', content: { n: id } } });

describe('SessionParting', () => {
  it('ends the session with DELETE the way its last request reached it: session id, revision and sign-in, not that request’s own headers', async () => {
    const net = network();
    const parting = new SessionParting(net.fetch);
    const transportFetch = parting.noting(net.fetch);
    await transportFetch(new URL('https://mcp.example/mcp'), { method: 'POST', headers: new Headers({ accept: 'application/json' }) });
    await transportFetch(new URL('https://mcp.example/mcp'), sessionRequest('GET'));
    await parting.end();
    const deleted = net.sent.at(-1)!;
    assert.equal(deleted.method, 'DELETE');
    assert.equal(deleted.url, 'https://mcp.example/mcp');
    assert.equal(deleted.redirect, 'manual');
    assert.deepEqual(deleted.headers, {
      'mcp-session-id': 'session-1',
      'mcp-protocol-version': '2025-11-25',
      authorization: 'Bearer token-1',
      'x-api-tenant': 'notes',
    });
  });

  it('sends the answers held, in order, before the DELETE; an answer that landed meanwhile is not sent again', async () => {
    const net = network();
    const parting = new SessionParting(net.fetch);
    await parting.noting(net.fetch)('https://mcp.example/mcp', sessionRequest('POST'));
    net.sent.length = 0;
    parting.hold(answer(1));
    parting.hold(answer(2));
    parting.hold(answer(3));
    parting.release(answer(2)); // another object: not the one held
    const landed = answer(4);
    parting.hold(landed);
    parting.release(landed);
    await parting.end();
    assert.deepEqual(
      net.sent.map((s) => [s.method, (s.body as { id?: number } | undefined)?.id]),
      [
        ['POST', 1],
        ['POST', 2],
        ['POST', 3],
        ['DELETE', undefined],
      ],
    );
    assert.equal(net.sent[0]!.headers['content-type'], 'application/json');
    assert.equal(net.sent[0]!.headers['mcp-session-id'], 'session-1');
  });

  it('keeps trying while the network is down, and ends the session once the server can be reached', async () => {
    const net = network();
    const time = clock();
    let tries = 0;
    // The network comes back at the tenth try.
    const parting = new SessionParting(async (input, init) => {
      if (++tries === 10) net.up();
      return net.fetch(input, init);
    }, time);
    await parting.noting(net.fetch)('https://mcp.example/mcp', sessionRequest('POST'));
    net.sent.length = 0;
    net.down();
    parting.hold(answer(1));
    await parting.end();
    assert.deepEqual(
      net.sent.map((s) => s.method),
      ['POST', 'DELETE'],
    );
    assert.equal(tries, 11);
    // Gaps grow to 5 s: the nine tries that failed waited 250, 500, 1000, 2000, then 5000 ms each.
    assert.equal(time.time.now, 1_000 + 250 + 500 + 1_000 + 2_000 + 5 * 5_000);
  });

  it('takes any HTTP status as the server’s reply: a session it no longer knows (404) is not tried again', async () => {
    const net = network(404);
    const parting = new SessionParting(net.fetch, clock());
    await parting.noting(net.fetch)('https://mcp.example/mcp', sessionRequest('POST'));
    const before = net.tries;
    parting.hold(answer(1));
    await parting.end();
    assert.equal(net.tries - before, 2); // the answer once, the DELETE once
  });

  it('gives up after PARTING_FOR_MS, says so, and sends no DELETE ahead of an answer that never went', async () => {
    const net = network();
    const time = clock();
    const lines: string[] = [];
    const parting = new SessionParting(net.fetch, { ...time, log: (line) => lines.push(line) });
    await parting.noting(net.fetch)('https://mcp.example/mcp', sessionRequest('POST'));
    net.sent.length = 0;
    net.down();
    parting.hold(answer(1));
    await parting.end();
    assert.deepEqual(net.sent, []);
    assert.ok(time.time.now - 1_000 >= PARTING_FOR_MS);
    assert.ok(time.time.now - 1_000 < PARTING_FOR_MS + 5_000);
    assert.deepEqual(lines, ['the server could not be reached to end the old session; its questions may wait there']);
  });

  it('sends nothing for a transport that never reached a session, and ends a session once however often it is asked to', async () => {
    const net = network();
    const none = new SessionParting(net.fetch);
    await none.noting(net.fetch)('https://mcp.example/mcp', { method: 'POST', headers: { accept: 'application/json' } });
    await none.end();
    assert.equal(net.sent.length, 1);

    const parting = new SessionParting(net.fetch);
    await parting.noting(net.fetch)('https://mcp.example/mcp', sessionRequest('POST'));
    await Promise.all([parting.end(), parting.end()]);
    await parting.end();
    assert.equal(net.sent.filter((s) => s.method === 'DELETE').length, 1);
  });
});

/** The members of the SDK's transport keepHttpSession uses, each message sent through `send`. */
function transportOn(send: (message: unknown) => Promise<void>): HttpSessionTransport {
  return {
    sessionId: 'session-1',
    send: (message) => send(message),
  };
}

describe('keepHttpSession with a SessionParting', () => {
  it('holds an answer that got no reply until it lands, and gives it to the session’s end when the session is given up', async () => {
    const net = network();
    const time = clock();
    const parting = new SessionParting(net.fetch, time);
    await parting.noting(net.fetch)('https://mcp.example/mcp', sessionRequest('POST'));
    net.sent.length = 0;
    // The first answer lands on its second try; nothing else does.
    const landing = answer(1);
    let landingTries = 0;
    const transport = transportOn(async (message) => {
      if (message === landing && ++landingTries === 2) return;
      throw new TypeError('fetch failed');
    });
    const lost: string[] = [];
    keepHttpSession(transport, { onLost: (why) => lost.push(why), parting, sleep: time.sleep, resendDelaysMs: [1, 1] });

    // Landed: released, so the session's end does not send it.
    await transport.send(landing);
    assert.equal(landingTries, 2);

    // Never lands: the session is given up, and its end sends it first.
    await assert.rejects(transport.send(answer(2)), /fetch failed/);
    assert.deepEqual(lost, ['an answer could not be sent to the server']);
    await parting.end();
    assert.deepEqual(
      net.sent.map((s) => [s.method, (s.body as { id?: number } | undefined)?.id]),
      [
        ['POST', 2],
        ['DELETE', undefined],
      ],
    );
  });

  it('never holds a request of ours: sending it twice could run a tool twice', async () => {
    const net = network();
    const parting = new SessionParting(net.fetch, clock());
    await parting.noting(net.fetch)('https://mcp.example/mcp', sessionRequest('POST'));
    net.sent.length = 0;
    const transport = transportOn(async () => {
      throw new TypeError('fetch failed');
    });
    keepHttpSession(transport, { onLost: () => undefined, parting, sleep: async () => undefined, resendDelaysMs: [1] });
    await assert.rejects(transport.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: {} } as never));
    await parting.end();
    assert.deepEqual(
      net.sent.map((s) => s.method),
      ['DELETE'],
    );
  });
});
