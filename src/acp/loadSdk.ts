/**
 * The ACP SDK, loaded once, when the first agent starts. In the extension the
 * `require` below is rewritten by esbuild.mjs to `require('./acp-sdk.js')`, a
 * bundle of its own; under tests it is a plain require of ./sdk.
 */
export type AcpSdk = typeof import('./sdk');

let loaded: AcpSdk | undefined;

export function loadAcpSdk(): AcpSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
  return (loaded ??= require('./sdk') as AcpSdk);
}
