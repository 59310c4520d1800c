/**
 * One of Elicit's webview panels, typed by its protocol (core/protocols/):
 * `ToPage` the messages the host sends, `ToHost` those the page sends, checked
 * by the protocol's guard before anyone sees them. It creates the panel (or
 * takes over one VS Code restored after a reload), sets Elicit's icon, writes
 * the fixed page (webviewShell.ts), and knows whether the page has said
 * `ready`; a page hidden and shown again is reloaded and says it again. In the
 * spirit of GitLens's webviews/protocol.ts, cut to what the form and the agent
 * panel need.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { inlineable, webviewShell, type InlineScript } from './webviewShell';

export interface WebviewPage<ToHost> {
  viewType: string;
  /** The tab's title (plain text). */
  title: string;
  /** The page's `<title>`. */
  pageTitle: string;
  /** The bundle in dist/webview/ (see esbuild.mjs), without `.js`. */
  script: 'form' | 'agent' | 'pairing';
  /**
   * Writes the script into the page rather than loading it from the extension:
   * no request through the webview's service worker before the page can draw.
   */
  inline?: boolean;
  /** The protocol's guard for what the page sends. */
  isMessage(value: unknown): value is ToHost;
  column: vscode.ViewColumn;
  /** Opens the tab without taking the keyboard from where the person is typing. */
  preserveFocus?: boolean;
  /** A panel VS Code restored after a reload (a webview panel serializer's), used instead of a new one. */
  restored?: vscode.WebviewPanel;
}

export class WebviewHost<ToPage, ToHost extends { type: string }> implements vscode.Disposable {
  protected readonly panel: vscode.WebviewPanel;
  private ready = false;
  private closed = false;
  private readonly messages = new vscode.EventEmitter<ToHost>();
  /** What the page sends, once checked by the protocol's guard. */
  readonly onMessage = this.messages.event;
  /** Elicit's own page and the options it loads with, to come back to after a page that is not Elicit's. */
  private readonly ownPage: { html: string; options: vscode.WebviewOptions };
  /** Set while a page that is not Elicit's is shown: it gets every message, unchecked. */
  private foreign: ((message: unknown) => void) | undefined;

  constructor(extensionUri: vscode.Uri, page: WebviewPage<ToHost>) {
    const scripts = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    const options = { enableScripts: true, localResourceRoots: [scripts] };
    if (page.restored) {
      this.panel = page.restored;
      this.panel.webview.options = options;
      this.panel.title = page.title;
    } else {
      this.panel = vscode.window.createWebviewPanel(
        page.viewType,
        page.title,
        { viewColumn: page.column, preserveFocus: page.preserveFocus ?? false },
        { ...options, retainContextWhenHidden: false },
      );
    }
    // Registered first, so every later listener already sees `disposed`.
    this.panel.onDidDispose(() => {
      this.closed = true;
      this.messages.dispose();
    });
    const icon = elicitIcon(extensionUri);
    if (icon) this.panel.iconPath = icon;
    const webview = this.panel.webview;
    const script = vscode.Uri.joinPath(scripts, `${page.script}.js`);
    this.ownPage = { html: webviewShell(webview, (page.inline && scriptText(script)) || script, page.pageTitle), options };
    webview.html = this.ownPage.html;
    webview.onDidReceiveMessage((message: unknown) => {
      if (this.closed) return;
      if (this.foreign) return this.foreign(message);
      if (!page.isMessage(message)) return;
      // A page reloaded after being hidden says `ready` again.
      if (message.type === 'ready') this.ready = true;
      this.messages.fire(message);
    });
  }

  /** True once the page has said `ready`: a message posted now is handled at once. */
  get isReady(): boolean {
    return this.ready;
  }

  get disposed(): boolean {
    return this.closed;
  }

  /** When the panel closes (by the person, or by `dispose`). */
  get onDidDispose(): vscode.Event<void> {
    return this.panel.onDidDispose;
  }

  /** Posts at once; before the page has loaded, VS Code holds the message until it has. */
  post(message: ToPage): void {
    // A foreign page never gets Elicit's own messages.
    if (this.closed || this.foreign) return;
    this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  /** Posts only to a page that has said `ready` (one that has not yet gets everything when it does). */
  postIfReady(message: ToPage): void {
    if (this.ready) this.post(message);
  }

  /**
   * Shows a page that is not Elicit's (a server's app) in this panel: scripts on, no
   * extension file and no command link reachable from it. Every message it posts goes
   * to `listener` as it is, never to the protocol's listeners.
   */
  showForeignPage(html: string, listener: (message: unknown) => void): void {
    if (this.closed) return;
    this.foreign = listener;
    this.ready = false;
    this.panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [] };
    this.panel.webview.html = html;
  }

  /** Elicit's own page again, after a foreign one: it loads afresh and says `ready`. */
  showOwnPage(): void {
    if (this.closed || !this.foreign) return;
    this.foreign = undefined;
    this.ready = false;
    this.panel.webview.options = this.ownPage.options;
    this.panel.webview.html = this.ownPage.html;
  }

  /** True while a foreign page is shown. */
  get showsForeignPage(): boolean {
    return this.foreign !== undefined;
  }

  /** Posts to a foreign page as it is (the page's own protocol). */
  postForeign(message: unknown): void {
    if (this.closed || !this.foreign) return;
    this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  /** Whether the panel is the active editor. */
  get active(): boolean {
    return !this.closed && this.panel.active;
  }

  get onDidChangeViewState(): vscode.Event<unknown> {
    return this.panel.onDidChangeViewState;
  }

  setTitle(title: string): void {
    this.panel.title = title;
  }

  reveal(preserveFocus = false): void {
    if (!this.closed) this.panel.reveal(undefined, preserveFocus);
  }

  dispose(): void {
    if (!this.closed) this.panel.dispose();
  }
}

const icons = new Map<string, vscode.Uri | null>();

/** media/icon.svg, when the extension is on disk and has it. */
function elicitIcon(extensionUri: vscode.Uri): vscode.Uri | undefined {
  const key = extensionUri.toString();
  if (!icons.has(key)) {
    const icon = vscode.Uri.joinPath(extensionUri, 'media', 'icon.svg');
    icons.set(key, icon.scheme === 'file' && existsSync(icon.fsPath) ? icon : null);
  }
  return icons.get(key) ?? undefined;
}

const scripts = new Map<string, InlineScript | null>();

/** The bundle's text, read once, when it can be written into the page (else the page loads it from the extension). */
function scriptText(file: vscode.Uri): InlineScript | undefined {
  const key = file.toString();
  if (!scripts.has(key)) {
    try {
      scripts.set(key, file.scheme === 'file' ? (inlineable(readFileSync(file.fsPath, 'utf8')) ?? null) : null);
    } catch {
      scripts.set(key, null);
    }
  }
  return scripts.get(key) ?? undefined;
}
