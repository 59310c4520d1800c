/**
 * The host's end of the MCP Apps bridge for one question (draft SEP-3118): JSON-RPC
 * over the app page's messages. The app speaks first (`ui/initialize`); Elicit
 * answers as a host that offers `elicitation` and nothing else, waits for
 * `ui/notifications/initialized`, then sends the question as the server sent it
 * (`elicitation/create`) and takes the app's ElicitResult. Every message is the
 * app's, so untrusted: anything malformed, too large or too many makes the app
 * unusable for this question (Elicit's own form takes over); requests for anything
 * else (tools, links, messages to a model) are refused.
 */
import { jsonSize } from '../form/formBudget';
import { APP_BRIDGE_VERSION } from './appQuestion';

/** What one message from an app may weigh (formBudget.ts units), and how many it may send for a question. */
export const MAX_APP_MESSAGE_SIZE = 200_000;
export const MAX_APP_MESSAGES = 500;

const METHOD_NOT_FOUND = -32601;
const QUESTION_ID = 'elicit-question';
const TEARDOWN_ID = 'elicit-teardown';
/** How long an app has to tidy up after `ui/resource-teardown` before its page goes. */
export const TEARDOWN_WAIT_MS = 500;

export interface AppHostContext {
  theme: 'light' | 'dark';
  locale: string;
}

/** The question as the server sent it: what the app is given. */
export interface AppQuestionParams {
  message: string;
  requestedSchema: unknown;
}

export type AppOutcome =
  /** The app's ElicitResult, not yet checked against the form (the caller does, as for a typed answer). */
  | { kind: 'result'; action: 'accept' | 'decline' | 'cancel'; content?: unknown }
  /** The app cannot answer this question: why, in a sentence. */
  | { kind: 'unusable'; reason: string };

export class AppBridge {
  private initialized = false;
  private answersQuestions = false;
  private asked = false;
  private count = 0;
  private ended = false;
  /** Resolves the teardown's wait when the app answers it. */
  private tornDown: (() => void) | undefined;

  constructor(
    private readonly post: (message: unknown) => void,
    private readonly question: AppQuestionParams,
    private readonly host: { name: string; version: string; context: AppHostContext },
    private readonly done: (outcome: AppOutcome) => void,
  ) {}

  /** One message the app posted. */
  receive(message: unknown): void {
    if (this.tornDown && typeof message === 'object' && message !== null && (message as { id?: unknown }).id === TEARDOWN_ID) {
      this.tornDown();
      this.tornDown = undefined;
      return;
    }
    if (this.ended) return;
    if (++this.count > MAX_APP_MESSAGES) return this.end({ kind: 'unusable', reason: `it sent more than ${MAX_APP_MESSAGES} messages` });
    if (jsonSize(message, MAX_APP_MESSAGE_SIZE + 1) > MAX_APP_MESSAGE_SIZE)
      return this.end({ kind: 'unusable', reason: 'it sent a message too large to read' });
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    const m = message as Record<string, unknown>;
    if (m.jsonrpc !== '2.0') return;
    if (typeof m.method === 'string') {
      const id = m.id;
      if (id === undefined) return this.onNotification(m.method);
      if (typeof id !== 'string' && typeof id !== 'number') return;
      return this.onRequest(id, m.method, m.params);
    }
    if (m.id === QUESTION_ID) this.onAnswer(m);
  }

  /**
   * Tells the app its page is about to go (`ui/resource-teardown`, as MCP Apps asks of a
   * host) and resolves when it has answered, or after TEARDOWN_WAIT_MS. Nothing it sends
   * afterwards counts.
   */
  teardown(reason: string): Promise<void> {
    this.ended = true;
    if (!this.initialized && !this.asked) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(finish, TEARDOWN_WAIT_MS);
      function finish(): void {
        clearTimeout(timer);
        resolve();
      }
      this.tornDown = finish;
      this.post({ jsonrpc: '2.0', id: TEARDOWN_ID, method: 'ui/resource-teardown', params: { reason } });
    });
  }

  private onRequest(id: string | number, method: string, params: unknown): void {
    if (method === 'ui/initialize') {
      // Again: the page was reloaded (its tab hidden and shown), and starts over.
      this.initialized = false;
      this.asked = false;
      const capabilities = typeof params === 'object' && params !== null ? (params as Record<string, unknown>).appCapabilities : undefined;
      this.answersQuestions =
        typeof capabilities === 'object' &&
        capabilities !== null &&
        typeof (capabilities as Record<string, unknown>).elicitation === 'object';
      this.post({
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: APP_BRIDGE_VERSION,
          hostInfo: { name: this.host.name, version: this.host.version },
          hostCapabilities: { elicitation: {} },
          hostContext: { theme: this.host.context.theme, locale: this.host.context.locale, displayMode: 'inline', platform: 'desktop' },
        },
      });
      return;
    }
    if (method === 'ping') return this.post({ jsonrpc: '2.0', id, result: {} });
    if (method === 'ui/request-display-mode') return this.post({ jsonrpc: '2.0', id, result: { mode: 'inline' } });
    this.post({
      jsonrpc: '2.0',
      id,
      error: { code: METHOD_NOT_FOUND, message: `Elicit shows this app to answer one question: it does not offer ${method.slice(0, 80)}` },
    });
  }

  private onNotification(method: string): void {
    if (method !== 'ui/notifications/initialized' || this.initialized) return;
    this.initialized = true;
    if (!this.answersQuestions) return this.end({ kind: 'unusable', reason: 'it does not answer questions (no elicitation capability)' });
    this.asked = true;
    this.post({
      jsonrpc: '2.0',
      id: QUESTION_ID,
      method: 'elicitation/create',
      params: { mode: 'form', message: this.question.message, requestedSchema: this.question.requestedSchema },
    });
  }

  private onAnswer(m: Record<string, unknown>): void {
    if (!this.asked) return;
    if (m.error !== undefined) return this.end({ kind: 'unusable', reason: 'it answered with an error' });
    const result = m.result;
    if (typeof result !== 'object' || result === null) return this.end({ kind: 'unusable', reason: 'its answer is not a result' });
    const action = (result as Record<string, unknown>).action;
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel')
      return this.end({ kind: 'unusable', reason: 'its answer has no action' });
    this.end(
      action === 'accept' ? { kind: 'result', action, content: (result as Record<string, unknown>).content } : { kind: 'result', action },
    );
  }

  private end(outcome: AppOutcome): void {
    if (this.ended) return;
    this.ended = true;
    this.done(outcome);
  }

  /** No further message is read (the question ended, or Elicit's form took over). */
  close(): void {
    this.ended = true;
  }
}
