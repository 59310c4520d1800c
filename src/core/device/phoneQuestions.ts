/**
 * The waiting questions as a phone sees them (JSON), and a phone's answer read
 * back into a broker result. A question that may not go to a phone
 * (devicePolicy.ts) is listed with who asks and why it waits for the editor,
 * and nothing of what it asks. A URL question carries its host and warnings,
 * never the URL: the link opens on the computer. A location question carries
 * who asks, why and how precisely; the phone's own browser reads the position
 * once the person shares it. The page inserts every string
 * as text; the strings are cleaned of invisible characters here too.
 */
import type { Question } from '../broker/broker';
import type { ElicitResult } from '../request';
import { cleanText, clip, oneLine } from '../display';
import type { FieldErrors } from '../form/fieldRules';
import { readOutsideAnswer, TOO_COSTLY } from '../form/outsideAnswer';
import type { LocationPromptView, OpenPrompt, PermissionPromptView } from '../broker/openPrompts';
import { MAX_REASON_CHARS, readLocationOutcome } from '../askUser/locationQuestions';
import { acceptsDevicePermission, devicePermissionOptions, deviceVerdict } from './devicePolicy';
import type { PhoneAnswer, PhoneForm, PhoneLocation, PhonePermission, PhoneQuestion, PhoneQuestionBase } from '../protocols/phoneProtocol';

export type {
  PhoneAnswer,
  PhoneEditorOnly,
  PhoneForm,
  PhoneLocation,
  PhonePermission,
  PhoneQuestion,
  PhoneUrl,
} from '../protocols/phoneProtocol';

const MAX_MESSAGE = 2000;

export function phoneQuestion(question: Question, now = Date.now()): PhoneQuestion {
  const { request } = question;
  const base: PhoneQuestionBase = {
    id: question.id,
    asker: oneLine(request.asker.name, 80),
    receivedAt: question.receivedAt,
    later: question.state === 'later',
  };
  if (request.asker.detail) base.detail = oneLine(request.asker.detail, 80);
  // Shown for a question that waits for the editor too: it says how long the person has to get there.
  if (request.autoResolvesAt !== undefined) base.autoResolvesInMs = Math.max(0, request.autoResolvesAt - now);
  const verdict = deviceVerdict(question);
  if (!verdict.allowed) return { ...base, kind: 'editorOnly', reason: verdict.reason };
  const message = clip(cleanText(request.message), MAX_MESSAGE);
  if (request.mode === 'url' && question.url) {
    const { host, displayHost, warnings } = question.url;
    return { ...base, kind: 'url', message, host: displayHost ?? host, warnings: [...warnings] };
  }
  const view: PhoneForm = {
    ...base,
    kind: 'form',
    message,
    form: question.form!,
    turnEnded: request.mode === 'form' && request.nonBlocking?.turnEnded.aborted === true,
  };
  if (question.prefill) view.prefill = question.prefill;
  return view;
}

export type ReadAnswer = { ok: true; answer: PhoneAnswer } | { ok: false; errors: FieldErrors };

/** An answer this device may not give to this question. */
export const REFUSED: ReadAnswer = { ok: false, errors: { '': 'This answer cannot be given from this device' } };

/**
 * A phone's answer to `question`, checked as the editor checks it (field rules
 * and ajv) before the broker sees it: a phone is one more untrusted client.
 */
