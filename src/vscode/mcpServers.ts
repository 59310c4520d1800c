/**
 * What features other than MCP's own need of the person's MCP servers: the
 * servers to offer agents and the gateway, a restart when a setting changes
 * what Elicit declares, and word of a change. The MCP feature keeps them
 * (mcp/serverRegistry.ts).
 */
import type * as vscode from 'vscode';
import type { McpConnection } from '../mcp/connection';

export interface McpServers {
  readonly onDidChange: vscode.Event<void>;
  servers(): Promise<McpConnection[]>;
  get(name: string): Promise<McpConnection | undefined>;
  /** Each server with the name agents see it by (the person's own servers keep theirs over a workspace's). */
  serversForAgents(): Promise<Array<{ agentName: string; server: McpConnection }>>;
  /** Names of the servers running now. */
  running(): string[];
  restart(name: string): Promise<void>;
}
