/**
 * Answer memory in VS Code: the Remembered Answers view and its
 * commands, the rules per asker, and the status-bar notice of each automatic answer.
 */
import type * as vscode from 'vscode';
import type { Services } from '../services';
import { registerAskerRuleCommand } from './askerRuleCommand';
import { AutomaticAnswerNotice } from './automaticNotice';
import { RememberedAnswersView } from './rememberedAnswersView';

export function registerMemory(context: vscode.ExtensionContext, services: Services): void {
  const notice = new AutomaticAnswerNotice();
  context.subscriptions.push(
    notice,
    new RememberedAnswersView(services.memory),
    services.broker.onDidAnswer((answered) => notice.show(answered)),
    registerAskerRuleCommand(services.broker, services.memory),
  );
}
