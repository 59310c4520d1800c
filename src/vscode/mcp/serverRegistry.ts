/**
 * The configured MCP servers of this window: every workspace folder's
 * `.vscode/mcp.json` (the servers `elicit.mcpJsonServers` selects) plus the
 * `elicit.servers` setting, kept in sync with the
 * files and the setting. Servers are started on first use, never in an
 * untrusted workspace when the workspace configured them. A server that
 * crashes is restarted a few times with a growing delay (CrashRecovery).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { SETTING, settings } from '../settings';
import { parseMcpConfig, parseServerTable, type ConfigProblem, type ServerConfig, type VariableContext } from '../../core/serverConfig';
import type { UrlWaits } from '../../core/broker/urlWaits';
import { McpConnection, type AskFunction, type McpRoot } from '../../mcp/connection';
import { localFolders } from '../localFolders';
import type { OAuthOptions } from '../../mcp/oauthSignIn';
import type { RoundKeeper } from '../../mcp/rounds';
import { CrashRecovery } from '../../mcp/crashRecovery';
import { resolveLaunch, type SecretLookup } from '../../mcp/launch';
import { stopAllNow } from '../../mcp/shutdown';
import { inertText } from '../../core/display';
import { serverOrigin } from '../../mcp/serverOrigin';
import { withOrigin } from '../../core/origin';
import type { Asker } from '../../core/broker/request';
import { readSelection, selectsServer } from '../../mcp/mcpJsonSelection';

/** Values for a server's `${input:…}` variables, asked or remembered; rejects when the person does not give one. */
export type InputResolver = (config: ServerConfig) => Promise<Record<string, string>>;

const CONFIG_FILE = '.vscode/mcp.json';
/** True while the elicit.mcpJsonServers setting leaves servers of a workspace's mcp.json to VS Code (the view says so). */
const LEFT_OUT_CONTEXT = 'elicit.mcpJsonServersLeftOut';

export class ServerRegistry implements vscode.Disposable {
  private readonly connections = new Map<string, McpConnection>();
  private readonly recoveries = new Map<string, CrashRecovery>();
  private inputResolver: InputResolver | undefined;
  private oauth: OAuthOptions | undefined;
  private rounds: RoundKeeper | undefined;
  private readonly serverLogs = new Map<string, vscode.LogOutputChannel>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changes = new vscode.EventEmitter<void>();
  private readonly processEnds = new vscode.EventEmitter<Asker>();
  private loading: Promise<void> | undefined;
  private ready: Promise<unknown> = Promise.resolve();
  private reportedProblems = new Set<string>();
  private _problems: ConfigProblem[] = [];
  private _untrustedSources: string[] = [];
  private _leftToVsCode: string[] = [];
  /** Config file by the name problems use for it, for "Open File". */
  private readonly sourceFiles = new Map<string, vscode.Uri>();
  readonly onDidChange = this.changes.event;
  /** A server's process stopped, failed or is restarting: "this session" of its answers ends. */
  readonly onDidEndProcess = this.processEnds.event;

