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
import * as vscode from 'vscode';
import { readOutsideAnswer, TOO_COSTLY } from '../../core/form/outsideAnswer';
import { LATER, type Question, type RenderOutcome, type Renderer } from '../../core/broker/broker';
import { clip, cleanText, inertText, oneLine, questionTitle } from '../../core/display';
import { secretFieldNames, type FileField, type FormModel } from '../../core/form/fields';
import { errorText } from '../../core/errors';
import { chooseFiles, chosenFileLabel, type ChosenFile, type FileChoice } from './chooseFiles';
import { showsApp } from '../../core/broker/broker';
import { AppBridge, type AppOutcome } from '../../core/apps/appBridge';
import { appPage, isStripAction, STRIP_ACTIONS, type StripAction } from '../../core/apps/appPage';
import type { AppRef, AppResource } from '../../core/apps/appQuestion';
import { AppQuestions, appContent, appHostContext, appQuestionParams } from './appQuestions';
import { extensionVersion } from '../extensionVersion';
import { initialValues, makeDraft, type RawValues } from '../../core/form/formState';
import { asksOnBehalf, CANCELLED, DECLINED, turnHasEnded, type ElicitContent } from '../../core/request';
import { isFormToHost, type FormView, type HostToForm, type FormToHost } from '../../core/protocols/formProtocol';
import { WebviewHost } from '../webviewHost';
import type { SavedSecretSource } from '../savedSecrets';
import { LaterDrafts } from './laterDrafts';

export const FORM_VIEW_TYPE = 'elicit.form';

/** How long an answered panel waits for the asker's next form before it closes. */
export const HANDOFF_MS = 1500;

/** Keeps what the person typed into a question that survives a window reload. */
export interface DraftKeeper {
  save(keptRound: string, values: RawValues): void;
}

export interface FormPanelOptions {
  savedSecrets?: SavedSecretSource;
  drafts?: DraftKeeper;
  /**
   * True while the person answers another question in a quick input: a form that opens then
   * shows in its tab but leaves the keyboard there, so typing (or Escape) meant for that question
   * does not land in the new form.
   */
  keepFocusElsewhere?: () => boolean;
}

