/** Routes each question to the renderer the broker chose for it. */
import type { Question, Renderer } from '../core/broker';
import { InvalidRequestError } from '../core/errors';
import type { ElicitResult } from '../core/request';

export class RendererRouter implements Renderer {
  constructor(
    private readonly quickInput: Renderer,
    private readonly form: Renderer,
  ) {}

  render(question: Question, signal: AbortSignal): Promise<ElicitResult> {
    switch (question.presentation) {
      case 'quickInput':
        return this.quickInput.render(question, signal);
      case 'form':
        return this.form.render(question, signal);
      case 'url':
        // No adapter declares URL mode yet, so none should arrive here.
        return Promise.reject(new InvalidRequestError('URL-mode elicitation is not supported by this client'));
    }
  }
}
