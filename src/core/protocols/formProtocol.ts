/**
 * The typed messages between the extension host and the form webview, imported
 * by both sides so they cannot drift. The webview speaks first (`ready`), then
 * the host sends the form; the host never sends before `ready`. A webview that
 * is hidden and shown again is reloaded and says `ready` again; the host then
 * sends the same `show`, and the webview brings back its own draft (kept with
 * `setState`, never holding secrets) for the same `questionId`. After an
 * answer the host may say `answered`, then `show` the asker's next question in
 * the same page.
 */
import type { FormModel } from '../form/fields';
import type { RawValues } from '../form/formState';
import type { EarlierAnswer, ElicitContent } from '../request';
import { isAnswerContent, isPlainObject } from '../form/answerShape';
import type { MemoryScope } from '../memory/askerIdentity';

/** Everything the webview needs to draw one question. All strings are plain text. */
export interface FormView {
  /** The broker's question id: a saved draft is reused only for the same question. */
  questionId: number;
  /** "weather-server asks · tool get_forecast" */
  title: string;
  message: string;
  form: FormModel;
  /** Values to start from: the fields' defaults. */
  initial: ElicitContent;
  /** Names of secret fields that have a saved value the person may reuse. */
  savedSecrets?: string[];
  /** Earlier rounds of the same flow, shown read-only above the fields. */
  earlier?: EarlierAnswer[];
  /** The Submit button's label when it is not "Submit" (e.g. "Done"). */
  submitLabel?: string;
  /** Elicit asks for the person (a tool's arguments): Submit and Cancel only, no Decline or Later. */
  onBehalf?: true;
  /** Widget values to start from when the page has no draft of its own (a question kept across a reload). */
  draft?: RawValues;
  /** The host keeps this question across a reload: post `draft` as the person types. */
  keepsDraft?: boolean;
  /** The asker's own timer (codex's autoResolutionMs): who it is, and the time left when this view was sent. */
  countdown?: { by: string; leftMs: number };
  /**
   * A non-blocking question whose turn has ended (the asker would drop an
   * answer): this sentence says so, and Submit becomes Dismiss (posts `cancel`).
   */
  turnEnded?: string;
  /** "Remember this answer" is offered, for this session or up to always (core/memory). */
  remember?: MemoryScope;
  /** The language the asker's text is in (a checked BCP 47 tag): `lang` of the question and its fields. */
  lang?: string;
  /**
   * File fields' chosen files as the page shows them ("report.pdf (12.3 KB)"), by field name:
   * the host holds the files themselves and adds them to the answer (never the page).
   */
  files?: Record<string, string[]>;
  /**
   * The asker has its own app for this question (draft SEP-3118): the form offers to show it
   * again (`showApp`). `by` names the asker; `note` says why Elicit's form is shown instead
   * (the app could not be shown, or its answer did not fit the question).
   */
  app?: { by: string; canShow: boolean; note?: string };
}

export type HostToForm =
  /**
   * `takeFocus`: false when the tab opened while the person types elsewhere (a question in a
   * quick input); the first field is then focused only once the page itself gets the focus.
   */
  | { type: 'show'; view: FormView; takeFocus: boolean }
  /** The host's authoritative check failed: show these sentences by field name ('' = the whole form). */
  | { type: 'errors'; errors: Record<string, string> }
  /** The question is answered: show this line instead of the form until the next `show` or the panel closes. */
  | { type: 'answered'; text: string }
  /** The question shown has become one that can only be dismissed (see FormView.turnEnded). */
  | { type: 'turnEnded'; questionId: number; text: string }
  /**
   * A file field's files after the person chose (or cleared) them: their labels, or why the
   * files picked cannot answer it (`problem`; the field keeps what it had).
   */
  | { type: 'files'; questionId: number; field: string; labels: string[]; problem?: string };

export type FormToHost =
  | { type: 'ready' }
  /**
   * The answer as given. `useSaved` names secret fields (listed in
   * `FormView.savedSecrets`) whose saved value the host fills in; the webview
   * never sees saved secrets.
   */
  | { type: 'submit'; content: ElicitContent; useSaved?: string[]; remember?: MemoryScope }
  | { type: 'decline' }
  /** What is typed so far, secrets left out (only when `keepsDraft`): kept with the question across a reload. */
  | { type: 'draft'; values: RawValues }
  /** Put the question off: the panel closes, the question stays pending; `values` (secrets left out) come back with it. */
  | { type: 'later'; values?: RawValues }
  /** Open VS Code's file dialog for this file field (the host answers with `files`). */
  | { type: 'chooseFiles'; field: string }
  /** Forget the files chosen for this file field. */
  | { type: 'clearFiles'; field: string }
  /** Show the asker's own app for this question in place of the form (FormView.app). */
  | { type: 'showApp' }
  | { type: 'cancel' };

/** Structural check of a message from the webview: anything else is ignored by the host. */
export function isFormToHost(value: unknown): value is FormToHost {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as { type?: unknown; content?: unknown; useSaved?: unknown };
  switch (message.type) {
    case 'ready':
    case 'decline':
    case 'cancel':
    case 'showApp':
      return true;
    case 'later': {
      const values = (message as { values?: unknown }).values;
      return values === undefined || isRawValues(values);
    }
    case 'submit':
      return (
        isAnswerContent(message.content) &&
        (message.useSaved === undefined || isStringArray(message.useSaved)) &&
        isRememberScope((message as { remember?: unknown }).remember)
      );
    case 'draft':
      return isRawValues((message as { values?: unknown }).values);
    case 'chooseFiles':
    case 'clearFiles':
      return typeof (message as { field?: unknown }).field === 'string';
    default:
      return false;
  }
}

function isRememberScope(value: unknown): boolean {
  return value === undefined || value === 'session' || value === 'always';
}

function isRawValues(value: unknown): value is RawValues {
  if (!isPlainObject(value)) return false;
  return Object.values(value).every((raw) => raw === null || typeof raw === 'string' || typeof raw === 'boolean' || isStringArray(raw));
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
