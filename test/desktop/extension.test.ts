/**
 * Extension-host tests for contributors with a desktop VS Code:
 * `npm run test:desktop` (@vscode/test-cli downloads VS Code, so it needs internet).
 * CI here runs the same journeys in code-server instead (test/e2e).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

suite('Elicit in the extension host', () => {
  suiteSetup(async () => {
    await vscode.extensions.getExtension('elicit-dev.elicit')!.activate();
  });

  test('contributes its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['elicit.runTool', 'elicit.showLog']) assert.ok(commands.includes(id), id);
  });

  test('runs a configured server tool with arguments and shows the result read-only', async () => {
    await vscode.commands.executeCommand('elicit.runTool', 'ask-server', 'echo', { text: 'from the desktop suite' });
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'a result editor opened');
    assert.equal(editor.document.uri.scheme, 'elicit-result');
    assert.match(editor.document.getText(), /from the desktop suite/);
  });
});
