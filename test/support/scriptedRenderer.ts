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
