/**
 * The configured MCP servers of this window, from every source VS Code reads
 * (sources/configSources.ts: each folder's `.vscode/mcp.json` and `.mcp.json`,
 * the workspace's `mcp` section, the user profile's `mcp.json`, Copilot CLI's
 * `mcp-config.json`, the legacy `mcp` setting; as far as
 * `elicit.mcpJsonServers` selects) plus the `elicit.servers` setting, kept in
 * sync with the files and settings. Servers are started on first use, never
 * in an untrusted workspace when the workspace configured them. A server that
 * crashes is restarted a few times with a growing delay (CrashRecovery); one
 * with `dev.watch` restarts when a watched file changes.
 */
import { extensionVersion } from '../extensionVersion';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { acceptLanguageFor } from '../../core/language';
import { SETTING, settings } from '../settings';
import type { ConfigProblem, ServerConfig } from '../../core/mcpConfig/serverConfig';
import { nameServers, namesForAgents, sharedWithVsCode, type SourcedConfig } from '../../core/mcpConfig/configSources';
import { readSources, serverConfigFiles, SOURCE_WATCH, userMcpJson, type SourceLocations } from './sources/configSources';
import type { UrlWaits } from '../../core/broker/urlWaits';
import { McpConnection, type AskFunction, type McpRoot } from '../../mcp/connection';
import { localFolders } from '../localFolders';
import type { OAuthOptions } from '../../mcp/oauthSignIn';
import type { RoundKeeper } from '../../mcp/rounds';
import { CrashRecovery } from '../../mcp/crashRecovery';
import { resolveLaunch, type LaunchConfig, type SecretLookup } from '../../mcp/launch';
import { sandboxedLaunch } from '../../mcp/sandboxLaunch';
import { stopAllNow } from '../../mcp/shutdown';
import { inertText } from '../../core/display';
import { serverOrigin } from '../../mcp/serverOrigin';
import { withOrigin } from '../../core/origin';
import type { Asker } from '../../core/request';
import { readSelection, selectsServer } from '../../mcp/mcpJsonSelection';
import type { McpServers } from '../mcpServers';
import type { Services } from '../services';

/** Values for a server's `${input:…}` variables, asked or remembered; rejects when the person does not give one. */
export type InputResolver = (config: ServerConfig) => Promise<Record<string, string>>;

/** True while the elicit.mcpJsonServers setting leaves servers of a workspace's mcp.json to VS Code (the view says so). */
const LEFT_OUT_CONTEXT = 'elicit.mcpJsonServersLeftOut';

/** The shared parts as the MCP feature gets them: with its own registry whole, where other features see McpServers. */
export type McpServices = Services & { registry: ServerRegistry };

export class ServerRegistry implements McpServers, vscode.Disposable {
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
  /** The last reload asked for: the next one reads only once it has applied. */
  private reloads: Promise<void> = Promise.resolve();
  private reportedProblems = new Set<string>();
  private _problems: ConfigProblem[] = [];
  private _untrustedSources: string[] = [];
  private _leftToVsCode: string[] = [];
  /** Config file by the name problems use for it, for "Open File". */
  private readonly sourceFiles = new Map<string, vscode.Uri>();
  /** Watchers of the files outside the workspace (user profile, Copilot CLI), by URI. */
  private readonly outsideWatchers = new Map<string, vscode.Disposable>();
  /** `dev.watch` watchers, by server name. */
  private readonly devWatchers = new Map<string, vscode.Disposable>();
  private _sourcesRead: string[] = [];
  readonly onDidChange = this.changes.event;
  /** A server's process stopped, failed or is restarting: "this session" of its answers ends. */
  readonly onDidEndProcess = this.processEnds.event;

