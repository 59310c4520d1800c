/** Routes each question to the renderer the broker chose for it. */
import type { Question, RenderOutcome, Renderer } from '../../core/broker/broker';
import type { ElicitResult } from '../../core/request';

/** Told of every answer the person gave, e.g. to keep its secrets in SecretStorage. */
export type AnswerListener = (question: Question, result: ElicitResult) => Promise<void>;

export class RendererRouter implements Renderer {
  constructor(
    private readonly quickInput: Renderer,
    private readonly form: Renderer,
    private readonly url: Renderer,
    private readonly onAnswer: AnswerListener = async () => undefined,
  ) {}

  async render(question: Question, signal: AbortSignal): Promise<RenderOutcome> {
    const outcome = await this.pick(question).render(question, signal);
    if (outcome.action !== 'later') await this.onAnswer(question, outcome);
    return outcome;
  }

  private pick(question: Question): Renderer {
    switch (question.presentation) {
      case 'quickInput':
        return this.quickInput;
      case 'form':
        return this.form;
      case 'url':
        return this.url;
    }
  }
}
