/**
 * "Always Decline from This Asker…" on a pending question: a
 * form or round sets "always decline this question from <asker>", a link
 * question "never open links from <asker>"; the question is declined now and
 * the rule shows in the Remembered Answers view, where it is forgotten.
 */
import * as vscode from 'vscode';
import type { Broker, Question } from '../../core/broker/broker';
import { inertText, oneLine } from '../../core/display';
import type { AnswerMemory } from '../../core/memory/answerMemory';
import { ruleFor } from '../../core/memory/askerRules';

export const ALWAYS_DECLINE_COMMAND = 'elicit.alwaysDeclineFromAsker';

export function registerAskerRuleCommand(broker: Broker, memory: AnswerMemory): vscode.Disposable {
  return vscode.commands.registerCommand(ALWAYS_DECLINE_COMMAND, async (item?: unknown) => {
    const question = broker.pending().find((pending) => pending === item);
    if (question) return alwaysDecline(broker, memory, question);
    // A row clicked just as its question was answered elsewhere (another window, a phone, its asker).
    if (item !== undefined) void vscode.window.showInformationMessage(vscode.l10n.t('This question is no longer waiting.'));
  });
}

async function alwaysDecline(broker: Broker, memory: AnswerMemory, question: Question): Promise<void> {
  const { request, form } = question;
  const asker = inertText(oneLine(request.asker.name, 60));
  const kind = ruleFor(request, form);
  if (!kind) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Elicit cannot establish who {0} is, so it keeps no rule for it. Decline this question instead.', asker),
    );
    return;
  }
  const confirm = kind === 'noLinks' ? vscode.l10n.t('Never Open Links') : vscode.l10n.t('Always Decline');
  const choice = await vscode.window.showWarningMessage(
    kind === 'noLinks'
      ? vscode.l10n.t('Never open links from {0}?', asker)
      : vscode.l10n.t('Always decline this question from {0}?', asker),
    {
      modal: true,
      detail:
        kind === 'noLinks'
          ? vscode.l10n.t('Every page it asks you to open is declined without asking. Forget the rule in Remembered Answers.')
          : `${inertText(oneLine(request.message, 200))}\n\n${vscode.l10n.t('It is declined without asking each time. Forget the rule in Remembered Answers.')}`,
    },
    confirm,
  );
  if (choice !== confirm) return;
  await memory.rules.add(request, form);
  broker.decline(question.id);
}
