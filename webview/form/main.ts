/**
 * The form webview. Speaks formProtocol.ts with the host: says `ready`,
 * draws the `show`n form, checks fields live with the same rules the host
 * uses (fieldRules.ts via formState.ts), and posts `submit`, `decline`, `later` or
 * `cancel`. Every asker string is inserted as text, never as HTML.
 *
 * The draft (what the person typed so far, secrets excepted) is kept with
 * setState: the panel does not retain its context when hidden, so it is
 * reloaded when shown again and restores the draft for the same question.
 */
import type { MemoryScope } from '../../src/core/memory/askerIdentity';
import { cleanText, oneLine } from '../../src/core/display';
import type { Field, FormSection } from '../../src/core/form/fields';
import type { EarlierAnswer } from '../../src/core/request';
import {
  fieldProblemIn,
  collectAnswer,
  errorOf,
  makeDraft,
  readDraft,
  splitLongText,
  startingValues,
  type RawValues,
} from '../../src/core/form/formState';
import type { FormView, HostToForm, FormToHost } from '../../src/core/protocols/formProtocol';
import { isOtherChosen, otherOwner, otherTextField, questionFields } from '../../src/core/form/otherAnswer';
import { createControl, dropdown, pushButton, type ChangeKind, type Control } from './controls';
import { adoptStyles, el } from '../shared/dom';
import { CountdownLine } from '../shared/countdown';
import { connectToHost } from '../shared/host';
import { ARRIVAL_GUARD_MS } from '../../src/core/time/arrivalGuard';
import theme from '../shared/theme.css';
import buttons from '../shared/buttons.css';
import controls from '../shared/controls.css';
import visuallyHidden from '../shared/visuallyHidden.css';
import styles from './styles.css';

adoptStyles(theme);
adoptStyles(buttons);
adoptStyles(controls);
adoptStyles(visuallyHidden);
adoptStyles(styles);
const vscode = connectToHost<FormToHost, HostToForm>(onHostMessage);
const app = document.getElementById('app') ?? document.body.appendChild(el('main', { attrs: { id: 'app' } }));
const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
/** Idle time after typing before a problem is shown. */
const SETTLE_MS = 700;
/** Idle time after typing before the draft goes to the host (questions kept across a reload). */
const DRAFT_POST_MS = 400;

class FormPage {
  private readonly controls: Control[] = [];
  private readonly byName = new Map<string, Control>();
  /** Fields the person has typed in or changed: only these show "Required" before a submit. */
  private readonly touched = new Set<string>();
  private readonly shown = new Map<string, string>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly formError: HTMLElement;
  private submitted = false;
  private submitButton!: HTMLButtonElement;
  /** Decline and Cancel: gone once the question can only be dismissed. */
  private refuseButtons: HTMLButtonElement[] = [];
  private ended = false;
  private remember: HTMLSelectElement | undefined;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly countdown: CountdownLine | undefined;
  /** Submit, Decline, Later and Cancel: held while the form has only just appeared. */
  private answerButtons: HTMLButtonElement[] = [];
  private holding = true;
  private holdTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly startHold = (): void => this.holdWhileArriving();

  get questionId(): number {
    return this.view.questionId;
  }

  /**
   * Whether an answer given now counts. A form that just appeared takes none (core/time/arrivalGuard):
   * a click, Ctrl+Enter or Escape in that moment was meant for what was on screen before, and a form
   * with no fields has Submit focused, so even a plain Enter would answer it.
   */
  get takesAnswers(): boolean {
    return !this.holding;
  }

