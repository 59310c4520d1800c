/**
 * The question kinds an AI agent can ask through Elicit (the `elicit` language
 * model tool, and the gateway's `ask_user`): text, choice, multi choice,
 * confirmation, form and secret, the clipboard questions clipboardWrite and
 * clipboardRead (clipboardQuestions.ts), and location (locationQuestions.ts). Pure: turns the agent's input into an
 * elicitation request schema, and the person's answer into what the agent
 * receives — for a secret only a `${secret:NAME}` reference, never the value.
 */
import { askClipboardQuestion, checkCopyText, isClipboardKind, MAX_COPY_CHARS, type ClipboardAccess } from './clipboardQuestions';
import { InvalidRequestError } from '../errors';
import {
  askLocationQuestion,
  checkLocationQuestion,
  LOW_ACCURACY_ROUNDING_TEXT,
  MAX_REASON_CHARS,
  readAccuracy,
  type LocationAccess,
} from './locationQuestions';
import { secretFieldNames } from '../form/fields';
import { normalize } from '../form/normalize';
import type { Asker, ElicitRequest, ElicitResult } from '../request';
import type { QuestionKind, ToolAnswer, ToolQuestion } from './questionTypes';

const KINDS: readonly QuestionKind[] = [
  'text',
  'choice',
  'multiChoice',
  'confirm',
  'form',
  'secret',
  'clipboardWrite',
  'clipboardRead',
  'location',
];

/** JSON Schema of ToolQuestion, for tool declarations. */
export const TOOL_QUESTION_SCHEMA = {
  type: 'object',
  properties: {
    kind: {
      type: 'string',
      enum: [...KINDS],
      description:
        "text: free text · choice: one of options · multiChoice: several of options · confirm: yes/no · form: several fields (schema) · secret: a password or key, returned only as a ${secret:NAME} reference · clipboardWrite: copy text to the clipboard once the user has seen and approved it · clipboardRead: the clipboard's text, once the user approves · location: the user's position from their paired phone (accuracy), answer {lat, lng, accuracy} in degrees and metres, or {place} when they type one instead; action denied when they refuse (then ask for a city instead)",
    },
    question: {
      type: 'string',
      description: `The question, in one or two sentences. For location: why you need it (at most ${MAX_REASON_CHARS} characters), shown to the user.`,
    },
    options: { type: 'array', items: { type: 'string' }, description: 'For choice and multiChoice.' },
    allowOther: { type: 'boolean', description: 'For choice: also let the user type an answer not in options.' },
    schema: {
      type: 'object',
      description:
        'For form: a flat JSON Schema object whose properties are strings, numbers, integers, booleans, enums or arrays of enums.',
    },
    secretName: {
      type: 'string',
      description: 'For secret: a short name such as "openai-api-key"; the user can use ${secret:NAME} in mcp.json env or headers.',
    },
    defaultValue: { type: 'string', description: 'For text: a suggested answer.' },
    text: {
      type: 'string',
      maxLength: MAX_COPY_CHARS,
      description: `For clipboardWrite: the text to copy, at most ${MAX_COPY_CHARS} characters (the user sees all of it).`,
    },
    accuracy: {
      type: 'string',
      enum: ['high', 'low'],
      description: `For location: high (as precise as the phone can) or low, rounded to ${LOW_ACCURACY_ROUNDING_TEXT}.`,
    },
  },
  required: ['kind', 'question'],
} as const;

export const OTHER_VALUE = '\u0000other';
const SECRET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function readToolQuestion(input: unknown): ToolQuestion {
  if (typeof input !== 'object' || input === null) throw new InvalidRequestError('The input must be an object');
  const q = input as Record<string, unknown>;
  if (!KINDS.includes(q.kind as QuestionKind)) throw new InvalidRequestError(`"kind" must be one of ${KINDS.join(', ')}`);
  if (typeof q.question !== 'string' || q.question.trim() === '') throw new InvalidRequestError('"question" must be a non-empty string');
  const question: ToolQuestion = { kind: q.kind as QuestionKind, question: q.question };
  if (q.options !== undefined) {
    if (!Array.isArray(q.options) || !q.options.every((o) => typeof o === 'string')) {
      throw new InvalidRequestError('"options" must be a list of strings');
    }
    question.options = [...new Set(q.options as string[])];
  }
  if (q.allowOther === true) question.allowOther = true;
  if (typeof q.defaultValue === 'string') question.defaultValue = q.defaultValue;
  if (q.schema !== undefined) {
    if (typeof q.schema !== 'object' || q.schema === null) throw new InvalidRequestError('"schema" must be an object');
    question.schema = q.schema as Record<string, unknown>;
  }
  if (q.secretName !== undefined) {
    if (typeof q.secretName !== 'string' || !SECRET_NAME.test(q.secretName)) {
      throw new InvalidRequestError('"secretName" must be 1–64 letters, digits, dots, dashes or underscores');
    }
    question.secretName = q.secretName;
  }
  if ((question.kind === 'choice' || question.kind === 'multiChoice') && !question.options?.length) {
    throw new InvalidRequestError(`A ${question.kind} question needs "options"`);
  }
  if (question.kind === 'form' && !question.schema) throw new InvalidRequestError('A form question needs "schema"');
  if (question.kind === 'secret' && !question.secretName) throw new InvalidRequestError('A secret question needs "secretName"');
  if (q.text !== undefined) {
    if (typeof q.text !== 'string') throw new InvalidRequestError('"text" must be a string');
    checkCopyText(q.text);
    question.text = q.text;
  }
  if (question.kind === 'clipboardWrite' && !question.text) throw new InvalidRequestError('A clipboardWrite question needs "text"');
  if (q.accuracy !== undefined) question.accuracy = readAccuracy(q.accuracy);
  if (question.kind === 'location') checkLocationQuestion(question);
  return question;
}

