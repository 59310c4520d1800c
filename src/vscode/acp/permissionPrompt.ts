/**
 * `session/request_permission` as a QuickPick: the agent's own options with
 * icons by kind, titled "<agent> wants permission · <tool call>" with a shield,
 * so it never looks like a question. It runs in the broker's one-at-a-time
 * native queue; Escape, the agent's cancel and Stop answer `cancelled`.
 */
import * as vscode from 'vscode';
import type { PermissionChoice, PermissionOptionView, PermissionPrompt } from '../../acp/connection';
import { PERMISSION_CANCELLED } from '../../acp/connection';
import type { Broker } from '../../core/broker/broker';
import { inertText, oneLine } from '../../core/display';
import { pickOnce } from '../pickOnce';

interface OptionItem extends vscode.QuickPickItem {
  optionId: string;
}

const KIND_ICONS: Record<string, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

const KIND_WORDS: Record<string, string> = {
  allow_once: 'allow this time',
  allow_always: 'allow from now on',
  reject_once: 'reject this time',
  reject_always: 'reject from now on',
};

const SHIELD: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('shield'),
  tooltip: 'A permission request: choose what the agent may do (Escape cancels)',
};

export function askPermission(broker: Broker, prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionChoice> {
  return broker.exclusive((turn) => showPermissionPick(prompt, turn), signal, PERMISSION_CANCELLED);
}

export function permissionTitle(prompt: PermissionPrompt): string {
  return inertText(`${oneLine(prompt.agent, 80)} wants permission · ${oneLine(prompt.toolTitle, 120)}`);
}

function showPermissionPick(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionChoice> {
  const pick = vscode.window.createQuickPick<OptionItem>();
  pick.title = permissionTitle(prompt);
  const kind = prompt.toolKind ? ` (${oneLine(prompt.toolKind, 40)})` : '';
  pick.placeholder = inertText(`Allow ${oneLine(prompt.agent, 80)} to: ${oneLine(prompt.toolTitle, 200)}${kind}? Escape cancels.`);
  pick.items = prompt.options.map(optionItem);
  pick.buttons = [SHIELD];
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  return pickOnce(pick, signal, (item): PermissionChoice => ({ outcome: 'selected', optionId: item.optionId }), PERMISSION_CANCELLED);
}

function optionItem(option: PermissionOptionView): OptionItem {
  const icon = KIND_ICONS[option.kind] ?? 'question';
  return {
    label: `$(${icon}) ${inertText(oneLine(option.name, 120))}`,
    description: KIND_WORDS[option.kind],
    optionId: option.optionId,
  };
}
