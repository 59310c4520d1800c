/**
 * Elicit: Show History — past questions with asker, outcome and answers, newest
 * first, in a read-only editor. Kept in global state, at most MAX_ENTRIES,
 * secrets masked before they are stored (see core/history.ts), written at most
 * once a second (core/broker/historyLog.ts).
 */
import * as vscode from 'vscode';
import type { Broker } from '../../core/broker/broker';
import { promptHistoryEntry, toHistoryEntry, type HistoryEntry } from '../../core/broker/history';
import { HistoryLog } from '../../core/broker/historyLog';
import type { ResultDocuments } from '../resultDocuments';

const STATE_KEY = 'elicit.history';
const MAX_ENTRIES = 200;

export class QuestionHistory implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly log: HistoryLog;

  constructor(state: vscode.Memento, broker: Broker, results: ResultDocuments) {
    this.log = new HistoryLog(
      { read: () => state.get<HistoryEntry[]>(STATE_KEY, []), write: (entries) => Promise.resolve(state.update(STATE_KEY, entries)) },
      MAX_ENTRIES,
    );
    this.disposables.push(
      broker.onDidAnswer((answered) => this.log.add(toHistoryEntry(answered))),
      // A location question: its summary alone ("location shared (about N m)").
      broker.prompts.onDidEnd((ended) => {
        const entry = promptHistoryEntry(ended);
        if (entry) this.log.add(entry);
      }),
      // The document's name stays as it is: it is a file name in the editor's tab, not a sentence.
      vscode.commands.registerCommand('elicit.showHistory', () => results.show('Elicit-history', this.markdown())),
      vscode.commands.registerCommand('elicit.clearHistory', () => this.clear()),
    );
  }

  entries(): HistoryEntry[] {
    return this.log.entries();
  }

  private async clear(): Promise<void> {
    const forget = vscode.l10n.t('Forget');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t("Forget Elicit's question history?"),
      {
        modal: true,
        detail: vscode.l10n.t(
          '{0} past questions with their answers (secret answers masked). Questions still waiting stay.',
          this.entries().length,
        ),
      },
      forget,
    );
    if (choice === forget) await this.log.clear();
  }

  private markdown(): string {
    const entries = this.entries();
    const lines = [vscode.l10n.t('# Elicit question history'), ''];
    if (entries.length === 0) lines.push(vscode.l10n.t('_No questions yet._'));
    for (const entry of entries) {
      const when = new Date(entry.askedAt).toLocaleString();
      const detail = entry.asker.detail ? ` · ${entry.asker.detail}` : '';
      lines.push(`## ${when} — ${entry.asker.name}${detail}`, '');
      lines.push(`> ${entry.message.replace(/\n/g, '\n> ')}`, '');
      if (entry.url) lines.push(vscode.l10n.t('URL: {0}', `\`${entry.url}\``), '');
      lines.push(`**${outcome(entry)}**`, '');
      for (const answer of entry.answers ?? []) lines.push(`- ${answer.label}: ${answer.value}`);
      lines.push('');
    }
    return lines.join('\n');
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.log.dispose();
  }
}

function outcome(entry: HistoryEntry): string {
  if (entry.reason === 'timeout') return vscode.l10n.t('Timed out (cancel sent)');
  if (entry.reason === 'aborted') return vscode.l10n.t('Withdrawn by the asker');
  if (entry.reason === 'error') return vscode.l10n.t('Failed');
  if (entry.action === 'accept' && entry.automatic) return vscode.l10n.t('Answered automatically (a remembered answer)');
  // An answer given on a paired device says which one.
  if (entry.action === 'accept') return entry.device ? vscode.l10n.t('Answered on {0}', entry.device) : vscode.l10n.t('Answered');
  if (entry.action === 'decline' && entry.automatic) return vscode.l10n.t('Declined automatically (your rule for this asker)');
  if (entry.action === 'decline') return entry.device ? vscode.l10n.t('Declined on {0}', entry.device) : vscode.l10n.t('Declined');
  return vscode.l10n.t('Cancelled');
}
