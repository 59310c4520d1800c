/**
 * Shows a prepared single-choice QuickPick until the person picks a row, or
 * it hides (Escape) or `signal` aborts, which resolve to `closed`. Always
 * disposes the pick and its listeners. It appears on its own (an agent asks):
 * a pick or an Escape in its first moments was meant for something else and is
 * not taken (the pick is shown again).
 */
import * as vscode from 'vscode';
import { arrivalGuard } from '../core/time/arrivalGuard';

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
      signal.removeEventListener('abort', onAbort);
      for (const d of disposables) d.dispose();
      pick.dispose();
      resolve(result);
    };
    const onAbort = (): void => finish(closed);
    const tooSoon = arrivalGuard();
    const disposables = [
      pick.onDidAccept(() => {
        if (tooSoon()) return;
        const item = pick.selectedItems[0] ?? pick.activeItems[0];
        if (item) finish(chosen(item));
      }),
      pick.onDidHide(() => (tooSoon() ? pick.show() : finish(closed))),
    ];
    signal.addEventListener('abort', onAbort, { once: true });
    pick.show();
  });
}
