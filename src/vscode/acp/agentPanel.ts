/**
 * One agent session in an editor tab: the agent's process (AcpConnection),
 * its ACP session in a workspace folder, and a webview showing the transcript
 * with a prompt box, Stop and Restart. The HTML is a fixed shell under a strict
 * CSP; every word from the agent travels by postMessage (agentPanelProtocol.ts)
 * and is inserted as text by webview/agent/main.ts. Closing the tab ends the process.
 */
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { AgentRequestError, sessionFailure } from '../../acp/agentErrors';
import { closeSession, logout, offersOf, reopenSession } from '../../acp/agentSessions';
import { AuthRequiredError, type AcpConnection, type AcpEvent } from '../../acp/connection';
import { subjectForCaller } from '../../mcp/connectionTypes';
import { configOptionRequest, configValueName as valueNameIn } from '../../acp/configOptions';
import { SessionControls } from '../../acp/sessionControls';
import { NotSignedInError } from '../../acp/signIn';
import type { EnvVarAuthMethod } from '../../acp/authMethods';
import { Transcript } from '../../acp/transcript';
import {
  AGENT_VIEW_TYPE,
  isAgentPanelToHost,
  type AgentPanelState,
  type AgentPanelToHost,
  type ConfigOptionView,
  type HostToAgentPanel,
} from '../../core/protocols/agentPanelProtocol';
import { clip, inertText } from '../../core/display';
import { WebviewHost } from '../webviewHost';
import { createAgentConnection, refusedKeyRetried, signedIn, type AgentContext } from './agentConnection';
import { errorText } from '../../core/errors';
import type { OfferedServers } from './agentServers';
import type { AnsweredQuestion } from '../../core/broker/broker';

/** Streamed chunks are batched into one message per interval. */
const FLUSH_MS = 40;

export interface AgentPanelOptions extends AgentContext {
  extensionUri: vscode.Uri;
  title: string;
  column: vscode.ViewColumn;
  /** A panel VS Code restored after a reload, to take over instead of opening a new one. */
  panel?: vscode.WebviewPanel;
  /** A past session to open (after a reload, or picked in Resume Agent Session) instead of a new one. */
  resume?: { sessionId: string; why: 'reload' | 'picked' };
  /** The agent, already started (and signed in) by Resume Agent Session. */
  started?: AcpConnection;
}

interface OpenedSession {
  sessionId: string;
  response: { modes?: unknown } | undefined;
}

export class AgentPanel implements vscode.Disposable {
  private readonly panel: WebviewHost<HostToAgentPanel, AgentPanelToHost>;
  private readonly transcript: Transcript;
  private readonly disposables: vscode.Disposable[] = [];
  private connection: AcpConnection | undefined;
  private sessionId: string | undefined;
  /** The method whose key Elicit sent in `authenticate` for this session: a refusal at the first turn asks again. */
  private keyMethod: EnvVarAuthMethod | undefined;
  private controls = new SessionControls();
  private state: AgentPanelState;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** Aborted when the panel closes: a sign-in in progress gives up. */
  private readonly closing = new AbortController();
  /** The session to reopen on the first start only; Restart after a crash opens a new one. */
  private resume: AgentPanelOptions['resume'];
  private started: AcpConnection | undefined;
  /** The person's MCP servers this session was given, with its grant (revoked when the session ends). */
  private offered: OfferedServers | undefined;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(private readonly options: AgentPanelOptions) {
    this.panel = new WebviewHost(options.extensionUri, {
      viewType: AGENT_VIEW_TYPE,
      title: inertText(clip(options.title, 60)),
      pageTitle: 'Agent',
      script: 'agent',
      isMessage: isAgentPanelToHost,
      column: options.column,
      restored: options.panel,
    });
    this.resume = options.resume;
    this.started = options.started;
    this.transcript = new Transcript(options.cwd);
    this.state = { agent: options.agent.name, cwd: options.cwd, status: 'starting', canRestart: false };
    this.disposables.push(
      this.panel.onMessage((message) => this.onMessage(message)),
      this.panel.onDidDispose(() => this.dispose()),
      options.services.broker.onDidAnswer((answered) => this.serverQuestionEnded(answered)),
    );
    void this.start();
  }