  constructor(private readonly view: FormView) {
    // The page's own draft (it was hidden and reloaded), else one the host kept across a window reload.
    const draft =
      readDraft(view.form, view.questionId, vscode.getState()) ??
      readDraft(view.form, view.questionId, view.draft && { questionId: view.questionId, values: view.draft });
    const raws = startingValues(view.form, view.initial, draft);
    const saved = new Set(view.savedSecrets ?? []);

    const fields = el('div', { className: 'fields' });
    const addControl = (into: HTMLElement, field: Field): void => {
      const files = view.files && Object.hasOwn(view.files, field.name) ? view.files[field.name] : undefined;
      const control = createControl(field, files ?? raws[field.name] ?? null, saved.has(field.name), {
        changed: (c, kind) => this.onChange(c, kind),
        chooseFiles: (c) => post({ type: 'chooseFiles', field: c.field.name }),
        clearFiles: (c) => post({ type: 'clearFiles', field: c.field.name }),
      });
      this.controls.push(control);
      this.byName.set(field.name, control);
      into.append(control.row);
    };
    const addControls = (into: HTMLElement, list: readonly Field[]): void => {
      // An agent's "Other…" text is drawn right under its question, shown while "Other…" is chosen.
      for (const field of questionFields({ fields: [...list] })) {
        addControl(into, field);
        const text = otherTextField(view.form, field);
        if (text) addControl(into, otherAnswerField(text, field.label));
      }
    };
    const sections = shownSections(view);
    if (view.earlier && view.earlier.length > 0) fields.append(earlierAnswers(view.earlier));
    if (sections) {
      // Several questions answered together: each under its own message.
      sections.forEach((section, index) => {
        const box = sectionBox(section.message, index, sections.length);
        fields.append(box);
        addControls(
          box,
          view.form.fields.filter((f) => f.section === index),
        );
      });
    } else {
      addControls(fields, view.form.fields);
    }

    this.formError = el('div', { className: 'form-error', attrs: { role: 'alert' } });
    this.formError.hidden = true;
    // Not a <form>: form-associated components submit it on a plain Enter, and
    // only Ctrl/Cmd+Enter or the Submit button should send a half-filled form.
    const form = el('div', {
      className: 'form',
      attrs: { role: 'form', 'aria-labelledby': 'title', 'data-question': String(view.questionId) },
    });
    const hasRequired = view.form.fields.some((f) => f.required && f.kind !== 'boolean');
    const top = header(view, hasRequired);
    if (view.countdown && typeof view.countdown.by === 'string' && typeof view.countdown.leftMs === 'number') {
      this.countdown = new CountdownLine(view.countdown.by, view.countdown.leftMs);
      top.append(...this.countdown.nodes);
    }
    // The asker's text in its own language, so a screen reader pronounces it so; Elicit's buttons stay in the page's.
    if (view.lang) {
      top.lang = view.lang;
      fields.lang = view.lang;
    }
    form.append(top, fields, this.footer());
    app.replaceChildren(form);
    app.removeAttribute('aria-busy');
    this.syncOtherAnswers(undefined);
    this.saveDraft();
    if (view.turnEnded !== undefined) this.turnEnded(view.turnEnded);
    this.holdAnswers();
  }

  /**
   * The buttons look unavailable (and are, to a screen reader and to a click) for the guard's
   * moment from when the page is first seen: VS Code may load a tab's page before showing it.
   */
  private holdAnswers(): void {
    for (const b of this.answerButtons) b.setAttribute('aria-disabled', 'true');
    if (document.visibilityState === 'visible') this.holdWhileArriving();
    else document.addEventListener('visibilitychange', this.startHold);
  }

  private holdWhileArriving(): void {
    if (document.visibilityState !== 'visible' || this.holdTimer !== undefined) return;
    document.removeEventListener('visibilitychange', this.startHold);
    this.holdTimer = setTimeout(() => {
      this.holding = false;
      for (const b of this.answerButtons) b.removeAttribute('aria-disabled');
    }, ARRIVAL_GUARD_MS);
  }

  /** A button's action, once the form takes answers. */
  private answerButton(label: string, secondary: boolean, onClick: () => void): HTMLButtonElement {
    const b = button(label, secondary, () => {
      if (this.takesAnswers) onClick();
    });
    this.answerButtons.push(b);
    return b;
  }

  /**
   * Its turn has ended: the asker would drop an answer. The fields stay (to copy
   * from); a notice says so and Submit becomes Dismiss, which answers cancel.
   */
  turnEnded(notice: string): void {
    if (this.ended) return;
    this.ended = true;
    const header = app.querySelector('header');
    header?.append(el('div', { className: 'turn-ended', text: cleanText(notice), attrs: { role: 'status' } }));
    this.submitButton.textContent = 'Dismiss';
    this.submitButton.title = 'Close this question: its turn has ended, so an answer would not be delivered';
    for (const b of this.refuseButtons) b.hidden = true;
    // Nothing is sent, so nothing is remembered.
    if (this.remember) {
      this.remember.value = '';
      this.remember.hidden = true;
    }
  }

  /** Shows each "Other…" text while its question has "Other…" chosen; focuses it when `chosenIn` just chose it. */
  private syncOtherAnswers(chosenIn: Control | undefined): void {
    for (const control of this.controls) {
      const owner = otherOwner(this.view.form, control.field);
      if (!owner) continue;
      const on = isOtherChosen(owner, this.byName.get(owner.name)?.raw());
      const wasHidden = control.row.hidden;
      control.row.hidden = !on;
      if (!on) this.setError(control, undefined);
      if (on && wasHidden && chosenIn?.field.name === owner.name) control.focus();
    }
  }

