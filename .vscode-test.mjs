// @vscode/test-cli configuration for contributors with a desktop VS Code and
// internet access: `npm run test:desktop` downloads VS Code and runs the
// extension-host suites in test/desktop. (CI, offline, uses code-server: test/e2e.)
import { defineConfig } from '@vscode/test-cli';

export default defineConfig({
  files: 'out/test/desktop/**/*.test.js',
  workspaceFolder: 'test/desktop/workspace',
  mocha: { ui: 'tdd', timeout: 60_000 },
});
