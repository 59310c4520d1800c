// The extension host (node, cjs, `vscode` external), the parts of it loaded
// only when first used (bundles of their own: `lazyBundles`), and
// the webviews (browser: the form and the agent panel). `--production`
// minifies, `--watch` rebuilds on change, `--analyze` lists what each bundle
// holds, largest first (with --production: the sizes as shipped).
import { realpathSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const analyze = process.argv.includes('--analyze');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: 'none',
  logLevel: 'info',
  metafile: analyze,
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
 * Parts loaded when first needed, each from a bundle of its own in dist/, so activation never
 * loads them: the MCP SDK (when the first server starts), the ACP SDK and the agent sessions'
 * host side (the first agent session), the gateway's server package, the phone server, the
 * readers of other tools' files, and ajv (the first answer checked). A part's entry file is
 * reached only through a `require()` where it is first used (a loader such as src/mcp/loadSdk.ts);
 * the plugin below rewrites that require to the bundle's file, in every node bundle, so a lazy
 * bundle needing another shares it instead of carrying a copy.
 */
const lazyBundles = {
  'src/mcp/sdk.ts': 'mcp-sdk',
  'src/acp/sdk.ts': 'acp-sdk',
  'src/gateway/gatewayServer.ts': 'gateway',
  'src/vscode/devices/deviceController.ts': 'devices',
  'src/core/mcpConfig/otherTools.ts': 'other-tools',
  'src/core/form/ajvChecks.ts': 'ajv-checks',
  'src/vscode/acp/sessionParts.ts': 'agent-sessions',
};

/**
 * Modules that hold the host's own state (the HMAC key of every origin, the one watchdog of
 * process groups), used by extension.js and by lazy bundles: each is a file of its own that
 * every bundle requires, so node loads it once and all share one key and one watchdog. They
 * may be imported anywhere; extension.js loads them at activation.
 */
const sharedBundles = {
  'src/core/origin.ts': 'origin',
  'src/process/hostWatchdog.ts': 'host-watchdog',
};

const ownBundles = { ...lazyBundles, ...sharedBundles };
const ownNames = [...new Set(Object.keys(ownBundles).map((file) => path.basename(file, '.ts')))];
// By real path: esbuild gives the importer's folder with links resolved (test/integration/build.test.ts builds through links).
const ownFiles = new Map(Object.keys(ownBundles).map((file) => [realpathSync(file), file]));

const loadLazily = {
  name: 'load-lazily',
  setup(build) {
    build.onResolve({ filter: new RegExp(`/(${ownNames.join('|')})$`) }, (args) => {
      const file = ownFiles.get(path.resolve(args.resolveDir, `${args.path}.ts`));
      if (file === undefined || args.kind === 'entry-point') return undefined;
      const bundle = ownBundles[file];
      // An `import` would load a lazy bundle with whatever imports it: for extension.js, at activation.
      if (lazyBundles[file] && args.kind !== 'require-call') {
        return { errors: [{ text: `${file} is loaded lazily (dist/${bundle}.js): require() it where it is first needed` }] };
      }
      return { path: `./${bundle}.js`, external: true };
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
      ...Object.fromEntries(Object.entries(ownBundles).map(([file, name]) => [name, file])),
      // Started as a worker thread by src/mcp/resultCheck/resultChecker.ts.
      'result-check-worker': 'src/mcp/resultCheck/worker.ts',
      // Run by an agent without MCP over HTTP, as each of its servers (src/gateway/stdioBridge.ts).
      'mcp-bridge': 'src/gateway/stdioBridge.ts',
    },
    plugins: [loadLazily, boundedSdkValidator],
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
  const results = await Promise.all(builds.map((options) => esbuild.build(options)));
  if (analyze) for (const { metafile } of results) console.log(await esbuild.analyzeMetafile(metafile));
}
