/**
 * The person's approval of a clipboard question (clipboardQuestions.ts) as a modal
 * dialog that names the asker and shows the text itself: what would be copied,
 * or what the clipboard holds and would be returned. A modal, because its
 * detail keeps the text's lines, and nothing else can be clicked until the
 * person decides. Queued with the other native prompts; the clipboard is VS
 * Code's (the browser's in a remote window).
 */
import * as vscode from 'vscode';
import { inertText } from '../core/display';
import type { Broker } from '../core/broker/broker';
import { describeApproval, type ClipboardAccess, type ClipboardApproval } from '../core/askUser/clipboardQuestions';

export function clipboardAccess(broker: Broker): ClipboardAccess {
  return {
    approve: (approval, signal) =>
      broker.exclusive(() => showApproval(approval), signal ?? new AbortController().signal, 'cancel' as const),
    readClipboard: async () => vscode.env.clipboard.readText(),
    writeClipboard: async (text) => vscode.env.clipboard.writeText(text),
  };
}

async function showApproval(approval: ClipboardApproval): Promise<'accept' | 'decline' | 'cancel'> {
  // The message and detail are the core's (describeApproval), in English.
  const { message, detail } = describeApproval(approval);
  // They quote the asker's reason and the text itself.
  const approve = approval.kind === 'clipboardWrite' ? vscode.l10n.t('Copy') : vscode.l10n.t('Share Clipboard');
  const decline = vscode.l10n.t('Decline');
  const choice = await vscode.window.showWarningMessage(inertText(message), { modal: true, detail: inertText(detail) }, approve, decline);
  if (choice === approve) return 'accept';
  return choice === decline ? 'decline' : 'cancel';
}
