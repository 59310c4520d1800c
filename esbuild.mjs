// Two builds: the extension host (node, cjs, `vscode` external) and the
// webviews (browser: the form and the agent panel). `--production` minifies, `--watch` rebuilds on change.
import { readFile } from 'node:fs/promises';
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

const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // The MCP SDK ships ESM and CJS; prefer the module build so unused code is dropped.
    mainFields: ['module', 'main'],
  },
  {
    ...common,
    entryPoints: { form: 'webview/form/main.ts', agent: 'webview/agent/main.ts' },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // Each webview's stylesheet travels inside its script: one request fewer before the first paint.
    plugins: [cssAsText],
  },
];

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
