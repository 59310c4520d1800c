/**
 * Draws a form request as a webview panel, laid out like the Settings editor.
 * The HTML is a fixed shell under a strict CSP; every word from the asker
 * travels by postMessage and is inserted as text by webview/form/main.ts. The
 * host has the last word on every answer: it checks it again (ajv) before
 * resolving, and keeps the panel open on a problem.
 *
 * After the person submits or declines, the panel says so and stays for a
 * moment: an asker that follows up with another form (a wizard, a retry) gets
 * it drawn in the same tab at once, instead of a tab closing and another
 * opening. Cancel, Escape, Later, a closed tab and an asker that gives up
 * close the panel straight away.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { validateAnswer } from '../core/answerValidator';
import { LATER, type Question, type RenderOutcome, type Renderer } from '../core/broker';
import { clip, cleanText, oneLine, questionTitle } from '../core/display';
import { secretFieldNames, type FormModel } from '../core/fields';
import { initialValues, makeDraft, type RawValues } from '../core/formState';
import { asksOnBehalf, CANCELLED, DECLINED, type ElicitContent } from '../core/request';
import { completeAnswer } from '../core/validate';
import { isWebviewToHost, type FormView, type HostToWebview, type WebviewToHost } from '../core/webviewProtocol';
import { inlineable, webviewShell, type InlineScript } from './webviewShell';

export const FORM_VIEW_TYPE = 'elicit.form';

let formScriptText: InlineScript | null | undefined;

/** form.js, read once and written into each form's page. */
function formScript(file: vscode.Uri): InlineScript | undefined {
  if (formScriptText === undefined) {
    try {
      formScriptText = file.scheme === 'file' ? (inlineable(readFileSync(file.fsPath, 'utf8')) ?? null) : null;
    } catch {
      formScriptText = null; // The page loads it from the extension instead.
    }
  }
  return formScriptText ?? undefined;
}
/** How long an answered panel waits for the asker's next form before it closes. */
export const HANDOFF_MS = 1500;

/** Where the form may reuse secrets saved earlier; the webview only ever learns their names. */
export interface SavedSecretSource {
  /** Names of this question's secret fields that have a saved value. */
  available(question: Question): string[] | Promise<string[]>;
  /** The saved value, read only when the person chose to reuse it. */
  read(question: Question, field: string): Promise<string | undefined>;
}

/** Keeps what the person typed into a question that survives a window reload. */
export interface DraftKeeper {
  save(keptRound: string, values: RawValues): void;
}

export interface FormPanelOptions {
  savedSecrets?: SavedSecretSource;
  drafts?: DraftKeeper;
}

export class FormPanelRenderer implements Renderer, vscode.Disposable {
  private iconPath: vscode.Uri | null | undefined;
  /** Open forms by question id, so the pending list can bring one to the front. */
  private readonly open = new Map<number, FormSession>();
  /** An answered panel waiting out its handoff moment. */
  private parked: { panel: FormPanel; timer: NodeJS.Timeout; watch: vscode.Disposable } | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly options: FormPanelOptions = {},
  ) {}

  render(question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    const form = question.form;
    if (!form || signal.aborted) return Promise.resolve(CANCELLED);
    return new Promise<RenderOutcome>((resolve) => {
      const panel = this.unpark() ?? new FormPanel(this.extensionUri, this.icon());
      const session = new FormSession(panel, question, form, signal, this.options, (outcome, keep) => {
        this.open.delete(question.id);
        if (keep) this.park(panel);
        else panel.dispose();
        resolve(outcome);
      });
      this.open.set(question.id, session);
    });
  }

  /** Shows the open form of this question; false when it has none. */
  reveal(question: Question): boolean {
    const session = this.open.get(question.id);
    session?.reveal();
    return session !== undefined;
  }

  private park(panel: FormPanel): void {
    this.unpark()?.dispose(); // at most one panel waits
    const timer = setTimeout(() => {
      if (this.parked?.panel === panel) this.parked = undefined;
      panel.dispose();
    }, HANDOFF_MS);
    const watch = panel.onDidDispose(() => {
      if (this.parked?.panel !== panel) return;
      clearTimeout(this.parked.timer);
      this.parked = undefined;
    });
    this.parked = { panel, timer, watch };
  }

  /** Takes the waiting panel, if it is still there. */
  private unpark(): FormPanel | undefined {
    const parked = this.parked;
    if (!parked) return undefined;
    this.parked = undefined;
    clearTimeout(parked.timer);
    parked.watch.dispose();
    return parked.panel.disposed ? undefined : parked.panel;
  }

  private icon(): vscode.Uri | undefined {
    if (this.iconPath === undefined) {
      const icon = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.svg');
      this.iconPath = icon.scheme === 'file' && existsSync(icon.fsPath) ? icon : null;
    }
    return this.iconPath ?? undefined;
  }

  dispose(): void {
    this.unpark()?.dispose();
  }
}

