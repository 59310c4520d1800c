/**
 * The MCP Servers view: each configured server with its status (starting,
 * running, error with its text, stopped), and under it what it offers —
 * tools, prompts, resources — listed when the server is expanded (which starts
 * it). Configuration problems show at the top with the file to open.
 */
import * as vscode from 'vscode';
import { taskStatusText, tasksSummary } from './taskStatus';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../mcp/types';
import { inertText, oneLine } from '../../core/display';
import type { ConfigProblem } from '../../core/mcpConfig/serverConfig';
import { listPrompts, listResources, listResourceTemplates } from '../../mcp/catalog';
import type { McpConnection } from '../../mcp/connection';
import { statusWord } from './serverPicker';
import type { ServerRegistry } from './serverRegistry';
import { sharedSourceLabel } from '../../core/mcpConfig/configSources';
import { errorText } from '../../core/errors';
import { treeRedraw } from '../treeRedraw';
import { RenewedTreeView } from '../renewedTreeView';

export const SERVERS_VIEW = 'elicit.servers';

export type ServerNode = { kind: 'server'; name: string };
type GroupNode = { kind: 'group'; server: string; group: 'tools' | 'prompts' | 'resources'; count: number };
export type ToolNode = { kind: 'tool'; server: string; tool: Tool };
export type PromptNode = { kind: 'prompt'; server: string; prompt: Prompt };
export type ResourceNode =
  { kind: 'resource'; server: string; resource: Resource } | { kind: 'template'; server: string; template: ResourceTemplate };
type MessageNode = { kind: 'message'; text: string; tooltip?: string; icon: string; command?: vscode.Command };
type ProblemNode = { kind: 'problem'; problem: ConfigProblem };
export type ServersViewNode = ServerNode | GroupNode | ToolNode | PromptNode | ResourceNode | MessageNode | ProblemNode;

interface Catalog {
  tools: Tool[];
  prompts: Prompt[];
  resources: Array<{ resource: Resource } | { template: ResourceTemplate }>;
}

