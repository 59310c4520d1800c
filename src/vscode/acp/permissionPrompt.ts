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
import { setPickPrompt } from '../pickPrompt';
import { alwaysCovers } from '../../acp/permissionDetails';

interface OptionItem extends vscode.QuickPickItem {
  optionId: string;
}

const KIND_ICONS: Record<string, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

function kindWords(kind: string): string | undefined {
  switch (kind) {
    case 'allow_once':
      return vscode.l10n.t('allow this time');
    case 'allow_always':
      return vscode.l10n.t('allow from now on');
    case 'reject_once':
      return vscode.l10n.t('reject this time');
    case 'reject_always':
      return vscode.l10n.t('reject from now on');
    default:
      return undefined;
  }
}

function shieldButton(): vscode.QuickInputButton {
  return {
    iconPath: new vscode.ThemeIcon('shield'),
    tooltip: vscode.l10n.t('A permission request: choose what the agent may do (Escape cancels)'),
  };
}

/**
 * While it waits and while it shows, the request is also open to paired
 * devices (allow once / reject once there): a device's choice closes the pick.
 */
export async function askPermission(broker: Broker, prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionChoice> {
  const open = broker.prompts.open({
    kind: 'permission',
    asker: prompt.agent,
    title: prompt.toolTitle,
    ...(prompt.command !== undefined ? { command: prompt.command } : {}),
    options: prompt.options,
  });
  const ended = new AbortController();
  const endWithAgent = (): void => ended.abort();
  signal.addEventListener('abort', endWithAgent, { once: true });
  if (signal.aborted) ended.abort();
  let fromDevice: { optionId: string; device: string } | undefined;
  void open.answered.then((choice) => {
    fromDevice = choice;
    ended.abort();
  });
  try {
    const choice = await broker.exclusive((turn) => showPermissionPick(prompt, turn), ended.signal, PERMISSION_CANCELLED);
    if (!fromDevice) return choice;
    void vscode.window.setStatusBarMessage(
      inertText(vscode.l10n.t('{0}: permission answered on {1}', oneLine(prompt.agent, 80), fromDevice.device)),
      10_000,
    );
    return { outcome: 'selected', optionId: fromDevice.optionId };
  } finally {
    open.close();
    signal.removeEventListener('abort', endWithAgent);
  }
}

export function permissionTitle(prompt: PermissionPrompt): string {
  return inertText(vscode.l10n.t('{0} wants permission · {1}', oneLine(prompt.agent, 80), oneLine(prompt.toolTitle, 120)));
}

/**
 * The prompt line: the command the agent wants to run (when it says), and what
 * "allow always" covers in the agent's own words, kept in view while the
 * person moves through the options.
 */
export function permissionDetail(prompt: PermissionPrompt): string | undefined {
  const lines: string[] = [];
  if (prompt.command !== undefined) lines.push(vscode.l10n.t('Command: {0}', oneLine(prompt.command, 500)));
  for (const always of alwaysCovers(prompt.options)) {
    lines.push(vscode.l10n.t('“Allow always” covers, as {0} puts it: {1}', oneLine(prompt.agent, 80), oneLine(always, 300)));
  }
  return lines.length > 0 ? inertText(lines.join(' · ')) : undefined;
}

function showPermissionPick(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionChoice> {
  const pick = vscode.window.createQuickPick<OptionItem>();
  pick.title = permissionTitle(prompt);
  const detail = permissionDetail(prompt);
  // Where VS Code has no prompt line (before 1.108), the title carries it.
  if (detail !== undefined && !setPickPrompt(pick, detail)) pick.title = inertText(`${pick.title} — ${detail}`);
  pick.placeholder = inertText(
    prompt.toolKind
      ? vscode.l10n.t(
          'Allow {0} to: {1} ({2})? Escape cancels.',
          oneLine(prompt.agent, 80),
          oneLine(prompt.toolTitle, 200),
          oneLine(prompt.toolKind, 40),
        )
      : vscode.l10n.t('Allow {0} to: {1}? Escape cancels.', oneLine(prompt.agent, 80), oneLine(prompt.toolTitle, 200)),
  );
  pick.items = prompt.options.map(optionItem);
  pick.buttons = [shieldButton()];
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  return pickOnce(pick, signal, (item): PermissionChoice => ({ outcome: 'selected', optionId: item.optionId }), PERMISSION_CANCELLED);
}

function optionItem(option: PermissionOptionView): OptionItem {
  const icon = KIND_ICONS[option.kind] ?? 'question';
  const item: OptionItem = {
    label: `$(${icon}) ${inertText(oneLine(option.name, 120))}`,
    description: kindWords(option.kind),
    optionId: option.optionId,
  };
  // A long option (what "allow always" covers, say) is read whole under its cut label.
  if (oneLine(option.name).length > 120) item.detail = inertText(oneLine(option.name, 600));
  return item;
}
