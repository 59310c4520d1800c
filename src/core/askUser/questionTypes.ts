/**
 * The questions an agent asks through Elicit's own tool (askUser), and what it gets back:
 * the types both the tool's questions and its clipboard questions use.
 */
import type { ElicitResult } from '../request';

export type QuestionKind = 'text' | 'choice' | 'multiChoice' | 'confirm' | 'form' | 'secret' | 'clipboardWrite' | 'clipboardRead';

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
}

export interface ToolAnswer {
  action: ElicitResult['action'];
  answer?: unknown;
  /** For secrets: the reference the agent may use, e.g. "${secret:openai-api-key}". */
  reference?: string;
  note?: string;
}
