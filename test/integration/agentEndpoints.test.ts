/**
 * The person's servers as an agent session gets them (gateway/agentEndpoints.ts), with real
 * MCP SDK clients standing in for the agent and real fixture servers behind Elicit's own
 * connections: each session sees only the servers it was given, under their own names; its
 * token works only for those, and not once the session ended; a server's question during
 * the call names the agent and session, and closes when the agent cancels the call; the
 * stdio bridge (gateway/stdioBridge.ts) reaches the same endpoint for agents without HTTP.
 * Both MCP revisions: a 2025-era agent (v1 SDK) and a 2026-07-28 one (v2 SDK).
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import { questionTitle } from '../../src/core/display';
import { AgentEndpoints, agentNames, SESSION_ENDED, type SessionGrant } from '../../src/gateway/agentEndpoints';
import { McpConnection } from '../../src/mcp/connection';
import { fixture, repoRoot, stdioServer, textOf } from '../support/mcpServers';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { answerFields, scriptedBroker } from '../support/scriptedRenderer';
import { waitUntil } from '../support/waitUntil';
import { KeptAcrossReload } from '../support/keptAcrossReload';

/** A tool result's text, whichever SDK's result type it has. */
const text = (result: unknown): string => textOf(result as { content?: unknown });

/** The status of an `initialize` POSTed to `url` with this token (none: no Authorization) and these headers. */
function rawStatus(url: string, token: string | undefined, headers: Record<string, string> = {}): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...headers,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe("the person's servers offered to agent sessions", { timeout: 120_000 }, () => {
  const record = newRecordFile();
  const mrtrRecord = newRecordFile();
  const seen: Question[] = [];
  const answers: Array<(q: Question, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>> = [];
  const { broker } = scriptedBroker((q, signal) => {
    seen.push(q);
    const next = answers.shift();
    assert.ok(next, `unexpected question: ${q.request.message}`);
    return next(q, signal);
  });
  const servers = new Map<string, McpConnection>([
    [
      'tracker',
      new McpConnection(stdioServer('tracker', fixture('ask-server.mjs'), { RECORD_FILE: record, FIXTURE_NAME: 'tracker' }), {
        ask: (r) => broker.ask(r),
        log: () => undefined,
      }),
    ],
    [
      'songs (2)',
      new McpConnection(stdioServer('songs (2)', fixture('mrtr-server.mjs'), { RECORD_FILE: mrtrRecord }), {
        ask: (r) => broker.ask(r),
        log: () => undefined,
      }),
    ],
    [
      'private',
      new McpConnection(stdioServer('private', fixture('ask-server.mjs'), { FIXTURE_NAME: 'private' }), {
        ask: (r) => broker.ask(r),
        log: () => undefined,
      }),
    ],
  ]);
  const calls: Array<{ server: string; tool: string; caller: string }> = [];
  const endpoints = new AgentEndpoints({
    version: 'test',
    log: () => undefined,
    upstream: {
      list: async (name) => servers.get(name)!.listTools(),
      call: (name, tool, args, signal, caller) => {
        calls.push({ server: name, tool, caller });
        return servers.get(name)!.callTool(tool, args, signal, undefined, { caller });
      },
    },
  });
  const clients: Array<{ close(): Promise<void> }> = [];

  async function legacyClient(url: string, token: string): Promise<Client> {
    const client = new Client({ name: 'claude-code', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    clients.push(client);
    return client;
  }

  /** The next question stays open until Elicit closes it (its signal, once shown). */
  function heldOpen(): { shown?: AbortSignal } {
    const held: { shown?: AbortSignal } = {};
    answers.push(
      (_q, signal) =>
        new Promise<ElicitResult>((resolve) => {
          held.shown = signal;
          signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
        }),
    );
    return held;
  }

  function grantFor(names: string[], caller = 'claude, session 1a2b3c4d'): SessionGrant {
    return endpoints.grant(
      names.map((name) => ({ name, server: name })),
      () => caller,
    );
  }

  before(() => endpoints.start());
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await endpoints.stop();
    for (const server of servers.values()) await server.stop();
  });

  it('names each server as an agent can take it, once', () => {
    assert.deepEqual(
      [...agentNames(['github', 'github (2)', 'my server', 'x/y', '   '].map((name) => ({ name, server: name })))],
      [
        ['github', 'github'],
        ['github_2', 'github (2)'],
        ['my_server', 'my server'],
        ['x_y', 'x/y'],
        ['server', '   '],
      ],
    );
  });

  it("gives a session only its servers, each under its own name with that server's tools", async () => {
    const grant = grantFor(['tracker', 'songs (2)']);
    assert.deepEqual(
      grant.endpoints.map((e) => [e.name, e.server]),
      [
        ['tracker', 'tracker'],
        ['songs_2', 'songs (2)'],
      ],
    );
    const tracker = await legacyClient(grant.endpoints[0]!.url, grant.token);
    const names = (await tracker.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('ask_key') && names.includes('echo'), names.join(', '));
    assert.ok(!names.some((n) => n.includes('__')), 'no namespacing: the agent names the server itself');
    const echoed = await tracker.callTool({ name: 'echo', arguments: { text: 'hello' } });
    assert.equal(text(echoed), 'hello');
    // A server the session was not given is not there, under any name.
    const base = grant.endpoints[0]!.url.replace(/tracker$/, '');
    for (const name of ['private', 'Private', '..%2Fprivate', '']) {
      assert.equal(await rawStatus(`${base}${name}`, grant.token), 404, name);
    }
    grant.revoke();
  });

  it("refuses a session's token for another session's server, and every token once its session ended", async () => {
    const first = grantFor(['tracker']);
    const second = grantFor(['private']);
    const privateUrl = second.endpoints[0]!.url;
    assert.equal(await rawStatus(privateUrl, first.token), 404, "the first session's token does not open the second's server");
    assert.equal(await rawStatus(first.endpoints[0]!.url, 'not-a-token'), 401);
    assert.equal(await rawStatus(first.endpoints[0]!.url, undefined), 401);
    const client = await legacyClient(first.endpoints[0]!.url, first.token);
    assert.equal(text(await client.callTool({ name: 'echo', arguments: { text: 'still open' } })), 'still open');
    first.revoke();
    assert.equal(first.revoked, true);
    assert.equal(await rawStatus(first.endpoints[0]!.url, first.token), 401, "a closed session's token is dead");
    await assert.rejects(client.callTool({ name: 'echo', arguments: { text: 'after' } }));
    // The other session goes on.
    const other = await legacyClient(privateUrl, second.token);
    assert.equal(text(await other.callTool({ name: 'echo', arguments: { text: 'mine' } })), 'mine');
    second.revoke();
  });

  it('refuses a foreign Host or Origin', async () => {
    const grant = grantFor(['tracker']);
    const url = grant.endpoints[0]!.url;
    assert.equal(await rawStatus(url, grant.token, { Host: `evil.example:${endpoints.port}` }), 403);
    assert.equal(await rawStatus(url, grant.token, { Origin: 'http://evil.example' }), 403);
    grant.revoke();
  });

  it("asks a server's question during the agent's call naming the server, the tool, the agent and the session", async () => {
    const grant = grantFor(['tracker']);
    const client = await legacyClient(grant.endpoints[0]!.url, grant.token);
    answers.push((q) => answerFields(q, { key: 'Am' }));
    const result = await client.callTool({ name: 'ask_key', arguments: {} });
    const question = seen.at(-1)!;
    assert.equal(questionTitle(question.request), 'tracker asks · tool ask_key · for claude, session 1a2b3c4d');
    assert.equal(question.request.asker.kind, 'mcp', 'the server asks, through the same broker as any question');
    assert.match(text(result), /Accepted: \{"key":"Am"\}/);
    const [answered] = await waitForRecords(record, 1, (r) => r.tool === 'ask_key');
    assert.deepEqual(answered!.result, { action: 'accept', content: { key: 'Am' } });
    assert.deepEqual(calls.at(-1), { server: 'tracker', tool: 'ask_key', caller: 'claude, session 1a2b3c4d' });
    grant.revoke();
  });

  it('closes the question when the agent cancels the call, and the server hears it was cancelled', async () => {
    const grant = grantFor(['tracker']);
    const client = await legacyClient(grant.endpoints[0]!.url, grant.token);
    const question = heldOpen();
    const cancel = new AbortController();
    const call = client.callTool({ name: 'ask_name', arguments: {} }, undefined, { signal: cancel.signal });
    await waitUntil(() => question.shown !== undefined, 'the question is shown');
    cancel.abort();
    await assert.rejects(call);
    await waitUntil(() => question.shown!.aborted, 'the question closes with the call', 10_000);
    const [outcome] = await waitForRecords(record, 1, (r) => r.tool === 'ask_name');
    assert.deepEqual(outcome!.result, { action: 'cancel' });
    grant.revoke();
  });

  it('ends a call still running when its session ends, with a result that says why, and closes its question', async () => {
    const grant = grantFor(['tracker']);
    const client = await legacyClient(grant.endpoints[0]!.url, grant.token);
    const question = heldOpen();
    const call = client.callTool({ name: 'ask_code', arguments: {} });
    await waitUntil(() => question.shown !== undefined, 'the question is shown');
    grant.revoke();
    const result = await call;
    assert.equal(result.isError, true);
    assert.equal(text(result), SESSION_ENDED);
    await waitUntil(() => question.shown!.aborted, 'the question closes with the session', 10_000);
  });

  it('serves a 2026-07-28 agent, and a round of a 2026 server names the agent too', async () => {
    const grant = grantFor(['songs (2)'], 'codex, session 99887766');
    const client = new ModernClient({ name: 'codex', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new ModernTransport(new URL(grant.endpoints[0]!.url), { requestInit: { headers: { Authorization: `Bearer ${grant.token}` } } }),
    );
    clients.push(client);
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const tools = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(tools.includes('two_rounds'), tools.join(', '));
    answers.push((q) => answerFields(q, { title: 'Dawn' }));
    answers.push((q) => answerFields(q, { tempo: 90 }));
    const result = await client.callTool({ name: 'two_rounds', arguments: {} });
    assert.equal(text(result), '"Dawn" at 90');
    assert.deepEqual(
      seen.slice(-2).map((q) => questionTitle(q.request)),
      ['songs (2) asks · tool two_rounds · for codex, session 99887766', 'songs (2) asks · tool two_rounds · for codex, session 99887766'],
    );
    grant.revoke();
  });

  it("keeps a 2026 round open when the window reloads; answered afterwards, it reaches its server, naming the agent's session", async () => {
    const keeper = new KeptAcrossReload();
    const songsRecord = newRecordFile();
    const config = stdioServer('songs', fixture('mrtr-server.mjs'), { RECORD_FILE: songsRecord });
    // Before the reload: round 1 answered, round 2 still on screen when the window goes.
    const before = scriptedBroker((q, signal) =>
      q.form!.fields[0]!.property === 'title'
        ? answerFields(q, { title: 'Nocturne' })
        : new Promise<ElicitResult>((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true })),
    );
    const songs = new McpConnection(config, { ask: (r) => before.broker.ask(r), log: () => undefined, rounds: keeper });
    const local = new AgentEndpoints({
      version: 'test',
      log: () => undefined,
      upstream: {
        list: () => songs.listTools(),
        call: (_name, tool, args, signal, caller) => songs.callTool(tool, args, signal, undefined, { caller }),
      },
    });
    await local.start();
    try {
      const grant = local.grant([{ name: 'songs', server: 'songs' }], () => 'claude, session 1a2b3c4d');
      const client = await legacyClient(grant.endpoints[0]!.url, grant.token);
      const call = client.callTool({ name: 'two_rounds', arguments: {} });
      await waitUntil(() => keeper.rounds.some((r) => r.round === 2), 'round 2 is kept');
      await local.stop(); // the window reloads: every session's calls end
      await call.catch(() => undefined);
      const kept = keeper.rounds.find((r) => r.round === 2)!;
      assert.match(kept.requestState ?? '', /^round-2:/);
      // After the reload the person answers it from Pending Questions; the server that asked gets it.
      const after = scriptedBroker((q) => answerFields(q, { tempo: 72 }));
      const again = new McpConnection(config, { ask: (r) => after.broker.ask(r), log: () => undefined });
      try {
        assert.equal(text(await again.resumeRound(kept)), '"Nocturne" at 72');
        assert.equal(questionTitle(after.renderer.seen[0]!.request), 'songs asks · tool two_rounds · for claude, session 1a2b3c4d');
        assert.equal(readRecords(songsRecord).at(-1)!.requestState, kept.requestState);
      } finally {
        await again.stop();
      }
    } finally {
      await local.stop();
      await songs.stop();
    }
  });

  it('reaches the same endpoint through the stdio bridge, for an agent without MCP over HTTP', async () => {
    const grant = grantFor(['tracker'], 'gemini, session 55aa55aa');
    const bridge = new Client({ name: 'gemini', version: '1.0.0' });
    await bridge.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', join(repoRoot, 'src', 'gateway', 'stdioBridge.ts')],
        env: { PATH: process.env.PATH ?? '', ELICIT_MCP_URL: grant.endpoints[0]!.url, ELICIT_MCP_TOKEN: grant.token },
        cwd: repoRoot,
      }),
    );
    clients.push(bridge);
    assert.ok((await bridge.listTools()).tools.some((t) => t.name === 'ask_confirm'));
    answers.push((q) => answerFields(q, { publish: true }));
    const result = await bridge.callTool({ name: 'ask_confirm', arguments: {} });
    assert.match(text(result), /Accepted: \{"publish":true\}/);
    assert.equal(questionTitle(seen.at(-1)!.request), 'tracker asks · tool ask_confirm · for gemini, session 55aa55aa');
    // Once the session ended, the bridge gets Elicit's refusal as an error, not silence.
    grant.revoke();
    await assert.rejects(bridge.callTool({ name: 'echo', arguments: { text: 'late' } }), /HTTP (401|404)/);
    assert.equal(readRecords(record).filter((r) => r.tool === 'echo').length, 0, 'echo records nothing anyway');
  });
});
