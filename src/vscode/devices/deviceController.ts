/**
 * Answering on a paired device, in VS Code: the listener's life
 * (on only while the setting is on and a code is open or a device is paired),
 * the certificate and the paired devices in SecretStorage, the person's
 * confirmation of each pairing in a modal dialog, the pairing panel, the
 * device list and a status bar item. The server, the certificate maker and the
 * QR encoder come from their own bundle (dist/device-host.js), loaded when
 * devices are first turned on.
 */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { PairedDevice } from '../../core/device/devices';
import type { PairingClaim } from '../../core/device/pairing';
import type { OtherWindowsForDevices } from '../../core/windows/otherWindowQuestions';
import type { PairingState } from '../../core/protocols/pairingProtocol';
import type { Question } from '../../core/broker/broker';
import { inertText } from '../../core/display';
import type * as DeviceHost from '../../device/deviceHost';
import type { DeviceServer, DeviceServerOptions } from '../../device/deviceServer';
import type { Services } from '../services';
import { SETTING, settings } from '../settings';
import { chooseAddress, isAllInterfaces, urlHost } from './deviceAddress';
import {
  PAIRED_DEVICES_KEY,
  REVOKED_DEVICES_KEY,
  isSaving,
  keepRevoked,
  loadCertificate,
  loadPairedDevices,
  loadProofKey,
  savePairedDevices,
} from './deviceStore';
import { portHolder } from '../../process/portHolder';
import { PairingPanel } from './pairingPanel';
import { errorText } from '../../core/errors';
import { KEPT_OPEN } from '../keptOpen';

const PORT_KEY = 'elicit.devices.lastPort';
/** How often an idle listener checks whether it is still needed (a code ended, a pairing expired). */
const IDLE_CHECK_MS = 15_000;

interface Loaded {
  host: typeof DeviceHost;
  registry: InstanceType<typeof DeviceHost.DeviceRegistry>;
  pairing: InstanceType<typeof DeviceHost.Pairing>;
  pageScript: string;
}

interface Serving {
  server: DeviceServer;
  /** The address setting it was started for. */
  address: string;
  /** The page's address, "https://192.168.1.20:8443/". */
  link: string;
  fingerprint?: string;
}