/**
 * One webview panel, which may show several questions one after another. It
 * knows whether its page has said `ready`, and hands messages to whoever uses it.
 */
class FormPanel {
  private readonly panel: vscode.WebviewPanel;
  private ready = false;
  private closed = false;
  private listener: ((message: WebviewToHost) => void) | undefined;

  constructor(extensionUri: vscode.Uri, icon: vscode.Uri | undefined) {
    const scripts = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel(
      FORM_VIEW_TYPE,
      vscode.l10n.t('Question'),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [scripts], retainContextWhenHidden: false },
    );
    if (icon) this.panel.iconPath = icon;
    const webview = this.panel.webview;
    const script = vscode.Uri.joinPath(scripts, 'form.js');
    // The page's own <title> (not shown: the tab shows the panel's title) stays a fixed word, as the page is fixed.
    webview.html = webviewShell(webview, formScript(script) ?? script, 'Question');
    webview.onDidReceiveMessage((message: unknown) => {
      if (!isWebviewToHost(message)) return;
      // A page reloaded after being hidden says `ready` again.
      if (message.type === 'ready') this.ready = true;
      this.listener?.(message);
    });
    // Registered first, so later listeners already see `disposed`.
    this.panel.onDidDispose(() => {
      this.closed = true;
      this.listener = undefined;
    });
  }

  /** True once the page has said `ready`: a `show` posted now is drawn at once. */
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

  use(title: string, listener: (message: WebviewToHost) => void): void {
    this.panel.title = title;
    this.listener = listener;
  }

  release(): void {
    this.listener = undefined;
  }

  post(message: HostToWebview): void {
    if (this.disposed) return;
    this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  reveal(): void {
    if (!this.disposed) this.panel.reveal(undefined, false);
  }

  dispose(): void {
    if (!this.disposed) this.panel.dispose();
  }
}

/** One question on a panel, from its first draw to its single result. */
class FormSession {
  private settled = false;
  private submitting = false;
  /** Which secret fields have a saved value: asked for as the panel opens, not when the page is ready. */
  private readonly savedSecrets: Promise<string[]>;
  private readonly listening: vscode.Disposable[] = [];

  constructor(
    private readonly panel: FormPanel,
    private readonly question: Question,
    private readonly form: FormModel,
    signal: AbortSignal,
    private readonly options: FormPanelOptions,
    /** `keep`: the person answered, so the panel may wait for the asker's next form. */
    private readonly resolve: (result: RenderOutcome, keep: boolean) => void,
  ) {
    panel.use(clip(questionTitle(question.request), 60), (message) => this.onMessage(message));
    const onAbort = (): void => this.finish(CANCELLED, false);
    signal.addEventListener('abort', onAbort, { once: true });
    this.listening.push(
      { dispose: () => signal.removeEventListener('abort', onAbort) },
      panel.onDidDispose(() => this.finish(CANCELLED, false)),
    );
    this.savedSecrets = this.availableSecrets();
    // A panel handed over from an answered question is already loaded. A new one gets the
    // question now, not after its page says `ready`: VS Code holds the message until the page
    // has loaded, which saves the round trip (the page ignores the `show` that `ready` brings).
    if (panel.isReady) panel.reveal();
    void this.show();
  }

