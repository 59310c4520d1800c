/**
 * The production bundles as the VSIX ships them (built by `npm test`'s package step before the
 * end-to-end files run): the MCP SDK bundle's default JSON Schema validator is Elicit's bounded one
 * (esbuild.mjs replaces the SDK's platform shim with src/mcp/sdkShims.ts), so no SDK path can check
 * a server's pattern with V8's backtracking RegExp, and the SDK's own validator is not shipped.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const bundle = join(__dirname, '..', '..', 'dist', 'mcp-sdk.js');

describe('the built MCP SDK bundle', () => {
  it("defaults every Client to the bounded validator: an exponential pattern is judged at once, in Elicit's words", () => {
    const sdk = createRequire(__filename)(bundle) as { Client: new (info: { name: string; version: string }) => object };
    // No jsonSchemaValidator given: what the SDK falls back to is what the shim provides.
    const client = new sdk.Client({ name: 'bundle-test', version: '0.0.0' });
    const validator = (
      client as { _jsonSchemaValidator: { getValidator(schema: object): (input: unknown) => { valid: boolean; errorMessage?: string } } }
    )._jsonSchemaValidator;
    const check = validator.getValidator({ type: 'object', properties: { code: { type: 'string', pattern: '^(a|a)*$' } } });
    assert.deepEqual(check({ code: `${'a'.repeat(5_000)}!` }), {
      valid: false,
      data: undefined,
      errorMessage: 'code is not in the form the schema asks for',
    });
  });

  it("does not ship the SDK's own validator", () => {
    const text = readFileSync(bundle, 'utf8');
    assert.ok(!text.includes('The default validator supports JSON Schema'), "the SDK's AjvJsonSchemaValidator is in the bundle");
  });
});