  /** `signInFirst`: the person pressed Sign In after a failed start. */
  private async start(signInFirst = false): Promise<void> {
    const { agent, services, cwd } = this.options;
    this.sessionId = undefined;
    this.keyMethod = undefined;
    this.controls = new SessionControls();
    this.setState({
      status: 'starting',
      error: undefined,
      canRestart: false,
      canSignIn: false,
      modes: undefined,
      configOptions: undefined,
      commands: undefined,
      canSignOut: false,
    });
    const started = this.started;
    this.started = undefined;
    if (started) this.adopt(started);
    try {
      const { connection, result, keyMethod } = await signedIn<OpenedSession>(this.options, {
        start: (secretEnv) => this.connect(secretEnv),
        started,
        attempt: (c) => this.openSession(c),
        signInFirst,
        notice: (severity, text) => this.notice(severity, text),
        signal: this.closing.signal,
      });
      if (this.connection !== connection || this.disposed) return;
      this.sessionId = result.sessionId;
      this.keyMethod = keyMethod;
      this.controls.opened(result.response as Parameters<SessionControls['opened']>[0]);
      const init = connection.initializeResponse;
      const who = init?.agentInfo?.title ?? init?.agentInfo?.name;
      services.log.info(`${agent.name}: session ${result.sessionId} in ${cwd}${who ? ` (${who} ${init?.agentInfo?.version ?? ''})` : ''}`);
      this.setState({ status: 'idle', sessionId: result.sessionId, ...this.controlsState(), canSignOut: this.canSignOut(connection) });
    } catch (error) {
      if (this.disposed) return;
      const connection = this.connection;
      const message = await this.failureMessage(error, connection);
      if (this.disposed) return;
      services.log.error(`${agent.name}: ${message}`);
      this.failed(message);
      // An agent may fail for want of a sign-in without saying so (claude-agent-acp offline): offer its ways.
      if (error instanceof AgentRequestError && (connection?.authMethods.length ?? 0) > 0) this.setState({ canSignIn: true });
      if (connection) void connection.stop();
    }
  }

  /** Starts the agent with these variables in its environment, after stopping the one before. */
  private async connect(secretEnv: Record<string, string>): Promise<AcpConnection> {
    const previous = this.connection;
    this.connection = undefined;
    if (previous) await previous.stop();
    if (this.disposed) throw new NotSignedInError('The agent panel was closed.');
    const connection = createAgentConnection(this.options, secretEnv);
    this.adopt(connection);
    await connection.start();
    return connection;
  }

  private adopt(connection: AcpConnection): void {
    this.connection = connection;
    connection.onEvent((event) => this.onEvent(connection, event));
  }

  /** Why the start failed, for the banner: the agent's error with its details and its last stderr lines, all of them in. */
  private async failureMessage(error: unknown, connection: AcpConnection | undefined): Promise<string> {
    const message = errorText(error);
    if (!(error instanceof AgentRequestError)) return message;
    return sessionFailure(this.options.agent.name, error, (await connection?.stderrSettled()) ?? []);
  }

  /**
   * `session/new`; or, for a session to reopen, `session/load` (its replayed
   * updates refill the transcript) or `session/resume` when the agent offers
   * one of them. A session that cannot be reopened becomes a new one, and the
   * transcript says so.
   */
  private async openSession(connection: AcpConnection): Promise<OpenedSession> {
    const { cwd, agent } = this.options;
    const resume = this.resume;
    const servers = await this.offerServers(connection);
    const fresh = async (): Promise<OpenedSession> => {
      const response = await connection.newSession(cwd, servers);
      return { sessionId: response.sessionId, response };
    };
    if (resume === undefined) return fresh();
    const offers = offersOf(connection.initializeResponse);
    if (!offers.load && !offers.resume) {
      this.resume = undefined;
      this.notice(
        'info',
        vscode.l10n.t('{0} cannot resume a session, so this is a new one. The earlier conversation is not shown.', agent.name),
      );
      return fresh();
    }
    let reopened: Awaited<ReturnType<typeof reopenSession>>;
    try {
      reopened = await reopenSession(connection, resume.sessionId, cwd, servers);
    } catch (error) {
      if (error instanceof AuthRequiredError) throw error; // kept for after signing in
      this.resume = undefined;
      this.notice('warning', vscode.l10n.t('{0} could not resume the session ({1}), so this is a new one.', agent.name, errorText(error)));
      return fresh();
    }
    this.resume = undefined;
    const how =
      resume.why === 'reload' ? vscode.l10n.t('Resumed the session after the window reloaded.') : vscode.l10n.t('Resumed the session.');
    this.notice(
      'info',
      reopened.replayed ? how : `${how} ${vscode.l10n.t('{0} continues it without showing the earlier messages.', agent.name)}`,
    );
    return { sessionId: resume.sessionId, response: reopened.response };
  }

