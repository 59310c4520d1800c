/**
 * One agent session in an editor tab: the agent's process (AcpConnection),
 * its ACP session in a workspace folder, and a webview showing the transcript
 * with a prompt box, Stop and Restart. The HTML is a fixed shell under a strict
 * CSP; every word from the agent travels by postMessage (agentPanelProtocol.ts)
 * and is inserted as text by webview/agent/main.ts. Closing the tab ends the process.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AcpConnection, AuthRequiredError, type AcpEvent } from '../../acp/connection';
import { AGENTS_SETTING_SOURCE, type AgentConfig } from '../../acp/config';
import { Transcript } from '../../acp/transcript';
import {
  isAgentPanelToHost,
  type AgentPanelState,
  type AgentPanelToHost,
  type HostToAgentPanel,
} from '../../core/agentPanelProtocol';
import { clip, inertText } from '../../core/display';
import type { Services } from '../services';
import { askPermission } from './permissionPrompt';
import { askSignIn } from './signInPrompt';
import { readWorkspaceText, writeWorkspaceText } from './workspaceFiles';
import { localFolders } from '../localFolders';
import { webviewShell } from '../webviewShell';
import { commandOrigin, withOrigin } from '../../core/origin';

export const AGENT_VIEW_TYPE = 'elicit.agent';
/** Streamed chunks are batched into one message per interval. */
const FLUSH_MS = 40;

export interface AgentPanelOptions {
  extensionUri: vscode.Uri;
  services: Services;
  agent: AgentConfig;
  /** The session's working directory: a workspace folder. */
  cwd: string;
  title: string;
  column: vscode.ViewColumn;
  log: vscode.LogOutputChannel;
  clientVersion: string;
  /** A panel VS Code restored after a reload, to take over instead of opening a new one. */
  panel?: vscode.WebviewPanel;
  /** The session that panel showed: resumed with `session/load` when the agent can. */
  resume?: string;
}

