/**
 * A question's first moments take no answer (core/time/arrivalGuard). The form draws its buttons
 * unavailable for that moment; a quick input has no such look that fits: its `busy` bar shows only
 * after 800 ms (VS Code waits that long so that short work does not flicker), and `enabled = false`
 * would stop the person typing, which the guard never holds up. So an answer refused in that moment
 * is told on the question's own line, "Ready for your answer in a moment…", and the line is as it
 * was once answers count: a click or a key that did nothing says why, instead of reading as a
 * broken button.
 */
import * as vscode from 'vscode';
import { inertText } from '../core/display';
import type { ArrivalNotice } from '../core/time/arrivalGuard';
import { setPickPrompt } from './pickPrompt';

type QuickInput = vscode.InputBox | vscode.QuickPick<vscode.QuickPickItem>;

/** Shows and takes back the notice on `input`'s line; what the line says by then, if not the notice, is left alone. */
export function arrivalNotice(input: QuickInput): (notice: ArrivalNotice) => void {
  return 'canSelectMany' in input ? pickNotice(input) : boxNotice(input);
}

function noticeWords(): string {
  return vscode.l10n.t('Ready for your answer in a moment…');
}

/** An InputBox shows a validation message in place of its prompt: the question stays on the line with it. */
function boxNotice(box: vscode.InputBox): (notice: ArrivalNotice) => void {
  /** What the line said before (a refusal of what was typed, say). */
  let before: vscode.InputBox['validationMessage'];
  let shown: vscode.InputBox['validationMessage'];
  return (notice) => {
    if (notice === 'refused') {
      if (shown !== undefined && box.validationMessage === shown) return;
      before = box.validationMessage;
      const words = noticeWords();
      const boxLine = inertText(box.prompt ? `${box.prompt} · ${words}` : words);
      box.validationMessage = { message: boxLine, severity: vscode.InputBoxValidationSeverity.Info };
      shown = box.validationMessage;
    } else if (shown !== undefined && box.validationMessage === shown) {
      // Made inert where it was first set; inertText changes nothing on inert text.
      if (typeof before === 'object') box.validationMessage = { message: inertText(before.message), severity: before.severity };
      else box.validationMessage = before === undefined ? undefined : inertText(before);
      shown = undefined;
    }
  };
}

/** A QuickPick's prompt line (VS Code 1.108 and later), else its placeholder. */
function pickNotice(pick: vscode.QuickPick<vscode.QuickPickItem>): (notice: ArrivalNotice) => void {
  const promptOf = (): string | undefined => (pick as { prompt?: string }).prompt;
  /** Whether the notice is still on the line, and how to put back what it replaced. */
  let shown: { showing(): boolean; restore(): void } | undefined;
  return (notice) => {
    if (notice === 'ready') {
      if (shown?.showing()) shown.restore();
      shown = undefined;
      return;
    }
    // The refused click's row stays selected, and a click on a selected row chooses nothing (VS Code
    // accepts a pick on a change of selection): cleared, the same click works once answers count.
    if (!pick.canSelectMany && pick.selectedItems.length > 0) pick.selectedItems = [];
    if (shown?.showing()) return;
    const words = noticeWords();
    const prompt = promptOf();
    if (setPickPrompt(pick, prompt ? `${prompt} · ${words}` : words)) {
      const line = promptOf();
      shown = { showing: () => promptOf() === line, restore: () => setPickPrompt(pick, prompt) };
      return;
    }
    const placeholder = pick.placeholder;
    pick.placeholder = inertText(placeholder ? `${words} — ${placeholder}` : words);
    const line = pick.placeholder;
    shown = {
      showing: () => pick.placeholder === line,
      restore: () => (pick.placeholder = placeholder === undefined ? undefined : inertText(placeholder)),
    };
  };
}
