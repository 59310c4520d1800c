/**
 * What is waiting for the person: a Pending Questions view (asker, message,
 * age; Answer, Decline, Later), a status bar item while anything is pending,
 * and a notification with Answer when a question arrives while the window is
 * not focused. Nothing is ever queued out of sight.
 */
import * as vscode from 'vscode';
import type { Broker, Question } from '../core/broker';
import { askerTitle, inertText, oneLine } from '../core/display';

export const PENDING_VIEW = 'elicit.pendingQuestions';

/** Brings a question's UI to the front; the form renderer knows its panels. */
export type Revealer = (question: Question) => boolean;

export class PendingQuestions implements vscode.TreeDataProvider<Question>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<Question | undefined>();
  readonly onDidChangeTreeData = this.changes.event;
  private readonly statusItem = vscode.window.createStatusBarItem('elicit.pending', vscode.StatusBarAlignment.Left, 100);
  private readonly disposables: vscode.Disposable[] = [];
  private readonly announced = new Set<number>();
  private ageTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly broker: Broker,
    private readonly reveal: Revealer,
  ) {
    this.statusItem.name = 'Elicit: Pending Questions';
    this.statusItem.command = 'elicit.showPendingQuestions';
    this.disposables.push(
      this.changes,
      this.statusItem,
      vscode.window.registerTreeDataProvider(PENDING_VIEW, this),
      broker.onDidChange(() => this.update()),
      vscode.commands.registerCommand('elicit.showPendingQuestions', () =>
        vscode.commands.executeCommand(`${PENDING_VIEW}.focus`),
      ),
      vscode.commands.registerCommand('elicit.answerQuestion', (q?: Question) => q && this.answer(q)),
      vscode.commands.registerCommand('elicit.declineQuestion', (q?: Question) => q && broker.decline(q.id)),
      vscode.commands.registerCommand('elicit.laterQuestion', (q?: Question) => q && broker.later(q.id)),
    );
  }

  getTreeItem(question: Question): vscode.TreeItem {
    const item = new vscode.TreeItem(inertText(oneLine(question.request.message, 80)));
    item.id = String(question.id);
    item.description = `${inertText(oneLine(question.request.asker.name, 40))} · ${stateText(question)} · ${age(question.receivedAt)}`;
    item.tooltip = `${askerTitle(question.request.asker)}\n\n${inertText(oneLine(question.request.message, 600))}\n\n${stateText(question)}, asked ${age(question.receivedAt)}`;
    item.iconPath = new vscode.ThemeIcon(
      question.state === 'later' ? 'clock' : question.state === 'showing' ? 'comment-discussion' : 'watch',
    );
    item.contextValue = `question.${question.state}`;
    item.command = { command: 'elicit.answerQuestion', title: 'Answer', arguments: [question] };
    return item;
  }

  getChildren(element?: Question): Question[] {
    return element ? [] : this.broker.pending();
  }

  private answer(question: Question): void {
    if (question.state === 'later') this.broker.resume(question.id);
    else if (question.state === 'showing') this.reveal(question);
    else void vscode.window.showInformationMessage('This question shows as soon as the one on screen is answered or put off.');
  }

  private update(): void {
    const pending = this.broker.pending();
    this.changes.fire(undefined);
    const count = pending.length;
    if (count === 0) {
      this.statusItem.hide();
    } else {
      const later = pending.filter((q) => q.state === 'later').length;
      this.statusItem.text = `$(comment-discussion) ${count} ${count === 1 ? 'question' : 'questions'}`;
      this.statusItem.tooltip = `${count} pending${later ? `, ${later} put off` : ''}: ${pending
        .map((q) => inertText(oneLine(q.request.asker.name, 40)))
        .join(', ')}`;
      this.statusItem.show();
    }
    for (const question of pending) this.announce(question);
    for (const id of this.announced) if (!pending.some((q) => q.id === id)) this.announced.delete(id);
    // Ages in the view only move while something is pending.
    if (count > 0 && !this.ageTimer) this.ageTimer = setInterval(() => this.changes.fire(undefined), 30_000);
    if (count === 0 && this.ageTimer) {
      clearInterval(this.ageTimer);
      this.ageTimer = undefined;
    }
  }

  /** A question that arrives while the window is in the background gets a notification. */
  private announce(question: Question): void {
    if (this.announced.has(question.id)) return;
    this.announced.add(question.id);
    if (vscode.window.state.focused) return;
    const text = `${askerTitle(question.request.asker)}: ${inertText(oneLine(question.request.message, 120))}`;
    void vscode.window.showInformationMessage(text, 'Answer').then((choice) => {
      const still = this.broker.pending().find((q) => q.id === question.id);
      if (choice === 'Answer' && still) this.answer(still);
    });
  }

  dispose(): void {
    if (this.ageTimer) clearInterval(this.ageTimer);
    for (const d of this.disposables) d.dispose();
  }
}

function stateText(question: Question): string {
  return question.state === 'later' ? 'put off' : question.state === 'showing' ? 'on screen' : 'waiting';
}

function age(since: number): string {
  const seconds = Math.max(0, Math.round((Date.now() - since) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}