export class DeviceController implements vscode.Disposable {
  private loading: Promise<Loaded> | undefined;
  private loaded: Loaded | undefined;
  private serving: Serving | undefined;
  private changes: Promise<void> = Promise.resolve();
  private code: { code: string; expiresAt: number } | undefined;
  private problem: string | undefined;
  private panel: PairingPanel | undefined;
  private idleCheck: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly status = vscode.window.createStatusBarItem('elicit.devices', vscode.StatusBarAlignment.Right, 99);
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: Services,
    /** The other windows' questions, listed on devices too. */
    private readonly otherWindows: OtherWindowsForDevices,
  ) {
    this.status.name = vscode.l10n.t('Elicit Paired Devices');
    this.status.command = 'elicit.manageDevices';
    this.disposables.push(
      this.status,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SETTING.devicesEnabled) && !settings.devicesEnabled()) return void this.turnOff();
        if (
          e.affectsConfiguration(SETTING.devicesEnabled) ||
          e.affectsConfiguration(SETTING.devicesAddress) ||
          e.affectsConfiguration(SETTING.devicesPort)
        ) {
          void this.listenIfNeeded(true);
        }
      }),
    );
  }

  /** At activation: serve the devices paired earlier, if the setting is on. Nothing is loaded otherwise. */
  async resume(): Promise<void> {
    if (!settings.devicesEnabled()) return;
    await this.load();
    await this.listenIfNeeded();
  }

  /** Elicit: Answer on Another Device…: turns devices on, opens a code and shows the pairing panel. */
  async pair(): Promise<void> {
    let address = settings.devicesAddress();
    if (!address) {
      const chosen = await chooseAddress();
      if (!chosen) return;
      address = chosen;
      await vscode.workspace.getConfiguration('elicit').update('devices.address', chosen, vscode.ConfigurationTarget.Global);
    }
    if (!settings.devicesEnabled())
      await vscode.workspace.getConfiguration('elicit').update('devices.enabled', true, vscode.ConfigurationTarget.Global);
    const loaded = await this.load();
    this.code = loaded.pairing.start();
    await this.listenIfNeeded();
    this.showPanel();
  }

  /** Elicit: Stop Answering on Other Devices. */
  async turnOffSetting(): Promise<void> {
    await vscode.workspace.getConfiguration('elicit').update('devices.enabled', false, vscode.ConfigurationTarget.Global);
    await this.turnOff();
  }

  /** Elicit: Manage Paired Devices…: each device, then Renew or Revoke. */
  async manage(): Promise<void> {
    const loaded = await this.load();
    const pairAnother = { label: `$(add) ${vscode.l10n.t('Pair Another Device…')}`, device: undefined as PairedDevice | undefined };
    const items = loaded.registry.list().map((device) => ({
      label: inertText(device.name),
      description: inertText(describeDevice(device)),
      device: device as PairedDevice | undefined,
    }));
    const picked = await vscode.window.showQuickPick([...items, pairAnother], {
      title: vscode.l10n.t('Paired Devices'),
      placeHolder: items.length ? vscode.l10n.t('Pick a device to renew or revoke') : vscode.l10n.t('No device is paired'),
      ...KEPT_OPEN,
    });
    if (!picked) return;
    if (!picked.device) return this.pair();
    const renew = vscode.l10n.t('Renew');
    const revoke = vscode.l10n.t('Revoke');
    const action = await vscode.window.showQuickPick(
      [
        { label: renew, description: vscode.l10n.t('Keep it paired for another 30 days') },
        { label: revoke, description: vscode.l10n.t('Its next request is refused') },
      ],
      { title: inertText(picked.device.name), ...KEPT_OPEN },
    );
    if (action?.label === renew) loaded.registry.renew(picked.device.id);
    if (action?.label === revoke) this.revoke(picked.device.id);
  }

  private revoke(id: string): void {
    const device = this.loaded?.registry.list().find((d) => d.id === id);
    if (!device) return;
    // Kept as revoked first: no window's older list brings it back.
    void keepRevoked(this.context.secrets, [id], this.services.log);
    if (!this.loaded?.registry.revoke(id)) return;
    void vscode.window.showInformationMessage(inertText(vscode.l10n.t('{0} is no longer paired.', device.name)));
  }

  private load(): Promise<Loaded> {
    this.loading ??= (async () => {
      // The server, certificate and QR code are loaded now, not at activation (dist/device-host.js, see esbuild.mjs).
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its own bundle
      const host = require('../../device/deviceHost') as typeof DeviceHost;
      const saved = await loadPairedDevices(this.context.secrets, this.services.log);
      const registry = new host.DeviceRegistry(saved);
      registry.sweep();
      const pairing = new host.Pairing();
      const script = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview', 'phone.js');
      const loaded: Loaded = { host, registry, pairing, pageScript: readFileSync(script.fsPath, 'utf8') };
      this.disposables.push(
        registry.onDidChange(() => {
          void savePairedDevices(this.context.secrets, registry.toJSON(), this.services.log);
          this.refresh();
          void this.listenIfNeeded();
        }),
        // Another window paired or revoked a device (SecretStorage is shared): take its list.
        this.context.secrets.onDidChange((e) => {
          if ((e.key === PAIRED_DEVICES_KEY || e.key === REVOKED_DEVICES_KEY) && !isSaving()) void this.reloadDevices(registry);
        }),
        pairing.onDidClaim((claim) => void this.confirm(claim)),
        pairing.onDidBurn(() => void this.codeBurned()),
      );
      this.loaded = loaded;
      return loaded;
    })();
    return this.loading;
  }

  private async reloadDevices(registry: Loaded['registry']): Promise<void> {
    const kept = await loadPairedDevices(this.context.secrets, this.services.log);
    if (isSaving() || !registry.replaceWith(kept)) return;
    this.refresh();
    void this.listenIfNeeded();
  }

  /** The person says, in the editor, whether the phone shows this name and code. Only "Pair" pairs. */
  private async confirm(claim: PairingClaim): Promise<void> {
    this.code = undefined;
    this.refresh();
    const pair = vscode.l10n.t('Pair');
    const choice = await vscode.window.showWarningMessage(
      inertText(vscode.l10n.t('Pair “{0}” with Elicit?', claim.name)),
      {
        modal: true,
        detail: inertText(
          vscode.l10n.t(
            'Pair only if the device shows the code {0}. A paired device can answer the questions Elicit lets it see (never secrets, keys or sign-ins) until you revoke it.',
            claim.confirmCode,
          ),
        ),
      },
      pair,
    );
    const decided = this.loaded?.pairing.decide(claim.id, choice === pair);
    if (choice === pair && !decided)
      void vscode.window.showWarningMessage(vscode.l10n.t('That pairing request has ended. Start a new code.'));
  }

  private async codeBurned(): Promise<void> {
    this.code = undefined;
    this.refresh();
    const again = vscode.l10n.t('New Code');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Pairing stopped after too many wrong codes. Someone else on your network may be trying codes.'),
      again,
    );
    if (choice === again) await this.pair();
  }

  private showPanel(): void {
    if (this.panel && !this.panel.disposed) {
      this.panel.reveal();
      this.refresh();
      return;
    }
    const panel = new PairingPanel(this.context.extensionUri);
    this.panel = panel;
    panel.onMessage((message) => {
      if (message.type === 'ready') panel.post(this.state());
      else if (message.type === 'newCode') void this.pair();
      else if (message.type === 'revoke') this.revoke(message.id);
      else if (message.type === 'copyLink') void this.copyLink();
    });
    panel.onDidDispose(() => {
      if (this.panel !== panel) return;
      this.panel = undefined;
      // A code works only while its panel is open.
      this.loaded?.pairing.stop();
      this.code = undefined;
      void this.listenIfNeeded();
    });
  }

  private async copyLink(): Promise<void> {
    const link = this.pairingLink();
    if (!link) return;
    await vscode.env.clipboard.writeText(link);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the pairing link.'), 3000);
  }

  private pairingLink(): string | undefined {
    return this.serving && this.code ? `${this.serving.link}#code=${this.code.code}` : undefined;
  }

  private state(): PairingState {
    const link = this.pairingLink();
    const code = this.code && this.code.expiresAt > Date.now() ? this.code : undefined;
    const devices = (this.loaded?.registry.list() ?? []).map(({ id, name, pairedAt, expiresAt, lastSeenAt }) => ({
      id,
      name,
      pairedAt,
      expiresAt,
      ...(lastSeenAt !== undefined ? { lastSeenAt } : {}),
    }));
    return {
      type: 'state',
      ...(link && code && this.loaded ? { link, code: code.code, codeEndsAt: code.expiresAt, qr: this.loaded.host.qrRows(link) } : {}),
      ...(this.serving?.fingerprint ? { fingerprint: this.serving.fingerprint } : {}),
      ...(this.problem ? { problem: this.problem } : {}),
      devices,
    };
  }

  private refresh(): void {
    this.panel?.postIfReady(this.state());
    this.updateStatus();
  }

  private updateStatus(): void {
    const count = this.loaded?.registry.list().length ?? 0;
    if (!this.serving || count === 0) return this.status.hide();
    // Words, not a bare number: the item says whose it is, and a screen reader reads more than "1".
    this.status.text = `$(device-mobile) ${count === 1 ? vscode.l10n.t('Elicit: 1 device') : vscode.l10n.t('Elicit: {0} devices', count)}`;
    this.status.tooltip = inertText(
      count === 1
        ? vscode.l10n.t('Elicit answers on 1 paired device at {0}', this.serving.link)
        : vscode.l10n.t('Elicit answers on {0} paired devices at {1}', count, this.serving.link),
    );
    this.status.show();
  }

  /**
   * Starts or stops the listener: on while the setting is on and a code is open
   * or a device is paired. One change at a time, in order, so two never start two servers.
   */
  private listenIfNeeded(restart = false): Promise<void> {
    this.changes = this.changes
      .then(() => this.reconcile(restart))
      .catch((error: unknown) => this.services.log.warn(`[elicit] paired devices: ${String(error)}`));
    return this.changes;
  }

  private async reconcile(restart: boolean): Promise<void> {
    clearTimeout(this.retry);
    const loaded = this.loaded;
    const wanted = !!loaded && settings.devicesEnabled() && loaded.host.shouldListen(loaded.pairing, loaded.registry.list().length);
    if (this.serving && (restart || !wanted)) await this.stopServer();
    if (loaded && wanted && !this.serving) await this.startServer(loaded);
    this.refresh();
  }

  private async turnOff(): Promise<void> {
    this.loaded?.pairing.stop();
    this.code = undefined;
    this.panel?.dispose();
    await this.listenIfNeeded();
  }

  private async startServer(loaded: Loaded): Promise<void> {
    const address = settings.devicesAddress();
    this.problem = undefined;
    if (!address || isAllInterfaces(address)) {
      this.problem = vscode.l10n.t(
        'Choose the address devices reach this computer at (the elicit.devices.address setting): Elicit never listens on all interfaces.',
      );
      return;
    }
    const configuredPort = settings.devicesPort();
    const port = configuredPort || this.context.globalState.get<number>(PORT_KEY, 0);
    try {
      let serving: Serving;
      try {
        serving = await this.serve(loaded, address, port);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !port) throw error;
        // Phones keep their bookmark: whoever holds the port would get their cookies.
        const key = await loadProofKey(this.context.secrets);
        const holder = await portHolder(port, key, address === 'forwarded' ? {} : { address, tls: true });
        if (holder === 'other') this.signOutAfterSquat(loaded, port);
        if (holder === 'other' && !loaded.pairing.active) return;
        if (holder !== 'other' && (configuredPort || !loaded.pairing.active)) {
          // Another window serves the paired devices there: one window serves them; this one tries again later.
          this.services.log.info(`[elicit] paired devices: port ${port} is in use (another window serves them); trying again later`);
          this.retry = setTimeout(() => void this.listenIfNeeded(), IDLE_CHECK_MS);
          return;
        }
        // Pairing from this window: a free port of its own, in the link its QR code carries.
        serving = await this.serve(loaded, address, 0);
      }
      this.serving = serving;
      await this.context.globalState.update(PORT_KEY, serving.server.port);
      this.idleCheck = setInterval(() => void this.listenIfNeeded(), IDLE_CHECK_MS);
      this.services.log.info(`[elicit] paired devices: listening at ${serving.link}`);
    } catch (error) {
      this.problem = vscode.l10n.t('Elicit could not listen for devices at {0}: {1}', address, errorText(error));
      this.services.log.warn(`[elicit] paired devices: ${this.problem}`);
    }
  }

  /**
   * The paired devices' port is held by a program that did not prove it is Elicit: a
   * device opening its bookmark would give it its cookie, so every device is signed out
   * (a cookie such a program may hold then opens nothing here), and the person is told.
   */
  private signOutAfterSquat(loaded: Loaded, port: number): void {
    const devices = loaded.registry.list();
    void keepRevoked(
      this.context.secrets,
      devices.map((d) => d.id),
      this.services.log,
    );
    for (const device of devices) loaded.registry.revoke(device.id);
    this.problem = vscode.l10n.t('Port {0} is held by a program that did not prove it is Elicit.', port);
    this.services.log.warn(
      `[elicit] paired devices: port ${port} is held by a program that did not prove it is Elicit; ${devices.length} device(s) signed out`,
    );
    void vscode.window
      .showWarningMessage(
        inertText(
          vscode.l10n.t(
            'Port {0}, where Elicit served your paired devices, is held by a program that did not prove it is Elicit. A device opening its bookmark would reach that program, so Elicit signed out {1} device(s): pair them again to answer from them, and do not accept a certificate warning on that address.',
            port,
            devices.length,
          ),
        ),
        vscode.l10n.t('Pair a Device'),
      )
      .then((choice) => (choice ? vscode.commands.executeCommand('elicit.answerOnDevice') : undefined));
  }

  private async serve(loaded: Loaded, address: string, port: number): Promise<Serving> {
    const { host } = loaded;
    const common: Omit<DeviceServerOptions, 'address' | 'port'> = {
      proofKey: await loadProofKey(this.context.secrets),
      pairing: loaded.pairing,
      devices: loaded.registry,
      questions: host.withOtherWindows(
        host.brokerDeviceQuestions(this.services.broker, {
          openOnComputer: (question, device) => this.openOnComputer(question, device),
        }),
        this.otherWindows,
        () => settings.presentation(),
        // The main bundle's lane: this bundle's own copy of the module would be another one.
        this.services.readingLane,
      ),
      page: () => host.devicePage(loaded.pageScript),
      log: (line) => this.services.log.info(line),
    };
    if (address === 'forwarded') return this.serveForwarded(host, common, port);
    const certificate = await loadCertificate(this.context.secrets, [address], host);
    const server = new host.DeviceServer({ ...common, address, port, tls: certificate });
    const actualPort = await server.start();
    return { server, address, link: `https://${urlHost(address)}:${actualPort}/`, fingerprint: certificate.fingerprint256 };
  }

  /**
   * Plain HTTP on loopback, reached through VS Code's own forwarding (code-server,
   * Codespaces): its HTTPS and sign-in stand in front. A forwarded address that is
   * plain HTTP beyond loopback is refused: the token would cross the network in clear.
   * So is one under a path of an address shared by every forwarded port (code-server's
   * `/proxy/<port>/`): a page of any other forwarded port is the
   * same origin there, and could use the phone's cookie.
   */
  private async serveForwarded(
    host: typeof DeviceHost,
    common: Omit<DeviceServerOptions, 'address' | 'port'>,
    port: number,
  ): Promise<Serving> {
    const chosenPort = port || (await host.freeLoopbackPort());
    const external = await vscode.env.asExternalUri(vscode.Uri.parse(`http://127.0.0.1:${chosenPort}/`));
    const authority = external.authority.toLowerCase();
    const hostName = authority.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    // *.localhost is loopback by definition (RFC 6761), as browsers resolve it.
    if (external.scheme !== 'https' && !host.isLoopback(hostName) && !hostName.endsWith('.localhost')) {
      throw new Error(vscode.l10n.t('VS Code forwards this port over plain HTTP ({0}); choose a network address instead', authority));
    }
    if (external.path !== '' && external.path !== '/') {
      throw new Error(
        vscode.l10n.t(
          'VS Code forwards this port under a path of an address every forwarded port shares ({0}): a page of any of them could use your phone’s sign-in. Choose a network address, or forward ports to addresses of their own (code-server: --proxy-domain).',
          `${authority}${external.path}`,
        ),
      );
    }
    const scheme = external.scheme === 'https' ? 'https' : 'http';
    const server = new host.DeviceServer({
      ...common,
      address: '127.0.0.1',
      port: chosenPort,
      publicScheme: scheme,
      extraHosts: [authority],
      extraOrigins: [`${scheme}://${authority}`],
    });
    await server.start();
    return { server, address: 'forwarded', link: `${scheme}://${authority}/` };
  }

  /** A URL question the person chose to open from a device: shown in the editor, where its consent dialog opens the link here. */
  private openOnComputer(question: Question, device: PairedDevice): void {
    if (question.state === 'later') this.services.broker.resume(question.id);
    void vscode.window.setStatusBarMessage(
      inertText(vscode.l10n.t('{0}: confirm the link in the editor to open it on this computer.', device.name)),
      10_000,
    );
  }

  private async stopServer(): Promise<void> {
    clearTimeout(this.retry);
    clearInterval(this.idleCheck);
    this.idleCheck = undefined;
    const serving = this.serving;
    this.serving = undefined;
    this.status.hide();
    if (!serving) return;
    await serving.server.stop();
    this.services.log.info('[elicit] paired devices: stopped listening');
  }

  dispose(): void {
    clearTimeout(this.retry);
    void this.turnOff();
    for (const d of this.disposables) d.dispose();
  }
}

function describeDevice(device: PairedDevice): string {
  const paired = vscode.l10n.t('paired {0}', new Date(device.pairedAt).toLocaleDateString());
  const seen = device.lastSeenAt ? ` · ${vscode.l10n.t('last seen {0}', new Date(device.lastSeenAt).toLocaleString())}` : '';
  return `${paired}${seen}`;
}