export class ServersView implements vscode.TreeDataProvider<ServersViewNode>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<ServersViewNode | ServersViewNode[] | undefined>();
  /** Servers' changes come in bursts (fifty starting, a task's status). */
  private readonly redraw = treeRedraw(
    () => this.redrawChanged(),
    () => this.serverNodes.size,
  );
  /** The top of the list as last drawn (problems, notices, server names) and each server's row: a redraw sends only what changed. */
  private drawnRoots: string | undefined;
  private readonly drawnRows = new Map<string, string>();
  readonly onDidChangeTreeData = this.changes.event;
  private readonly catalogs = new Map<string, Promise<Catalog>>();
  /** Servers the person stopped: expanding the view must not start them again behind their back. */
  private readonly stoppedByPerson = new Set<string>();
  private readonly serverNodes = new Map<string, ServerNode>();
  private readonly disposables: vscode.Disposable[] = [];
  private countdown: ReturnType<typeof setInterval> | undefined;
  readonly view: RenewedTreeView<ServersViewNode>;

  constructor(private readonly registry: ServerRegistry) {
    this.view = new RenewedTreeView(SERVERS_VIEW, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.changes,
      this.view,
      registry.onDidChange(() => this.refresh()),
    );
  }

  /** Forget listed tools and redraw (after a status change, or the Refresh button). */
  refresh(): void {
    for (const [name] of this.catalogs) {
      const status = this.statusOf(name);
      if (status !== 'running' && status !== 'starting') this.catalogs.delete(name);
    }
    this.redraw.request();
    this.updateCountdown();
  }

  /**
   * Draws again what changed since the last drawing: the whole list when its top changed (a server
   * added or gone, a problem), else only the servers whose row reads differently (with what is
   * under them). VS Code's host keeps part of every row it is given (renewedTreeView.ts), and at
   * fifty servers one restarting counts down every second.
   */
  private redrawChanged(): void {
    this.view.renewIfDue();
    if (this.rootsKey(this.registryConnections().map((c) => c.name)) !== this.drawnRoots) {
      this.changes.fire(undefined);
      return;
    }
    const changed = [...this.serverNodes.values()].filter((node) => this.drawnRows.get(node.name) !== rowKey(this.serverItem(node.name)));
    if (changed.length > 0) this.changes.fire(changed);
  }

  private rootsKey(names: readonly string[]): string {
    const problems = this.registry.problems.map((p) => `${p.server ?? ''}:${p.message}`);
    return JSON.stringify([problems, this.registry.untrustedSources, names]);
  }

  /** Drops every cached list: the next expand lists again. */
  reload(): void {
    this.catalogs.clear();
    this.changes.fire(undefined);
  }

  markStopped(name: string, stopped: boolean): void {
    if (stopped) this.stoppedByPerson.add(name);
    else this.stoppedByPerson.delete(name);
    this.catalogs.delete(name);
    this.changes.fire(undefined);
  }

  async getChildren(node?: ServersViewNode): Promise<ServersViewNode[]> {
    const children = await this.childrenOf(node);
    this.view.made(children.length);
    return children;
  }

  private async childrenOf(node?: ServersViewNode): Promise<ServersViewNode[]> {
    if (!node) return this.roots();
    if (node.kind === 'server') return this.serverChildren(node.name);
    if (node.kind === 'group') {
      const catalog = await this.catalogs.get(node.server);
      if (!catalog) return [];
      if (node.group === 'tools') return catalog.tools.map((tool) => ({ kind: 'tool', server: node.server, tool }));
      if (node.group === 'prompts') return catalog.prompts.map((prompt) => ({ kind: 'prompt', server: node.server, prompt }));
      return catalog.resources.map((r) =>
        'resource' in r
          ? { kind: 'resource', server: node.server, resource: r.resource }
          : { kind: 'template', server: node.server, template: r.template },
      );
    }
    return [];
  }

  getTreeItem(node: ServersViewNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server': {
        const item = this.serverItem(node.name);
        this.drawnRows.set(node.name, rowKey(item));
        return item;
      }
      case 'group':
        return groupItem(node);
      case 'tool':
        return toolItem(node);
      case 'prompt':
        return promptItem(node);
      case 'resource':
      case 'template':
        return resourceItem(node);
      case 'message': {
        const item = new vscode.TreeItem(inertText(node.text));
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.tooltip = node.tooltip === undefined ? undefined : inertText(node.tooltip);
        item.command = node.command;
        return item;
      }
      case 'problem': {
        const item = new vscode.TreeItem(
          node.problem.server
            ? inertText(vscode.l10n.t('{0}: configuration problem', oneLine(node.problem.server, 80)))
            : vscode.l10n.t('Configuration problem'),
        );
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        item.description = inertText(oneLine(node.problem.message, 200));
        item.tooltip = inertText(node.problem.message);
        item.contextValue = 'configProblem';
        item.command = { command: 'elicit.openServerConfig', title: vscode.l10n.t('Open Configuration'), arguments: [node.problem.source] };
        return item;
      }
    }
  }

  dispose(): void {
    this.redraw.dispose();
    if (this.countdown) clearInterval(this.countdown);
    for (const d of this.disposables) d.dispose();
  }

  private async roots(): Promise<ServersViewNode[]> {
    const servers = await this.registry.servers();
    const problems: ServersViewNode[] = this.registry.problems.map((problem) => ({ kind: 'problem', problem }));
    const untrusted: ServersViewNode[] = this.registry.untrustedSources.map((source) => ({
      kind: 'message',
      text: vscode.l10n.t('Servers in {0} are not started: this workspace is not trusted', source),
      icon: 'shield',
      command: { command: 'workbench.trust.manage', title: vscode.l10n.t('Manage Workspace Trust') },
    }));
    this.drawnRoots = this.rootsKey(servers.map((s) => s.name));
    // Stable node objects per name keep the tree's expansion state across refreshes.
    const names = new Set(servers.map((s) => s.name));
    for (const name of this.serverNodes.keys()) if (!names.has(name)) this.serverNodes.delete(name);
    for (const name of this.drawnRows.keys()) if (!names.has(name)) this.drawnRows.delete(name);
    const nodes = servers.map((server) => {
      let node = this.serverNodes.get(server.name);
      if (!node) this.serverNodes.set(server.name, (node = { kind: 'server', name: server.name }));
      return node;
    });
    // No servers and no problems: the welcome content shows instead.
    return [...problems, ...untrusted, ...nodes];
  }

  private async serverChildren(name: string): Promise<ServersViewNode[]> {
    const server = await this.registry.get(name);
    if (!server) return [];
    const notes = configNotes(server);
    if (server.config.notStarted) return notes;
    return [...notes, ...(await this.catalogChildren(server))];
  }

  private async catalogChildren(server: McpConnection): Promise<ServersViewNode[]> {
    const name = server.name;
    if (server.status === 'error' && !this.catalogs.has(name)) {
      return [errorMessage(server, this.registry.nextRestartAt(name))];
    }
    if (server.status === 'stopped' && this.stoppedByPerson.has(name)) {
      return [
        { kind: 'message', text: vscode.l10n.t('Stopped. Start it to see its tools.'), icon: 'debug-start', command: startCommand(name) },
      ];
    }
    let catalog = this.catalogs.get(name);
    if (!catalog) {
      catalog = loadCatalog(server);
      this.catalogs.set(name, catalog);
    }
    try {
      const { tools, prompts, resources } = await catalog;
      const groups: GroupNode[] = [
        { kind: 'group', server: name, group: 'tools', count: tools.length },
        { kind: 'group', server: name, group: 'prompts', count: prompts.length },
        { kind: 'group', server: name, group: 'resources', count: resources.length },
      ];
      const shown = groups.filter((g) => g.count > 0);
      return shown.length > 0 ? shown : [{ kind: 'message', text: vscode.l10n.t('Offers no tools, prompts or resources'), icon: 'info' }];
    } catch (error) {
      this.catalogs.delete(name);
      const message = errorText(error);
      return [{ kind: 'message', text: oneLine(message, 200), tooltip: message, icon: 'error', command: startCommand(name, true) }];
    }
  }

  private serverItem(name: string): vscode.TreeItem {
    const server = this.connection(name);
    const item = new vscode.TreeItem(inertText(name), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `server:${name}`;
    if (!server) return item;
    const restartAt = this.registry.nextRestartAt(name);
    item.iconPath = server.config.notStarted ? new vscode.ThemeIcon('shield') : statusIcon(server.status);
    // A name that several sources use is told with its source: "github (2) · running · User mcp.json".
    const shared = sharedSourceLabel(server.config);
    const source = shared ? ` · ${shared}` : '';
    const status = server.config.notStarted ? vscode.l10n.t('not started') : statusText(server, restartAt);
    item.description = inertText(`${status}${source}`);
    item.tooltip = serverTooltip(server, restartAt);
    item.contextValue = `server.${server.status}`;
    return item;
  }

  private connection(name: string): McpConnection | undefined {
    return this.registryConnections().find((c) => c.name === name);
  }

  private statusOf(name: string): McpConnection['status'] | undefined {
    return this.connection(name)?.status;
  }

  /** The registry's servers without loading: getTreeItem runs after roots() loaded them. */
  private registryConnections(): McpConnection[] {
    return this.registry.loadedServers();
  }

  /** While a restart is scheduled, redraw every second so "restarting in 3 s" counts down. */
  private updateCountdown(): void {
    const scheduled = this.registryConnections().some((c) => this.registry.nextRestartAt(c.name) !== undefined);
    if (scheduled && !this.countdown) {
      this.countdown = setInterval(() => this.refresh(), 1000);
    } else if (!scheduled && this.countdown) {
      clearInterval(this.countdown);
      this.countdown = undefined;
    }
  }
}

