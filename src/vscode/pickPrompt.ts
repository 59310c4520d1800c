/**
 * A QuickPick's `prompt`: a line under the input that stays while the person
 * types (the placeholder goes), where a multi-select's rule and refusal can be
 * read whole. API from VS Code 1.108 (proposed in 1.106 and 1.107, where
 * setting it throws); the `engines` floor is 1.101, so older versions get the
 * placeholder only.
 */
import * as vscode from 'vscode';
import { inertText } from '../core/display';
import { versionAtLeast } from '../core/vscodeVersion';

/** Sets the prompt where VS Code shows one; false where it does not (say it in the placeholder then). */
export function setPickPrompt(pick: vscode.QuickPick<vscode.QuickPickItem>, text: string | undefined): boolean {
  if (!versionAtLeast(vscode.version, 1, 108)) return false;
  try {
    (pick as { prompt?: string }).prompt = text === undefined ? undefined : inertText(text);
    return true;
  } catch {
    return false;
  }
}
