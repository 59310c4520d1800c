/**
 * The `elicit_ask_user` language-model tool: any agent in VS Code can ask the
 * person a structured question (text, choice, multi choice, confirmation, form,
 * secret) through Elicit's broker and renderers, or ask to use the clipboard
 * (clipboardWrite, clipboardRead) once the person approves, or ask for the
 * person's location, shared from their paired phone. A secret comes back
 * to the model only as a `${secret:NAME}` reference.
 */
import * as vscode from 'vscode';
import { InvalidRequestError } from '../../core/errors';
import { inertText, oneLine } from '../../core/display';
import type { Asker } from '../../core/request';
import type { ToolQuestion } from '../../core/askUser/questionTypes';
import { askToolQuestion, readToolQuestion } from '../../core/askUser/toolQuestions';
import { clipboardAccess } from '../clipboardApproval';
import { locationAccess } from '../locationPrompt';
import type { Services } from '../services';

export const ELICIT_TOOL = 'elicit_ask_user';
/** Who asks, in the UI: the tool does not learn which agent invoked it. */
export const TOOL_ASKER: Asker = { kind: 'tool', name: 'AI agent', detail: 'elicit tool' };

export function registerElicitTool(context: vscode.ExtensionContext, services: Services): void {
  const tool: vscode.LanguageModelTool<ToolQuestion> = {
    prepareInvocation(options) {
      const invocationMessage =
        typeof options.input?.question === 'string'
          ? vscode.l10n.t('Asking you: {0}', oneLine(options.input.question, 120))
          : vscode.l10n.t('Asking you: a question');
      return { invocationMessage: inertText(invocationMessage) };
    },
    async invoke(options, token) {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        const question = readToolQuestion(options.input);
        const answer = await askToolQuestion(
          {
            ask: (request) => services.broker.ask(request),
            saveSecret: (name, value) => services.vault.storeNamed(name, value),
            clipboard: clipboardAccess(services.broker),
            location: locationAccess(services.broker),
          },
          TOOL_ASKER,
          question,
          controller.signal,
        );
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(answer))]);
      } catch (error) {
        if (error instanceof InvalidRequestError) {
          // Tell the model what to fix instead of failing the whole turn.
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify({ error: error.message }))]);
        }
        throw error;
      } finally {
        subscription.dispose();
      }
    },
  };
  context.subscriptions.push(vscode.lm.registerTool(ELICIT_TOOL, tool));
}
