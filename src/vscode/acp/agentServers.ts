/**
 * The person's MCP servers for the agent sessions of this window: which servers an
 * agent gets (`elicit.agentServers`, acp/agentServers.ts), the loopback endpoints that serve
 * them (gateway/agentEndpoints.ts, started on the first session that gets a server), a grant
 * per session, and the `mcpServers` entries that carry it. Every call goes through the
 * registry's own connection to the server; its questions name the agent and session.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { mcpServerEntries, serversForAgent, type BridgeCommand } from '../../acp/agentServers';
import type { AgentConfig } from '../../acp/config';
import type { AgentEndpoints, SessionGrant } from '../../gateway/agentEndpoints';
import { errorText } from '../../core/errors';
import { inertText } from '../../core/display';
import { settings } from '../settings';
import type { Services } from '../services';
import { KEPT_OPEN } from '../keptOpen';

/** What an agent's call still running gets as the window closes or reloads. */
export const WINDOW_CLOSED_FOR_AGENT =
  'The VS Code window closed or reloaded before this call ended, so Elicit stopped it. A question the server asked stays in Elicit, where the person may still answer it; do not call the tool again unless the person asks.';

/** One session's servers, as offered. */
export interface OfferedServers {
  /** Elicit's names of the servers the session has (empty: none). */
  servers: string[];
  /** How the agent reaches them. */
  via: 'http' | 'stdio' | 'none';
  /** Names the setting lists that no configured server has. */
  missing: string[];
  entries: acp.McpServer[];
  grant?: SessionGrant;
}

export class AgentServerOffers implements vscode.Disposable {
  private endpoints: Promise<AgentEndpoints> | undefined;

  constructor(
    private readonly services: Services,
    private readonly extensionUri: vscode.Uri,
    private readonly version: string,
  ) {}

  /**
   * The servers one session of `agent` gets, with a new grant (revoke it when the session
   * ends). `caller` names the agent and session on the servers' questions.
   */
  async offer(agent: AgentConfig, init: acp.InitializeResponse | undefined, caller: () => string): Promise<OfferedServers> {
    // Each by the name agents see it by: the person's own servers keep theirs over a workspace's (registry.serversForAgents).
    const all = await this.services.registry.serversForAgents();
    const agentNames = new Map(all.map(({ agentName, server }) => [server.name, agentName]));
    const chosen = serversForAgent(agent.name, settings.agentServers(), [...agentNames.keys()]);
    for (const problem of chosen.problems) this.services.log.warn(problem);
    if (chosen.servers.length === 0) return { servers: [], via: 'none', missing: chosen.missing, entries: [] };
    let endpoints: AgentEndpoints;
    try {
      endpoints = await this.start();
    } catch (error) {
      this.services.log.error(`agent MCP endpoints could not start: ${errorText(error)}`);
      return { servers: [], via: 'none', missing: chosen.missing, entries: [] };
    }
    const grant = endpoints.grant(
      chosen.servers.map((server) => ({ name: agentNames.get(server) ?? server, server })),
      caller,
    );
    const { servers: entries, via } = mcpServerEntries(init, grant.endpoints, grant.token, this.bridge());
    if (via === 'none') {
      grant.revoke();
      return { servers: [], via, missing: chosen.missing, entries: [] };
    }
    return { servers: chosen.servers, via, missing: chosen.missing, entries, grant };
  }

  /** The person picks the servers `agent`'s next sessions get; written to its entry of `elicit.agentServers` in the user settings. */
  async choose(agent: string): Promise<void> {
    const available = (await this.services.registry.servers()).map((server) => server.name);
    if (available.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Elicit has no MCP servers configured to give an agent.'));
      return;
    }
    const inspected = vscode.workspace.getConfiguration('elicit').inspect<Record<string, unknown>>('agentServers');
    const user = { ...(inspected?.globalValue ?? {}) };
    const current = serversForAgent(agent, { user }, available).servers;
    const picked = await vscode.window.showQuickPick(
      available.map((name) => ({ label: inertText(name), picked: current.includes(name), name })),
      {
        canPickMany: true,
        title: inertText(vscode.l10n.t('MCP Servers for {0}', agent)),
        placeHolder: vscode.l10n.t('The servers its next sessions get (calls go through Elicit; their questions come to you)'),
        ...KEPT_OPEN,
      },
    );
    if (!picked) return;
    const names = picked.map((item) => item.name);
    user[agent] = names.length === available.length ? 'all' : names.length === 0 ? 'none' : names;
    await vscode.workspace.getConfiguration('elicit').update('agentServers', user, vscode.ConfigurationTarget.Global);
    const given = names.length === 0 ? vscode.l10n.t('no MCP servers') : names.join(', ');
    void vscode.window.showInformationMessage(inertText(vscode.l10n.t('{0} gets {1} from its next session on.', agent, given)));
  }

  /** As the window closes: every session's calls end, saying why. */
  async closeWithWindow(): Promise<void> {
    const endpoints = await this.endpoints?.catch(() => undefined);
    await endpoints?.stop(WINDOW_CLOSED_FOR_AGENT);
  }

  /** The loopback endpoints, started once (their server package loads with the gateway's bundle). */
  private start(): Promise<AgentEndpoints> {
    this.endpoints ??= (async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
      const { AgentEndpoints } = require('../../gateway/gatewayServer') as typeof import('../../gateway/gatewayServer');
      const registry = this.services.registry;
      const endpoints = new AgentEndpoints({
        version: this.version,
        log: (line) => this.services.log.info(line),
        upstream: {
          list: async (name) => (await registry.get(name))?.listTools() ?? [],
          call: async (name, tool, args, signal, caller) => {
            const server = await registry.get(name);
            if (!server) return { content: [{ type: 'text', text: `No server named ${name} is configured in Elicit now` }], isError: true };
            // Kept across a reload like the person's own calls: the person is there to answer, and the result then opens for them.
            return server.callTool(tool, args, signal, undefined, { caller });
          },
        },
      });
      await endpoints.start();
      return endpoints;
    })();
    void this.endpoints.catch(() => (this.endpoints = undefined));
    return this.endpoints;
  }

  /** The bridge for agents without MCP over HTTP: this host's Node (VS Code's, run as Node) and the shipped script. */
  private bridge(): BridgeCommand {
    return {
      command: process.execPath,
      args: [path.join(this.extensionUri.fsPath, 'dist', 'mcp-bridge.js')],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    };
  }

  dispose(): void {
    void this.endpoints?.then((endpoints) => endpoints.stop()).catch(() => undefined);
    this.endpoints = undefined;
  }
}
