/**
 * The production bundles as the VSIX ships them (built by `npm test`'s package step before the
 * end-to-end files run): the MCP SDK bundle's default JSON Schema validator checks nothing on the
 * extension host's thread (esbuild.mjs replaces the SDK's platform shim with src/mcp/sdkShims.ts),
 * the SDK's own validator is not shipped, and the shipped result-check worker judges a server's
 * exponential pattern at once, in Elicit's words (issue #21 finding 2, issue #33 finding 2).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ResultChecker } from '../../src/mcp/resultCheck/resultChecker';

const dist = join(__dirname, '..', '..', 'dist');
const bundle = join(dist, 'mcp-sdk.js');

describe('the built MCP SDK bundle', () => {
  it('defaults every Client to the worker-checked validator: the SDK itself judges no schema on the host', () => {
    const sdk = createRequire(__filename)(bundle) as { Client: new (info: { name: string; version: string }) => object };
    // No jsonSchemaValidator given: what the SDK falls back to is what the shim provides.
    const client = new sdk.Client({ name: 'bundle-test', version: '0.0.0' });
    const validator = (
      client as { _jsonSchemaValidator: { getValidator(schema: object): (input: unknown) => { valid: boolean; errorMessage?: string } } }
    )._jsonSchemaValidator;
    const check = validator.getValidator({ type: 'object', properties: { code: { type: 'string', pattern: '^(a|a)*$' } } });
    const started = performance.now();
    // A result that breaks the pattern passes here: the SDK defers, McpConnection checks it in the worker.
    assert.equal(check({ code: `${'a'.repeat(5_000)}!` }).valid, true);
    assert.ok(performance.now() - started < 100, 'the SDK ran a check on the host thread');
  });

  it("does not ship the SDK's own validator", () => {
    const text = readFileSync(bundle, 'utf8');
    assert.ok(!text.includes('The default validator supports JSON Schema'), "the SDK's AjvJsonSchemaValidator is in the bundle");
  });
});

describe('the built result-check worker', () => {
  it("judges an exponential pattern at once, in Elicit's words", async () => {
    const checker = new ResultChecker(30_000, join(dist, 'result-check-worker.js'));
    try {
      const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^(a|a)*$' } } };
      assert.deepEqual(await checker.check(schema, { code: `${'a'.repeat(5_000)}!` }), {
        outcome: 'invalid',
        errorMessage: 'code is not in the form the schema asks for',
      });
      assert.deepEqual(await checker.check(schema, { code: 'aaaa' }), { outcome: 'valid' });
    } finally {
      checker.dispose();
    }
  });
});