export class FormPanelRenderer implements Renderer, vscode.Disposable {
  /** Open forms by question id, so the pending list can bring one to the front. */
  private readonly open = new Map<number, FormSession>();
  private readonly laterDrafts = new LaterDrafts<RawValues>();
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
      const keepFocus = this.options.keepFocusElsewhere?.() ?? false;
      const panel = this.unpark() ?? new FormPanel(this.extensionUri, keepFocus);
      const session = new FormSession(panel, question, form, signal, { ...this.options, keepFocus }, this.laterDrafts, (outcome, keep) => {
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

  /**
   * Puts every open form back in front of a tab that opened over it; the keyboard stays where it is
   * while a quick input shows (as for a form opened then).
   */
  bringForward(): void {
    const keepFocus = this.options.keepFocusElsewhere?.() ?? false;
    for (const session of this.open.values()) session.reveal(keepFocus);
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

  dispose(): void {
    this.unpark()?.dispose();
  }
}

/**
 * One webview panel, which may show several questions one after another; its
 * page's script is written into the page. It hands the page's messages to the
 * question using it.
 */
class FormPanel extends WebviewHost<HostToForm, FormToHost> {
  private listener: ((message: FormToHost) => void) | undefined;

  constructor(extensionUri: vscode.Uri, preserveFocus: boolean) {
    super(extensionUri, {
      viewType: FORM_VIEW_TYPE,
      title: vscode.l10n.t('Question'),
      pageTitle: 'Question',
      script: 'form',
      inline: true,
      isMessage: isFormToHost,
      column: vscode.ViewColumn.Active,
      preserveFocus,
    });
    this.onMessage((message) => this.listener?.(message));
    this.onDidDispose(() => (this.listener = undefined));
  }

  use(title: string, listener: (message: FormToHost) => void): void {
    this.setTitle(title);
    this.listener = listener;
  }

  release(): void {
    this.listener = undefined;
  }
}

/** One question on a panel, from its first draw to its single result. */
class FormSession {
  private settled = false;
  private submitting = false;
  /** Which secret fields have a saved value: asked for as the panel opens, not when the page is ready. */
  private readonly savedSecrets: Promise<string[]>;
  private readonly listening: vscode.Disposable[] = [];
  /** File fields' chosen files, read: added to the answer here, never sent to the page. */
  private readonly files = new Map<string, ChosenFile[]>();
  /** The file dialog is open for this question (one at a time). */
  private choosingFiles = false;
  /** The asker's own app for this question, while it may be shown (draft SEP-3118). */
  private app: AppRef | undefined;
  private appResource: AppResource | undefined;
  private readonly appReading = new AbortController();
  private bridge: AppBridge | undefined;
  /** Why the form shows instead of the app, said on the form. */
  private appNote: string | undefined;

  constructor(
    private readonly panel: FormPanel,
    private readonly question: Question,
    private readonly form: FormModel,
    signal: AbortSignal,
    /** `keepFocus`: opened while the person types elsewhere (see `keepFocusElsewhere`). */
    private readonly options: FormPanelOptions & { keepFocus?: boolean },
    private readonly laterDrafts: LaterDrafts<RawValues>,
    /** `keep`: the person answered, so the panel may wait for the asker's next form. */
    private readonly resolve: (result: RenderOutcome, keep: boolean) => void,
  ) {
    panel.use(this.panelTitle(), (message) => this.onMessage(message));
    const onAbort = (): void => this.finish(CANCELLED, false);
    signal.addEventListener('abort', onAbort, { once: true });
    this.listening.push(
      { dispose: () => signal.removeEventListener('abort', onAbort) },
      panel.onDidDispose(() => this.finish(CANCELLED, false)),
    );
    const turnEnded = question.request.mode === 'form' ? question.request.nonBlocking?.turnEnded : undefined;
    if (turnEnded && !turnEnded.aborted) {
      const onTurnEnded = (): void => {
        this.panel.setTitle(this.panelTitle());
        this.post({ type: 'turnEnded', questionId: question.id, text: this.turnEndedText() });
      };
      turnEnded.addEventListener('abort', onTurnEnded, { once: true });
      this.listening.push({ dispose: () => turnEnded.removeEventListener('abort', onTurnEnded) });
    }
    this.savedSecrets = this.availableSecrets();
    this.app = showsApp(question.request, form) ? question.request.app : undefined;
    if (this.app) {
      // The asker's own app first (draft SEP-3118); Elicit's form stays one click away.
      if (panel.isReady) panel.reveal(options.keepFocus);
      void this.openApp();
      return;
    }
    // A panel handed over from an answered question is already loaded. A new one gets the
    // question now, not after its page says `ready`: VS Code holds the message until the page
    // has loaded, which saves the round trip (the page ignores the `show` that `ready` brings).
    if (panel.isReady) panel.reveal(options.keepFocus);
    void this.show();
  }

  /** Reads the asker's app from the server that asked and shows it; on any failure, Elicit's form says why. */
  private async openApp(): Promise<void> {
    const app = this.app;
    if (!app || this.settled) return;
    const who = oneLine(this.question.request.asker.name, 60);
    let resource = this.appResource;
    if (!resource) {
      try {
        resource = this.appResource = await app.read(this.appReading.signal);
      } catch (error) {
        if (this.settled) return;
        this.app = undefined;
        return void this.useForm(vscode.l10n.t("{0}'s app could not be shown ({1}): answer here.", who, oneLine(errorText(error), 200)));
      }
    }
    if (this.settled) return;
    this.bridge?.close();
    const bridge = (this.bridge = new AppBridge(
      (message) => this.panel.postForeign({ elicitApp: message }),
      appQuestionParams(this.question.request),
      { name: 'Elicit', version: extensionVersion(), context: appHostContext() },
      (outcome) => this.onAppOutcome(outcome, bridge),
    ));
    const request = this.question.request;
    // Elicit's strip above the app's frame: who asks, whose page it is, and the form's own ways out.
    // Asking for the person (a tool's arguments), as on the form: declining or putting off would mean nothing to anyone.
    const actions: readonly StripAction[] = asksOnBehalf(request) ? ['form', 'cancel'] : STRIP_ACTIONS;
    this.panel.showForeignPage(appPage(resource, { asker: request.asker, actions }), (message) => {
      const m = typeof message === 'object' && message !== null ? (message as { elicitApp?: unknown; elicitStrip?: unknown }) : {};
      if (m.elicitApp !== undefined) bridge.receive(m.elicitApp);
      else if (isStripAction(m.elicitStrip)) this.onStrip(m.elicitStrip);
    });
    AppQuestions.shown(this.panel, () => void this.useForm());
  }

  /**
   * A button of Elicit's strip, taken as the form's own button. The app could post such a
   * message past the strip, but it gains nothing its bridge does not already give it: it may
   * decline or cancel its own question, and putting it off or showing the form only helps the person.
   */
  private onStrip(action: StripAction): void {
    if (action === 'form') return void this.useForm();
    this.onMessage({ type: action });
  }

  private onAppOutcome(outcome: AppOutcome, bridge: AppBridge): void {
    if (this.settled || bridge !== this.bridge) return;
    const who = oneLine(this.question.request.asker.name, 60);
    if (outcome.kind === 'unusable') {
      return void this.useForm(vscode.l10n.t("{0}'s app cannot answer this question ({1}): answer here.", who, outcome.reason));
    }
    if (outcome.action === 'decline') return this.finish(asksOnBehalf(this.question.request) ? CANCELLED : DECLINED, true);
    if (outcome.action === 'cancel') return this.finish(CANCELLED, false);
    // The app's answer is checked exactly as a typed one, after it is put under the form's own field names.
    const read = readOutsideAnswer(this.form, appContent(this.question.request, outcome.content));
    if (read.ok) return this.finish({ action: 'accept', content: read.content }, true);
    const problems =
      'errors' in read
        ? Object.entries(read.errors)
            .map(([name, problem]) => `${this.form.fields.find((f) => f.name === name)?.label ?? name}: ${problem}`)
            .join('; ')
        : vscode.l10n.t('it is not a set of field values');
    void this.useForm(
      vscode.l10n.t(
        "{0}'s app gave an answer that does not fit the question ({1}). Nothing was sent: answer here.",
        who,
        oneLine(problems, 300),
      ),
    );
  }

  /** Elicit's own form in the tab, saying why when the app gave way; the app is told its page goes first. */
  private async useForm(note?: string): Promise<void> {
    if (this.settled) return;
    const bridge = this.bridge;
    this.bridge = undefined;
    this.appNote = note;
    AppQuestions.hidden(this.panel);
    await bridge?.teardown(note === undefined ? 'the person chose to answer in the form' : 'the app gave way to the form');
    if (this.settled || this.bridge) return;
    this.panel.showOwnPage();
  }

  private panelTitle(): string {
    const title = clip(questionTitle(this.question.request), 60);
    return turnHasEnded(this.question.request) ? `${title} · ${vscode.l10n.t('turn ended')}` : title;
  }

  private turnEndedText(): string {
    return vscode.l10n.t(
      'Turn ended: {0} no longer takes an answer to this question. Dismiss it, or send your answer as a new message.',
      oneLine(this.question.request.asker.name, 60),
    );
  }

  private onMessage(message: FormToHost): void {
    if (this.settled) return;
    switch (message.type) {
      case 'ready':
        void this.show();
        return;
      case 'submit':
        // Too late for an answer: the asker would drop it (the page offers Dismiss instead).
        if (turnHasEnded(this.question.request)) this.finish(CANCELLED, false);
        else void this.submit(message);
        return;
      case 'decline':
        if (turnHasEnded(this.question.request)) this.finish(CANCELLED, false);
        else if (!asksOnBehalf(this.question.request)) this.finish(DECLINED, true);
        return;
      case 'later':
        if (asksOnBehalf(this.question.request)) return;
        // Re-checked here: only known, non-secret fields of this form are kept.
        if (message.values) this.laterDrafts.keep(this.question.id, makeDraft(this.form, this.question.id, message.values).values);
        this.finish(LATER, false);
        return;
      case 'draft':
        this.keepDraft(message.values);
        return;
      case 'chooseFiles':
        void this.chooseFiles(message.field);
        return;
      case 'showApp':
        void this.openApp();
        return;
      case 'clearFiles':
        if (this.fileField(message.field)) {
          this.files.delete(message.field);
          this.post({ type: 'files', questionId: this.question.id, field: message.field, labels: [] });
        }
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
      initial: { ...initialValues(this.form), ...this.prefill() },
    };
    if (this.question.rememberOffer) view.remember = this.question.rememberOffer;
    if (savedSecrets.length > 0) view.savedSecrets = savedSecrets;
    const request = this.question.request;
    if (request.mode === 'group' && request.earlier && request.earlier.length > 0) view.earlier = request.earlier;
    if (request.mode === 'group' && request.keptRound !== undefined && this.options.drafts) {
      view.keepsDraft = true;
      if (request.draft) view.draft = request.draft;
    }
    const putOff = this.laterDrafts.take(this.question.id);
    if (putOff) view.draft = putOff;
    if (request.mode === 'form' && request.submitLabel) view.submitLabel = request.submitLabel;
    if (request.mode === 'form' && request.onBehalf) view.onBehalf = true;
    if (request.autoResolvesAt !== undefined) view.countdown = { by: request.asker.name, leftMs: request.autoResolvesAt - Date.now() };
    if (turnHasEnded(request)) view.turnEnded = this.turnEndedText();
    if (request.language) view.lang = request.language;
    if (this.app || this.appNote) {
      view.app = { by: this.question.request.asker.name, canShow: this.app !== undefined, ...(this.appNote ? { note: this.appNote } : {}) };
    }
    if (this.files.size > 0) view.files = Object.fromEntries([...this.files].map(([name, files]) => [name, files.map(chosenFileLabel)]));
    this.panel.post({ type: 'show', view, takeFocus: !this.options.keepFocus });
  }

  /** A remembered answer that was not sent as it is (core/memory): its values of this form's fields. */
  private prefill(): ElicitContent {
    const remembered = this.question.prefill ?? {};
    const names = new Set(this.form.fields.map((field) => field.name));
    return Object.fromEntries(Object.entries(remembered).filter(([name]) => names.has(name)));
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
    // No secret field, nothing to look up: the question goes to the page at once. (The lookup is a
    // round trip to where VS Code keeps secrets, the browser in code-server, busy opening this very tab.)
    if (secrets.size === 0) return [];
    try {
      return (await source.available(this.question)).filter((name) => secrets.has(name));
    } catch {
      return [];
    }
  }

  private fileField(name: string): FileField | undefined {
    const field = this.form.fields.find((f) => f.name === name);
    return field?.kind === 'file' ? field : undefined;
  }

  /** VS Code's file dialog for a file field; the page learns the chosen files' names and sizes, or why they do not fit. */
  private async chooseFiles(name: string): Promise<void> {
    const field = this.fileField(name);
    if (!field || this.choosingFiles) return;
    this.choosingFiles = true;
    try {
      const title = inertText(`${questionTitle(this.question.request)} — ${oneLine(field.label, 80)}`);
      let choice: FileChoice | undefined;
      try {
        choice = await chooseFiles(field, title);
      } catch (error) {
        choice = { problem: vscode.l10n.t('The file dialog failed: {0}', oneLine(errorText(error), 200)) };
      }
      if (this.settled) return;
      if (choice && 'files' in choice) this.files.set(name, choice.files);
      const labels = (this.files.get(name) ?? []).map(chosenFileLabel);
      const problem = choice && 'problem' in choice ? { problem: choice.problem } : {};
      this.post({ type: 'files', questionId: this.question.id, field: name, labels, ...problem });
      // Back from the dialog: the form again, where the person was.
      this.panel.reveal();
    } finally {
      this.choosingFiles = false;
    }
  }

  private async submit(message: Extract<FormToHost, { type: 'submit' }>): Promise<void> {
    if (this.submitting) return;
    this.submitting = true;
    try {
      const given: ElicitContent = {};
      for (const field of this.form.fields) {
        // A file field's value is only ever the file the person chose here, never one the page names.
        if (field.kind === 'file') {
          const files = this.files.get(field.name);
          if (files && files.length > 0) given[field.name] = field.multiple ? files.map((f) => f.value) : files[0]!.value;
        } else if (Object.hasOwn(message.content, field.name)) given[field.name] = message.content[field.name]!;
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
      // The one check of an outside answer (outsideAnswer.ts): the page is a client like a phone.
      const read = readOutsideAnswer(this.form, given);
      // The page's protocol check (isFormToHost) lets only field values through: anything else is dropped, never sent.
      if (!read.ok && 'malformed' in read) return;
      const errors = { ...(read.ok ? {} : 'errors' in read ? read.errors : { [read.tooCostly]: TOO_COSTLY }), ...missing };
      if (Object.keys(errors).length > 0) {
        this.post({ type: 'errors', errors });
        return;
      }
      const offer = this.question.rememberOffer;
      if (offer && message.remember) this.question.remember = offer === 'session' ? 'session' : message.remember;
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

  private post(message: HostToForm): void {
    if (!this.settled) this.panel.post(message);
  }

  reveal(preserveFocus = false): void {
    if (!this.settled) this.panel.reveal(preserveFocus);
  }

  /** Resolves once. An answer leaves the panel saying so; anything else closes it. */
  private finish(result: RenderOutcome, answered: boolean): void {
    if (this.settled) return;
    this.settled = true;
    for (const listener of this.listening.splice(0)) listener.dispose();
    this.appReading.abort();
    // The app's page goes now (the answer is sent): told so, without waiting for it.
    void this.bridge?.teardown(result.action === 'accept' ? 'answered' : result.action);
    AppQuestions.hidden(this.panel);
    // The answered line is Elicit's page's: the app's page gives way to it.
    if (this.panel.showsForeignPage && answered && !this.panel.disposed) this.panel.showOwnPage();
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
