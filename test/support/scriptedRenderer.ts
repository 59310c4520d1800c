/**
 * A scripted answerer in place of a person: the real broker calls it exactly
 * where it would call the VS Code renderers. Like a person, it takes a moment to
 * take a question in: a question Elicit takes back within that moment (the
 * first of a burst, asked again with the rest) is never seen or answered.
 */
import type { Question, Renderer } from '../../src/core/broker/broker';
import { Broker, type BrokerOptions } from '../../src/core/broker/broker';
import { readingLane } from '../../src/core/time/turnLane';
import { FRESH_MS } from '../../src/core/broker/burst';
import { CANCELLED, type ElicitResult } from '../../src/core/request';

export type Script = (question: Question, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;

/** Longer than a question stays fresh (core/burst.ts). */
export const REACTION_MS = FRESH_MS + 10;

export class ScriptedRenderer implements Renderer {
  readonly seen: Question[] = [];
  constructor(
    public script: Script,
    /** 0 answers at once (the benchmark's machine-speed answerer). */
    private readonly reactionMs = REACTION_MS,
  ) {}

  async render(question: Question, signal: AbortSignal): Promise<ElicitResult> {
    if (this.reactionMs > 0 && !(await stillThereAfter(this.reactionMs, signal))) return CANCELLED;
    this.seen.push(question);
    return this.script(question, signal);
  }
}

/** False when the question is closed before `ms` have passed. */
function stillThereAfter(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function scriptedBroker(
  script: Script,
  timeoutMs = 60_000,
  options: Pick<BrokerOptions, 'acceptsFiles'> = {},
): { broker: Broker; renderer: ScriptedRenderer } {
  const renderer = new ScriptedRenderer(script);
  const broker = new Broker(renderer, {
    timeoutMs: () => timeoutMs,
    maxPendingPerAsker: () => 3,
    presentation: () => 'auto',
    // As the extension wires it: one request read per turn of the event loop.
    readingLane,
    ...options,
  });
  return { broker, renderer };
}

/**
 * Accepts a question with these values, by the asker's own property names: for a
 * grouped question (a round, a burst) each field's composed name is filled in.
 */
export function answerFields(question: Question, values: Record<string, string | number | boolean | string[]>): ElicitResult {
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const field of question.form?.fields ?? []) {
    const value = values[field.property ?? field.name];
    if (value !== undefined) content[field.name] = value;
  }
  return { action: 'accept', content };
}