async function loadCatalog(server: McpConnection): Promise<Catalog> {
  const [tools, prompts, resources, templates] = await Promise.all([
    server.listTools(),
    listPrompts(server),
    listResources(server),
    listResourceTemplates(server),
  ]);
  return {
    tools,
    prompts,
    resources: [...resources.map((resource) => ({ resource })), ...templates.map((template) => ({ template }))],
  };
}

/** What a server's row shows, to tell whether it changed since it was drawn. */
function rowKey(item: vscode.TreeItem): string {
  const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '';
  const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : (item.tooltip ?? '');
  return JSON.stringify([item.description, icon, item.contextValue, tooltip]);
}

function statusIcon(status: McpConnection['status']): vscode.ThemeIcon {
  switch (status) {
    case 'starting':
      return new vscode.ThemeIcon('loading~spin');
    case 'running':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'error':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    case 'stopped':
      return new vscode.ThemeIcon('circle-outline');
  }
}

function statusText(server: McpConnection, restartAt: number | undefined): string {
  if (server.status === 'error') {
    const restart =
      restartAt !== undefined ? ` · ${vscode.l10n.t('restarting in {0} s', Math.max(1, Math.ceil((restartAt - Date.now()) / 1000)))}` : '';
    return `${inertText(oneLine(server.error ?? statusWord('error'), 120))}${restart}`;
  }
  if (server.status === 'running') {
    // The protocol revision is for the curious: the tooltip says it, the row stays short.
    const tasks = tasksSummary(server.runningTasks);
    return `${statusWord('running')}${server.transportKind === 'sse' ? ' · SSE' : ''}${tasks ? ` · ${tasks}` : ''}`;
  }
  return server.status === 'starting' ? vscode.l10n.t('starting…') : statusWord(server.status);
}

