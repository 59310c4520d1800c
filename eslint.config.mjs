// Lint rules, including the layering rule: the pure core (src/core) and the
// protocol-level code (src/mcp, src/acp, src/gateway) never import `vscode` or
// touch the DOM, so they run and are tested in plain Node and can be shared
// with the webview; and the three protocol adapters do not import each other
// (what they share lives in src/core). Inside the VS Code layer (src/vscode) a
// feature folder imports no other feature folder and the shared files at its
// top level import no feature folder; no circle of imports in src/core or src/vscode.
import tseslint from 'typescript-eslint';
import featureFolders from './eslint-rules/featureFolders.mjs';
import noImportCycle from './eslint-rules/noImportCycle.mjs';

const ADAPTERS = ['mcp', 'acp', 'gateway'];

/** The layering rule for one folder of src: `adapter` names the protocol adapter it is, if any. */
const noVscodeNoDom = (adapter) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'vscode', message: 'The core is pure: no vscode import (wrap VS Code calls in src/vscode).' }],
      patterns: [
        { group: ['**/vscode/*', '../vscode/**'], message: 'The core must not depend on the VS Code layer.' },
        { group: ['**/webview/**'], message: 'The core must not depend on webview code.' },
        ...ADAPTERS.filter((other) => other !== adapter).map((other) => ({
          group: [`../${other}/*`, `../../${other}/*`],
          message: `src/${adapter ?? 'core'} must not import src/${other}: the protocol adapters are independent; move what they share to src/core.`,
        })),
      ],
    },
  ],
  'no-restricted-globals': [
    'error',
    ...['window', 'document', 'navigator', 'HTMLElement', 'customElements', 'localStorage', 'acquireVsCodeApi'].map((name) => ({
      name,
      message: 'The core is pure: no DOM globals.',
    })),
  ],
});

/** Modules that open files, sockets or processes: none of them in src/core, which is pure. */
const IO_MODULES = ['fs', 'fs/promises', 'net', 'tls', 'dgram', 'http', 'https', 'http2', 'child_process', 'worker_threads'];

/** The core's rule: the layering rule, and no I/O (sockets and files live in src/device, src/windows, src/process). */
const pureCore = (() => {
  const [level, options] = noVscodeNoDom(undefined)['no-restricted-imports'];
  const io = IO_MODULES.flatMap((name) => [name, `node:${name}`]).map((name) => ({
    name,
    message: 'src/core does no I/O: open files, sockets and processes in a node folder beside it (src/windows, src/device, src/process).',
  }));
  return { ...noVscodeNoDom(undefined), 'no-restricted-imports': [level, { ...options, paths: [...options.paths, ...io] }] };
})();

/**
 * Text from a server or agent never reaches V8's backtracking RegExp: a pattern from
 * elsewhere runs only through the bounded engine (src/core/form/linearPattern.ts), and
 * every ajv engine gets it as `code.regExp` (src/core/form/ajvPatterns.ts).
 */
const boundedPatternsOnly = {
  'no-restricted-syntax': [
    'error',
    ...['NewExpression', 'CallExpression'].map((node) => ({
      selector: `${node}[callee.name='RegExp']:not([arguments.0.type='Literal'])`,
      message: 'A RegExp built from a string backtracks: run the pattern with compilePattern() (src/core/form/fieldRules.ts).',
    })),
    {
      selector: "NewExpression[callee.name=/^Ajv(2019|2020)?$/]:not(:has(Property[key.name='regExp']))",
      message:
        'ajv runs schema patterns with V8 RegExp unless told: pass code: { regExp: boundedRegExp() } (src/core/form/ajvPatterns.ts).',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.vscode-test/**', 'out/**', '**/*.vsix', 'test/e2e/.runs/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    // Type-aware: a promise nobody awaits loses its rejection. `void` marks one left to run on
    // purpose, with a comment saying why where it is not obvious.
    files: ['src/**/*.ts', 'webview/**/*.ts', 'test/**/*.ts', 'demo/**/*.ts'],
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['demo/*.ts'] }, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's describe/it return promises the runner itself awaits.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
    },
  },
  { files: ['src/**/*.ts', 'webview/**/*.ts'], rules: boundedPatternsOnly },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'AbortSignal',
          property: 'any',
          message:
            'Node keeps something of every AbortSignal.any in its sources until they end: use joinSignals() and dispose it (src/core/joinSignals.ts).',
        },
      ],
    },
  },
  { files: ['src/process/**/*.ts', 'src/device/**/*.ts', 'src/windows/**/*.ts'], rules: noVscodeNoDom(undefined) },
  {
    files: ['src/core/**/*.ts'],
    plugins: { elicit: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { ...pureCore, 'elicit/no-import-cycle': ['error', { folder: 'src/core' }] },
  },
  ...ADAPTERS.map((adapter) => ({ files: [`src/${adapter}/**/*.ts`], rules: noVscodeNoDom(adapter) })),
  {
    // extension.ts, outside the folder, is the composition root: it alone wires one feature to another.
    files: ['src/vscode/**/*.ts'],
    plugins: { elicit: { rules: { 'no-import-cycle': noImportCycle, 'feature-folders': featureFolders } } },
    rules: {
      'elicit/no-import-cycle': ['error', { folder: 'src/vscode' }],
      'elicit/feature-folders': ['error', { folder: 'src/vscode' }],
    },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Webview code runs in a browser: no vscode import.' }] }],
    },
  },
  {
    // Test extensions are CommonJS, as VS Code loads them.
    files: ['test/fixtures/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', exports: 'writable', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs', 'test/**/*.ts'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', __dirname: 'readonly' } },
  },
);