  constructor(
    private readonly ask: AskFunction,
    private readonly log: vscode.LogOutputChannel,
    private readonly urlWaits?: UrlWaits,
    /** Resolves `${secret:NAME}` when a server starts, where the person allowed it. */
    private readonly secret?: SecretLookup,
    /** Where the user's files are; none in tests that read only the workspace. */
    readonly sourceLocations: SourceLocations = { env: {}, home: os.homedir() },
  ) {
    const reload = (): void => void this.reload();
    // The workspace's own files by pattern; the files outside it are watched one by one (watchOutside).
    for (const pattern of SOURCE_WATCH.workspaceFiles) {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      this.disposables.push(watcher, watcher.onDidCreate(reload), watcher.onDidChange(reload), watcher.onDidDelete(reload));
    }
    this.disposables.push(
      this.changes,
      this.processEnds,
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        reload();
        for (const connection of this.connections.values()) void connection.rootsChanged();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(reload),
      vscode.workspace.onDidChangeConfiguration(
        (e) => [...SOURCE_WATCH.settings, SETTING.mcpJsonServers].some((setting) => e.affectsConfiguration(setting)) && reload(),
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

  /**
   * The servers by the names agents see them by (the gateway, agent sessions): the person's own
   * sources keep the names they wrote, a workspace's server of the same name is numbered.
   */
  async serversForAgents(): Promise<Array<{ agentName: string; server: McpConnection }>> {
    const servers = await this.servers();
    const byName = new Map(servers.map((server) => [server.name, server]));
    return [...namesForAgents(servers.map((server) => server.config))].map(([agentName, name]) => ({
      agentName,
      server: byName.get(name)!,
    }));
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

  /** The servers running now, by name. */
  running(): string[] {
    return [...this.connections].filter(([, connection]) => connection.status === 'running').map(([name]) => name);
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

  /** The sources that exist and were read, by label ("app/.mcp.json", "User mcp.json"), for "where Elicit looked". */
  get sourcesRead(): readonly string[] {
    return this._sourcesRead;
  }

  /** Where the window's user mcp.json is (it may not exist yet), for "Open User Configuration". */
  async userConfigFile(): Promise<vscode.Uri | undefined> {
    return (await userMcpJson(this.sourceLocations))?.file;
  }

  /** Re-reads the configuration; unchanged servers keep running, changed ones restart on next use. */
  reload(): Promise<void> {
    // One at a time, in the order asked: a read that started earlier, with the settings of then,
    // never lands after a later one and undoes it (two quick edits of elicit.mcpJsonServers).
    const run = this.reloads
      .then(() => this.ready)
      .then(() => this.read())
      .then(({ configs, problems }) => this.apply(configs, problems));
    this.reloads = run.catch(() => undefined);
    this.loading = run;
    return run;
  }

  private async read(): Promise<{ configs: ServerConfig[]; problems: ConfigProblem[] }> {
    const sourced: SourcedConfig[] = [];
    const problems: ConfigProblem[] = [];
    const trusted = vscode.workspace.isTrusted;
    const untrusted: string[] = [];
    const selection = readSelection(settings.mcpJsonServers());
    const leftOut: string[] = [];
    const { reads, outsideFiles } = await readSources(this.sourceLocations);
    this.watchOutside(outsideFiles);
    for (const read of reads) {
      if (read.file) this.sourceFiles.set(read.name, read.file);
      problems.push(...read.parsed.problems);
      if (read.workspace && !trusted && read.parsed.servers.length > 0) {
        this.log.warn(`${read.name}: not starting its servers because this workspace is not trusted`);
        untrusted.push(read.name);
        continue;
      }
      const servers = read.parsed.servers.map((server) => ({
        ...server,
        origin: read.origin,
        ...(read.shortName ? { sourceLabel: read.shortName } : {}),
      }));
      const chosen = sharedWithVsCode(read.kind) ? servers.filter((server) => selectsServer(selection, server.name)) : servers;
      leftOut.push(...servers.filter((server) => !chosen.includes(server)).map((server) => `${server.name} (${read.name})`));
      sourced.push(...chosen.map((config) => ({ kind: read.kind, config, workspace: read.workspace })));
    }
    if (leftOut.length > 0) this.log.info(`left to VS Code's own MCP support (elicit.mcpJsonServers): ${leftOut.join(', ')}`);
    this._leftToVsCode = leftOut;
    void vscode.commands.executeCommand('setContext', LEFT_OUT_CONTEXT, leftOut.length > 0);
    this._untrustedSources = untrusted;
    this._sourcesRead = reads.map((read) => read.name);
    return { configs: nameServers(sourced), problems };
  }

  /**
   * Watches the files outside the workspace that a reload looked for (the
   * window's user mcp.json, Copilot CLI's file, other tools' turned on), by
   * their folder, so a file created later is seen too.
   */
  private watchOutside(files: readonly vscode.Uri[]): void {
    const wanted = new Set(files.map((file) => file.toString()));
    for (const [key, watcher] of this.outsideWatchers) {
      if (wanted.has(key)) continue;
      watcher.dispose();
      this.outsideWatchers.delete(key);
    }
    for (const file of files) {
      if (this.outsideWatchers.has(file.toString())) continue;
      const folder = vscode.Uri.joinPath(file, '..');
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, path.posix.basename(file.path)));
      const reload = (): void => void this.reload();
      const subscriptions = [watcher, watcher.onDidCreate(reload), watcher.onDidChange(reload), watcher.onDidDelete(reload)];
      this.outsideWatchers.set(file.toString(), vscode.Disposable.from(...subscriptions));
    }
  }

  /** Makes the registry's servers the configured ones: unchanged ones keep running, in the order of their sources. */
  private apply(configs: ServerConfig[], problems: ConfigProblem[]): void {
    this.dropChanged(new Map(configs.map((config) => [config.name, config])));
    for (const config of configs) if (!this.connections.has(config.name)) this.add(config);
    this.orderAs(configs);
    this._problems = problems;
    this.reportProblems(problems);
    this.changes.fire();
  }

  /** Stops and forgets each server that is no longer configured, or is configured otherwise now. */
  private dropChanged(wanted: ReadonlyMap<string, ServerConfig>): void {
    for (const [name, connection] of this.connections) {
      const next = wanted.get(name);
      if (next && JSON.stringify(next) === JSON.stringify(connection.config)) continue;
      this.recoveries.get(name)?.dispose();
      this.recoveries.delete(name);
      this.devWatchers.get(name)?.dispose();
      this.devWatchers.delete(name);
      void connection.stop();
      this.connections.delete(name);
    }
  }

  /** A server new to the registry: its connection (not started yet), its crash recovery, what its status changes tell, its `dev.watch`. */
  private add(config: ServerConfig): void {
    const serverLog = this.serverLines(config.name);
    const connection = new McpConnection(config, {
      // The asker's origin, not its name, decides which saved answers it is offered (its envFile read now).
      ask: (request) => this.ask(withOrigin(request, serverOrigin(config))),
      log: serverLog,
      clientInfo: { name: 'elicit', version: extensionVersion() },
      // The person reads VS Code's display language: servers are told so (draft SEP-2792).
      acceptLanguage: acceptLanguageFor(vscode.env.language),
      fileInputs: settings.fileFields,
      appQuestions: settings.appQuestions,
      urlWaits: this.urlWaits,
      oauth: this.oauth,
      roots: workspaceRoots,
      rounds: this.rounds,
      prepare: (server) => this.prepareLaunch(server, serverLog),
    });
    // Before the listener below, so a restart is already scheduled when the view redraws.
    const recovery = new CrashRecovery(connection, undefined, (line) => {
      this.log.warn(line);
      serverLog(`[elicit] ${line}`);
    });
    this.recoveries.set(config.name, recovery);
    connection.onDidChangeStatus((status) => {
      if (status === 'stopped' || status === 'error')
        this.processEnds.fire({ kind: 'mcp', name: config.askerName ?? config.name, origin: serverOrigin(config) });
      this.log.info(`${config.name}: ${status}${connection.error ? ` (${connection.error})` : ''}`);
      this.changes.fire();
    });
    // A tool call's task changed status: the Servers view shows it.
    connection.onDidChangeTasks(() => this.changes.fire());
    this.connections.set(config.name, connection);
    if (config.watch) this.devWatchers.set(config.name, this.watchForRestart(config));
  }

  /** Writes lines to the server's own output channel, as long as it is open. */
  private serverLines(name: string): (line: string) => void {
    return (line) => {
      try {
        this.serverLog(name).info(line);
      } catch {
        // A closing window may have closed the channel ("Channel has been closed"); what the server does then must go on.
      }
    };
  }

  /** How a server starts: its inputs and secrets resolved, inside VS Code's sandbox when it asks for one. */
  private async prepareLaunch(server: ServerConfig, serverLog: (line: string) => void): Promise<LaunchConfig> {
    // Started otherwise than configured (outside its sandbox, say), it would not be the server the person set up.
    if (server.notStarted) throw new Error(`Elicit does not start "${server.name}": ${server.notStarted}`);
    const launch = await resolveLaunch(server, {
      inputValues: server.inputs && this.inputResolver ? await this.inputResolver(server) : {},
      log: serverLog,
      secret: this.secret,
    });
    if (!server.sandbox || launch.type !== 'stdio') return launch;
    serverLog('[elicit] runs in VS Code\'s sandbox ("sandboxEnabled": true)');
    return sandboxedLaunch(server.name, launch, server.sandbox, server.origin?.folder, {
      appRoot: this.sourceLocations.appRoot,
      execPath: process.execPath,
      platform: process.platform,
      arch: process.arch,
      home: this.sourceLocations.home,
      env: process.env,
      // Nothing it may write runs outside it: its own npm cache, no cwd outside the workspace, no config file.
      workspaceFolders: localFolders().map((f) => f.uri.fsPath),
      configFiles: await serverConfigFiles(this.sourceLocations),
      identity: serverOrigin(server),
      log: serverLog,
    });
  }

  /** Lists the servers in the order of their sources, whichever were kept from before. */
  private orderAs(configs: readonly ServerConfig[]): void {
    const ordered = configs.map((config) => [config.name, this.connections.get(config.name)!] as const);
    this.connections.clear();
    for (const [name, connection] of ordered) this.connections.set(name, connection);
  }

  /**
   * `dev.watch`: a change to a matching file restarts the server if it is
   * running (a stopped one starts afresh on next use anyway). Patterns are
   * relative to the server's workspace folder, or to the home folder.
   */
  private watchForRestart(config: ServerConfig): vscode.Disposable {
    const base = vscode.Uri.file(config.origin?.folder ?? this.sourceLocations.home);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const restart = (): void => {
      // Saving several files at once restarts once.
      clearTimeout(timer);
      timer = setTimeout(() => {
        const connection = this.connections.get(config.name);
        if (connection?.config !== config || connection.status !== 'running') return;
        this.serverLog(config.name).info('[elicit] a watched file changed (dev.watch): restarting');
        void this.restart(config.name).catch((error: unknown) =>
          this.log.warn(`${config.name}: restart after a change failed: ${String(error)}`),
        );
      }, 300);
    };
    const subscriptions: vscode.Disposable[] = [{ dispose: () => clearTimeout(timer) }];
    for (const pattern of config.watch ?? []) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, pattern));
      subscriptions.push(watcher, watcher.onDidCreate(restart), watcher.onDidChange(restart), watcher.onDidDelete(restart));
    }
    return vscode.Disposable.from(...subscriptions);
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

  /**
   * As the window closes (deactivate, awaited, unlike dispose()): every 2025-era HTTP session is
   * ended, so what its server still asks ends there with an error instead of waiting for ever.
   */
  async endHttpSessions(): Promise<void> {
    const started = Date.now();
    const connections = [...this.connections.values()].filter((connection) => connection.transportKind === 'http');
    await Promise.all(connections.map((connection) => connection.endHttpSession().catch(() => undefined)));
    if (connections.length === 0) return;
    try {
      this.log.info(`ended ${connections.length} HTTP sessions as the window closes (${Date.now() - started} ms)`);
    } catch {
      // The output channel is closed by now when VS Code closes the window (it says "Channel has been closed").
    }
  }

  /**
   * As the window closes, once `callsEnded` (the gateway ending its calls) settles: the tasks of the
   * calls that ended are cancelled at their servers (tasks/cancel), and this waits (1.5 s at most)
   * for those requests to get there. Nobody would end those tasks afterwards, and a server would keep
   * each waiting for input for ever. The servers are taken now: the registry is disposed right after.
   */
  async taskCancelsSent(callsEnded: Promise<unknown>): Promise<void> {
    const servers = [...this.connections.values()];
    await callsEnded.catch(() => undefined);
    await Promise.all(servers.map((server) => server.taskCancelsSent()));
  }

  dispose(): void {
    for (const recovery of this.recoveries.values()) recovery.dispose();
    this.recoveries.clear();
    for (const watcher of [...this.outsideWatchers.values(), ...this.devWatchers.values()]) watcher.dispose();
    this.outsideWatchers.clear();
    this.devWatchers.clear();
    void stopAllNow(this.connections.values());
    this.connections.clear();
    for (const channel of this.serverLogs.values()) channel.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The workspace folders on disk, as MCP roots: what servers such as a filesystem server may work in. */
function workspaceRoots(): McpRoot[] {
  return localFolders().map((f) => ({ uri: f.uri.toString(), name: f.name }));
}