/** Untrusted Markdown, without HTML, of escaped text (appendText): it draws no link and no icon. */
function serverTooltip(server: McpConnection, restartAt: number | undefined): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  tooltip.appendText(inertText(server.name));
  tooltip.appendMarkdown('\n\n');
  const revision = server.status === 'running' && server.protocolVersion ? ` · MCP ${server.protocolVersion}` : '';
  tooltip.appendText(inertText(`${transportSummary(server)}${revision} · ${vscode.l10n.t('from {0}', server.config.source)}`));
  tooltip.appendMarkdown('\n\n');
  tooltip.appendText(vscode.l10n.t('Status: {0}', statusWord(server.status)));
  for (const task of server.runningTasks) {
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(inertText(vscode.l10n.t('Task of {0}: {1}', oneLine(task.tool, 80), taskStatusText(task))));
  }
  if (server.config.sandbox) {
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(vscode.l10n.t("Runs in VS Code's sandbox (sandboxEnabled)."));
  }
  if (server.config.notStarted) {
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(inertText(vscode.l10n.t('Not started: {0}', server.config.notStarted)));
  }
  if (server.config.notSupported) {
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(inertText(vscode.l10n.t('Not supported by Elicit: {0}', server.config.notSupported.join(', '))));
  }
  if (server.error) {
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(inertText(server.error));
  }
  if (restartAt !== undefined) {
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(vscode.l10n.t('Elicit restarts it at {0}.', new Date(restartAt).toLocaleTimeString()));
  }
  return tooltip;
}

/** The command or the URL's origin only: arguments, headers and queries may carry secrets. */
function transportSummary(server: McpConnection): string {
  const transport = server.config.transport;
  if (transport.type === 'stdio') return `stdio: ${transport.command}`;
  let origin = transport.url;
  try {
    const url = new URL(transport.url);
    // A local socket has no origin: its path says where it is.
    origin = url.protocol === 'unix:' || url.protocol === 'pipe:' ? `${url.protocol}//${url.pathname}` : url.origin;
  } catch {
    // Keeps the text as configured (with an input still in it).
  }
  return `${server.transportKind === 'sse' || transport.type === 'sse' ? 'SSE' : 'Streamable HTTP'}: ${origin}`;
}

/** What the server's entry asks that Elicit does not do: why it is not started, the fields it does not act on. */
function configNotes(server: McpConnection): MessageNode[] {
  const notes: MessageNode[] = [];
  const openConfig = {
    command: 'elicit.openServerConfig',
    title: vscode.l10n.t('Open Configuration'),
    arguments: [server.config.source],
  };
  if (server.config.notStarted) {
    notes.push({
      kind: 'message',
      text: vscode.l10n.t('Not started: {0}', oneLine(server.config.notStarted, 120)),
      tooltip: server.config.notStarted,
      icon: 'shield',
      command: openConfig,
    });
  }
  if (server.config.notSupported) {
    const fields = server.config.notSupported.join(', ');
    notes.push({
      kind: 'message',
      text: vscode.l10n.t('Not supported by Elicit: {0}', oneLine(fields, 120)),
      tooltip: vscode.l10n.t(
        '{0} configures {1}, which Elicit does not act on; the server runs without them.',
        server.config.source,
        fields,
      ),
      icon: 'warning',
      command: openConfig,
    });
  }
  return notes;
}