  constructor(
    private readonly ask: AskFunction,
    private readonly log: vscode.LogOutputChannel,
    private readonly urlWaits?: UrlWaits,
    /** Resolves `${secret:NAME}` when a server starts, where the person allowed it. */
    private readonly secret?: SecretLookup,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${CONFIG_FILE}`);
    const reload = (): void => void this.reload();
    this.disposables.push(
      this.changes,
      this.processEnds,
      watcher,
      watcher.onDidCreate(reload),
      watcher.onDidChange(reload),
      watcher.onDidDelete(reload),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        reload();
        for (const connection of this.connections.values()) void connection.rootsChanged();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(reload),
      vscode.workspace.onDidChangeConfiguration(
        (e) => (e.affectsConfiguration(SETTING.servers) || e.affectsConfiguration(SETTING.mcpJsonServers)) && reload(),
      ),
    );
  }

  /** Every configured server, loading the configuration on first call. */
  async servers(): Promise<McpConnection[]> {
    await (this.loading ??= this.reload());
    return [...this.connections.values()];
  }

  async get(name: string): Promise<McpConnection | undefined> {
    return (await this.servers()).find((s) => s.name === name);
  }

  /** The servers as last loaded, without waiting for a load (for drawing what is already known). */
  loadedServers(): McpConnection[] {
    return [...this.connections.values()];
  }

  /** The config file a problem or server came from, by its display name. */
  configFile(source: string): vscode.Uri | undefined {
    return this.sourceFiles.get(source);
  }

  /** How `${input:…}` values are obtained (asked through the broker, passwords from SecretStorage). */
  /** How HTTP servers that require OAuth sign in (set at activation, before any server starts). */
  useOAuth(options: OAuthOptions): void {
    this.oauth = options;
  }

  /** Where 2026-07-28 rounds waiting for the person are kept across a reload (set at activation). */
  keepRoundsIn(keeper: RoundKeeper): void {
    this.rounds = keeper;
  }

  /** Configuration is read only once `ready` settles (the digest key of origins is loaded by then). */
  readAfter(ready: Promise<unknown>): void {
    this.ready = ready;
  }

  setInputResolver(resolver: InputResolver): void {
    this.inputResolver = resolver;
  }

  /** When a crashed server is restarted automatically, while one is scheduled. */
  nextRestartAt(name: string): number | undefined {
    return this.recoveries.get(name)?.nextRestartAt;
  }

  /** Starts a server (the person asked): a crash count from before no longer applies. */
  async start(name: string): Promise<void> {
    const connection = await this.get(name);
    if (!connection) return;
    this.recoveries.get(name)?.reset();
    await connection.connect();
  }

  async restart(name: string): Promise<void> {
    const connection = await this.get(name);
    if (!connection) return;
    this.recoveries.get(name)?.reset();
    await connection.stop();
    await connection.connect();
  }

  async stop(name: string): Promise<void> {
    await (await this.get(name))?.stop();
  }

  /** Shows the server's own output channel (its stderr and what Elicit noted about it). */
  showOutput(name: string): void {
    this.serverLog(name).show(true);
  }

  get problems(): readonly ConfigProblem[] {
    return this._problems;
  }

  /** Servers of a workspace's mcp.json that elicit.mcpJsonServers leaves to VS Code, as "name (file)". */
  get leftToVsCode(): readonly string[] {
    return this._leftToVsCode;
  }

  /** Config files whose servers are not started because the workspace is not trusted. */
  get untrustedSources(): readonly string[] {
    return this._untrustedSources;
  }

  /** Re-reads the configuration; unchanged servers keep running, changed ones restart on next use. */
  reload(): Promise<void> {
    const run = this.ready.then(() => this.read()).then(({ configs, problems }) => this.apply(configs, problems));
    this.loading = run;
    return run;
  }

  private async read(): Promise<{ configs: ServerConfig[]; problems: ConfigProblem[] }> {
    const configs: ServerConfig[] = [];
    const problems: ConfigProblem[] = [];
    const trusted = vscode.workspace.isTrusted;
    const untrusted: string[] = [];
    const selection = readSelection(settings.mcpJsonServers());
    const leftOut: string[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const uri = vscode.Uri.joinPath(folder.uri, CONFIG_FILE);
      let text: string;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        continue; // No mcp.json in this folder.
      }
      const source = vscode.workspace.asRelativePath(uri, true);
      this.sourceFiles.set(source, uri);
      const parsed = parseMcpConfig(text, source, this.variables(folder.uri.fsPath));
      problems.push(...parsed.problems);
      if (!trusted && parsed.servers.length > 0) {
        this.log.warn(`${source}: not starting its servers because this workspace is not trusted`);
        untrusted.push(source);
        continue;
      }
      const origin = { file: uri.toString(), folder: folder.uri.fsPath };
      const chosen = parsed.servers.filter((server) => selectsServer(selection, server.name));
      leftOut.push(...parsed.servers.filter((server) => !chosen.includes(server)).map((server) => `${server.name} (${source})`));
      configs.push(...chosen.map((server) => ({ ...server, origin })));
    }
    if (leftOut.length > 0) this.log.info(`left to VS Code's own MCP support (elicit.mcpJsonServers): ${leftOut.join(', ')}`);
    this._leftToVsCode = leftOut;
    void vscode.commands.executeCommand('setContext', LEFT_OUT_CONTEXT, leftOut.length > 0);
    // Each scope apart, named by its settings file: a workspace's entry never changes the user's (settings.ts).
    for (const table of settings.servers()) {
      const fromSetting = parseServerTable(table.value, table.source, this.variables(table.scope === 'user' ? undefined : firstFolder()));
      configs.push(...fromSetting.servers.map((server) => ({ ...server, origin: { file: table.file } })));
      problems.push(...fromSetting.problems);
    }
    this._untrustedSources = untrusted;
    return { configs: uniqueNames(configs), problems };
  }

