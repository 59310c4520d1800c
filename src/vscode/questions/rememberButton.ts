/**
 * "Remember this answer" in a quick input: a title-bar button that
 * goes from not remembered to this session to always (where the asker may be
 * remembered always) and back; its icon and tooltip say which.
 */
import * as vscode from 'vscode';
import type { MemoryScope } from '../../core/memory/askerIdentity';

export interface RememberChoice {
  /** The longest scope this question may be remembered for. */
  offer: MemoryScope;
  choice?: MemoryScope;
}

type RememberButtons = Record<'no' | MemoryScope, vscode.QuickInputButton>;

/** Made once (a clicked button is told apart by identity), when first drawn: translated by then. */
let made: RememberButtons | undefined;

export function rememberButtons(): RememberButtons {
  made ??= {
    no: { iconPath: new vscode.ThemeIcon('pin'), tooltip: vscode.l10n.t('Remember this answer: no (click for this session)') },
    session: { iconPath: new vscode.ThemeIcon('pinned'), tooltip: vscode.l10n.t('Remember this answer: this session (click to change)') },
    always: { iconPath: new vscode.ThemeIcon('pinned-dirty'), tooltip: vscode.l10n.t('Remember this answer: always (click for no)') },
  };
  return made;
}

export function nextRememberChoice(remember: RememberChoice): MemoryScope | undefined {
  if (remember.choice === undefined) return 'session';
  if (remember.choice === 'session' && remember.offer === 'always') return 'always';
  return undefined;
}
