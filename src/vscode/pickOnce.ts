/**
 * Shows a prepared single-choice QuickPick until the person picks a row, or
 * it hides (Escape) or `signal` aborts, which resolve to `closed`. Always
 * disposes the pick and its listeners. It appears on its own (an agent asks):
 * a pick or an Escape in its first moments was meant for something else and is
 * not taken (the pick is shown again), and the pick says it is ready in a moment.
 */
import * as vscode from 'vscode';
import { arrivalHold } from '../core/time/arrivalGuard';
import { arrivalNotice } from './arrivalNotice';

export function pickOnce<T extends vscode.QuickPickItem, R>(
  pick: vscode.QuickPick<T>,
  signal: AbortSignal,
  chosen: (item: T) => R,
  closed: R,
): Promise<R> {
  if (signal.aborted) {
    pick.dispose();
    return Promise.resolve(closed);
  }
  return new Promise<R>((resolve) => {
    let settled = false;
    const finish = (result: R): void => {
      if (settled) return;
      settled = true;
      hold.dispose();
      signal.removeEventListener('abort', onAbort);
      for (const d of disposables) d.dispose();
      pick.dispose();
      resolve(result);
    };
    const onAbort = (): void => finish(closed);
    const hold = arrivalHold(arrivalNotice(pick as vscode.QuickPick<vscode.QuickPickItem>));
    const disposables = [
      pick.onDidAccept(() => {
        if (hold.tooSoon()) return;
        const item = pick.selectedItems[0] ?? pick.activeItems[0];
        if (item) finish(chosen(item));
      }),
      pick.onDidHide(() => (hold.tooSoon() ? pick.show() : finish(closed))),
    ];
    signal.addEventListener('abort', onAbort, { once: true });
    pick.show();
  });
}