  private footer(): HTMLElement {
    const submit = (this.submitButton = this.answerButton(this.view.submitLabel ?? 'Submit', false, () => this.submit()));
    const decline = this.answerButton('Decline', true, () => post({ type: 'decline' }));
    this.refuseButtons = [decline];
    decline.title = 'Tell the asker you will not answer';
    // What is typed comes back with the question (secrets never: makeDraft leaves them out).
    const later = this.answerButton('Later', true, () =>
      post({ type: 'later', values: makeDraft(this.view.form, this.view.questionId, this.raws()).values }),
    );
    later.title = 'Put this question off; answer it from Pending Questions';
    const cancel = this.answerButton('Cancel', true, () => post({ type: 'cancel' }));
    cancel.title = 'Close without answering';
    this.refuseButtons.push(cancel);
    const keys = el('span', { className: 'keys', text: `${isMac ? '⌘' : 'Ctrl'}+Enter to submit · Escape to cancel` });
    // Elicit asking for the person (a tool's arguments): declining or putting off would mean nothing to anyone.
    const answers = this.view.onBehalf ? [submit, cancel] : [submit, decline, later, cancel];
    const remember = this.view.remember ? [this.rememberChoice(this.view.remember)] : [];
    return el('footer', { className: 'actions' }, this.formError, el('div', { className: 'buttons' }, ...answers, ...remember, keys));
  }

  /** "Remember this answer": no, this session, or (where the asker may be remembered always) always. */
  private rememberChoice(offer: MemoryScope): HTMLElement {
    const options = [
      { label: 'Remember: no', value: '' },
      { label: 'Remember: this session', value: 'session' },
    ];
    if (offer === 'always') options.push({ label: 'Remember: always', value: 'always' });
    const select = (this.remember = dropdown(options));
    select.classList.add('remember');
    select.setAttribute('aria-label', 'Remember this answer');
    select.title = 'Answer this same question from this same asker for you, without asking (Elicit: Remembered Answers forgets it)';
    select.value = '';
    return select;
  }

  focusFirst(): void {
    const first = this.controls[0];
    if (first) first.focus();
    else this.submitButton.focus();
  }

  submit(): void {
    if (this.ended) {
      post({ type: 'cancel' });
      return;
    }
    this.submitted = true;
    const { content, errors } = this.collect();
    const names = Object.keys(errors);
    this.showErrors(errors, true);
    if (names.length > 0) return;
    const useSaved = this.controls.filter((c) => c.usingSaved()).map((c) => c.field.name);
    const remember = this.remember?.value === 'session' || this.remember?.value === 'always' ? this.remember.value : undefined;
    post({ type: 'submit', content, ...(useSaved.length > 0 ? { useSaved } : {}), ...(remember ? { remember } : {}) });
  }

  /** The host's answer to Choose File… or Remove: the files it now holds for the field, or why the pick did not fit. */
  filesChosen(field: string, labels: string[], problem: string | undefined): void {
    const control = this.byName.get(field);
    if (!control?.setFiles) return;
    control.setFiles(labels);
    this.touched.add(field);
    this.saveDraft();
    this.setError(control, problem ?? this.problem(control));
    control.focus();
  }

  /** The host's own check failed: shown the same way as ours. */
  hostErrors(errors: Record<string, string>): void {
    this.submitted = true;
    for (const name of Object.keys(errors)) this.byName.get(name)?.stopUsingSaved();
    this.showErrors(errors, true);
  }

  private collect(): ReturnType<typeof collectAnswer> {
    const skip = new Set(this.controls.filter((c) => c.usingSaved()).map((c) => c.field.name));
    const result = collectAnswer(this.view.form, this.raws(), skip);
    for (const control of this.controls) {
      const problem = skip.has(control.field.name) ? undefined : control.inputError();
      if (problem !== undefined) result.errors[control.field.name] = problem;
    }
    return result;
  }

  private raws(): RawValues {
    const raws: RawValues = {};
    for (const control of this.controls) raws[control.field.name] = control.raw();
    return raws;
  }