export class AgentPanel implements vscode.Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly transcript: Transcript;
  private readonly disposables: vscode.Disposable[] = [];
  private connection: AcpConnection | undefined;
  private sessionId: string | undefined;
  private state: AgentPanelState;
  private ready = false;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** The session to resume on the first start only; Restart after a crash opens a new one. */
  private resume: string | undefined;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(private readonly options: AgentPanelOptions) {
    const scripts = vscode.Uri.joinPath(options.extensionUri, 'dist', 'webview');
    const media = vscode.Uri.joinPath(options.extensionUri, 'media');
    const webviewOptions = { enableScripts: true, localResourceRoots: [scripts, media] };
    if (options.panel) {
      this.panel = options.panel;
      this.panel.webview.options = webviewOptions;
      this.panel.title = inertText(clip(options.title, 60));
    } else {
      this.panel = vscode.window.createWebviewPanel(
        AGENT_VIEW_TYPE,
        inertText(clip(options.title, 60)),
        { viewColumn: options.column, preserveFocus: false },
        { ...webviewOptions, retainContextWhenHidden: false },
      );
    }
    this.resume = options.resume;
    const icon = vscode.Uri.joinPath(options.extensionUri, 'media', 'icon.svg');
    if (icon.scheme === 'file' && existsSync(icon.fsPath)) this.panel.iconPath = icon;
    const webview = this.panel.webview;
    webview.html = webviewShell(webview, vscode.Uri.joinPath(scripts, 'agent.js'), 'Agent', vscode.Uri.joinPath(media, 'agent.css'));
    this.transcript = new Transcript(options.cwd);
    this.state = { agent: options.agent.name, cwd: options.cwd, status: 'starting', canRestart: false };
    this.disposables.push(
      webview.onDidReceiveMessage((message: unknown) => this.onMessage(message)),
      this.panel.onDidDispose(() => this.dispose()),
    );
    void this.start();
  }

  private async start(): Promise<void> {
    const { agent, services, cwd, log } = this.options;
    const connection = new AcpConnection(agent, {
      // Saved answers go back only to the same agent command, not to another agent of that name.
      ask: (request) => services.broker.ask(withOrigin(request, commandOrigin(AGENTS_SETTING_SOURCE, agent.command, agent.args))),
      permission: (prompt, signal) => askPermission(services.broker, prompt, signal),
      readTextFile: (file) => readWorkspaceText(file),
      writeTextFile: (file, content) => writeWorkspaceText(file, content, `${agent.name}: write ${path.basename(file)}`),
      roots: () => localFolders().map((f) => f.uri.fsPath),
      log: (line) => log.info(line),
      urlWaits: services.urlWaits,
      clientInfo: { name: 'elicit', version: this.options.clientVersion },
      defaultCwd: cwd,
    });
    this.connection = connection;
    this.sessionId = undefined;
    connection.onEvent((event) => this.onEvent(connection, event));
    this.setState({ status: 'starting', error: undefined, canRestart: false });
    try {
      const init = await connection.start();
      const sessionId = await this.openSession(connection, cwd);
      if (this.connection !== connection || this.disposed) return;
      this.sessionId = sessionId;
      const who = init.agentInfo?.title ?? init.agentInfo?.name;
      services.log.info(`${agent.name}: session ${sessionId} in ${cwd}${who ? ` (${who} ${init.agentInfo?.version ?? ''})` : ''}`);
      this.setState({ status: 'idle', sessionId });
    } catch (error) {
      if (this.connection !== connection || this.disposed) return;
      const message = error instanceof Error ? error.message : String(error);
      services.log.error(`${agent.name}: ${message}`);
      this.failed(message);
      void connection.stop();
    }
  }

  /** `session/new`, signing in first when the agent asks for it (as often as the person retries). */
  private async openSession(connection: AcpConnection, cwd: string): Promise<string> {
    const name = this.options.agent.name;
    const gone = new AbortController(); // the panel closed or the agent exited meanwhile
    const watch = connection.onEvent((event) => event.kind === 'exit' && gone.abort());
    const closed = this.onDidDispose(() => gone.abort());
    try {
      try {
        return await this.beginSession(connection, cwd);
      } catch (error) {
        if (!(error instanceof AuthRequiredError)) throw error;
      }
      const methods = connection.authMethods;
      if (methods.length === 0) {
        throw new Error(`${name} asks you to sign in but offers no way to do it from the editor: sign in as its documentation says, then Restart.`);
      }
      this.notice('info', `${name} asks you to sign in.`);
      let problem: string | undefined;
      for (;;) {
        const method = await askSignIn(this.options.services.broker, name, methods, problem, gone.signal);
        if (!method) throw new Error(connection.exitMessage ?? `Not signed in to ${name}. Restart to try again.`);
        try {
          await connection.authenticate(method.id);
        } catch (error) {
          problem = `${method.name} failed: ${error instanceof Error ? error.message : String(error)}`;
          this.notice('warning', problem);
          continue;
        }
        this.notice('info', `Signed in to ${name} (${method.name}).`);
        try {
          return await this.beginSession(connection, cwd);
        } catch (error) {
          if (!(error instanceof AuthRequiredError)) throw error;
          problem = `${name} still asks to sign in after ${method.name}`;
          this.notice('warning', problem);
        }
      }
    } finally {
      watch.dispose();
      closed.dispose();
    }
  }

  /**
   * Resumes the restored panel's session when the agent can load sessions (its
   * replayed updates refill the transcript); otherwise, or when that fails, a new one.
   */
  private async beginSession(connection: AcpConnection, cwd: string): Promise<string> {
    const resume = this.resume;
    const name = this.options.agent.name;
    if (resume === undefined) return connection.newSession(cwd);
    if (!connection.canLoadSession) {
      this.resume = undefined;
      this.notice('info', `${name} cannot resume a session, so this is a new one. The conversation before the reload is not shown.`);
      return connection.newSession(cwd);
    }
    try {
      await connection.loadSession(resume, cwd);
    } catch (error) {
      if (error instanceof AuthRequiredError) throw error; // kept for after signing in
      this.resume = undefined;
      this.notice('warning', `${name} could not resume the session (${error instanceof Error ? error.message : String(error)}), so this is a new one.`);
      return connection.newSession(cwd);
    }
    this.resume = undefined;
    this.notice('info', `Resumed the session after the window reloaded.`);
    return resume;
  }

  /** A line in the transcript from Elicit itself, shown at once. */
  private notice(severity: 'info' | 'warning' | 'error', text: string): void {
    this.transcript.notice(severity, text);
    this.scheduleFlush();
  }

  private onEvent(connection: AcpConnection, event: AcpEvent): void {
    if (this.connection !== connection || this.disposed) return;
    if (event.kind === 'update' && this.sessionId !== undefined && event.sessionId !== this.sessionId) return;
    this.transcript.apply(event);
    if (event.kind === 'exit' && !event.expected) this.failed(event.message);
    this.scheduleFlush();
  }

  private failed(message: string): void {
    this.notice('error', message);
    this.setState({ status: 'exited', error: message, canRestart: true });
  }

  private onMessage(message: unknown): void {
    if (this.disposed || !isAgentPanelToHost(message)) return;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.transcript.takeChanges();
        this.post({ type: 'reset', state: this.state, items: this.transcript.all() });
        return;
      case 'prompt':
        void this.prompt(message);
        return;
      case 'stop':
        void this.stop();
        return;
      case 'restart':
        if (this.state.status === 'exited') {
          this.notice('info', `Restarting ${this.options.agent.name} in a new session.`);
          void this.start();
        }
        return;
      case 'showLog':
        this.options.log.show();
        return;
    }
  }

  private async prompt(message: Extract<AgentPanelToHost, { type: 'prompt' }>): Promise<void> {
    const connection = this.connection;
    const sessionId = this.sessionId;
    if (!connection || sessionId === undefined || this.state.status !== 'idle') return;
    this.transcript.user(message.text);
    this.setState({ status: 'working' });
    this.scheduleFlush();
    try {
      const stopReason = await connection.prompt(sessionId, message.text);
      if (this.connection !== connection) return;
      this.transcript.turnEnded(stopReason);
      this.setState({ status: 'idle' });
    } catch (error) {
      if (this.connection !== connection || connection.status === 'exited') return; // the exit event tells
      this.transcript.notice('error', error instanceof Error ? error.message : String(error));
      this.setState({ status: 'idle' });
    }
    this.scheduleFlush();
  }

  private async stop(): Promise<void> {
    if (!this.connection || this.sessionId === undefined || this.state.status !== 'working') return;
    this.setState({ status: 'cancelling' });
    await this.connection.cancel(this.sessionId);
  }

  get agentName(): string {
    return this.options.agent.name;
  }

  private setState(change: Partial<AgentPanelState>): void {
    this.state = { ...this.state, ...change };
    if (this.state.error === undefined) delete this.state.error;
    this.post({ type: 'state', state: this.state });
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.disposed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      if (!this.ready) return;
      const items = this.transcript.takeChanges();
      if (items.length > 0) this.post({ type: 'items', items });
    }, FLUSH_MS);
  }

  private post(message: HostToAgentPanel): void {
    if (this.disposed || !this.ready) return;
    this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.flushTimer);
    const connection = this.connection;
    this.connection = undefined;
    if (connection) void connection.stop();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}
