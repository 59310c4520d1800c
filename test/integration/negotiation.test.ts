/**
 * Choosing the MCP revision per server: Elicit probes with `server/discover`
 * (2026-07-28) and falls back to the 2025 `initialize` handshake. Hand-written
 * 2025-era stdio servers that exit on, or never answer, a request before
 * `initialize` still start and work.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { McpConnection } from '../../src/mcp/connection';
import { fixture, stdioServer, textOf } from '../support/mcpServers';

const server = fixture('strict-legacy-server.mjs');
const opened: McpConnection[] = [];
after(() => Promise.all(opened.map((c) => c.stop())));

function connect(strict: 'exit' | 'silent'): { connection: McpConnection; logs: string[] } {
  const logs: string[] = [];
  const connection = new McpConnection(stdioServer(`strict-${strict}`, server, { STRICT: strict }), {
    ask: () => Promise.reject(new Error('nothing is asked')),
    log: (line) => logs.push(line),
    stdioProbeTimeoutMs: 500,
  });
  opened.push(connection);
  return { connection, logs };
}

describe('revision negotiation with strict 2025-era stdio servers', () => {
  it('a server that exits when probed is started again and spoken to in 2025-era MCP', async () => {
    const { connection, logs } = connect('exit');
    const result = await connection.callTool('hello', {});
    assert.equal(textOf(result), 'hello from a strict 2025-era server');
    assert.equal(connection.protocolVersion, '2025-06-18');
    assert.ok(
      logs.some((l) => l.includes('the server exited when asked which MCP revisions it speaks')),
      JSON.stringify(logs),
    );
  });

  it('a server that stays silent when probed is taken for a 2025-era server after the probe timeout', async () => {
    const { connection } = connect('silent');
    const result = await connection.callTool('hello', {});
    assert.equal(textOf(result), 'hello from a strict 2025-era server');
    assert.equal(connection.protocolVersion, '2025-06-18');
  });
});
