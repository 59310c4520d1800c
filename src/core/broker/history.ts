/**
 * History entries: what was asked, by whom, and how it ended. Built from the
 * broker's onDidAnswer; secret answers are replaced by a mask before anything
 * is kept, so the history (a state file) never holds a secret.
 */
import type { AnsweredQuestion } from './broker';
import type { EndedPrompt } from './openPrompts';
import { clip } from '../display';
import { secretFieldNames } from '../form/fields';
import { fileValueText } from '../form/fileFields';
import type { Asker, ElicitAction } from '../request';

export const SECRET_MASK = '••••••••';

export interface HistoryEntry {
  askedAt: number;
  answeredAt: number;
  asker: Asker;
  message: string;
  mode: 'form' | 'url' | 'group' | 'location';
  url?: string;
  action: ElicitAction;
  /** Why it ended without the person answering. */
  reason?: 'timeout' | 'aborted' | 'error';
  /** Answered from memory (core/memory), without the person. */
  automatic?: true;
  /** Answered by the person on this paired device (its name). */
  device?: string;
  /** Field label → the answer as text (secrets masked). */
  answers?: Array<{ label: string; value: string }>;
}

/**
 * A prompt that ended with an ending (a location question): its summary alone stands for the answer, so
 * the history never holds a position or a typed place.
 */
export function promptHistoryEntry(ended: EndedPrompt): HistoryEntry | undefined {
  const { view, ending } = ended;
  if (view.kind !== 'location') return undefined;
  const entry: HistoryEntry = {
    askedAt: ended.receivedAt,
    answeredAt: ended.endedAt,
    asker: { ...view.asker },
    message: clip(view.reason, 500),
    mode: 'location',
    action: ending.action,
    answers: [{ label: 'Location', value: ending.summary }],
  };
  if (ending.device !== undefined) entry.device = ending.device;
  return entry;
}

export function toHistoryEntry(answered: AnsweredQuestion): HistoryEntry {
  const { question, result } = answered;
  const request = question.request;
  const entry: HistoryEntry = {
    askedAt: question.receivedAt,
    answeredAt: answered.answeredAt,
    asker: { ...request.asker },
    message: clip(request.message, 500),
    mode: request.mode,
    action: result.action,
  };
  if (answered.reason) entry.reason = answered.reason;
  if (answered.automatic || answered.rule) entry.automatic = true;
  if (answered.device !== undefined) entry.device = answered.device;
  if (question.url) entry.url = question.url.url;
  if (result.action === 'accept' && result.content && question.form) {
    const secrets = secretFieldNames(question.form);
    entry.answers = question.form.fields
      .filter((field) => Object.hasOwn(result.content!, field.name))
      .map((field) => {
        const value = result.content![field.name]!;
        const text = secrets.has(field.name)
          ? SECRET_MASK
          : field.kind === 'file'
            ? fileValueText(value)
            : Array.isArray(value)
              ? value.join(', ')
              : String(value);
        return { label: clip(field.label, 120), value: clip(text, 500) };
      });
  }
  return entry;
}
