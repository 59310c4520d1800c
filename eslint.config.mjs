// Lint rules, including the layering rule: the pure core (src/core) and the
// protocol-level MCP code (src/mcp) never import `vscode` or touch the DOM, so
// they run and are tested in plain Node and can be shared with the webview.
import tseslint from 'typescript-eslint';

const noVscodeNoDom = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'vscode', message: 'The core is pure: no vscode import (wrap VS Code calls in src/vscode).' }],
      patterns: [
        { group: ['**/vscode/*', '../vscode/**'], message: 'The core must not depend on the VS Code layer.' },
        { group: ['**/webview/**'], message: 'The core must not depend on webview code.' },
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
  { files: ['src/core/**/*.ts', 'src/mcp/**/*.ts', 'src/gateway/**/*.ts', 'src/acp/**/*.ts'], rules: noVscodeNoDom },
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
