/**
 * Issue #33, findings 1 and 2, through the real door: a real MCP server process
 * (test/fixtures/stall-server.mjs, official v2 server package) sends forms and
 * results that are within every per-field cap but were costly to read; McpConnection
 * and the real broker (with the host's reading lane) take them while perf_hooks
 * watches this process's event loop. Before: the 100-field form blocked it 2.7 to
 * 9.2 s, a round 25 s, 200 long strings against a costly items.pattern 11 s,
 * uniqueItems on 20,000 objects 9.5 s, a 790 KB outputSchema 5.4 s.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { McpConnection } from '../../src/mcp/connection';
import { longestBlockDuring, SUITE_BLOCK_BOUND_MS } from '../support/hostBlock';
import { scriptedBroker } from '../support/scriptedRenderer';

const server = join(__dirname, '..', 'fixtures', 'stall-server.mjs');

for (const legacy of [false, true]) {
  const revision = legacy ? '2025-11-25 (elicitation/create requests)' : '2026-07-28 (rounds)';
  describe(`costly requests and results from a ${revision} server`, () => {
    // Declines whatever reaches the screen: a form that is read at all is answered.
    const { broker, renderer } = scriptedBroker(() => ({ action: 'decline' }));
    const connection = new McpConnection(
      {
        name: 'stall-server',
        source: 'test',
        transport: { type: 'stdio', command: process.execPath, args: [server], env: legacy ? { STALL_LEGACY: 'only' } : {} },
      },
      { ask: (r) => broker.ask(r), log: () => undefined },
    );
    after(() => connection.stop());

    /** The call's outcome (its result text or its error) and how long the host was blocked meanwhile. */
    async function call(tool: string): Promise<{ outcome: string; blockedMs: number }> {
      await connection.callTool('ping', {}); // started, listed and warm: only the tool's own cost is measured
      const { value, blockedMs } = await longestBlockDuring(() =>
        connection.callTool(tool, {}).then(
          (result) => `result: ${result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join(' ')}`,
          (error: unknown) => `error: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      return { outcome: value, blockedMs };
    }

    it('a form of 100 fields, each a costly pattern with a matching default and 20 examples: refused, the host never blocked', async (t) => {
      const shown = renderer.seen.length;
      const { outcome, blockedMs } = await call('stall_form');
      t.diagnostic(`blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
      assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `the host was blocked ${blockedMs} ms`);
      assert.equal(renderer.seen.length, shown, 'a form too costly to check was shown');
      assert.match(outcome, /too costly to check against their patterns/);
    });

    it('a form of 100 fields with costly examples only: shown (examples past the budget left out), the host never blocked', async (t) => {
      const shown = renderer.seen.length;
      const { outcome, blockedMs } = await call('stall_examples');
      t.diagnostic(`blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
      assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `the host was blocked ${blockedMs} ms`);
      assert.equal(renderer.seen.length, shown + 1);
      assert.match(outcome, /decline/);
    });

    it('10 questions of 10 costly fields at once: one budget for all, the host never blocked', async (t) => {
      const { outcome, blockedMs } = await call('stall_round');
      t.diagnostic(`blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
      assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `the host was blocked ${blockedMs} ms`);
      assert.match(outcome, /too costly|decline/);
    });

    it('20 questions of 5 costly fields at once: the host never blocked, every question settled', async (t) => {
      const { outcome, blockedMs } = await call('stall_flood');
      t.diagnostic(`blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
      assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `the host was blocked ${blockedMs} ms`);
      assert.match(outcome, /too costly|too many|decline|at most/);
      assert.equal(broker.pending().length, 0);
    });

    // Issue #57, finding 1: compiling patterns was charged to no budget (100 new ones took 1.6 to 1.9 s to read).
    it('100 fields of patterns new to Elicit, sharing one class costly to compile: the class is built once, the form shown, the host never blocked', async (t) => {
      const shown = renderer.seen.length;
      const { outcome, blockedMs } = await call('stall_compile');
      t.diagnostic(`blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
      assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `the host was blocked ${blockedMs} ms`);
      assert.equal(renderer.seen.length, shown + 1, 'the form was shown');
      assert.match(outcome, /decline/);
    });

    it('100 fields, each its own class costly to compile: refused for its cost before most are built, the host never blocked', async (t) => {
      const shown = renderer.seen.length;
      const { outcome, blockedMs } = await call('stall_compile_classes');
      t.diagnostic(`blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
      assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `the host was blocked ${blockedMs} ms`);
      assert.equal(renderer.seen.length, shown, 'a form too costly to prepare was shown');
      assert.match(outcome, /too costly to prepare/);
    });

    it('a round and a flood of such questions: one budget for a round, the host never blocked', async (t) => {
      for (const tool of ['stall_compile_round', 'stall_compile_flood']) {
        const { outcome, blockedMs } = await call(tool);
        t.diagnostic(`${tool}: blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
        assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `${tool}: the host was blocked ${blockedMs} ms`);
        assert.match(outcome, /too costly|too many|decline|at most/);
      }
      assert.equal(broker.pending().length, 0);
    });
  });
}

describe('tool results checked against costly outputSchemas', () => {
  const { broker } = scriptedBroker(() => ({ action: 'decline' }));
  const connection = new McpConnection(
    { name: 'stall-server', source: 'test', transport: { type: 'stdio', command: process.execPath, args: [server], env: {} } },
    { ask: (r) => broker.ask(r), log: () => undefined },
  );
  after(() => connection.stop());

  async function call(tool: string): Promise<{ outcome: string; blockedMs: number }> {
    await connection.callTool('ping', {});
    const { value, blockedMs } = await longestBlockDuring(() =>
      connection.callTool(tool, {}).then(
        () => 'result',
        (error: unknown) => `error: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
    return { outcome: value, blockedMs };
  }

  it('200 strings of 10,000 characters against a costly items.pattern: checked in the worker, the host never blocked', async (t) => {
    const { outcome, blockedMs } = await call('stall_items_pattern');
    t.diagnostic(`blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
    assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `the host was blocked ${blockedMs} ms`);
    // The worker either finishes (every line breaks the pattern) or overruns its deadline: never the host.
    assert.match(
      outcome,
      /^error: (Structured content does not match the tool's output schema|Failed to validate structured content: it could not be checked)/,
    );
  });

  it('uniqueItems on 20,000 objects: the host never blocked', async (t) => {
    const { outcome, blockedMs } = await call('stall_unique_items');
    t.diagnostic(`blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
    assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `the host was blocked ${blockedMs} ms`);
    assert.match(outcome, /^(result|error: Failed to validate structured content: it could not be checked)/);
  });

  it('a 700 KB outputSchema: compiled in the worker, the host never blocked, the result checked', async (t) => {
    const { outcome, blockedMs } = await call('stall_big_schema');
    t.diagnostic(`blocked ${blockedMs.toFixed(1)} ms; ${outcome.slice(0, 160)}`);
    assert.ok(blockedMs < SUITE_BLOCK_BOUND_MS, `the host was blocked ${blockedMs} ms`);
    assert.match(outcome, /^(result|error: Tool 'stall_big_schema' has an invalid outputSchema: it could not be checked)/);
  });
});
