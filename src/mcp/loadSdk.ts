/**
 * The MCP SDK, loaded once, when the first server starts. In the extension the
 * `require` below is rewritten by esbuild.mjs to `require('./mcp-sdk.js')`, a
 * bundle of its own, so activation never loads it; under tests it is a plain
 * require of ./sdk.
 */
export type McpSdk = typeof import('./sdk');

let loaded: McpSdk | undefined;

export async function loadSdk(): Promise<McpSdk> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
  return (loaded ??= require('./sdk') as McpSdk);
}
