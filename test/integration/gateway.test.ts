/**
 * The gateway with a real MCP SDK client standing in for a CLI agent: ask_user
 * for each kind through the real broker with a scripted answerer, a forwarded
 * tool whose upstream server elicits, 401 without or with a wrong token, 403
 * for a foreign Origin or Host, and a client that disconnects mid-question has
 * that question closed. 2025-era clients (the v1 SDK) get sessions, capped and
 * closed when idle; 2026-07-28 clients (the v2 SDK) are served per request.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import { rawStatus } from '../support/rawHttp';
import { askToolQuestion } from '../../src/core/askUser/toolQuestions';
import { GatewayServer } from '../../src/gateway/gatewayServer';
import { holderProof, portHolder } from '../../src/process/portHolder';
import { McpConnection } from '../../src/mcp/connection';
import { newRecordFile, readRecords } from '../support/records';
import { scriptedBroker } from '../support/scriptedRenderer';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'gw-test-token-0123456789';
const root = join(__dirname, '..', '..');

describe('Elicit gateway', () => {
  const record = newRecordFile();
  const answers: Array<(q: Question, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>> = [];
  const seen: Question[] = [];
  const savedSecrets: Record<string, string> = {};
  const { broker } = scriptedBroker((q, signal) => {
    seen.push(q);
    const next = answers.shift();
    assert.ok(next, `unexpected question: ${q.request.message}`);
    return next(q, signal);
  });
  const upstream = new McpConnection(
    {
      name: 'ask-server',
      source: 'test',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [join(root, 'test', 'fixtures', 'ask-server.mjs')],
        env: { RECORD_FILE: record },
      },
    },
    { ask: (r) => broker.ask(r), log: () => undefined },
  );
  const gateway = new GatewayServer({
    token: () => TOKEN,
    port: 0,
    version: 'test',
    log: () => undefined,
    ask: (asker, question, signal) =>
      askToolQuestion(
        { ask: (r) => broker.ask(r), saveSecret: async (name, value) => void (savedSecrets[name] = value) },
        asker,
        question,
        signal,
      ),
    upstream: {
      list: async () => (await upstream.listTools()).map((tool) => ({ server: 'ask-server', tool })),
      call: (_server, tool, args, signal) => upstream.callTool(tool, args, signal),
    },
  });
  let client: Client;

  async function connectClient(token = TOKEN, name = 'claude-code'): Promise<Client> {
    const c = new Client({ name, version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    return c;
  }

  function parse(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
    return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Record<string, unknown>;
  }

  before(async () => {
    await gateway.start();
    client = await connectClient();
  });

  after(async () => {
    await client?.close();
    await gateway.stop();
    await upstream.stop();
  });

  it('lists ask_user and the forwarded tools, namespaced by server', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('ask_user'));
    assert.ok(names.includes('ask-server__ask_name'));
    assert.match(tools.find((t) => t.name === 'ask-server__echo')!.description!, /^\[ask-server\]/);
  });

  it('asks each kind of question, naming the connecting client as the asker', async () => {
    const cases: Array<[Record<string, unknown>, ElicitResult, Record<string, unknown>]> = [
      [
        { kind: 'text', question: 'Name?' },
        { action: 'accept', content: { answer: 'Ada' } },
        { action: 'accept', answer: 'Ada' },
      ],
      [
        { kind: 'choice', question: 'Key?', options: ['C', 'Am'] },
        { action: 'accept', content: { answer: 'Am' } },
        { action: 'accept', answer: 'Am' },
      ],
      [
        { kind: 'multiChoice', question: 'Parts?', options: ['a', 'b'] },
        { action: 'accept', content: { answer: ['a', 'b'] } },
        { action: 'accept', answer: ['a', 'b'] },
      ],
      [{ kind: 'confirm', question: 'Ship?' }, { action: 'decline' }, { action: 'decline' }],
      [
        {
          kind: 'form',
          question: 'Tempo',
          schema: { type: 'object', properties: { bpm: { type: 'integer', minimum: 60, maximum: 180 } } },
        },
        { action: 'accept', content: { bpm: 96 } },
        { action: 'accept', answer: { bpm: 96 } },
      ],
    ];
    for (const [args, reply, expected] of cases) {
      answers.push(() => reply);
      const result = await client.callTool({ name: 'ask_user', arguments: args });
      assert.deepEqual(parse(result), expected, JSON.stringify(args));
      assert.deepEqual(seen.at(-1)!.request.asker, { kind: 'gateway', name: 'gateway · claude-code', limitGroup: 'gateway' });
    }
  });

  it('returns only a reference for a secret, keeping the value for ${secret:NAME}', async () => {
    answers.push(() => ({ action: 'accept', content: { 'db-password': 'hunter2-gw' } }));
    const result = await client.callTool({
      name: 'ask_user',
      arguments: { kind: 'secret', question: 'DB password?', secretName: 'db-password' },
    });
    const text = JSON.stringify(result);
    assert.ok(!text.includes('hunter2-gw'), 'the value never reaches the client');
    assert.equal(parse(result).reference, '${secret:db-password}');
    assert.deepEqual(savedSecrets, { 'db-password': 'hunter2-gw' });
  });

  it('reports a malformed question as a tool error, not a crash', async () => {
    const result = await client.callTool({ name: 'ask_user', arguments: { kind: 'choice', question: 'Pick' } });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /needs \\"options\\"/);
  });

  it('forwards a tool call whose upstream server elicits, and Elicit renders that question', async () => {
    answers.push((q) => {
      assert.equal(q.request.asker.name, 'ask-server');
      return { action: 'accept', content: { name: 'Grace' } };
    });
    const result = await client.callTool({ name: 'ask-server__ask_name', arguments: {} });
    assert.equal((result.content as Array<{ text: string }>)[0]!.text, 'Hello, Grace!');
    assert.deepEqual(readRecords(record).at(-1)!.result, { action: 'accept', content: { name: 'Grace' } });
  });

  it('refuses a missing or wrong token with 401, a foreign Origin or Host with 403', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(gateway.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(init),
      });
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ Authorization: 'Bearer wrong-token' })).status, 401);
    assert.equal((await post({ Authorization: `Bearer ${TOKEN}`, Origin: 'https://evil.example' })).status, 403);
    const rebinding = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        gateway.url,
        {
          method: 'POST',
          headers: { Host: `evil.example:${gateway.port}`, Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
    assert.equal(rebinding, 403);
    // Two Hosts, the gateway's own first: refused as the device server refuses it (core/http/hostOrigin.ts).
    const body = JSON.stringify(init);
    const twoHosts = await rawStatus(
      net.connect(gateway.port, '127.0.0.1'),
      [
        'POST /mcp HTTP/1.1',
        `Host: 127.0.0.1:${gateway.port}`,
        `Host: evil.example:${gateway.port}`,
        `Authorization: Bearer ${TOKEN}`,
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
      ],
      body,
    );
    assert.equal(twoHosts, 403);
    assert.equal((await post({ Authorization: `Bearer ${TOKEN}`, Origin: `http://127.0.0.1:${gateway.port}` })).status, 200);
    await assert.rejects(connectClient('nope'));
  });

  it('closes the question when the client disconnects mid-question', async () => {
    const other = await connectClient(TOKEN, 'gemini-cli');
    let closedSignal: AbortSignal | undefined;
    const shown = new Promise<void>((resolve) => {
      answers.push((_q, signal) => {
        closedSignal = signal;
        resolve();
        return new Promise<ElicitResult>((done) => signal.addEventListener('abort', () => done({ action: 'cancel' })));
      });
    });
    const call = other.callTool({ name: 'ask_user', arguments: { kind: 'text', question: 'Still there?' } }).catch(() => undefined);
    await shown;
    assert.equal(broker.pending().length, 1);
    await other.close();
    await call;
    await waitUntil(() => closedSignal?.aborted === true && broker.pending().length === 0, 'the question is closed', 5000);
  });

  it('serves a 2026-07-28 client (v2 SDK): ask_user and forwarded tools, the client named from its request', async () => {
    const modern = new ModernClient({ name: 'codex-cli', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new ModernTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    try {
      assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
      const names = (await modern.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('ask_user') && names.includes('ask-server__ask_name'), JSON.stringify(names));
      answers.push(() => ({ action: 'accept', content: { answer: 'main' } }));
      const result = await modern.callTool({ name: 'ask_user', arguments: { kind: 'text', question: 'Which branch?' } });
      assert.deepEqual(JSON.parse((result.content as Array<{ text: string }>)[0]!.text), { action: 'accept', answer: 'main' });
      assert.deepEqual(seen.at(-1)!.request.asker, { kind: 'gateway', name: 'gateway · codex-cli', limitGroup: 'gateway' });
      answers.push(() => ({ action: 'accept', content: { name: 'Hedy' } }));
      const forwarded = await modern.callTool({ name: 'ask-server__ask_name', arguments: {} });
      assert.equal((forwarded.content as Array<{ text: string }>)[0]!.text, 'Hello, Hedy!');
    } finally {
      await modern.close();
    }
  });

  it('counts every gateway client against one limit, whatever names they give themselves', async () => {
    const clients = await Promise.all(['agent-a', 'agent-b', 'agent-c', 'agent-d'].map((name) => connectClient(TOKEN, name)));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    for (let i = 0; i < 3; i++) answers.push(async () => (await held, { action: 'cancel' }));
    try {
      const calls = clients
        .slice(0, 3)
        .map((c, i) => c.callTool({ name: 'ask_user', arguments: { kind: 'text', question: `Question ${i}` } }));
      await waitUntil(() => broker.pending().length === 3, 'three questions open', 5000);
      const refused = await clients[3]!.callTool({ name: 'ask_user', arguments: { kind: 'text', question: 'One more?' } });
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.content), /Too many open questions from gateway · agent-d: 3 are waiting/);
      release();
      await Promise.all(calls);
    } finally {
      release();
      await Promise.all(clients.map((c) => c.close()));
    }
  });
});

describe('gateway sessions of 2025-era clients', () => {
  const logs: string[] = [];
  const gateway = new GatewayServer({
    token: () => TOKEN,
    port: 0,
    version: 'test',
    log: (line) => logs.push(line),
    ask: async () => ({ action: 'cancel' }),
    upstream: { list: async () => [], call: async () => ({ content: [] }) },
    maxSessions: 2,
    sessionIdleMs: 300,
  });
  before(() => gateway.start());
  after(() => gateway.stop());

  async function session(name: string): Promise<Client> {
    const c = new Client({ name, version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
    );
    return c;
  }

  it('logs each session with the name its client gave, caps the sessions and closes idle ones', async () => {
    const first = await session('first-agent');
    const second = await session('second-agent');
    await waitUntil(() => logs.some((l) => l.startsWith('gateway session from second-agent')), 'the session is logged by name', 5000);
    assert.ok(
      logs.some((l) => l.startsWith('gateway session from first-agent')),
      JSON.stringify(logs),
    );
    assert.equal(gateway.sessionCount, 2);
    // A third client makes room by closing the least recently used idle session.
    const third = await session('third-agent');
    assert.equal(gateway.sessionCount, 2);
    assert.ok(logs.includes('gateway session of first-agent closed to make room for a new one'), JSON.stringify(logs));
    // Nobody uses them: they are closed once idle.
    await waitUntil(() => gateway.sessionCount === 0, 'idle sessions closed', 5000);
    assert.ok(logs.includes('gateway session of third-agent closed after being idle'), JSON.stringify(logs));
    await Promise.all([first, second, third].map((c) => c.close().catch(() => undefined)));
  });
});

// Issue #33, finding 3: before clients keep an address whose port Elicit cannot bind, its holder
// must prove it is an Elicit gateway with the same token, without the token being sent.
describe('who holds the gateway port', () => {
  const gateway = new GatewayServer({
    token: () => TOKEN,
    port: 0,
    version: 'test',
    log: () => undefined,
    ask: async () => ({ action: 'cancel' }),
    upstream: { list: async () => [], call: async () => ({ content: [] }) },
  });
  const servers: http.Server[] = [];
  before(() => gateway.start());
  after(async () => {
    for (const server of servers) server.close();
    await gateway.stop();
  });

  async function listen(handler: http.RequestListener): Promise<number> {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return (server.address() as { port: number }).port;
  }

  it('an Elicit gateway with the same token proves it; with another token, it does not', async () => {
    assert.equal(await portHolder(gateway.port, TOKEN), 'elicit');
    assert.equal(await portHolder(gateway.port, 'another-token'), 'other');
  });

  it('a program that answers anything, or relays the challenge to a real gateway on another port, does not', async () => {
    const squatter = await listen((_req, res) => res.end('{"proof":"' + 'ab'.repeat(32) + '"}'));
    assert.equal(await portHolder(squatter, TOKEN), 'other');
    const relay = await listen((req, res) => {
      // Asks the real gateway (on its own port) the same challenge and hands its answer back.
      http.get({ host: '127.0.0.1', port: gateway.port, path: req.url, headers: { host: `127.0.0.1:${gateway.port}` } }, (answer) => {
        let body = '';
        answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
        answer.on('end', () => res.end(body));
      });
    });
    assert.equal(await portHolder(relay, TOKEN), 'other');
  });

  it('a free port is free; a holder that never answers is not trusted', async () => {
    const closed = await listen(() => undefined);
    servers.at(-1)!.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await portHolder(closed, TOKEN), 'free');
    const silent = await listen(() => undefined);
    assert.equal(await portHolder(silent, TOKEN), 'other');
  });

  it('answers a challenge without the token, and only a well-formed one', async () => {
    const response = await fetch(`http://127.0.0.1:${gateway.port}/elicit-proof/${'0'.repeat(64)}`);
    assert.equal(response.status, 200);
    const { proof } = (await response.json()) as { proof: string };
    assert.equal(proof, holderProof(TOKEN, gateway.port, '0'.repeat(64)));
    assert.ok(!JSON.stringify(proof).includes(TOKEN));
    assert.equal((await fetch(`http://127.0.0.1:${gateway.port}/elicit-proof/zz`)).status, 400);
  });
});