  /**
   * The person's MCP servers for the session about to open, with a grant of its own (a new one
   * for each start, resume or reload; the one before is revoked), shown in the panel's header.
   */
  private async offerServers(connection: AcpConnection): Promise<acp.McpServer[]> {
    this.revokeServers();
    const offered = await this.options.servers.offer(this.options.agent, connection.initializeResponse, () => this.callerName());
    if (this.connection !== connection || this.disposed) {
      offered.grant?.revoke();
      return [];
    }
    this.offered = offered;
    this.transcript.setMcpServers(offered.grant?.endpoints ?? []);
    this.setState({
      servers: { names: offered.servers, via: offered.via, ...(offered.missing.length ? { missing: offered.missing } : {}) },
    });
    if (offered.servers.length > 0) {
      this.options.log.info(
        `[elicit] this session gets ${offered.servers.length} MCP servers (${offered.via}): ${offered.servers.join(', ')}`,
      );
    }
    return offered.entries;
  }

  /** The session's grant ends: its token is refused, and its calls still running end. */
  private revokeServers(why?: string): void {
    this.offered?.grant?.revoke(why);
    this.offered = undefined;
  }

  /**
   * A question one of the person's servers asked during this session's call ended: the
   * transcript says so, and why a call that needed it may fail (declined, cancelled, closed).
   */
  private serverQuestionEnded({ question, result, reason }: AnsweredQuestion): void {
    const { asker } = question.request;
    if (asker.kind !== 'mcp' || this.sessionId === undefined) return;
    const subject = subjectForCaller(asker.detail, this.callerName());
    if (subject === undefined) return;
    const notices: Record<string, () => string> = {
      accept: () => vscode.l10n.t('{0} asked you for {1}: answered.', asker.name, subject),
      decline: () =>
        vscode.l10n.t('{0} asked you for {1}: you declined, so the call goes on without your answer (it may fail).', asker.name, subject),
      cancel: () =>
        reason === undefined
          ? vscode.l10n.t('{0} asked you for {1}: you cancelled, so the call may fail.', asker.name, subject)
          : vscode.l10n.t('{0} asked you for {1}: the question closed unanswered ({2}).', asker.name, subject, reason),
    };
    this.notice(result.action === 'accept' ? 'info' : 'warning', (notices[result.action] ?? notices.cancel!)());
  }

  /** Who a server's question is for: "claude, session 1a2b3c4d". */
  private callerName(): string {
    const session = this.sessionId;
    return session === undefined ? this.options.agent.name : `${this.options.agent.name}, session ${session.slice(0, 8)}`;
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
    if (event.kind === 'update' && this.controls.apply(event.update)) {
      if (event.update.sessionUpdate === 'current_mode_update') {
        this.notice(
          'info',
          vscode.l10n.t('{0} switched to the {1} mode.', this.options.agent.name, this.controls.modeName(event.update.currentModeId)),
        );
      }
      this.setState(this.controlsState());
    }
    if (event.kind === 'exit') this.revokeServers();
    if (event.kind === 'exit' && !event.expected) this.failed(event.message);
    this.scheduleFlush();
  }

  private failed(message: string): void {
    if (this.state.status === 'exited' && this.state.error === message) return; // the exit and the failed start tell the same
    this.notice('error', message);
    this.setState({ status: 'exited', error: message, canRestart: true });
  }

