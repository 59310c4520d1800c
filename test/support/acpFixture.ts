/**
 * The fixture ACP agent (test/fixtures/acp-agent.mjs) as an AcpConnection for
 * integration tests: a real process, with no person behind it (questions are
 * cancelled, permissions too). Every connection is stopped after the file.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { AgentConfig } from '../../src/acp/config';
import { AcpConnection, PERMISSION_CANCELLED, type AcpClientOptions } from '../../src/acp/connection';
import { CANCELLED } from '../../src/core/request';

export const agentFile = join(__dirname, '..', 'fixtures', 'acp-agent.mjs');

export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export function fixtureAgent(name: string, env: Record<string, string>): AgentConfig {
  return { name, command: process.execPath, args: [agentFile], env: { FIXTURE_NAME: name, ...env } };
}

const running: AcpConnection[] = [];
after(async () => {
  await Promise.all(running.map((c) => c.stop()));
});

/** A connection to the fixture (not started); `log` collects every line the client logs. */
export function fixtureConnection(
  agent: AgentConfig,
  workspace: string,
  options: Partial<AcpClientOptions> = {},
  log: string[] = [],
): AcpConnection {
  const connection = new AcpConnection(agent, {
    ask: async () => CANCELLED,
    permission: async () => PERMISSION_CANCELLED,
    readTextFile: async () => '',
    writeTextFile: async () => undefined,
    roots: () => [workspace],
    log: (line) => log.push(line),
    defaultCwd: workspace,
    ...options,
  });
  running.push(connection);
  return connection;
}
