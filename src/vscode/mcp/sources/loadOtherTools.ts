/**
 * The readers of other tools' files, loaded once, when a tool is turned on or
 * the person lists them: in the extension the `require` below is rewritten by
 * esbuild.mjs to `require('./other-tools.js')`, a bundle of its own (with the
 * TOML parser), so activation never loads it; under tests it is a plain require.
 */
export type OtherToolReaders = typeof import('../../../core/mcpConfig/otherTools');

let loaded: OtherToolReaders | undefined;

export function loadOtherTools(): OtherToolReaders {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
  return (loaded ??= require('../../../core/mcpConfig/otherTools') as OtherToolReaders);
}
