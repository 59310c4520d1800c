/**
 * Stands in for `@modelcontextprotocol/client/_shims` in the MCP SDK bundle (esbuild.mjs): the
 * SDK's Node shim with Elicit's worker-checked validator as the default, so no SDK path can
 * check a server's schema on the extension host's thread (resultCheck/), and the SDK's own
 * copy of ajv stays out of the bundle. Under tests the SDK's real shim loads; the Client gets
 * WorkerCheckedSchemas explicitly either way (connection.ts).
 */
export { WorkerCheckedSchemas as DefaultJsonSchemaValidator } from './resultCheck/workerCheckedSchemas';

/** As in the SDK's Node shim: outside a browser a failed fetch is never a CORS error. */
export const CORS_IS_POSSIBLE = false;
