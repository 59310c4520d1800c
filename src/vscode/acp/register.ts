/**
 * Elicit as an Agent Client Protocol client: **Elicit: New Agent Session**
 * picks an agent from `elicit.agents` and opens an agent panel for it in a
 * workspace folder; **Elicit: Resume Agent Session** reopens one of the agent's
 * past sessions. Agents never start in an untrusted workspace. Every panel
 * owns its agent process; closing the panel or the window ends it.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { SETTING, settings } from '../settings';
import { AGENTS_SETTING_SOURCE, parseAgents, type AgentConfig } from '../../acp/config';
import { GATEWAYS_SOURCE, parseAgentGateways } from '../../acp/modelGateway';
import type { AcpConnection } from '../../acp/connection';
import type { ConfigProblem } from '../../core/mcpConfig/serverConfig';
import type { Services } from '../services';
import { AGENT_VIEW_TYPE, savedSession } from '../../core/protocols/agentPanelProtocol';
import { inWorkspaceFolder, localFolders } from '../localFolders';
import type { AgentContext } from './agentConnection';
import { AgentKeys } from './agentKeys';
import { AgentServerOffers } from './agentServers';
import type { AgentPanel } from './agentPanel';
import { inertText } from '../../core/display';
import { KEPT_OPEN } from '../keptOpen';

type SessionParts = typeof import('./sessionParts');
let parts: SessionParts | undefined;

/** The sessions' host side, from its own bundle (see sessionParts.ts): loaded when the first session opens or is listed. */
function sessionParts(): SessionParts {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
  return (parts ??= require('./sessionParts') as SessionParts);
}

/**
 * Returns the saved agent keys, for Manage Saved Secrets, and the servers offered to sessions,
 * whose calls end as the window closes.
 */
export function registerAcp(context: vscode.ExtensionContext, services: Services): { keys: AgentKeys; servers: AgentServerOffers } {
  const keys = new AgentKeys(context.secrets, services.globalState, services.originKeyLoaded);
  const servers = new AgentServerOffers(services, context.extensionUri, String(context.extension.packageJSON?.version ?? '0.0.0'));
  const sessions = new AgentSessions(context, services, keys, servers);
  context.subscriptions.push(
    keys,
    servers,
    sessions,
    vscode.commands.registerCommand('elicit.newAgentSession', (agent?: unknown) =>
      sessions.newSession(typeof agent === 'string' ? agent : undefined),
    ),
    vscode.commands.registerCommand('elicit.resumeAgentSession', (agent?: unknown) =>
      sessions.resumeSession(typeof agent === 'string' ? agent : undefined),
    ),
    vscode.commands.registerCommand('elicit.chooseAgentServers', (agent?: unknown) => sessions.chooseServers(agent)),
    // After a reload VS Code brings agent tabs back; their agents start again and resume the session.
    vscode.window.registerWebviewPanelSerializer(AGENT_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => sessions.restore(panel, state),
    }),
  );
  return { keys, servers };
}

