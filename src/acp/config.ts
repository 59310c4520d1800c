/**
 * The `elicit.agents` setting: `{ "<name>": { command, args, env, cwd } }`,
 * the same shape as a stdio entry of mcp.json (and the same `${workspaceFolder}`,
 * `${userHome}`, `${env:NAME}` substitution). Pure: value in, agents and problems out.
 */
import { destinationOrigin, type Destination } from '../core/origin';
import { parseServerTable, type ConfigProblem, type VariableContext } from '../core/mcpConfig/serverConfig';
import { isObject } from '../core/json';

export interface AgentConfig {
  /** The key in `elicit.agents`; shown as the asker's name. */
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** The settings file (and setting) it comes from: user and workspace entries are apart (see agentOrigin). */
  file?: string;
  /**
   * The person's model gateway for this agent (`elicit.agentGateways`, user settings only; modelGateway.ts):
   * Elicit then offers the agent's gateway sign-in, and the key typed for it goes to this URL.
   */
  gateway?: string;
}

export const AGENTS_SETTING_SOURCE = 'the elicit.agents setting';

/**
 * Where an agent's saved answers and sign-in keys may go: its settings file,
 * command, args, env and cwd (core/origin.ts), and the gateway URL its model
 * requests go to. A workspace that adds `NODE_OPTIONS` to an agent, or an entry
 * of the same name, is another destination; so is another gateway URL.
 */
export function agentOrigin(agent: AgentConfig): string {
  const destination: Destination = { file: agent.file ?? AGENTS_SETTING_SOURCE, command: agent.command, args: agent.args, env: agent.env };
  if (agent.cwd !== undefined) destination.cwd = agent.cwd;
  if (agent.gateway !== undefined) destination.url = agent.gateway;
  return destinationOrigin(destination);
}

export function parseAgents(
  value: unknown,
  vars: VariableContext,
  source = AGENTS_SETTING_SOURCE,
  file?: string,
): { agents: AgentConfig[]; problems: ConfigProblem[] } {
  if (value === undefined || value === null) return { agents: [], problems: [] };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { agents: [], problems: [{ source, message: `${source}: expected an object of named agents` }] };
  }
  const agents: AgentConfig[] = [];
  const problems: ConfigProblem[] = [];
  const table: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    // Agents are always local processes: an entry without a type is a command.
    if (isObject(entry) && 'url' in entry) {
      problems.push({
        source,
        server: name,
        message: `${source}: agent "${name}": agents run as local processes; give a "command", not a "url"`,
      });
      continue;
    }
    table[name] = isObject(entry) ? { ...entry, type: 'stdio' } : entry;
  }
  const parsed = parseServerTable(table, source, vars);
  for (const problem of parsed.problems) {
    problems.push({ ...problem, message: problem.message.replace(`${source}: server "`, `${source}: agent "`) });
  }
  for (const server of parsed.servers) {
    const t = server.transport;
    if (t.type !== 'stdio') continue;
    const agent: AgentConfig = { name: server.name, command: t.command, args: t.args, env: t.env };
    if (t.cwd !== undefined) agent.cwd = t.cwd;
    if (file !== undefined) agent.file = file;
    agents.push(agent);
  }
  return { agents, problems };
}