function errorMessage(server: McpConnection, restartAt: number | undefined): MessageNode {
  return {
    kind: 'message',
    text:
      restartAt !== undefined
        ? vscode.l10n.t('Stopped unexpectedly; restarting soon')
        : vscode.l10n.t('Not running. Restart it to try again.'),
    tooltip: server.error,
    icon: restartAt !== undefined ? 'history' : 'debug-restart',
    command: restartAt !== undefined ? undefined : startCommand(server.name, true),
  };
}

function startCommand(name: string, restart = false): vscode.Command {
  return restart
    ? { command: 'elicit.restartServer', title: vscode.l10n.t('Restart'), arguments: [name] }
    : { command: 'elicit.startServer', title: vscode.l10n.t('Start'), arguments: [name] };
}

function groupItem(node: GroupNode): vscode.TreeItem {
  const titles = { tools: vscode.l10n.t('Tools'), prompts: vscode.l10n.t('Prompts'), resources: vscode.l10n.t('Resources') };
  const icons = { tools: 'tools', prompts: 'comment-discussion', resources: 'files' } as const;
  const item = new vscode.TreeItem(titles[node.group], vscode.TreeItemCollapsibleState.Expanded);
  item.id = `group:${node.server}:${node.group}`;
  item.description = inertText(String(node.count));
  item.iconPath = new vscode.ThemeIcon(icons[node.group]);
  return item;
}

function toolItem(node: ToolNode): vscode.TreeItem {
  const tool = node.tool;
  const title = tool.title ?? tool.annotations?.title;
  const item = new vscode.TreeItem(inertText(oneLine(title ?? tool.name, 80)));
  item.id = `tool:${node.server}:${tool.name}`;
  item.description = title ? inertText(oneLine(tool.name, 60)) : undefined;
  item.tooltip = inertText(tool.description ? `${tool.name}\n\n${oneLine(tool.description, 1000)}` : tool.name);
  item.iconPath = new vscode.ThemeIcon('symbol-method');
  item.contextValue = 'tool';
  return item;
}

function promptItem(node: PromptNode): vscode.TreeItem {
  const prompt = node.prompt;
  const item = new vscode.TreeItem(inertText(oneLine(prompt.title ?? prompt.name, 80)));
  item.id = `prompt:${node.server}:${prompt.name}`;
  const args = (prompt.arguments ?? []).map((a) => (a.required ? a.name : `${a.name}?`));
  item.description = args.length > 0 ? inertText(oneLine(args.join(', '), 80)) : undefined;
  item.tooltip = inertText(prompt.description ? `${prompt.name}\n\n${oneLine(prompt.description, 1000)}` : prompt.name);
  item.iconPath = new vscode.ThemeIcon('comment');
  item.contextValue = 'prompt';
  return item;
}

function resourceItem(node: ResourceNode): vscode.TreeItem {
  const isTemplate = node.kind === 'template';
  const entry = isTemplate ? node.template : node.resource;
  const uri = isTemplate ? node.template.uriTemplate : node.resource.uri;
  const item = new vscode.TreeItem(inertText(oneLine(entry.title ?? entry.name, 80)));
  item.id = `${node.kind}:${node.server}:${uri}`;
  item.description = inertText(oneLine(uri, 80));
  item.tooltip = inertText(entry.description ? `${uri}\n\n${oneLine(entry.description, 1000)}` : uri);
  item.iconPath = new vscode.ThemeIcon(isTemplate ? 'symbol-variable' : 'file');
  item.contextValue = node.kind;
  if (!isTemplate) item.command = { command: 'elicit.view.readResource', title: vscode.l10n.t('Read Resource'), arguments: [node] };
  return item;
}
