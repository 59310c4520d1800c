/**
 * The Node 22 binary for agents that declare Node >= 22 (claude-agent-acp
 * 0.101): the one test/conformance/install-node22.sh installs into
 * .vscode-test/node22 on first use. The rest of the suite runs on this project's Node.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const script = join(__dirname, '..', 'conformance', 'install-node22.sh');

export function node22Binary(): string {
  return execFileSync('bash', [script, '--node-only'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}
