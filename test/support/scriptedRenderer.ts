/**
 * A scripted answerer in place of a person: the real broker calls it exactly
 * where it would call the VS Code renderers.
 */
import type { Question, Renderer } from '../../src/core/broker';
import { Broker } from '../../src/core/broker';
import type { ElicitResult } from '../../src/core/request';

export type Script = (question: Question, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;

export class ScriptedRenderer implements Renderer {
  readonly seen: Question[] = [];
  constructor(public script: Script) {}

  async render(question: Question, signal: AbortSignal): Promise<ElicitResult> {
    this.seen.push(question);
    return this.script(question, signal);
  }
}

export function scriptedBroker(script: Script, timeoutMs = 60_000): { broker: Broker; renderer: ScriptedRenderer } {
  const renderer = new ScriptedRenderer(script);
  const broker = new Broker(renderer, {
    timeoutMs: () => timeoutMs,
    maxPendingPerAsker: () => 3,
    presentation: () => 'auto',
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