export function readPhoneAnswer(question: Question, body: unknown): ReadAnswer {
  const verdict = deviceVerdict(question);
  if (!verdict.allowed || typeof body !== 'object' || body === null) return REFUSED;
  const { action, content } = body as { action?: unknown; content?: unknown };
  if (action === 'later') return { ok: true, answer: { action } };
  if (question.request.mode === 'url') return action === 'open' || action === 'decline' ? { ok: true, answer: { action } } : REFUSED;
  const turnEnded = question.request.mode === 'form' && question.request.nonBlocking?.turnEnded.aborted === true;
  if (turnEnded) return action === 'dismiss' ? { ok: true, answer: { action } } : REFUSED;
  if (action === 'decline') return { ok: true, answer: { action } };
  if (action !== 'accept' || !question.form) return REFUSED;
  // The one check of an outside answer (outsideAnswer.ts), as the form page's and another window's.
  const read = readOutsideAnswer(question.form, content);
  if (read.ok) return { ok: true, answer: { action: 'accept', content: read.content } };
  if ('malformed' in read) return REFUSED;
  if ('tooCostly' in read) return { ok: false, errors: { [read.tooCostly]: TOO_COSTLY } };
  return { ok: false, errors: read.errors };
}

/** The broker's result for an accepted or declined phone answer. */
export function asResult(answer: Extract<PhoneAnswer, { action: 'accept' | 'decline' }>): ElicitResult {
  return answer.action === 'accept' ? { action: 'accept', content: answer.content } : { action: 'decline' };
}

/**
 * An open permission request as a phone sees it: the agent's words, one line
 * each, and only the options that end with this one call (allow once, reject once).
 */
export function phonePermission(prompt: OpenPrompt & { view: PermissionPromptView }): PhonePermission {
  const { view } = prompt;
  const permission: PhonePermission = {
    id: prompt.id,
    kind: 'permission',
    asker: oneLine(view.asker, 80),
    receivedAt: prompt.receivedAt,
    later: false,
    title: oneLine(view.title, 200),
    options: devicePermissionOptions(view.options).map(({ optionId, name, kind }) => ({ optionId, name: oneLine(name, 80), kind })),
  };
  if (view.command !== undefined) permission.command = clip(cleanText(view.command), 500);
  return permission;
}

/** A location question as a phone sees it: who asks, why, how precisely. */
export function phoneLocation(prompt: OpenPrompt & { view: LocationPromptView }): PhoneLocation {
  const { view } = prompt;
  const location: PhoneLocation = {
    id: prompt.id,
    kind: 'location',
    asker: oneLine(view.asker.name, 80),
    receivedAt: prompt.receivedAt,
    later: false,
    reason: clip(cleanText(view.reason), MAX_REASON_CHARS),
    accuracy: view.accuracy,
  };
  if (view.asker.detail) location.detail = oneLine(view.asker.detail, 80);
  return location;
}

/** An open prompt as a phone sees it. */
export function phonePrompt(prompt: OpenPrompt): PhoneQuestion {
  const { view } = prompt;
  return view.kind === 'location' ? phoneLocation({ ...prompt, view }) : phonePermission({ ...prompt, view });
}

/**
 * A phone's answer to an open prompt: for a permission request one of the options it was shown, for a
 * location question how it ended there (a position rebuilt from its numbers, a refusal, a failure); else refused.
 */
export function readPromptAnswer(prompt: OpenPrompt, body: unknown): ReadAnswer {
  if (typeof body !== 'object' || body === null) return REFUSED;
  const { action, optionId, location } = body as { action?: unknown; optionId?: unknown; location?: unknown };
  if (prompt.view.kind === 'location') {
    const outcome = action === 'location' ? readLocationOutcome(location) : undefined;
    return outcome ? { ok: true, answer: { action: 'location', location: outcome } } : REFUSED;
  }
  if (action !== 'select' || typeof optionId !== 'string' || !acceptsDevicePermission(prompt.view.options, optionId)) return REFUSED;
  return { ok: true, answer: { action: 'select', optionId } };
}

/** Only what may go: the view of every waiting question and open permission request, oldest first. */
export function phoneQuestions(pending: readonly Question[], prompts: readonly OpenPrompt[] = [], now = Date.now()): PhoneQuestion[] {
  const views = [...pending.map((question) => phoneQuestion(question, now)), ...prompts.map(phonePrompt)];
  return views.sort((a, b) => a.receivedAt - b.receivedAt || a.id - b.id);
}
