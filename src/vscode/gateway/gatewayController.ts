/**
 * The gateway in VS Code: what Start / Stop / Copy Config / Rotate Token do,
 * a status bar item while it runs, the token in SecretStorage, and (when VS
 * Code supports it) registration with VS Code's own MCP support so its agents
 * can use `ask_user` too. Off in an untrusted workspace.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { inertText } from '../../core/display';
import { SETTING, settings } from '../settings';
import { askToolQuestion } from '../../core/askUser/toolQuestions';
import { clipboardAccess } from '../clipboardApproval';
import { locationAccess } from '../locationPrompt';
import { gatewaySnippets } from '../../gateway/configSnippets';
import { portHolder } from '../../process/portHolder';
import { afterStart, choosePort, gatewayUrl, standsBy, type Holder, type ServedBy } from '../../gateway/portChoice';
import { PortWatch } from '../../gateway/portWatch';
import type { GatewayServer } from '../../gateway/gatewayServer';
import type { Services } from '../services';
import { errorText } from '../../core/errors';
import { KEPT_OPEN } from '../keptOpen';

const TOKEN_KEY = 'elicit.gateway.token';
/** The port this workspace's gateway ran on last (workspace state; see gateway/portChoice.ts). */
const WORKSPACE_PORT_KEY = 'elicit.gateway.workspacePort';
/** The one port every window shared before each workspace kept its own (global state). */
const SHARED_PORT_KEY = 'elicit.gateway.lastPort';
/** Which workspace's window served the configured port last (global state, a ServedBy). */
const SERVED_BY_KEY = 'elicit.gateway.servedBy';
/** This workspace's id for SERVED_BY_KEY (workspace state; random, so it says nothing of the folder). */
const WORKSPACE_ID_KEY = 'elicit.gateway.workspaceId';

/** What an agent's call still running at Reload Window (or as the window closes) ends with. */
export const WINDOW_CLOSED =
  'The VS Code window closed or reloaded before this call ended, so Elicit stopped it. Call the tool again once the window is open.';