class AgentSessions implements vscode.Disposable {
  private readonly panels = new Set<AgentPanel>();
  private readonly logs = new Map<string, vscode.LogOutputChannel>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: Services,
    private readonly keys: AgentKeys,
    private readonly servers: AgentServerOffers,
  ) {}

  /** Which MCP servers an agent's next sessions get: the agent named, or one picked. */
  async chooseServers(requested: unknown): Promise<void> {
    const name =
      typeof requested === 'string'
        ? requested
        : (
            await this.pickAgent(
              this.configuredAgents(sessionFolder()?.uri.fsPath ?? os.homedir(), false),
              undefined,
              vscode.l10n.t('MCP Servers for an Agent'),
            )
          )?.name;
    if (name !== undefined) await this.servers.choose(name);
  }

  async newSession(requested?: string): Promise<void> {
    const chosen = await this.chooseAgent(requested, vscode.l10n.t('New Agent Session'));
    if (chosen) this.open(chosen.agent, chosen.folder);
  }

  /** Lists the agent's past sessions and reopens the one picked (or shows its tab when it is open). */
  async resumeSession(requested?: string): Promise<void> {
    const chosen = await this.chooseAgent(requested, vscode.l10n.t('Resume Agent Session'));
    if (!chosen) return;
    const { agent } = chosen;
    const picked = await sessionParts().pickPastSession(this.agentContext(agent, chosen.folder));
    if (!picked) return;
    const open = [...this.panels].find((p) => p.agentName === agent.name && p.currentSession === picked.session.sessionId);
    if (open) {
      await picked.connection.stop();
      open.reveal();
      return;
    }
    this.open(agent, picked.session.cwd, { resume: { sessionId: picked.session.sessionId, why: 'picked' }, started: picked.connection });
  }

  /** The agent to start and the folder it works in; undefined (having said why) in an untrusted or folderless window. */
  private async chooseAgent(requested: string | undefined, title: string): Promise<{ agent: AgentConfig; folder: string } | undefined> {
    if (!vscode.workspace.isTrusted) {
      await this.refuseUntrusted();
      return undefined;
    }
    const folder = sessionFolder();
    if (!folder) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Open a folder first: an agent session works in a workspace folder.'));
      return undefined;
    }
    const agent = await this.pickAgent(this.configuredAgents(folder.uri.fsPath, true), requested, title);
    return agent && { agent, folder: folder.uri.fsPath };
  }

  /** A tab VS Code restored after a reload: the same agent, folder and (when it can) session. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = savedSession(state);
    if (!saved) {
      panel.dispose(); // from before the session opened: nothing to resume
      return;
    }
    if (!vscode.workspace.isTrusted) {
      panel.dispose();
      return this.refuseUntrusted();
    }
    // The state comes from the webview: its folder must still be in this window.
    if (!inWorkspaceFolder(saved.cwd)) {
      panel.dispose();
      void vscode.window.showWarningMessage(
        inertText(
          vscode.l10n.t('Elicit: {0} is no longer a folder of this window, so the "{1}" session was not resumed.', saved.cwd, saved.agent),
        ),
      );
      return;
    }
    const agent = this.configuredAgents(saved.cwd, false).find((a) => a.name === saved.agent);
    if (!agent) {
      panel.dispose();
      void vscode.window.showWarningMessage(
        inertText(
          vscode.l10n.t('Elicit: the agent "{0}" is no longer in {1}, so its session was not resumed.', saved.agent, AGENTS_SETTING_SOURCE),
        ),
      );
      return;
    }
    this.open(agent, saved.cwd, {
      panel,
      ...(saved.sessionId !== undefined ? { resume: { sessionId: saved.sessionId, why: 'reload' as const } } : {}),
    });
  }

  private async refuseUntrusted(): Promise<void> {
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Elicit starts agents only in a trusted workspace: an agent runs commands and edits files.'),
      vscode.l10n.t('Manage Workspace Trust'),
    );
    if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
  }

  /** `elicit.agents` with variables resolved for `folder`; problems reported when asked to. */
  private configuredAgents(folder: string, reportProblems: boolean): AgentConfig[] {
    const vars = { workspaceFolder: folder, userHome: os.homedir(), env: process.env };
    const agents: AgentConfig[] = [];
    const problems: ConfigProblem[] = [];
    const gateways = parseAgentGateways(settings.agentGateways());
    problems.push(...gateways.problems.map((problem) => ({ source: GATEWAYS_SOURCE, message: `${GATEWAYS_SOURCE}: ${problem}` })));
    // Each scope apart (settings.ts): a workspace's entry of the same name is another agent, "name (2)".
    for (const table of settings.agents()) {
      const parsed = parseAgents(table.value, vars, table.source, table.file);
      const taken = new Set(agents.map((a) => a.name));
      for (const agent of parsed.agents) {
        // The user's gateway (and the key typed for it) goes to the user's own agent only, never to a workspace's.
        const gateway = table.scope === 'user' ? gateways.urls.get(agent.name) : undefined;
        const named = taken.has(agent.name) ? { ...agent, name: `${agent.name} (2)` } : agent;
        agents.push(gateway === undefined ? named : { ...named, gateway });
      }
      problems.push(...parsed.problems);
    }
    if (reportProblems) {
      for (const problem of problems) {
        this.services.log.error(problem.message);
        void this.offerSettings(vscode.window.showErrorMessage(inertText(vscode.l10n.t('Elicit: {0}', problem.message)), openSettings()));
      }
    }
    return agents;
  }

  private async pickAgent(agents: AgentConfig[], requested: string | undefined, title: string): Promise<AgentConfig | undefined> {
    if (requested !== undefined) {
      const found = agents.find((a) => a.name === requested);
      if (!found)
        void vscode.window.showErrorMessage(
          inertText(vscode.l10n.t('Elicit: no agent named "{0}" in {1}.', requested, AGENTS_SETTING_SOURCE)),
        );
      return found;
    }
    if (agents.length === 0) {
      void this.offerSettings(
        vscode.window.showInformationMessage(
          vscode.l10n.t('Elicit: no agents are configured. Add one to the elicit.agents setting.'),
          openSettings(),
        ),
      );
      return undefined;
    }
    if (agents.length === 1) return agents[0];
    const picked = await vscode.window.showQuickPick(
      agents.map((agent) => ({ label: inertText(agent.name), description: inertText([agent.command, ...agent.args].join(' ')), agent })),
      { title: inertText(title), placeHolder: vscode.l10n.t('Pick an agent'), matchOnDescription: true, ...KEPT_OPEN },
    );
    return picked?.agent;
  }

  private agentContext(agent: AgentConfig, cwd: string): AgentContext {
    return {
      agent,
      services: this.services,
      keys: this.keys,
      cwd,
      log: this.agentLog(agent.name),
      clientVersion: String(this.context.extension.packageJSON?.version ?? '0.0.0'),
      servers: this.servers,
    };
  }

  private open(
    agent: AgentConfig,
    cwd: string,
    restored?: { panel?: vscode.WebviewPanel; resume?: { sessionId: string; why: 'reload' | 'picked' }; started?: AcpConnection },
  ): void {
    const same = [...this.panels].filter((p) => p.agentName === agent.name).length;
    const { AgentPanel: Panel } = sessionParts();
    const panel = new Panel({
      ...this.agentContext(agent, cwd),
      extensionUri: this.context.extensionUri,
      title: same === 0 ? agent.name : `${agent.name} (${same + 1})`,
      // Sessions open side by side: the first in the active group, later ones beside it.
      column: this.panels.size === 0 ? vscode.ViewColumn.Active : vscode.ViewColumn.Beside,
      ...restored,
    });
    this.panels.add(panel);
    panel.onDidDispose(() => this.panels.delete(panel));
  }

  private agentLog(name: string): vscode.LogOutputChannel {
    let channel = this.logs.get(name);
    if (!channel) {
      channel = vscode.window.createOutputChannel(vscode.l10n.t('Elicit agent: {0}', name), { log: true });
      this.logs.set(name, channel);
    }
    return channel;
  }

  private async offerSettings(choice: Thenable<string | undefined>): Promise<void> {
    if ((await choice) === openSettings()) void vscode.commands.executeCommand('workbench.action.openSettings', SETTING.agents);
  }

  /** Deactivation (reload, window closed): the agents end, their sessions stay resumable. */
  dispose(): void {
    for (const panel of [...this.panels]) panel.shutdown();
    this.panels.clear();
    for (const channel of this.logs.values()) channel.dispose();
    this.logs.clear();
  }
}

/** The button of the messages about `elicit.agents`. */
function openSettings(): string {
  return vscode.l10n.t('Open Settings');
}

/** The folder of the active editor's file, else the first local workspace folder. */
function sessionFolder(): vscode.WorkspaceFolder | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  if (folder?.uri.scheme === 'file') return folder;
  return localFolders()[0];
}
