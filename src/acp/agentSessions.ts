/**
 * The session lifecycle an agent may offer beyond `session/new`: listing its
 * past sessions (`session/list`, paged), resuming one (`session/load` replays
 * the conversation, `session/resume` continues it without a replay), closing
 * one (`session/close`) and signing out (`logout`). Each is used only when the
 * agent declared it in `initialize`; a reopened session is given its MCP servers
 * again, as a new one is. No vscode import.
 */
import { waitAtMost } from '../core/time/delay';
import type * as acp from '@agentclientprotocol/sdk';
import type { AcpConnection } from './connection';

export interface AgentOffers {
  list: boolean;
  load: boolean;
  resume: boolean;
  close: boolean;
  logout: boolean;
}

export interface PastSession {
  sessionId: string;
  cwd: string;
  title?: string;
  /** ISO 8601, as the agent sent it. */
  updatedAt?: string;
}

/** Pages read at most: an agent that keeps sending cursors is cut off. */
const MAX_PAGES = 20;
/** How long closing a session may hold up stopping the agent. */
const CLOSE_WAIT_MS = 1500;

export function offersOf(init: acp.InitializeResponse | undefined): AgentOffers {
  const caps = init?.agentCapabilities;
  const session = caps?.sessionCapabilities;
  const declared = (value: unknown): boolean => typeof value === 'object' && value !== null;
  return {
    list: declared(session?.list),
    load: caps?.loadSession === true,
    resume: declared(session?.resume),
    close: declared(session?.close),
    logout: declared(caps?.auth?.logout),
  };
}

/** The agent's past sessions, newest first, read page by page. */
export async function listSessions(connection: AcpConnection, cwd?: string): Promise<PastSession[]> {
  const sessions: PastSession[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = await connection.request('session/list', {
      ...(cwd !== undefined ? { cwd } : {}),
      ...(cursor !== undefined ? { cursor } : {}),
    });
    for (const s of response.sessions ?? []) {
      if (typeof s?.sessionId !== 'string' || typeof s.cwd !== 'string' || sessions.some((known) => known.sessionId === s.sessionId))
        continue;
      const past: PastSession = { sessionId: s.sessionId, cwd: s.cwd };
      if (typeof s.title === 'string' && s.title.trim() !== '') past.title = s.title;
      if (typeof s.updatedAt === 'string') past.updatedAt = s.updatedAt;
      sessions.push(past);
    }
    const next = response.nextCursor;
    if (typeof next !== 'string' || next === '' || seenCursors.has(next)) break;
    seenCursors.add(next);
    cursor = next;
  }
  return sessions.sort((a, b) => timeOf(b) - timeOf(a));
}

/**
 * Opens a past session: `session/load` when the agent can (its replayed updates
 * refill the transcript), else `session/resume`. The answer may carry the modes.
 */
export async function reopenSession(
  connection: AcpConnection,
  sessionId: string,
  cwd: string,
  mcpServers: acp.McpServer[] = [],
): Promise<{ replayed: boolean; response: acp.LoadSessionResponse | acp.ResumeSessionResponse }> {
  const offers = offersOf(connection.initializeResponse);
  if (offers.load) return { replayed: true, response: await connection.loadSession(sessionId, cwd, mcpServers) };
  if (offers.resume) return { replayed: false, response: await connection.request('session/resume', { sessionId, cwd, mcpServers }) };
  throw new Error(`${connection.name} cannot resume sessions`);
}

/** `session/close` when offered; never waits long or throws: the agent is stopped next anyway. */
export async function closeSession(connection: AcpConnection, sessionId: string): Promise<boolean> {
  if (connection.status !== 'running' || !offersOf(connection.initializeResponse).close) return false;
  let closed = false;
  await waitAtMost(
    connection.request('session/close', { sessionId }).then(() => (closed = true)),
    CLOSE_WAIT_MS,
  );
  return closed;
}

/** `logout` when offered; rejects with the agent's reason. Returns whether it was sent. */
export async function logout(connection: AcpConnection): Promise<boolean> {
  if (connection.status !== 'running' || !offersOf(connection.initializeResponse).logout) return false;
  await connection.request('logout', {});
  return true;
}

function timeOf(session: PastSession): number {
  const t = session.updatedAt ? Date.parse(session.updatedAt) : NaN;
  return Number.isNaN(t) ? 0 : t;
}
