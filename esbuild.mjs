// The extension host (node, cjs, `vscode` external), the parts of it loaded
// only when first used (the MCP SDK, the gateway: bundles of their own), and
// the webviews (browser: the form and the agent panel). `--production`
// minifies, `--watch` rebuilds on change.
import { readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: 'none',
  logLevel: 'info',
  define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
};

/** `import styles from './styles.css'` gives the stylesheet as a string (minified in production). */
const cssAsText = {
  name: 'css-as-text',
  setup(build) {
    build.onLoad({ filter: /\.css$/ }, async (args) => {
      const { code } = await esbuild.transform(await readFile(args.path, 'utf8'), { loader: 'css', minify: production });
      return { contents: code, loader: 'text' };
    });
  },
};

/**
 * Loaded when first needed, from a bundle of its own in dist/: the extension's
 * `require('…/sdk')` becomes `require('./mcp-sdk.js')` (or `./acp-sdk.js`), so
 * activation never loads the MCP SDK, the ACP SDK, the gateway's server package or
 * the readers of other tools' files.
 */
const lazyBundles = {
  'src/mcp/sdk.ts': 'mcp-sdk',
  'src/acp/sdk.ts': 'acp-sdk',
  'src/gateway/gatewayServer.ts': 'gateway',
  'src/vscode/devices/deviceController.ts': 'devices',
  'src/core/mcpConfig/otherTools.ts': 'other-tools',
};

const loadLazily = {
  name: 'load-lazily',
  setup(build) {
    build.onResolve({ filter: /\/(sdk|gatewayServer|deviceController|otherTools)$/ }, (args) => {
      const file = path
        .relative(process.cwd(), path.resolve(args.resolveDir, `${args.path}.ts`))
        .split(path.sep)
        .join('/');
      const bundle = lazyBundles[file];
      return bundle ? { path: `./${bundle}.js`, external: true } : undefined;
    });
  },
};

/**
 * The MCP client SDK's platform shim, replaced by Elicit's (src/mcp/sdkShims.ts): its default
 * JSON Schema validator becomes the bounded-pattern one, and the SDK's own ajv is not bundled.
 */
const boundedSdkValidator = {
  name: 'bounded-sdk-validator',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({ path: path.resolve('src/mcp/sdkShims.ts') }));
  },
};

const node = {
  ...common,
  outdir: 'dist',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  // The MCP SDK ships ESM and CJS; prefer the module build so unused code is dropped.
  mainFields: ['module', 'main'],
};

const builds = [
  { ...node, entryPoints: { extension: 'src/extension.ts' }, plugins: [loadLazily] },
  {
    ...node,
    entryPoints: {
      ...Object.fromEntries(Object.entries(lazyBundles).map(([file, name]) => [name, file])),
      // Started as a worker thread by src/mcp/resultCheck/resultChecker.ts.
      'result-check-worker': 'src/mcp/resultCheck/worker.ts',
      // Run by an agent without MCP over HTTP, as each of its servers (src/gateway/stdioBridge.ts).
      'mcp-bridge': 'src/gateway/stdioBridge.ts',
    },
    plugins: [boundedSdkValidator],
  },
  {
    ...common,
    entryPoints: {
      form: 'webview/form/main.ts',
      agent: 'webview/agent/main.ts',
      phone: 'webview/phone/main.ts',
      pairing: 'webview/pairing/main.ts',
    },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // Each webview's stylesheet travels inside its script: one request fewer before the first paint.
    plugins: [cssAsText],
  },
];

// A bundle renamed or dropped would otherwise stay in dist/ and be packaged: start from nothing.
await rm('dist', { recursive: true, force: true });

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
