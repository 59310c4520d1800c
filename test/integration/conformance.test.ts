/**
 * The official MCP conformance client suites against Elicit's headless client
 * (test/conformance/client.ts: McpConnection, the real broker, the OAuth
 * provider). Every scenario of each suite must pass; the counts are reported
 * as test diagnostics.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SUITES, REVISION_2026, run2026, runSuite, summary, type SuiteResult } from '../conformance/run';

function assertPassed(result: SuiteResult, t: { diagnostic(message: string): void }): void {
  t.diagnostic(summary(result));
  for (const scenario of result.rerunAlone) t.diagnostic(`${scenario} failed in the parallel run and was run again on its own`);
  const failures = result.scenarios.flatMap((s) => s.failures.map((f) => `${s.scenario} · ${f}`));
  assert.deepEqual(failures, []);
  assert.ok(result.scenarios.length > 0);
}

describe('MCP conformance (@modelcontextprotocol/conformance)', () => {
  for (const suite of DEFAULT_SUITES) {
    it(`passes every scenario of the ${suite} suite`, { timeout: 300_000 }, async (t) => assertPassed(await runSuite(suite), t));
  }

  it('passes the auth suite at MCP 2026-07-28', { timeout: 300_000 }, async (t) => assertPassed(await run2026('auth'), t));

  it(
    `passes the 2026-07-28 client scenarios (${REVISION_2026.scenarios.length}, multi round-trip requests among them)`,
    { timeout: 600_000 },
    async (t) => {
      const result = await run2026('scenarios');
      assertPassed(result, t);
      assert.equal(result.scenarios.length, REVISION_2026.scenarios.length, 'every scenario reported its checks');
    },
  );
});