  private onMessage(message: AgentPanelToHost): void {
    if (this.disposed) return;
    switch (message.type) {
      case 'ready':
        this.transcript.takeChanges();
        this.post({ type: 'reset', state: this.state, items: this.transcript.all(), sentAt: Date.now() });
        return;
      case 'prompt':
        void this.prompt(message);
        return;
      case 'stop':
        void this.stop();
        return;
      case 'restart':
        if (this.state.status === 'exited') {
          this.notice('info', vscode.l10n.t('Restarting {0} in a new session.', this.options.agent.name));
          void this.start();
        }
        return;
      case 'showLog':
        this.options.log.show();
        return;
      case 'setMode':
        void this.setMode(message.modeId);
        return;
      case 'setConfigOption':
        void this.setConfigOption(message.configId, message.value);
        return;
      case 'signOut':
        void this.signOut();
        return;
      case 'signIn':
        if (this.state.status === 'exited') void this.start(true);
        return;
      case 'chooseServers':
        void vscode.commands.executeCommand('elicit.chooseAgentServers', this.options.agent.name);
        return;
    }
  }

  /** `session/set_mode`; the panel shows the new mode once the agent accepted it. */
  private async setMode(modeId: string): Promise<void> {
    const connection = this.connection;
    const sessionId = this.sessionId;
    const name = this.controls.modeName(modeId);
    if (!connection || sessionId === undefined || !this.controls.modes?.available.some((m) => m.id === modeId)) return;
    if (this.controls.modes.current === modeId) return;
    try {
      await connection.request('session/set_mode', { sessionId, modeId });
      if (this.connection !== connection) return;
      this.controls.setCurrent(modeId);
      this.notice('info', vscode.l10n.t('Mode: {0}.', name));
    } catch (error) {
      if (this.connection !== connection || connection.status === 'exited') return;
      this.notice('warning', vscode.l10n.t('{0} did not switch to {1}: {2}', this.options.agent.name, name, errorText(error)));
    }
    // Also after a refusal: the panel's menu goes back to the mode in force.
    this.setState(this.controlsState());
  }