export class GatewayController implements vscode.Disposable {
  private server: GatewayServer | undefined;
  /** Set while another window serves the configured port and this one stands by (portWatch.ts). */
  private standby: { watch: PortWatch; port: number } | undefined;
  private token = '';
  private readonly status = vscode.window.createStatusBarItem('elicit.gateway', vscode.StatusBarAlignment.Right, 100);
  private readonly definitionsChanged = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: Services,
  ) {
    this.status.name = vscode.l10n.t('Elicit Gateway');
    this.status.command = 'elicit.copyGatewayConfig';
    this.disposables.push(
      this.status,
      this.definitionsChanged,
      services.registry.onDidChange(() => void this.server?.toolsChanged()),
      // Another window replaces the token both keep when it finds a stranger on the port (or on Rotate Token):
      // this one takes it too, or its proofs would fail there and its clients keep a token a stranger may hold.
      context.secrets.onDidChange((e) => {
        if (e.key === TOKEN_KEY) void this.takeStoredToken();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SETTING.gatewayEnabled)) return;
        if (settings.gatewayEnabled()) void this.start(false);
        else void this.stop();
      }),
    );
    this.registerWithVsCode();
  }

  /**
   * `interactive`: the person ran Start Gateway (they are told how it went, and it takes a free
   * configured port at once). `takeOver`: the configured port stayed free while this window stood by.
   */
  async start(interactive: boolean, takeOver = false): Promise<void> {
    if (this.server?.running) {
      if (interactive)
        void vscode.window.showInformationMessage(inertText(vscode.l10n.t('The Elicit gateway is running at {0}.', this.server.url)));
      return;
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The Elicit gateway stays off in an untrusted workspace.'));
      return;
    }
    this.endStandby();
    // Keep the same port across restarts when possible, so pasted configurations stay valid.
    const tried = choosePort({
      configured: settings.gatewayPort(),
      workspace: this.context.workspaceState.get<number>(WORKSPACE_PORT_KEY, 0),
      shared: this.services.globalState.get<number>(SHARED_PORT_KEY, 0),
    });
    const preferred = tried.port;
    if (!interactive && !takeOver && standsBy(tried, this.services.globalState.get<ServedBy>(SERVED_BY_KEY), await this.workspaceId())) {
      this.token = await this.sharedToken();
      this.standBy(preferred);
      return;
    }
    this.token = await this.currentToken();
    // The server package is loaded when the gateway first starts (dist/gateway.js, see esbuild.mjs), not at activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
    const { GatewayServer } = require('../../gateway/gatewayServer') as typeof import('../../gateway/gatewayServer');
    let server = this.create(GatewayServer, preferred);
    let holder: Holder | undefined;
    try {
      await server.start();
    } catch (error) {
      // Clients keep the address they were given: whoever holds it now would get their token.
      holder = preferred ? await portHolder(preferred, this.token) : 'free';
      if (holder === 'other') await this.newToken();
      if (tried.source === 'setting' && holder === 'elicit') {
        // Another window serves the configured port: its agents stay with it.
        this.standBy(preferred);
        if (interactive)
          void vscode.window.showInformationMessage(
            inertText(vscode.l10n.t('The Elicit gateway at {0} is served by another VS Code window.', gatewayUrl(preferred))),
          );
        return;
      }
      if (tried.source === 'setting' || !preferred) {
        const why =
          holder === 'other'
            ? vscode.l10n.t(
                'Port {0} is held by a program that did not prove it is Elicit. The gateway token was replaced, so a client that sends it the old one gives away nothing.',
                preferred,
              )
            : errorText(error);
        void vscode.window.showErrorMessage(inertText(vscode.l10n.t('Elicit gateway could not start: {0}', why)));
        return;
      }
      server = this.create(GatewayServer, 0);
      await server.start();
    }
    this.server = server;
    const keep = afterStart(tried, server.port, holder);
    if (keep.keepForWorkspace) await this.context.workspaceState.update(WORKSPACE_PORT_KEY, server.port);
    if (keep.forgetShared) await this.services.globalState.update(SHARED_PORT_KEY, undefined);
    if (tried.source === 'setting')
      await this.services.globalState.update(SERVED_BY_KEY, { workspace: await this.workspaceId(), port: server.port } satisfies ServedBy);
    this.status.text = `$(broadcast) ${vscode.l10n.t('Elicit gateway')}`;
    this.status.tooltip = inertText(vscode.l10n.t('Elicit gateway on {0} — click to copy a client configuration', server.url));
    this.status.show();
    this.definitionsChanged.fire();
    if (holder === 'other') {
      const choice = await vscode.window.showWarningMessage(
        inertText(
          vscode.l10n.t(
            'Port {0}, where the Elicit gateway ran before, is held by a program that did not prove it is Elicit. Clients still set up with that address would send it their token, so the gateway now runs at {1} with a new token: copy the new configuration into your clients.',
            preferred,
            server.url,
          ),
        ),
        vscode.l10n.t('Copy Config'),
      );
      if (choice) await this.copyConfig();
    } else if (interactive) {
      const choice = await vscode.window.showInformationMessage(
        inertText(vscode.l10n.t('Elicit gateway running at {0}.', server.url)),
        vscode.l10n.t('Copy Config'),
      );
      if (choice) await this.copyConfig();
    }
  }

  /** `why` is what each call still running gets as its error result (the agent's model reads it). */
  async stop(why?: string): Promise<void> {
    this.endStandby();
    const server = this.server;
    this.server = undefined;
    this.status.hide();
    this.definitionsChanged.fire();
    await server?.stop(why);
  }

  /** As the window closes (deactivate, awaited): calls still running end with an error that says so. */
  closeWithWindow(): Promise<void> {
    return this.stop(WINDOW_CLOSED);
  }

  async copyConfig(): Promise<void> {
    const url = this.server?.running ? this.server.url : this.standby ? gatewayUrl(this.standby.port) : undefined;
    if (url && !this.server?.running) {
      // The other window serves it with the token both windows keep; it may have been replaced since.
      this.token = await this.sharedToken();
    } else if (!url) {
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('The Elicit gateway is not running.'),
        vscode.l10n.t('Start Gateway'),
      );
      if (!choice) return;
      await this.start(false);
      // Running here, or standing by for another window that serves the configured port: its address then.
      if (!this.server?.running && !this.standby) return;
      return this.copyConfig();
    }
    const picked = await vscode.window.showQuickPick(
      gatewaySnippets(url, this.token).map((snippet) => ({
        label: inertText(snippet.label),
        detail: inertText(snippet.detail),
        snippet,
      })),
      {
        title: vscode.l10n.t('Copy Elicit Gateway Config'),
        placeHolder: vscode.l10n.t('Which client should use the gateway?'),
        ...KEPT_OPEN,
      },
    );
    if (!picked) return;
    await vscode.env.clipboard.writeText(picked.snippet.text);
    void vscode.window.showInformationMessage(
      inertText(vscode.l10n.t('Copied the {0} configuration. It contains your gateway token: keep it private.', picked.label)),
    );
  }

  async rotateToken(): Promise<void> {
    await this.newToken();
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('The Elicit gateway has a new token; clients using the old one are refused from now on.'),
      vscode.l10n.t('Copy Config'),
    );
    if (choice) await this.copyConfig();
  }

  /** Another window serves the configured port: this one shows so, and takes the port over if that window closes. */
  private standBy(port: number): void {
    this.endStandby();
    const watch = new PortWatch({
      port,
      // Read each time: Rotate Token in the serving window replaces the token both windows keep.
      token: () => this.sharedToken(),
      // start() ends this watch; it stands by again with a new one if another window was quicker.
      onFree: async (strangerSeen) => {
        // Whoever held the port may have the token clients sent it: the port is taken with a new one.
        if (strangerSeen) await this.newToken();
        await this.start(false, true);
        if (strangerSeen) void this.tokenReplacedAtTakeOver(port);
        return this.server?.running === true;
      },
      // As at a start (see start()): the token clients send there is replaced, so it opens nothing.
      onStranger: () => void this.strangerHolds(port),
    });
    this.standby = { watch, port };
    this.status.text = `$(broadcast) ${vscode.l10n.t('Elicit gateway in another window')}`;
    this.status.tooltip = inertText(
      vscode.l10n.t(
        'The Elicit gateway at {0} is served by another VS Code window, with its servers. This window serves it if that window closes. Click to copy a client configuration.',
        gatewayUrl(port),
      ),
    );
    this.status.show();
  }

  private async strangerHolds(port: number): Promise<void> {
    await this.newToken();
    void vscode.window.showWarningMessage(
      inertText(
        vscode.l10n.t(
          'Port {0} of the Elicit gateway is held by a program that did not prove it is Elicit, since the window that served it closed. The gateway token was replaced, so a client that sends it the old one gives away nothing. Check what runs there, or set another port.',
          port,
        ),
      ),
    );
  }

  private async tokenReplacedAtTakeOver(port: number): Promise<void> {
    const choice = await vscode.window.showWarningMessage(
      inertText(
        vscode.l10n.t(
          'While this window stood by, port {0} of the Elicit gateway was held by a program that did not prove it is Elicit. Clients may have sent it their token, so the gateway token was replaced: copy the new configuration into your clients.',
          port,
        ),
      ),
      vscode.l10n.t('Copy Config'),
    );
    if (choice) await this.copyConfig();
  }

  private endStandby(): void {
    if (!this.standby) return;
    this.standby.watch.dispose();
    this.standby = undefined;
    this.status.hide();
  }

  /** A random id for this workspace, made once (SERVED_BY_KEY). */
  private async workspaceId(): Promise<string> {
    let id = this.context.workspaceState.get<string>(WORKSPACE_ID_KEY);
    if (!id) {
      id = randomBytes(16).toString('hex');
      await this.context.workspaceState.update(WORKSPACE_ID_KEY, id);
    }
    return id;
  }

  /** The token another window stored, taken as this window's own (clients holding the old one are refused from now on). */
  private async takeStoredToken(): Promise<void> {
    const stored = await this.context.secrets.get(TOKEN_KEY);
    if (!stored || stored === this.token) return;
    this.token = stored;
    this.definitionsChanged.fire();
  }

  /** Replaces the token: clients holding the old one are refused from now on. */
  private async newToken(): Promise<void> {
    this.token = randomBytes(32).toString('base64url');
    await this.context.secrets.store(TOKEN_KEY, this.token);
    this.definitionsChanged.fire();
  }

  private create(Gateway: typeof GatewayServer, port: number): GatewayServer {
    const log = this.services.log;
    return new Gateway({
      token: () => this.token,
      port,
      version: String(this.context.extension.packageJSON.version ?? '0.0.0'),
      log: (line) => log.info(line),
      ask: (asker, question, signal) =>
        askToolQuestion(
          {
            ask: (request) => this.services.broker.ask(request),
            saveSecret: (name, value) => this.services.vault.storeNamed(name, value),
            clipboard: clipboardAccess(this.services.broker),
            location: locationAccess(this.services.broker),
          },
          asker,
          question,
          signal,
        ),
      upstream: {
        // By the names agents see: the person's own servers keep theirs over a workspace's (registry.serversForAgents).
        list: async () => {
          const all = await Promise.all(
            (await this.services.registry.serversForAgents()).map(async ({ agentName, server }) =>
              (await server.listTools().catch(() => [])).map((tool) => ({ server: agentName, tool })),
            ),
          );
          return all.flat();
        },
        call: async (serverName, tool, args, signal) => {
          const server = (await this.services.registry.serversForAgents()).find((s) => s.agentName === serverName)?.server;
          if (!server) return { content: [{ type: 'text', text: `No server named ${serverName}` }], isError: true };
          // The agent's call ends with the window (it gets WINDOW_CLOSED and calls again): its rounds are not kept.
          return server.callTool(tool, args, signal, undefined, { keepRoundsAcrossReload: false });
        },
      },
    });
  }

  /**
   * The token the serving window keeps, as a standby window reads it: never a new one. A window
   * standing by that made one when its read came back empty would replace the serving window's.
   */
  private async sharedToken(): Promise<string> {
    return (await this.context.secrets.get(TOKEN_KEY)) ?? this.token;
  }

  private async currentToken(): Promise<string> {
    let token = await this.context.secrets.get(TOKEN_KEY);
    if (!token) {
      token = randomBytes(32).toString('base64url');
      await this.context.secrets.store(TOKEN_KEY, token);
    }
    return token;
  }

  /** Lets VS Code's own agents use the gateway while it runs. */
  private registerWithVsCode(): void {
    if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function') return;
    this.disposables.push(
      vscode.lm.registerMcpServerDefinitionProvider('elicit.gateway', {
        onDidChangeMcpServerDefinitions: this.definitionsChanged.event,
        provideMcpServerDefinitions: () =>
          this.server?.running
            ? [
                new vscode.McpHttpServerDefinition('Elicit gateway', vscode.Uri.parse(this.server.url), {
                  Authorization: `Bearer ${this.token}`,
                }),
              ]
            : [],
      }),
    );
  }

  dispose(): void {
    void this.stop();
    for (const d of this.disposables) d.dispose();
  }
}
