/**
 * The gateway stopping (as it does at Reload Window) while agents' calls still wait for the person:
 * each call ends with an error result that says why, which reaches the agent before the gateway is
 * gone. Before (found by the soak, issue #37), the calls' streams were just cut and a 2025-era
 * client waited for its result for ever. One 2025-era client (v1 SDK), one 2026-07-28 client (v2),
 * ask_user and a forwarded tool whose upstream server asks.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import { askToolQuestion } from '../../src/core/askUser/toolQuestions';
import { GATEWAY_STOPPED, GatewayServer } from '../../src/gateway/gatewayServer';
import { McpConnection } from '../../src/mcp/connection';
import { stdioServer } from '../support/mcpServers';
import { newRecordFile } from '../support/records';
import { REACTION_MS, scriptedBroker } from '../support/scriptedRenderer';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'gw-stop-token-0123456789';
const WHY = 'The window reloaded before this call ended. Call the tool again.';
const root = join(__dirname, '..', '..');

/** A tool call's result as both SDKs give it. */
type Called = { content?: unknown; isError?: unknown };

describe('the gateway stopping while calls wait for the person', { timeout: 60_000 }, () => {
  // Nobody answers: each question waits until its call is stopped.
  const { broker } = scriptedBroker(
    (_q, signal) => new Promise<ElicitResult>((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }))),
  );
  const upstream = new McpConnection(
    stdioServer('ask-server', join(root, 'test', 'fixtures', 'ask-server.mjs'), { RECORD_FILE: newRecordFile() }),
    { ask: (r) => broker.ask(r), log: () => undefined },
  );
  const gateway = (): GatewayServer =>
    new GatewayServer({
      token: () => TOKEN,
      port: 0,
      version: 'test',
      log: () => undefined,
      ask: (asker, question, signal) =>
        askToolQuestion({ ask: (r) => broker.ask(r), saveSecret: async () => undefined }, asker, question, signal),
      upstream: {
        list: async () => (await upstream.listTools()).map((tool) => ({ server: 'ask-server', tool })),
        call: (_server, tool, args, signal) => upstream.callTool(tool, args, signal),
      },
    });
  const headers = { Authorization: `Bearer ${TOKEN}` };

  before(async () => {
    await upstream.connect();
  });

  after(async () => {
    await upstream.stop();
  });

  const text = (result: Called): string => (result.content as Array<{ text: string }>)[0]!.text;

  for (const why of [WHY, undefined]) {
    it(`ends each call with an error result saying why (${why === undefined ? 'stopped by the person' : 'the window closing'}), for both revisions`, async () => {
      const server = gateway();
      await server.start();
      const legacy = new Client({ name: 'claude-code', version: '1.0.0' });
      await legacy.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
      const modern = new ModernClient({ name: 'codex-cli', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await modern.connect(new ModernTransport(new URL(server.url), { requestInit: { headers } }));
      try {
        // One after another, each open a moment before the next is asked (questions asked together are drawn as one).
        const calls: Array<Promise<unknown>> = [];
        const ask = async (call: () => Promise<unknown>): Promise<void> => {
          const open = broker.pending().length;
          calls.push(call());
          await waitUntil(() => broker.pending().length === open + 1, 'the question is open', 10_000);
          await new Promise((resolve) => setTimeout(resolve, REACTION_MS));
        };
        await ask(() => legacy.callTool({ name: 'ask_user', arguments: { kind: 'text', question: 'Which branch?' } }));
        await ask(() => legacy.callTool({ name: 'ask-server__ask_name', arguments: {} }));
        await ask(() => modern.callTool({ name: 'ask_user', arguments: { kind: 'confirm', question: 'Ship it?' } }));
        await ask(() => modern.callTool({ name: 'ask-server__ask_name', arguments: {} }));
        assert.equal(broker.pending().length, 4);
        const stoppedAt = Date.now();
        await server.stop(why);
        const results = (await Promise.all(calls)) as Called[];
        assert.ok(Date.now() - stoppedAt < 5_000, 'the results came as the gateway stopped');
        for (const result of results) {
          assert.equal(result.isError, true, JSON.stringify(result));
          assert.equal(text(result), why ?? GATEWAY_STOPPED);
        }
        // ask_user's questions close with their calls. The forwarded server's stay: that fixture goes on asking
        // when its call is cancelled (it does not pass the request's signal on), as a server may.
        const asked = (): Question[] => broker.pending().filter((q) => q.request.asker.kind === 'gateway');
        await waitUntil(() => asked().length === 0, "no question of ask_user's is left open", 5_000);
        for (const q of broker.pending()) broker.dismiss(q.id);
      } finally {
        await legacy.close();
        await modern.close();
      }
    });
  }

  it('starts again after a stop, and its calls are not stopped by the earlier one', async () => {
    const server = gateway();
    await server.start();
    await server.stop(WHY);
    await server.start();
    const modern = new ModernClient({ name: 'codex-cli', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new ModernTransport(new URL(server.url), { requestInit: { headers } }));
    try {
      const call = modern.callTool({ name: 'ask_user', arguments: { kind: 'text', question: 'Still here?' } });
      await waitUntil(() => broker.pending().length === 1, 'the question is open', 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(broker.pending().length, 1, 'the question still waits for the person');
      await server.stop(WHY);
      assert.equal(text(await call), WHY);
    } finally {
      await modern.close();
      await server.stop();
    }
  });
});
