/**
 * Every automatic answer is seen: a brief status-bar notice, "Answered for
 * weather: region = eu-west · Forget", whose click forgets the answers used.
 * The asker's name and the values are made inert (core/display.ts).
 */
import * as vscode from 'vscode';
import type { AnsweredQuestion } from '../../core/broker/broker';
import { inertText, oneLine } from '../../core/display';
import type { AskerRule } from '../../core/memory/askerRules';

const SHOWN_MS = 10_000;

/** "weather · tool get_forecast": the asker and what it was doing, as the question's title names them. */
function askerWithDetail(answered: AnsweredQuestion): string {
  const { name, detail } = answered.question.request.asker;
  return detail ? `${oneLine(name, 40)} · ${oneLine(detail, 40)}` : oneLine(name, 40);
}

export class AutomaticAnswerNotice implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('elicit.automaticAnswer', vscode.StatusBarAlignment.Left, 99);
  private timer: NodeJS.Timeout | undefined;

  constructor() {
    this.item.name = vscode.l10n.t('Elicit: Answered Automatically');
  }

  show(answered: AnsweredQuestion): void {
    if (answered.rule) return this.showRule(answered, answered.rule);
    const used = answered.automatic ?? [];
    if (used.length === 0) return;
    const values = used.flatMap((entry) => entry.shown.map((field) => `${field.label} = ${field.value}`)).join(', ');
    const asker = askerWithDetail(answered);
    const text = vscode.l10n.t('Answered for {0}: {1}', asker, oneLine(values, 80));
    this.item.text = `$(history) ${inertText(text)} · ${vscode.l10n.t('Forget')}`;
    this.item.tooltip = inertText(
      `${vscode.l10n.t('Elicit answered this question with the answer you chose to remember. Click to forget it: the question will be asked again.')}\n\n${oneLine(answered.question.request.message, 300)}`,
    );
    this.item.command = {
      title: vscode.l10n.t('Forget'),
      command: 'elicit.forgetRememberedAnswer',
      arguments: [used.map((entry) => entry.id)],
    };
    this.flash();
  }

  /** "Declined for weather: your rule · Forget": its click forgets the rule. */
  private showRule(answered: AnsweredQuestion, rule: AskerRule): void {
    const asker = askerWithDetail(answered);
    const text =
      rule.kind === 'noLinks'
        ? vscode.l10n.t('Declined a link from {0}: you never open its links', asker)
        : vscode.l10n.t('Declined for {0}: you always decline this question', asker);
    this.item.text = `$(circle-slash) ${inertText(text)} · ${vscode.l10n.t('Forget')}`;
    this.item.tooltip = inertText(
      `${vscode.l10n.t('Elicit declined this question by your rule for this asker. Click to forget the rule: the question will be asked again.')}\n\n${oneLine(answered.question.request.message, 300)}`,
    );
    this.item.command = { title: vscode.l10n.t('Forget'), command: 'elicit.forgetAskerRule', arguments: [rule.id] };
    this.flash();
  }

  private flash(): void {
    this.item.show();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.item.hide(), SHOWN_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.item.dispose();
  }
}