  /** Replaces every shown problem with `errors`; optionally focuses the first invalid field. */
  private showErrors(errors: Record<string, string>, focus: boolean): void {
    for (const control of this.controls) this.setError(control, errorOf(errors, control.field.name));
    const formLevel = errors[''] ?? Object.entries(errors).find(([name]) => name !== '' && !this.byName.has(name))?.[1];
    this.formError.textContent = formLevel ?? '';
    this.formError.hidden = formLevel === undefined;
    if (!focus) return;
    const first = this.controls.find((c) => errorOf(errors, c.field.name) !== undefined);
    if (first) {
      first.row.scrollIntoView({ block: 'center' });
      first.focus();
    }
  }

  private setError(control: Control, message: string | undefined): void {
    const name = control.field.name;
    if (this.shown.get(name) === message) return;
    if (message === undefined) this.shown.delete(name);
    else this.shown.set(name, message);
    control.showError(message);
  }

  private problem(control: Control): string | undefined {
    if (control.usingSaved()) return undefined;
    return control.inputError() ?? fieldProblemIn(this.view.form, this.raws(), control.field);
  }

  private onChange(control: Control, kind: ChangeKind): void {
    const name = control.field.name;
    if (kind !== 'blur') {
      this.touched.add(name);
      if (kind === 'commit') this.syncOtherAnswers(control);
      this.saveDraft();
    }
    clearTimeout(this.timers.get(name));
    this.timers.delete(name);
    const showing = this.shown.has(name);
    if (kind === 'input' && !showing && !this.submitted) {
      // Let the person finish typing before pointing at a problem.
      this.timers.set(
        name,
        setTimeout(() => this.check(control), SETTLE_MS),
      );
      return;
    }
    if (kind === 'blur' && !this.touched.has(name) && !this.submitted) return; // just passing through
    this.check(control);
  }

  private check(control: Control): void {
    this.timers.delete(control.field.name);
    this.setError(control, this.problem(control));
  }

  /** Stops the timers of a page that is being replaced. */
  close(): void {
    this.countdown?.dispose();
    clearTimeout(this.holdTimer);
    document.removeEventListener('visibilitychange', this.startHold);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    clearTimeout(this.draftTimer);
  }

  private saveDraft(): void {
    const draft = makeDraft(this.view.form, this.view.questionId, this.raws());
    vscode.setState(draft);
    if (!this.view.keepsDraft) return;
    // The host keeps it with the question, so it survives a window reload; one message per pause in typing.
    clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => post({ type: 'draft', values: draft.values }), DRAFT_POST_MS);
  }
}

/**
 * An "Other…" text as the page draws it: named after its question, so it is
 * clear (on screen and to a screen reader) what the text answers.
 */
function otherAnswerField(text: Field, question: string): Field {
  const label = `Your answer to “${oneLine(question, 120)}”`;
  const { description: _omitted, ...rest } = text;
  return { ...rest, label };
}

/** The sections to draw as headings: only when there are several questions. */
function shownSections(view: FormView): readonly FormSection[] | undefined {
  const sections = view.form.sections;
  return sections && sections.length > 1 ? sections : undefined;
}

/** Asker text, cut for a first look with "Show more" for the rest. */
function longText(className: string, text: string): HTMLElement {
  const box = el('div', { className });
  const { head, rest } = splitLongText(cleanText(text));
  box.append(document.createTextNode(head));
  if (rest !== '') {
    const more = el('button', { className: 'link-button show-more', text: 'Show more', attrs: { type: 'button' } });
    const ellipsis = document.createTextNode('… ');
    more.addEventListener('click', () => {
      ellipsis.remove();
      more.replaceWith(document.createTextNode(rest));
    });
    box.append(ellipsis, more);
  }
  return box;
}

function sectionBox(message: string, index: number, total: number): HTMLElement {
  const headingId = `section-${index}`;
  const heading = el('h2', { className: 'section-heading', id: headingId });
  heading.append(el('span', { className: 'section-number', text: `${index + 1} of ${total}` }), longText('section-message', message));
  return el('section', { className: 'section', attrs: { 'aria-labelledby': headingId } }, heading);
}

/** Answers given in earlier rounds of the same flow: read-only context. */
function earlierAnswers(earlier: readonly EarlierAnswer[]): HTMLElement {
  const list = el('ul', { className: 'earlier-list' });
  for (const answer of earlier) {
    const item = el('li', {}, el('div', { className: 'earlier-message', text: oneLine(answer.message, 300) }));
    for (const line of answer.lines) item.append(el('div', { className: 'earlier-line', text: oneLine(line, 300) }));
    list.append(item);
  }
  const summary = el('summary', { text: 'Answered before' });
  return el('details', { className: 'earlier', attrs: { open: '' } }, summary, list);
}

