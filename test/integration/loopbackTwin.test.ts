/**
 * Issue #57, finding 7: the gateway and a forwarded phone server on 127.0.0.1:P also hold [::1]:P,
 * where a client resolving "localhost" (a forwarding proxy, a CLI agent) may connect first. A program
 * already there stops them binding P, as one on 127.0.0.1:P does, and the holder check names it a
 * stranger; a machine without the address has nothing there to shadow. Real sockets.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { after, describe, it } from 'node:test';
import { Broker, type Question, type RenderOutcome, type Renderer } from '../../src/core/broker/broker';
import { brokerDeviceQuestions } from '../../src/core/device/deviceQuestions';
import { DeviceRegistry } from '../../src/core/device/devices';
import { Pairing } from '../../src/core/device/pairing';
import { DeviceServer } from '../../src/device/deviceServer';
import { freeLoopbackPort } from '../../src/device/freePort';
import { GatewayServer } from '../../src/gateway/gatewayServer';
import { holderAnswer, holderProof, listenOnLoopback, portHolder } from '../../src/process/portHolder';
import { freePort } from '../support/freePort';

const TOKEN = 'twin-token';
const KEY = 'c'.repeat(64);

class AwayRenderer implements Renderer {
  render(_question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
  }
}

function gatewayOn(port: number): GatewayServer {
  return new GatewayServer({
    token: () => TOKEN,
    port,
    version: 'test',
    log: () => undefined,
    ask: async () => ({ action: 'cancel' }),
    upstream: { list: async () => [], call: async () => ({ content: [] }) },
  });
}

/** A phone server as the forwarded address runs it: plain HTTP on 127.0.0.1. */
function forwardedDeviceServer(port: number): DeviceServer {
  const broker = new Broker(new AwayRenderer(), { timeoutMs: () => 60_000, maxPendingPerAsker: () => 5, presentation: () => 'form' });
  return new DeviceServer({
    address: '127.0.0.1',
    port,
    pairing: new Pairing(),
    devices: new DeviceRegistry(),
    questions: brokerDeviceQuestions(broker, { openOnComputer: () => undefined }),
    proofKey: KEY,
  });
}

/** A program answering anything on `address`:`port`. */
async function squat(port: number, address: string): Promise<http.Server> {
  const server = http.createServer((_req, res) => res.end('{"proof":"00"}'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve());
  });
  return server;
}

/** Whether another program can listen on `address`:`port` now. */
async function canBind(port: number, address: string): Promise<boolean> {
  const probe = net.createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, address, () => probe.close(() => resolve(true)));
  });
}

function get(port: number, address: string, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: address, port, path, headers: { host }, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('the gateway and a forwarded phone server hold both loopback addresses', () => {
  const toClose: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const close of toClose) await close();
  });

  it('the gateway holds [::1] at its port: nothing else binds there, and a client reaching it there reaches the gateway', async () => {
    const gateway = gatewayOn(0);
    await gateway.start();
    toClose.push(() => gateway.stop());
    assert.equal(await canBind(gateway.port, '::1'), false, 'another program took [::1] at the gateway’s port');
    const nonce = '0'.repeat(64);
    const proof = await get(gateway.port, '::1', `/elicit-proof/${nonce}`, `[::1]:${gateway.port}`);
    assert.equal(proof.status, 200);
    assert.equal((JSON.parse(proof.body) as { proof: string }).proof, holderProof(TOKEN, gateway.port, nonce));
    // A client resolving "localhost" to ::1 gets the gateway's own refusal, not a stranger's page.
    const mcp = await get(gateway.port, '::1', '/mcp', `localhost:${gateway.port}`);
    assert.equal(mcp.status, 401);
    assert.equal(await holderAnswer(gateway.port, TOKEN), 'elicit');
    await gateway.stop();
    assert.equal(await canBind(gateway.port, '::1'), true, 'let go of [::1] when it stopped');
  });

  it('a program already on [::1] stops the gateway taking that port, and the holder check names it a stranger', async () => {
    const port = await freePort();
    const squatter = await squat(port, '::1');
    toClose.push(() => new Promise((resolve) => squatter.close(resolve)));
    const gateway = gatewayOn(port);
    toClose.push(() => gateway.stop());
    await assert.rejects(gateway.start(), (error: NodeJS.ErrnoException) => error.code === 'EADDRINUSE');
    assert.equal(gateway.running, false);
    assert.equal(await canBind(port, '127.0.0.1'), true, '127.0.0.1 is let go again');
    assert.equal(await portHolder(port, TOKEN), 'other');
  });

  it('the holder check asks [::1] too: a program there alone is a stranger, whoever holds 127.0.0.1', async () => {
    const port = await freePort();
    const squatter = await squat(port, '::1');
    toClose.push(() => new Promise((resolve) => squatter.close(resolve)));
    assert.equal(await portHolder(port, TOKEN), 'other');
    assert.equal(await holderAnswer(port, TOKEN), 'other');
  });

  it('a forwarded phone server holds [::1] too; a program already there stops it, named a stranger', async () => {
    const serving = forwardedDeviceServer(0);
    const port = await serving.start();
    toClose.push(() => serving.stop());
    assert.equal(await canBind(port, '::1'), false, 'another program took [::1] at the phone server’s port');
    assert.equal(await portHolder(port, KEY), 'elicit');
    await serving.stop();

    const taken = await freeLoopbackPort();
    const squatter = await squat(taken, '::1');
    toClose.push(() => new Promise((resolve) => squatter.close(resolve)));
    const shadowed = forwardedDeviceServer(taken);
    toClose.push(() => shadowed.stop());
    await assert.rejects(shadowed.start(), (error: NodeJS.ErrnoException) => error.code === 'EADDRINUSE');
    assert.equal(await portHolder(taken, KEY), 'other');
  });

  it('picks for a forwarded address a port free on both loopback addresses', async () => {
    const port = await freeLoopbackPort();
    assert.equal(await canBind(port, '127.0.0.1'), true);
    assert.equal(await canBind(port, '::1'), true);
  });

  it('on a machine without the other address, serves on the one it has', async () => {
    // 2001:db8::/32 is for documentation: no machine has it, as one without IPv6 has no ::1.
    const server = http.createServer((_req, res) => res.end('served'));
    const twin = await listenOnLoopback(server, 0, '127.0.0.1', '2001:db8::1');
    toClose.push(async () => {
      await twin.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const { port } = server.address() as net.AddressInfo;
    assert.equal((await get(port, '127.0.0.1', '/', `127.0.0.1:${port}`)).body, 'served');
  });
});
