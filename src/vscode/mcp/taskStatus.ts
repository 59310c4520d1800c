/**
 * A tool call's task (MCP's tasks extension) in words, for the progress
 * notification and the Servers view: "working: Collecting pages". The
 * server's status message is its own text: made inert and cut to one line.
 */
import * as vscode from 'vscode';
import { inertText, oneLine } from '../../core/display';
import type { RunningTask } from '../../mcp/connection';

export function taskStatusText(task: RunningTask): string {
  const status = statusWord(task.status);
  return task.statusMessage ? `${status}: ${inertText(oneLine(task.statusMessage, 120))}` : status;
}

function statusWord(status: RunningTask['status']): string {
  switch (status) {
    case 'working':
      return vscode.l10n.t('working');
    case 'input_required':
      return vscode.l10n.t('waiting for your answer');
    case 'completed':
      return vscode.l10n.t('done');
    case 'failed':
      return vscode.l10n.t('failed');
    case 'cancelled':
      return vscode.l10n.t('cancelled');
  }
}

/** The Servers view's line for a server's tasks: "1 task: waiting for your answer", "3 tasks". */
export function tasksSummary(tasks: readonly RunningTask[]): string | undefined {
  if (tasks.length === 0) return undefined;
  if (tasks.length === 1) return vscode.l10n.t('1 task: {0}', taskStatusText(tasks[0]!));
  return vscode.l10n.t('{0} tasks', tasks.length);
}
