/**
 * Every asker string in every VS Code surface goes through inertText (or a
 * function built on it): a scan of src/vscode for text that reaches a
 * notification, dialog, quick input, tree item, status bar item or progress
 * title without it. See test/support/bareText.ts for what counts as safe.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { bareTextIn } from '../support/bareText';
import { typeScriptFiles } from '../support/sourceFiles';

const ROOT = join(__dirname, '..', '..');

describe('asker text in VS Code surfaces', () => {
  it('finds bare text, and accepts what is made inert', () => {
    const source = `
      function label(kind: string): string {
        return kind === 'a' ? vscode.l10n.t('A') : 'B';
      }
      const named = inertText(agent.name);
      vscode.window.showErrorMessage(vscode.l10n.t('Elicit: {0}', message));
      vscode.window.showWarningMessage(inertText(message), { modal: true, detail: error.detail });
      void vscode.window.withProgress({ title: vscode.l10n.t('Asking {0}', agent.name) }, work);
      pick.items = sessions.map((s) => ({ label: s.title, description: inertText(s.cwd), detail: [dateOf(s), s.id].join(' · ') }));
      status.text = \`$(bell) \${count}\`;
      const item = new vscode.TreeItem(server.name);
      item.tooltip = named;
      item.description = label(kind);
      pick.title = vscode.l10n.t('{0} sessions', sessions.length);
    `;
    assert.deepEqual(
      bareTextIn('sample.ts', source).map((bare) => bare.text),
      [
        "vscode.l10n.t('Elicit: {0}', message)",
        'error.detail',
        "vscode.l10n.t('Asking {0}', agent.name)",
        's.title',
        "[dateOf(s), s.id].join(' · ')",
        '`$(bell) ${count}`',
        'server.name',
      ],
    );
  });

  it('finds none in src/vscode', () => {
    const bare = typeScriptFiles(join(ROOT, 'src', 'vscode')).flatMap((file) =>
      bareTextIn(file, readFileSync(file, 'utf8')).map((b) => `${relative(ROOT, file)}:${b.line}: ${b.text}`),
    );
    assert.deepEqual(bare, []);
  });
});
