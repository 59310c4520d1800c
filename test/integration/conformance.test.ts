/**
 * The official MCP conformance client suites against Elicit's headless client
 * (test/conformance/client.ts: McpConnection, the real broker, the OAuth
 * provider). Every scenario of each suite must pass; the counts are reported
 * as test diagnostics.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SUITES, runSuite, summary } from '../conformance/run';

describe('MCP conformance (@modelcontextprotocol/conformance)', () => {
  for (const suite of DEFAULT_SUITES) {
    it(`passes every scenario of the ${suite} suite`, { timeout: 300_000 }, async (t) => {
      const result = await runSuite(suite);
      t.diagnostic(summary(result));
      for (const scenario of result.rerunAlone) t.diagnostic(`${scenario} failed in the parallel run and was run again on its own`);
      const failures = result.scenarios.flatMap((s) => s.failures.map((f) => `${s.scenario} · ${f}`));
      assert.deepEqual(failures, []);
      assert.ok(result.scenarios.length > 0);
    });
  }
});
