/**
 * Stands in for `@modelcontextprotocol/client/_shims` in the MCP SDK bundle (esbuild.mjs): the
 * SDK's Node shim with Elicit's bounded-pattern validator as the default, so no SDK path can
 * fall back to a validator that runs a server's pattern with V8's backtracking RegExp, and the
 * SDK's own copy of ajv stays out of the bundle. Under tests the SDK's real shim loads; the
 * Client gets BoundedSchemaValidator explicitly either way (connection.ts).
 */
export { BoundedSchemaValidator as DefaultJsonSchemaValidator } from './resultSchemaValidator';

/** As in the SDK's Node shim: outside a browser a failed fetch is never a CORS error. */
export const CORS_IS_POSSIBLE = false;
