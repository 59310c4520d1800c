/**
 * Draws a form request as a webview panel: one editor tab per question, laid
 * out like the Settings editor. The HTML is a fixed shell under a strict CSP;
 * every word from the asker travels by postMessage and is inserted as text by
 * webview/form/main.ts. The host has the last word on every answer: it checks
 * it again (ajv) before resolving, and keeps the panel open on a problem.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { validateAnswer } from '../core/answerValidator';
import { LATER, type Question, type RenderOutcome, type Renderer } from '../core/broker';
import { askerTitle, clip, cleanText } from '../core/display';
import { secretFieldNames, type FormModel } from '../core/fields';
import { initialValues } from '../core/formState';
import { CANCELLED, DECLINED, type ElicitContent } from '../core/request';
import { completeAnswer } from '../core/validate';
import { isWebviewToHost, type FormView, type HostToWebview, type WebviewToHost } from '../core/webviewProtocol';
import { webviewShell } from './webviewShell';

export const FORM_VIEW_TYPE = 'elicit.form';

/** Where the form may reuse secrets saved earlier; the webview only ever learns their names. */
export interface SavedSecretSource {
  /** Names of this question's secret fields that have a saved value. */
  available(question: Question): string[] | Promise<string[]>;
  /** The saved value, read only when the person chose to reuse it. */
  read(question: Question, field: string): Promise<string | undefined>;
}

export interface FormPanelOptions {
  savedSecrets?: SavedSecretSource;
}

export class FormPanelRenderer implements Renderer {
  private iconPath: vscode.Uri | null | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly options: FormPanelOptions = {},
  ) {}

  /** Open panels by question id, so the pending list can bring one to the front. */
  private readonly open = new Map<number, FormSession>();

  render(question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    const form = question.form;
    if (!form || signal.aborted) return Promise.resolve(CANCELLED);
    return new Promise<RenderOutcome>((resolve) => {
      const session = new FormSession(this.extensionUri, this.icon(), question, form, signal, this.options, (outcome) => {
        this.open.delete(question.id);
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

  private icon(): vscode.Uri | undefined {
    if (this.iconPath === undefined) {
      const icon = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.svg');
      this.iconPath = icon.scheme === 'file' && existsSync(icon.fsPath) ? icon : null;
    }
    return this.iconPath ?? undefined;
  }
}

/** One question's panel, from creation to its single result. */
class FormSession {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private settled = false;
  private submitting = false;
  private savedSecrets: string[] = [];

  constructor(
    extensionUri: vscode.Uri,
    icon: vscode.Uri | undefined,
    private readonly question: Question,
    private readonly form: FormModel,
    signal: AbortSignal,
    private readonly options: FormPanelOptions,
    private readonly resolve: (result: RenderOutcome) => void,
  ) {
    const scripts = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    const media = vscode.Uri.joinPath(extensionUri, 'media');
    this.panel = vscode.window.createWebviewPanel(
      FORM_VIEW_TYPE,
      clip(askerTitle(question.request.asker), 60),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [scripts, media], retainContextWhenHidden: false },
    );
    if (icon) this.panel.iconPath = icon;
    const webview = this.panel.webview;
    webview.html = webviewShell(webview, vscode.Uri.joinPath(scripts, 'form.js'), vscode.Uri.joinPath(media, 'form.css'), 'Question');

    this.disposables.push(
      webview.onDidReceiveMessage((message: unknown) => this.onMessage(message)),
      this.panel.onDidDispose(() => this.finish(CANCELLED, false)),
    );
    const onAbort = (): void => this.finish(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
    this.disposables.push({ dispose: () => signal.removeEventListener('abort', onAbort) });
  }

  private onMessage(message: unknown): void {
    if (this.settled || !isWebviewToHost(message)) return;
    switch (message.type) {
      case 'ready':
        void this.show();
        return;
      case 'submit':
        void this.submit(message);
        return;
      case 'decline':
        this.finish(DECLINED);
        return;
      case 'later':
        this.finish(LATER);
        return;
      case 'cancel':
        this.finish(CANCELLED);
        return;
    }
  }

  private async show(): Promise<void> {
    const source = this.options.savedSecrets;
    if (source) {
      const secrets = secretFieldNames(this.form);
      try {
        this.savedSecrets = (await source.available(this.question)).filter((name) => secrets.has(name));
      } catch {
        this.savedSecrets = [];
      }
    }
    const view: FormView = {
      questionId: this.question.id,
      title: askerTitle(this.question.request.asker),
      message: cleanText(this.question.request.message),
      form: this.form,
      initial: initialValues(this.form),
    };
    if (this.savedSecrets.length > 0) view.savedSecrets = this.savedSecrets;
    this.post({ type: 'show', view });
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
      for (const name of new Set(message.useSaved ?? [])) {
        if (!this.savedSecrets.includes(name)) continue;
        const saved = await this.readSaved(name);
        if (this.settled) return;
        if (saved === undefined) missing[name] = 'The saved value is no longer available: type it again';
        else given[name] = saved;
      }
      const errors = { ...validateAnswer(this.form, completeAnswer(this.form, given)), ...missing };
      if (Object.keys(errors).length > 0) {
        this.post({ type: 'errors', errors });
        return;
      }
      this.finish({ action: 'accept', content: given });
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
    if (this.settled) return;
    this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  reveal(): void {
    if (!this.settled) this.panel.reveal(undefined, false);
  }

  /** Resolves once; disposes every listener and, unless it is already closing, the panel. */
  private finish(result: RenderOutcome, disposePanel = true): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(result);
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    if (disposePanel) this.panel.dispose();
  }
}