  private onMessage(message: WebviewToHost): void {
    if (this.settled) return;
    switch (message.type) {
      case 'ready':
        void this.show();
        return;
      case 'submit':
        void this.submit(message);
        return;
      case 'decline':
        if (!asksOnBehalf(this.question.request)) this.finish(DECLINED, true);
        return;
      case 'later':
        if (!asksOnBehalf(this.question.request)) this.finish(LATER, false);
        return;
      case 'draft':
        this.keepDraft(message.values);
        return;
      case 'cancel':
        this.finish(CANCELLED, false);
        return;
    }
  }

  private async show(): Promise<void> {
    const savedSecrets = await this.savedSecrets;
    if (this.settled) return;
    const view: FormView = {
      questionId: this.question.id,
      title: questionTitle(this.question.request),
      message: cleanText(this.question.request.message),
      form: this.form,
      initial: initialValues(this.form),
    };
    if (savedSecrets.length > 0) view.savedSecrets = savedSecrets;
    const request = this.question.request;
    if (request.mode === 'group' && request.earlier && request.earlier.length > 0) view.earlier = request.earlier;
    if (request.mode === 'group' && request.keptRound !== undefined && this.options.drafts) {
      view.keepsDraft = true;
      if (request.draft) view.draft = request.draft;
    }
    if (request.mode === 'form' && request.submitLabel) view.submitLabel = request.submitLabel;
    if (request.mode === 'form' && request.onBehalf) view.onBehalf = true;
    this.panel.post({ type: 'show', view });
  }

  /** Re-checked here: only known, non-secret fields of this form are kept. */
  private keepDraft(values: RawValues): void {
    const request = this.question.request;
    if (request.mode !== 'group' || request.keptRound === undefined) return;
    this.options.drafts?.save(request.keptRound, makeDraft(this.form, this.question.id, values).values);
  }

  private async availableSecrets(): Promise<string[]> {
    const source = this.options.savedSecrets;
    if (!source) return [];
    const secrets = secretFieldNames(this.form);
    try {
      return (await source.available(this.question)).filter((name) => secrets.has(name));
    } catch {
      return [];
    }
  }

  private async submit(message: Extract<WebviewToHost, { type: 'submit' }>): Promise<void> {
    if (this.submitting) return;
    this.submitting = true;
    try {
      const given: ElicitContent = {};
      for (const field of this.form.fields) {
        if (Object.hasOwn(message.content, field.name)) given[field.name] = message.content[field.name]!;
      }
      const missing: Record<string, string> = {};
      const useSaved = new Set(message.useSaved ?? []);
      const savedSecrets = useSaved.size > 0 ? await this.savedSecrets : [];
      for (const name of useSaved) {
        if (!savedSecrets.includes(name)) continue;
        const saved = await this.readSaved(name);
        if (this.settled) return;
        if (saved === undefined) missing[name] = vscode.l10n.t('The saved value is no longer available: type it again');
        else given[name] = saved;
      }
      const errors = { ...validateAnswer(this.form, completeAnswer(this.form, given)), ...missing };
      if (Object.keys(errors).length > 0) {
        this.post({ type: 'errors', errors });
        return;
      }
      this.finish({ action: 'accept', content: given }, true);
    } finally {
      this.submitting = false;
    }
  }

  private async readSaved(name: string): Promise<string | undefined> {
    try {
      return await this.options.savedSecrets?.read(this.question, name);
    } catch {
      return undefined;
    }
  }

  private post(message: HostToWebview): void {
    if (!this.settled) this.panel.post(message);
  }

  reveal(): void {
    if (!this.settled) this.panel.reveal();
  }

  /** Resolves once. An answer leaves the panel saying so; anything else closes it. */
  private finish(result: RenderOutcome, answered: boolean): void {
    if (this.settled) return;
    this.settled = true;
    for (const listener of this.listening.splice(0)) listener.dispose();
    this.panel.release();
    const keep = answered && !this.panel.disposed;
    if (keep) {
      const who = oneLine(this.question.request.asker.name, 60);
      const sent = asksOnBehalf(this.question.request) ? vscode.l10n.t('Sent.') : vscode.l10n.t('Answer sent to {0}.', who);
      this.panel.post({ type: 'answered', text: result.action === 'accept' ? sent : vscode.l10n.t('Declined. {0} was told.', who) });
    }
    this.resolve(result, keep);
  }
}
