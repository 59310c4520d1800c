/**
 * Stopping every server when the extension deactivates (window reload, close).
 * The SDK closes a stdio server by ending its stdin and signals it only after
 * a 2 s grace, but the extension host may be gone by then: so every stdio
 * process also gets SIGTERM at once, leaving no orphan behind.
 */
import type { McpConnection } from './connection';

export async function stopAllNow(connections: Iterable<McpConnection>): Promise<void> {
  const all = [...connections];
  const pids = all.map((c) => c.pid).filter((pid): pid is number => pid !== undefined);
  const stopping = Promise.all(all.map((c) => c.stop().catch(() => undefined)));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  await stopping;
}
