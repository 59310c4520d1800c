/**
 * A server configured with `"sandboxEnabled": true` runs the way VS Code runs
 * it: through the sandbox runtime VS Code ships (`@vscode/sandbox-runtime`,
 * bubblewrap on Linux, sandbox-exec on macOS), with the file's `sandbox` rules
 * plus VS Code's defaults (writes to the server's folder and `~/.npm`, the npm
 * registry) in a settings file of its own. Where that runtime is missing, or on
 * Windows where VS Code has none, the server is not started: it never runs
 * without the sandbox it was configured with.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxRules, StdioServerConfig } from '../core/mcpConfig/serverConfig';

export interface SandboxRuntime {
  /** VS Code's install folder (`vscode.env.appRoot`), where its sandbox runtime is. */
  appRoot: string | undefined;
  /** The program that runs the runtime's script: the extension host's own (Electron runs as Node with ELECTRON_RUN_AS_NODE). */
  execPath: string;
  platform: NodeJS.Platform;
  arch: string;
  home: string;
  /** The base environment (PATH is extended with VS Code's ripgrep, which the runtime uses). */
  env: Readonly<Record<string, string | undefined>>;
}

/** VS Code's defaults, merged into every server's rules (McpSandboxService). */
const DEFAULT_ALLOWED_DOMAINS = ['registry.npmjs.org'];
const DEFAULT_ALLOW_WRITE = ['~/.npm'];

let settingsFolder: string | undefined;

/**
 * The launch that runs `launch` inside the sandbox: the runtime's CLI with a
 * settings file, then the command and its arguments, each shell-quoted as VS
 * Code does. Throws, naming why, where the sandbox cannot be had.
 */
export function sandboxedLaunch(
  name: string,
  launch: StdioServerConfig,
  rules: SandboxRules,
  folder: string | undefined,
  runtime: SandboxRuntime,
): StdioServerConfig {
  if (runtime.platform === 'win32') {
    throw new Error(
      'it is configured to run in a sandbox ("sandboxEnabled": true), and VS Code has no sandbox on Windows: it is not started',
    );
  }
  const cli = runtime.appRoot ? path.join(runtime.appRoot, 'node_modules', '@vscode', 'sandbox-runtime', 'dist', 'cli.js') : undefined;
  if (!cli || !existsSync(cli)) {
    throw new Error(
      'it is configured to run in a sandbox ("sandboxEnabled": true), and this VS Code has no sandbox runtime (@vscode/sandbox-runtime, VS Code 1.139 or later): it is not started',
    );
  }
  const workFolder = launch.cwd ?? folder;
  const settings = {
    network: {
      allowedDomains: [...new Set([...rules.network.allowedDomains, ...DEFAULT_ALLOWED_DOMAINS])],
      deniedDomains: rules.network.deniedDomains,
    },
    filesystem: {
      allowWrite: [...new Set([...rules.filesystem.allowWrite, ...DEFAULT_ALLOW_WRITE, ...(workFolder ? [workFolder] : [])])],
      denyRead: rules.filesystem.denyRead,
      denyWrite: rules.filesystem.denyWrite,
    },
  };
  settingsFolder ??= mkdtempSync(path.join(os.tmpdir(), 'elicit-mcp-sandbox-'));
  const id = createHash('sha256')
    .update(JSON.stringify([name, launch.command, launch.args, settings]))
    .digest('hex')
    .slice(0, 16);
  const settingsFile = path.join(settingsFolder, `settings-${id}.json`);
  writeFileSync(settingsFile, JSON.stringify(settings, null, 2), { mode: 0o600 });
  const ripgrep = path.join(runtime.appRoot!, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${runtime.platform}-${runtime.arch}`);
  const basePath = launch.env.PATH ?? runtime.env.PATH ?? '';
  return {
    ...launch,
    command: runtime.execPath,
    args: [cli, '--settings', settingsFile, '--', shellQuote(launch.command), ...launch.args.map(shellQuote)],
    env: {
      ...launch.env,
      ELECTRON_RUN_AS_NODE: '1',
      NODE_USE_ENV_PROXY: '1',
      ...(existsSync(ripgrep) ? { PATH: basePath ? `${basePath}${path.delimiter}${ripgrep}` : ripgrep } : {}),
    },
  };
}

/** One word for the runtime's shell: single quotes, a quote inside closed and escaped. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
