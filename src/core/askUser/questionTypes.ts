/**
 * The questions an agent asks through Elicit's own tool (askUser), and what it gets back:
 * the types the tool's questions, its clipboard questions and its location question use.
 */
import type { LocationAccuracy } from '../protocols/phoneProtocol';
import type { ElicitResult } from '../request';

export type QuestionKind =
  'text' | 'choice' | 'multiChoice' | 'confirm' | 'form' | 'secret' | 'clipboardWrite' | 'clipboardRead' | 'location';

export interface ToolQuestion {
  kind: QuestionKind;
  question: string;
  /** choice / multiChoice */
  options?: string[];
  /** choice: also offer "Other…" with free text. */
  allowOther?: boolean;
  /** form: a restricted form schema. */
  schema?: Record<string, unknown>;
  /** secret: the name it is stored under, e.g. "openai-api-key". */
  secretName?: string;
  /** text: a default answer. */
  defaultValue?: string;
  /** clipboardWrite: the text to copy. */
  text?: string;
  /** location: "high" (as precise as the phone can) or "low" (rounded, about 1 km). */
  accuracy?: LocationAccuracy;
}

export interface ToolAnswer {
  /** `denied`: a location question the person (or their phone's browser) refused, an answer of its own. */
  action: ElicitResult['action'] | 'denied';
  answer?: unknown;
  /** For secrets: the reference the agent may use, e.g. "${secret:openai-api-key}". */
  reference?: string;
  note?: string;
}