  private apply(configs: ServerConfig[], problems: ConfigProblem[]): void {
    const wanted = new Map(configs.map((c) => [c.name, c]));
    for (const [name, connection] of this.connections) {
      const next = wanted.get(name);
      if (!next || JSON.stringify(next) !== JSON.stringify(connection.config)) {
        this.recoveries.get(name)?.dispose();
        this.recoveries.delete(name);
        void connection.stop();
        this.connections.delete(name);
      }
    }
    for (const config of configs) {
      if (this.connections.has(config.name)) continue;
      const serverLog = (line: string): void => this.serverLog(config.name).info(line);
      const connection = new McpConnection(config, {
        // The asker's origin, not its name, decides which saved answers it is offered (its envFile read now).
        ask: (request) => this.ask(withOrigin(request, serverOrigin(config))),
        log: serverLog,
        clientInfo: { name: 'elicit', version: extensionVersion() },
        urlWaits: this.urlWaits,
        oauth: this.oauth,
        roots: workspaceRoots,
        rounds: this.rounds,
        prepare: async (server) =>
          resolveLaunch(server, {
            inputValues: server.inputs && this.inputResolver ? await this.inputResolver(server) : {},
            log: serverLog,
            secret: this.secret,
          }),
      });
      // Before the listener below, so a restart is already scheduled when the view redraws.
      const recovery = new CrashRecovery(connection, undefined, (line) => {
        this.log.warn(line);
        serverLog(`[elicit] ${line}`);
      });
      this.recoveries.set(config.name, recovery);
      connection.onDidChangeStatus((status) => {
        if (status === 'stopped' || status === 'error')
          this.processEnds.fire({ kind: 'mcp', name: config.name, origin: serverOrigin(config) });
        this.log.info(`${config.name}: ${status}${connection.error ? ` (${connection.error})` : ''}`);
        this.changes.fire();
      });
      this.connections.set(config.name, connection);
    }
    this._problems = problems;
    this.reportProblems(problems);
    this.changes.fire();
  }

  private reportProblems(problems: ConfigProblem[]): void {
    const current = new Set(problems.map((p) => p.message));
    for (const problem of problems) {
      this.log.error(problem.message);
      if (this.reportedProblems.has(problem.message)) continue;
      const file = this.sourceFiles.get(problem.source);
      const openFile = vscode.l10n.t('Open File');
      void vscode.window
        .showErrorMessage(inertText(vscode.l10n.t('Elicit: {0}', problem.message)), ...(file ? [openFile] : []))
        .then((choice) => {
          if (choice === openFile && file) void vscode.window.showTextDocument(file);
        });
    }
    this.reportedProblems = current;
  }

  private serverLog(name: string): vscode.LogOutputChannel {
    let channel = this.serverLogs.get(name);
    if (!channel) {
      channel = vscode.window.createOutputChannel(vscode.l10n.t('Elicit: {0}', name), { log: true });
      this.serverLogs.set(name, channel);
    }
    return channel;
  }

  private variables(workspaceFolder: string | undefined): VariableContext {
    return { workspaceFolder, userHome: os.homedir(), env: process.env };
  }

  dispose(): void {
    for (const recovery of this.recoveries.values()) recovery.dispose();
    this.recoveries.clear();
    void stopAllNow(this.connections.values());
    this.connections.clear();
    for (const channel of this.serverLogs.values()) channel.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** Two folders may both name a server "db": the second becomes "db (2)". */
function uniqueNames(configs: ServerConfig[]): ServerConfig[] {
  const seen = new Map<string, number>();
  return configs.map((config) => {
    const count = (seen.get(config.name) ?? 0) + 1;
    seen.set(config.name, count);
    return count === 1 ? config : { ...config, name: `${config.name} (${count})` };
  });
}

function extensionVersion(): string {
  return vscode.extensions.getExtension('elicit-dev.elicit')?.packageJSON?.version ?? '0.0.0';
}

function firstFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** The workspace folders on disk, as MCP roots: what servers such as a filesystem server may work in. */
function workspaceRoots(): McpRoot[] {
  return localFolders().map((f) => ({ uri: f.uri.toString(), name: f.name }));
}