function header(view: FormView, hasRequired: boolean): HTMLElement {
  const title = el('h1', { id: 'title', className: 'title', text: cleanText(view.title) });
  const parts: Node[] = [title];
  // With several questions, each section carries its own message.
  if (view.message.trim() !== '' && !shownSections(view)) parts.push(longText('message', view.message));
  if (hasRequired) {
    const note = el('div', { className: 'required-note' });
    note.append(
      el('span', { className: 'required-marker', text: '*', attrs: { 'aria-hidden': 'true' } }),
      document.createTextNode(' Required'),
    );
    parts.push(note);
  }
  if (view.app) parts.push(appLine(view.app));
  return el('header', { className: 'header' }, ...parts);
}

/** The asker's own app (draft SEP-3118): why this form shows instead, and the way back to the app. */
function appLine(app: NonNullable<FormView['app']>): HTMLElement {
  const line = el('div', { className: 'app-line', attrs: { role: 'status' } });
  if (typeof app.note === 'string') line.append(el('span', { className: 'app-note', text: cleanText(app.note) }));
  if (app.canShow === true) {
    const show = button(`Show ${oneLine(String(app.by), 60)}'s App`, true, () => post({ type: 'showApp' }));
    show.classList.add('show-app');
    line.append(show);
  }
  return line;
}

function button(label: string, secondary: boolean, onClick: () => void): HTMLButtonElement {
  const b = pushButton(label, secondary);
  b.addEventListener('click', onClick);
  return b;
}

function post(message: FormToHost): void {
  vscode.post(message);
}

let page: FormPage | undefined;

/**
 * For a form shown without the keyboard: focuses its first field when the page gets the focus
 * (VS Code focusing the tab, or the person coming to it), unless what they clicked took it already.
 */
function focusFirstOnArrival(shown: FormPage): void {
  window.addEventListener(
    'focus',
    () => {
      setTimeout(() => {
        const active = document.activeElement;
        if (page === shown && (!active || active === document.body)) shown.focusFirst();
      });
    },
    { once: true },
  );
}

function onHostMessage(message: HostToForm): void {
  if (message.type === 'show' && typeof message.view === 'object' && message.view !== null) {
    // The host sends a new panel its question at once and again when the page says `ready`.
    if (page?.questionId === message.view.questionId) return;
    page?.close();
    page = new FormPage(message.view);
    // The page may load after the person went on to type elsewhere (a quick input that opened
    // meanwhile): it takes the keyboard only while VS Code has given it the focus.
    if (message.takeFocus !== false && document.hasFocus()) page.focusFirst();
    else focusFirstOnArrival(page);
  } else if (message.type === 'turnEnded' && typeof message.text === 'string') {
    if (page?.questionId === message.questionId) page.turnEnded(message.text);
  } else if (message.type === 'files' && typeof message.field === 'string' && Array.isArray(message.labels)) {
    if (page?.questionId === message.questionId) {
      const labels = message.labels.filter((label): label is string => typeof label === 'string').map((label) => oneLine(label, 200));
      page.filesChosen(message.field, labels, typeof message.problem === 'string' ? oneLine(message.problem, 300) : undefined);
    }
  } else if (message.type === 'errors' && typeof message.errors === 'object' && message.errors !== null) {
    page?.hostErrors(message.errors);
  } else if (message.type === 'answered' && typeof message.text === 'string') {
    page?.close();
    page = undefined;
    vscode.setState(undefined);
    app.replaceChildren(el('p', { className: 'answered', text: message.text, attrs: { role: 'status' } }));
  }
}

// Capture phase, so an open dropdown or a filter box can keep its Escape.
window.addEventListener(
  'keydown',
  (event) => {
    if (!page || event.isComposing || event.defaultPrevented) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.stopPropagation();
      if (page.takesAnswers) page.submit();
    } else if (event.key === 'Escape' && !escapeBelongsToWidget(event)) {
      event.preventDefault();
      if (page.takesAnswers) post({ type: 'cancel' });
    }
  },
  true,
);

/** A filter box with text takes Escape to clear it (an open dropdown's list keeps its own keys). */
function escapeBelongsToWidget(event: KeyboardEvent): boolean {
  const target = event.target;
  return target instanceof HTMLInputElement && target.hasAttribute('data-escape-clears') && target.value !== '';
}

post({ type: 'ready' });
