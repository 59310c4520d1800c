/**
 * Stopping every server when the extension deactivates (window reload, close).
 * stop() ends a stdio server's stdin and signals it only after a 2 s grace, but
 * the extension host may be gone by then: so every stdio server's process group
 * also gets SIGTERM at once, leaving no orphan behind.
 */
import type { McpConnection } from './connection';

export async function stopAllNow(connections: Iterable<McpConnection>): Promise<void> {
  const all = [...connections];
  for (const connection of all) connection.terminateNow();
  await Promise.all(all.map((c) => c.stop().catch(() => undefined)));
}