/** The form schema the person is shown. */
export function toRequestedSchema(q: ToolQuestion): Record<string, unknown> {
  const answer = (property: Record<string, unknown>): Record<string, unknown> => ({
    type: 'object',
    properties: { answer: { title: 'Answer', ...property } },
    required: ['answer'],
  });
  switch (q.kind) {
    case 'text':
      return answer({ type: 'string', ...(q.defaultValue !== undefined ? { default: q.defaultValue } : {}) });
    case 'choice': {
      const options = q.options!.map((o) => ({ const: o, title: o }));
      if (q.allowOther) options.push({ const: OTHER_VALUE, title: 'Other…' });
      return answer({ type: 'string', oneOf: options });
    }
    case 'multiChoice':
      return answer({ type: 'array', items: { type: 'string', enum: q.options } });
    case 'confirm':
      return answer({ type: 'boolean' });
    case 'form':
      normalize(q.schema); // Refuse what cannot be drawn before anything is shown.
      return q.schema!;
    case 'secret':
      return {
        type: 'object',
        properties: { [q.secretName!]: { type: 'string', title: q.secretName, format: 'password' } },
        required: [q.secretName],
      };
    case 'clipboardWrite':
    case 'clipboardRead':
    case 'location':
      throw new InvalidRequestError(`A ${q.kind} question is not a form`);
  }
}

/**
 * What the agent receives. Secret values never: a secret question answers with
 * its reference, and a form's secret fields become references too.
 */
export function toToolAnswer(q: ToolQuestion, result: ElicitResult): ToolAnswer {
  if (result.action !== 'accept') return { action: result.action };
  const content = result.content ?? {};
  switch (q.kind) {
    case 'secret':
      return {
        action: 'accept',
        reference: secretReference(q.secretName!),
        note: 'The value is stored in VS Code SecretStorage. Use the reference (for example in .vscode/mcp.json env or headers); the value itself is never shown to you.',
      };
    case 'form': {
      const secrets = secretFieldNames(normalize(q.schema));
      const answer = Object.fromEntries(Object.entries(content).map(([k, v]) => [k, secrets.has(k) ? secretReference(k) : v]));
      return { action: 'accept', answer };
    }
    default:
      return { action: 'accept', answer: content.answer };
  }
}

export function secretReference(name: string): string {
  return `\${secret:${name}}`;
}

export interface ToolQuestionDeps {
  ask: (request: ElicitRequest) => Promise<ElicitResult>;
  /** Keeps a secret answer under its name, for `${secret:NAME}`. */
  saveSecret: (name: string, value: string) => Promise<void>;
  /** The clipboard and the person's approval of its use; without it, clipboard questions are refused. */
  clipboard?: ClipboardAccess;
  /** The paired phone and the editor's prompt for a location question; without it, location questions are refused. */
  location?: LocationAccess;
}

/** Asks a tool question through the broker, with the "Other…" follow-up and secret storage. */
export async function askToolQuestion(deps: ToolQuestionDeps, asker: Asker, q: ToolQuestion, signal?: AbortSignal): Promise<ToolAnswer> {
  if (isClipboardKind(q.kind)) {
    if (!deps.clipboard) throw new InvalidRequestError(`${q.kind} is not available here`);
    return askClipboardQuestion(deps.clipboard, asker, q, signal);
  }
  if (q.kind === 'location') {
    if (!deps.location) throw new InvalidRequestError('location is not available here');
    return askLocationQuestion(deps.location, asker, q, signal);
  }
  const result = await deps.ask({ mode: 'form', asker, message: q.question, requestedSchema: toRequestedSchema(q), signal });
  if (q.kind === 'choice' && result.action === 'accept' && result.content?.answer === OTHER_VALUE) {
    const other = await deps.ask({
      mode: 'form',
      asker,
      message: q.question,
      requestedSchema: {
        type: 'object',
        properties: { answer: { type: 'string', title: 'Your answer', minLength: 1 } },
        required: ['answer'],
      },
      signal,
    });
    return toToolAnswer({ ...q, kind: 'text' }, other);
  }
  if (result.action === 'accept') {
    const secrets = q.kind === 'secret' ? [q.secretName!] : q.kind === 'form' ? [...secretFieldNames(normalize(q.schema))] : [];
    for (const name of secrets) {
      const value = result.content?.[name];
      if (typeof value === 'string' && value !== '') await deps.saveSecret(name, value);
    }
  }
  return toToolAnswer(q, result);
}
