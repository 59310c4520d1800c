/**
 * Which of the person's MCP servers an agent session gets, and the `mcpServers`
 * entries of `session/new`, `session/load` and `session/resume` that offer them. Pure.
 *
 * The `elicit.agentServers` setting maps an agent's name (or `"*"`, every other agent) to
 * `"all"`, `"none"` or a list of server names. Unset, an agent gets all of them: the servers
 * the person configured are there for their agents, as in VS Code's own agent mode, and every
 * call goes through Elicit (its grants, sandbox and sign-ins), never as the server's own
 * configuration. A workspace's value can only narrow the user's: what both allow.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { isObject } from '../core/json';

export const AGENT_SERVERS_SOURCE = 'the elicit.agentServers setting';

export type ServerChoice = 'all' | 'none' | readonly string[];

export interface AgentServers {
  /** Elicit's names of the servers the session gets, in the registry's order. */
  servers: string[];
  /** Names the setting lists that no configured server has (said in the panel). */
  missing: string[];
  /** Why a value could not be read; such a value gives nothing. */
  problems: string[];
}

/** One scope's choice for this agent: its own entry, else `"*"`; undefined when the scope says nothing of it. */
function choiceIn(table: unknown, agent: string, scope: string, problems: string[]): ServerChoice | undefined {
  if (table === undefined || table === null) return undefined;
  if (!isObject(table)) {
    problems.push(`${AGENT_SERVERS_SOURCE} (${scope}): expected an object of agent names`);
    return 'none';
  }
  const key = Object.hasOwn(table, agent) ? agent : Object.hasOwn(table, '*') ? '*' : undefined;
  if (key === undefined) return undefined;
  const value = table[key];
  if (value === 'all' || value === 'none') return value;
  if (Array.isArray(value) && value.every((name) => typeof name === 'string')) return value as string[];
  problems.push(`${AGENT_SERVERS_SOURCE} (${scope}): "${key}" must be "all", "none" or a list of server names`);
  return 'none';
}

function allowed(choice: ServerChoice, name: string): boolean {
  return choice === 'all' || (choice !== 'none' && choice.includes(name));
}

/** The servers `agent` gets of `available` (Elicit's names), by the user's and the workspace's values of the setting. */
export function serversForAgent(
  agent: string,
  values: { user?: unknown; workspace?: unknown },
  available: readonly string[],
): AgentServers {
  const problems: string[] = [];
  const user = choiceIn(values.user, agent, 'User settings', problems) ?? 'all';
  const workspace = choiceIn(values.workspace, agent, 'Workspace settings', problems) ?? 'all';
  const listed = [user, workspace].flatMap((choice) => (Array.isArray(choice) ? (choice as string[]) : []));
  return {
    servers: available.filter((name) => allowed(user, name) && allowed(workspace, name)),
    missing: [...new Set(listed)].filter((name) => !available.includes(name)),
    problems,
  };
}

/** The command that runs the stdio bridge (src/gateway/stdioBridge.ts), for agents without MCP over HTTP. */
export interface BridgeCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** One server as offered: its name for the agent and its endpoint in Elicit. */
export interface OfferedServer {
  name: string;
  url: string;
}

/**
 * The `mcpServers` of a session: each server under its own name, as HTTP with the session's
 * token when the agent takes MCP over HTTP (`mcpCapabilities.http`), else as a stdio command
 * running the bridge to the same endpoint. `via` says which, for the panel.
 */
export function mcpServerEntries(
  init: acp.InitializeResponse | undefined,
  offered: readonly OfferedServer[],
  token: string,
  bridge: BridgeCommand | undefined,
): { servers: acp.McpServer[]; via: 'http' | 'stdio' | 'none' } {
  if (offered.length === 0) return { servers: [], via: 'none' };
  if (init?.agentCapabilities?.mcpCapabilities?.http === true) {
    return {
      via: 'http',
      servers: offered.map(({ name, url }) => ({
        type: 'http',
        name,
        url,
        headers: [{ name: 'Authorization', value: `Bearer ${token}` }],
      })),
    };
  }
  if (!bridge) return { servers: [], via: 'none' };
  return {
    via: 'stdio',
    servers: offered.map(({ name, url }) => ({
      name,
      command: bridge.command,
      args: bridge.args,
      env: Object.entries({ ...bridge.env, ELICIT_MCP_URL: url, ELICIT_MCP_TOKEN: token }).map(([key, value]) => ({ name: key, value })),
    })),
  };
}