  /**
   * `session/set_config_option`; the panel then shows the values the agent
   * answered with (which may change other options too, e.g. the efforts a
   * model offers). A refusal is said in the transcript and beside the option,
   * and the option shows the value still in force.
   */
  private async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const connection = this.connection;
    const sessionId = this.sessionId;
    const option = this.controls.configOption(configId);
    if (!connection || sessionId === undefined || !option) return;
    const request = configOptionRequest(sessionId, option, value);
    if (!request) return;
    const words = { on: vscode.l10n.t('On'), off: vscode.l10n.t('Off') };
    const configValueName = (of: ConfigOptionView | undefined, v: string | boolean): string => valueNameIn(of, v, words);
    const valueName = configValueName(option, value);
    try {
      const response = await connection.request('session/set_config_option', request);
      if (this.connection !== connection) return;
      this.controls.setConfigOptions(response?.configOptions);
      const now = this.controls.configOption(configId);
      if (now && now.current !== value) {
        const inForce = configValueName(now, now.current);
        this.controls.configRefused(configId, vscode.l10n.t('{0} kept {1}.', this.options.agent.name, inForce));
        this.notice(
          'warning',
          vscode.l10n.t('{0} did not set {1} to {2}; it is {3}.', this.options.agent.name, option.name, valueName, inForce),
        );
      } else {
        this.notice('info', vscode.l10n.t('{0}: {1}.', option.name, valueName));
      }
    } catch (error) {
      if (this.connection !== connection || connection.status === 'exited') return;
      const why = errorText(error);
      this.controls.configRefused(configId, why);
      const inForce = configValueName(this.controls.configOption(configId), option.current);
      this.notice(
        'warning',
        vscode.l10n.t('{0} did not set {1} to {2}: {3}. It is still {4}.', this.options.agent.name, option.name, valueName, why, inForce),
      );
    }
    // Also after a refusal: the panel's menu goes back to the value in force.
    this.setState(this.controlsState());
  }

  /**
   * Sign Out: the agent's `logout` where it offers one, and the keys saved for
   * it forgotten; the session ends, and Restart signs in again.
   */
  private async signOut(): Promise<void> {
    const { agent, keys } = this.options;
    const signOut = vscode.l10n.t('Sign Out');
    const choice = await vscode.window.showWarningMessage(
      inertText(vscode.l10n.t('Sign out of {0}?', agent.name)),
      {
        modal: true,
        detail: vscode.l10n.t('This session ends, and the key Elicit saved for this agent (if any) is forgotten. Restart signs in again.'),
      },
      signOut,
    );
    if (choice !== signOut || this.disposed) return;
    const connection = this.connection;
    const sessionId = this.sessionId;
    this.connection = undefined; // its exit is expected now
    let loggedOut = false;
    if (connection) {
      try {
        loggedOut = await logout(connection);
      } catch (error) {
        this.notice('warning', vscode.l10n.t('{0} could not log out: {1}', agent.name, errorText(error)));
      }
    }
    await keys.forgetAgent(agent);
    if (connection) {
      if (sessionId !== undefined) await closeSession(connection, sessionId);
      await connection.stop();
    }
    this.sessionId = undefined;
    const message = loggedOut
      ? vscode.l10n.t('Signed out of {0}. Restart to sign in again.', agent.name)
      : vscode.l10n.t('Signed out of {0} (its saved key is forgotten). Restart to sign in again.', agent.name);
    this.notice('info', message);
    this.setState({
      status: 'exited',
      error: message,
      canRestart: true,
      canSignOut: false,
      modes: undefined,
      configOptions: undefined,
      commands: undefined,
    });
  }

  private controlsState(): Partial<AgentPanelState> {
    return {
      modes: this.controls.modes,
      configOptions: this.controls.configOptions,
      commands: this.controls.commands.length > 0 ? this.controls.commands : undefined,
    };
  }

  private canSignOut(connection: AcpConnection): boolean {
    return offersOf(connection.initializeResponse).logout || this.options.keys.has(this.options.agent);
  }

  private async prompt(message: Extract<AgentPanelToHost, { type: 'prompt' }>): Promise<void> {
    const connection = this.connection;
    const sessionId = this.sessionId;
    if (!connection || sessionId === undefined || this.state.status !== 'idle') return;
    this.transcript.user(message.text);
    this.setState({ status: 'working' });
    this.scheduleFlush();
    try {
      const run = (): ReturnType<AcpConnection['prompt']> => connection.prompt(sessionId, message.text);
      const method = this.keyMethod;
      const stopReason = method
        ? await refusedKeyRetried(this.options, {
            connection,
            method,
            run,
            notice: (severity, text) => this.notice(severity, text),
            signal: this.closing.signal,
          })
        : await run();
      if (this.connection !== connection) return;
      this.transcript.turnEnded(stopReason);
      this.setState({ status: 'idle' });
    } catch (error) {
      if (this.connection !== connection || connection.status === 'exited') return; // the exit event tells
      this.transcript.notice('error', errorText(error));
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

  /** The open ACP session, if any. */
  get currentSession(): string | undefined {
    return this.sessionId;
  }

  reveal(): void {
    this.panel.reveal();
  }

  private setState(change: Partial<AgentPanelState>): void {
    this.state = { ...this.state, ...change };
    for (const key of ['error', 'modes', 'configOptions', 'commands'] as const) if (this.state[key] === undefined) delete this.state[key];
    this.post({ type: 'state', state: this.state });
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.disposed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      if (!this.panel.isReady) return;
      const items = this.transcript.takeChanges();
      if (items.length > 0) this.post({ type: 'items', items, sentAt: Date.now() });
    }, FLUSH_MS);
  }

  private post(message: HostToAgentPanel): void {
    if (!this.disposed) this.panel.postIfReady(message);
  }

  /** The person closed the tab: its session is closed (session/close, when offered), then the agent ends. */
  dispose(): void {
    this.end(true);
  }

  /**
   * The window reloads or closes: the agent ends but its session stays open,
   * so the restored tab can resume it.
   */
  shutdown(): void {
    this.end(false);
  }

  private end(closeSession: boolean): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.flushTimer);
    this.closing.abort();
    this.revokeServers();
    const connection = this.connection;
    this.connection = undefined;
    if (connection) void closeThenStop(connection, closeSession ? this.sessionId : undefined);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}

async function closeThenStop(connection: AcpConnection, sessionId: string | undefined): Promise<void> {
  if (sessionId !== undefined) await closeSession(connection, sessionId);
  await connection.stop();
}
