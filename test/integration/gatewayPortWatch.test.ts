/**
 * A window standing by for the configured gateway port (src/gateway/portWatch.ts), against real
 * gateways and real sockets: it takes the port over only once it has stayed free long enough (not in
 * a reload's gap), never while another Elicit window serves it, and says at its first answer when a
 * stranger holds it, even one that lets some looks find the port free (issue #57, finding 2).
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, describe, it } from 'node:test';
import { GatewayServer } from '../../src/gateway/gatewayServer';
import { PortWatch } from '../../src/gateway/portWatch';
import { holderAnswer } from '../../src/process/portHolder';
import { freePort } from '../support/freePort';

const TOKEN = 'watch-token';
const EVERY_MS = 100;
const FREE_FOR_MS = 2_000;

/** Every gateway a test made, stopped after the file (a watch's takeover may start one as a test ends). */
const created: GatewayServer[] = [];

function gatewayOn(port: number, token = (): string => TOKEN): GatewayServer {
  const gateway = new GatewayServer({
    token,
    port,
    version: 'test',
    log: () => undefined,
    ask: async () => ({ action: 'cancel' }),
    upstream: { list: async () => [], call: async () => ({ content: [] }) },
  });
  created.push(gateway);
  return gateway;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Watches `port` as a standby window does; `takes` says whether onFree's start succeeds. */
function watch(
  port: number,
  takes: () => Promise<boolean>,
): { watch: PortWatch; started: number; freeCalls: number[]; strangerSeenAtFree: boolean[]; strangers: number[] } {
  const started = Date.now();
  const seen = { started, freeCalls: [] as number[], strangerSeenAtFree: [] as boolean[], strangers: [] as number[] };
  const w = new PortWatch({
    port,
    token: () => TOKEN,
    everyMs: EVERY_MS,
    freeForMs: FREE_FOR_MS,
    confirmAfterMs: EVERY_MS,
    onFree: async (strangerSeen) => {
      seen.freeCalls.push(Date.now() - started);
      seen.strangerSeenAtFree.push(strangerSeen);
      return takes();
    },
    onStranger: () => seen.strangers.push(Date.now() - started),
  });
  return { watch: w, ...seen };
}

describe('a window standing by for the configured gateway port', () => {
  const toStop: Array<{ stop(): Promise<unknown> }> = [];
  const watches: PortWatch[] = [];
  after(async () => {
    for (const w of watches) w.dispose();
    for (const s of toStop) await s.stop();
    // A takeover under way as its test ended starts its gateway a moment later: nothing may keep the file's process alive.
    await sleep(EVERY_MS * 3);
    for (const gateway of created) await gateway.stop();
  });

  it('leaves the port to the window that serves it, through a gap shorter than a reload', async () => {
    const port = await freePort();
    let serving = gatewayOn(port);
    await serving.start();
    const seen = watch(port, async () => true);
    watches.push(seen.watch);
    await sleep(FREE_FOR_MS * 1.5);
    // The serving window reloads: its port is free for a moment, then it is back.
    await serving.stop();
    await sleep(300);
    serving = gatewayOn(port);
    await serving.start();
    toStop.push(serving);
    await sleep(FREE_FOR_MS * 1.5);
    assert.deepEqual(seen.freeCalls, [], 'the standby window took the port of a window that was only reloading');
    assert.deepEqual(seen.strangers, []);
  });

  it('takes the port over once it has stayed free long enough (the serving window closed)', async () => {
    const port = await freePort();
    const serving = gatewayOn(port);
    await serving.start();
    let taker: GatewayServer | undefined;
    const seen = watch(port, async () => {
      taker = gatewayOn(port);
      await taker.start();
      toStop.push(taker);
      return true;
    });
    watches.push(seen.watch);
    await sleep(EVERY_MS * 3);
    await serving.stop();
    const closedAfter = Date.now() - seen.started;
    await sleep(FREE_FOR_MS + EVERY_MS * 10);
    assert.equal(seen.freeCalls.length, 1, 'taken over once');
    assert.ok(taker?.running, 'the standby window serves the port now');
    assert.ok(seen.freeCalls[0]! - closedAfter >= FREE_FOR_MS, `taken ${seen.freeCalls[0]! - closedAfter} ms after the port was freed`);
    await sleep(EVERY_MS * 3);
    assert.equal(seen.freeCalls.length, 1, 'the watch ended once it took the port');
  });

  it('watches on when another standby window was quicker, and leaves the port to it', async () => {
    const port = await freePort();
    const quicker = gatewayOn(port);
    const seen = watch(port, async () => {
      // Another window bound it first: this start fails.
      await quicker.start().catch(() => undefined);
      toStop.push(quicker);
      const mine = gatewayOn(port);
      return mine.start().then(
        () => true,
        () => false,
      );
    });
    watches.push(seen.watch);
    await sleep(FREE_FOR_MS + EVERY_MS * 10);
    assert.equal(seen.freeCalls.length, 1);
    assert.ok(quicker.running);
    await sleep(FREE_FOR_MS);
    assert.equal(seen.freeCalls.length, 1, 'no second try while the quicker window serves it');
  });

  it('asks for the token as it is now at each look: a token replaced in the serving window is no stranger', async () => {
    const port = await freePort();
    let token = 'first-token';
    const serving = gatewayOn(port, () => token);
    await serving.start();
    toStop.push(serving);
    const strangers: number[] = [];
    const w = new PortWatch({
      port,
      token: async () => token,
      everyMs: EVERY_MS,
      freeForMs: FREE_FOR_MS,
      onFree: async () => true,
      onStranger: () => strangers.push(Date.now()),
    });
    watches.push(w);
    await sleep(EVERY_MS * 3);
    // Rotate Token in the serving window: both windows keep the one token (SecretStorage).
    token = 'rotated-token';
    await sleep(FREE_FOR_MS * 1.5);
    assert.deepEqual(strangers, []);
  });

  it('says at its first answer that a stranger holds the port, once, and never takes the port from it', async () => {
    const port = await freePort();
    const stranger = http.createServer((_req, res) => res.end('{"proof":"00"}'));
    await new Promise<void>((resolve) => stranger.listen(port, '127.0.0.1', () => resolve()));
    toStop.push({ stop: () => new Promise((resolve) => stranger.close(resolve)) });
    const seen = watch(port, async () => true);
    watches.push(seen.watch);
    await sleep(FREE_FOR_MS / 2);
    assert.equal(seen.strangers.length, 1, 'reported at its first answer, confirmed a moment later');
    assert.ok(seen.strangers[0]! < FREE_FOR_MS / 2);
    await sleep(FREE_FOR_MS * 1.5);
    assert.equal(seen.strangers.length, 1, 'once');
    assert.deepEqual(seen.freeCalls, []);
  });

  it('reports a squatter that lets one look in five find the port free (each free look used to start the count again)', async () => {
    const port = await freePort();
    let answers = 0;
    let stopped = false;
    let comesBack: NodeJS.Timeout | undefined;
    const squatter = http.createServer((_req, res) => {
      res.end('{"proof":"00"}');
      // After four wrong answers it steps aside for one look, then takes the port again.
      if (++answers % 4 !== 0) return;
      squatter.close();
      squatter.closeAllConnections();
      comesBack = setTimeout(() => stopped || squatter.listen(port, '127.0.0.1'), EVERY_MS * 1.5);
    });
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', () => resolve()));
    // Stopped in its gap, it must not come back: a server listening after the file ends keeps its process alive.
    toStop.push({
      stop: () => {
        stopped = true;
        clearTimeout(comesBack);
        return new Promise((resolve) => (squatter.listening ? squatter.close(resolve) : resolve(undefined)));
      },
    });
    const seen = watch(port, async () => true);
    watches.push(seen.watch);
    await sleep(FREE_FOR_MS * 2);
    assert.ok(answers >= 8, `the squatter answered ${answers} looks`);
    assert.equal(seen.strangers.length, 1);
    assert.deepEqual(seen.freeCalls, []);
  });

  it('takes the port a stranger held and left with a new token: onFree is told a stranger was seen', async () => {
    const port = await freePort();
    const stranger = http.createServer((_req, res) => res.end('{"proof":"00"}'));
    await new Promise<void>((resolve) => stranger.listen(port, '127.0.0.1', () => resolve()));
    const seen = watch(port, async () => true);
    watches.push(seen.watch);
    await sleep(EVERY_MS * 5);
    // It leaves: whatever tokens it collected, the port must not be served with them.
    stranger.closeAllConnections();
    await new Promise((resolve) => stranger.close(resolve));
    await sleep(FREE_FOR_MS + EVERY_MS * 10);
    assert.equal(seen.strangers.length, 1);
    assert.equal(seen.freeCalls.length, 1, 'taken over once it stayed free');
    assert.deepEqual(seen.strangerSeenAtFree, [true]);
  });

  it('takes over with the same token when only Elicit windows held the port', async () => {
    const port = await freePort();
    const serving = gatewayOn(port);
    await serving.start();
    const seen = watch(port, async () => true);
    watches.push(seen.watch);
    await sleep(EVERY_MS * 3);
    await serving.stop();
    await sleep(FREE_FOR_MS + EVERY_MS * 10);
    assert.deepEqual(seen.strangerSeenAtFree, [false]);
  });
});

describe('what one look finds at the port', () => {
  const servers: http.Server[] = [];
  after(() => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  async function holder(handler: http.RequestListener): Promise<number> {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return (server.address() as { port: number }).port;
  }

  it('tells a holder that answers wrong from one that takes the connection and never answers', async () => {
    assert.equal(await holderAnswer(await holder((_req, res) => res.end('{"proof":"00"}')), TOKEN), 'other');
    assert.equal(await holderAnswer(await holder(() => undefined), TOKEN), 'silent');
  });

  it('ends a look at a holder that trickles its answer, so the watch is never held for ever', async () => {
    const port = await holder((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"proof":"');
      // A byte now and then keeps a wait for each byte from ever ending.
      const drip = setInterval(() => res.write('0'), 300);
      res.on('close', () => clearInterval(drip));
    });
    const started = Date.now();
    assert.equal(await holderAnswer(port, TOKEN), 'other');
    assert.ok(Date.now() - started < 4_000, `the look took ${Date.now() - started} ms`);
  });
});
