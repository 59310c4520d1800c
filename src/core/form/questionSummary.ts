/**
 * What a form asks, in one line: its first question (an agent's choice and its
 * "Other…" text count as one), with how many more follow. Agents put the
 * question in the field's title (codex) or under a short header in its
 * description (claude's AskUserQuestion), while the form's message may be only
 * a notice ("Codex keeps working while you answer…"). Plain, untrusted text.
 */
import type { FormModel } from './fields';
import { tryNormalize } from './normalize';
import { questionFields } from './otherAnswer';

/** From the schema as the asker sent it; empty when it cannot be read. */
export function questionSummary(requestedSchema: unknown): string {
  const normalized = tryNormalize(requestedSchema);
  return 'error' in normalized ? '' : formSummary(normalized.form);
}

export function formSummary(form: FormModel, max = 1000): string {
  const questions = questionFields(form);
  const first = questions[0];
  if (!first) return '';
  const label = first.label === first.name ? '' : first.label;
  const text = [label, first.description ?? ''].filter((t) => t !== '').join(': ') || first.name;
  const more = questions.length - 1;
  const summary = more === 0 ? text : `${text} (+${more} more ${more === 1 ? 'question' : 'questions'})`;
  return summary.length > max ? `${summary.slice(0, max - 1)}…` : summary;
}
