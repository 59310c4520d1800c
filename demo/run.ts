/**
 * `npm run demo`: builds the VSIX, installs it into a fresh real VS Code
 * (code-server, in your browser) and opens the demo workspace, whose
 * .vscode/mcp.json starts the song-sketch demo MCP server. Ctrl+C stops it.
 *
 *   npm run demo -- --port 8080     use a fixed port
 *   npm run demo -- --desktop       use the desktop `code` on PATH instead
 */
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { startCodeServer, repoRoot } from '../test/e2e/harness/codeServer';
import { builtVsix } from '../test/e2e/elicitSession';

const workspace = path.join(repoRoot, 'demo', 'workspace');
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? Number(args[portArg + 1]) : undefined;

function desktopCode(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

async function main(): Promise<void> {
  const vsix = builtVsix();
  const code = desktopCode();
  if (args.includes('--desktop')) {
    if (!code) throw new Error('no `code` command on PATH');
    spawnSync(code, ['--install-extension', vsix, '--force'], { stdio: 'inherit' });
    spawnSync(code, [workspace], { stdio: 'inherit' });
    return;
  }
  console.log('Starting a real VS Code (code-server) with Elicit installed… (the first run installs it: a few minutes)');
  const server = await startCodeServer({ vsixPaths: [vsix], workspaceDir: workspace, port, userSettings: {
      'git.openRepositoryInParentFolders': 'never',
      // The demo workspace's README says what to try.
      'workbench.startupEditor': 'readme',
    },
  });
  const bar = '─'.repeat(72);
  console.log(`\n${bar}\n  Elicit demo is running:  ${server.url}\n${bar}`);
  console.log('  Open it in a browser, then: Ctrl+Shift+P → "Elicit: Run MCP Tool" → song-sketch → a tool.');
  if (code) console.log(`  Desktop VS Code found (${code}): npm run demo -- --desktop`);
  console.log('  Press Ctrl+C to stop.\n');
  if (process.env.DISPLAY) spawn('xdg-open', [server.url], { stdio: 'ignore', detached: true }).on('error', () => undefined).unref();
  const stop = (): void => {
    void server.stop().then(() => server.removeDirs()).finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${(error as Error).message}`);
  process.exit(1);
});
