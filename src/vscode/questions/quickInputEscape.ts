/**
 * Tells Escape apart from the other reasons a question's quick input hides.
 * VS Code reports both as `onDidHide`; but while one of Elicit's quick inputs
 * shows, a context key routes Escape to CANCEL_COMMAND (see the keybinding in
 * package.json). A hide that did not come through it was caused by something
 * else, typically the person opening the Command Palette or another
 * extension's quick input, and the question is put off instead of cancelled.
 */
import * as vscode from 'vscode';

export const CANCEL_COMMAND = 'elicit.cancelQuestionInput';
const CONTEXT_KEY = 'elicit.questionInQuickInput';

export class QuickInputEscape implements vscode.Disposable {
  private cancelCurrent: (() => void) | undefined;
  private readonly command = vscode.commands.registerCommand(CANCEL_COMMAND, () => this.escape());

  /** From now until `end`, Escape calls `cancel`. Call before `show()`: both reach the window in order. */
  begin(cancel: () => void): void {
    this.cancelCurrent = cancel;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, true);
  }

  /** True while one of Elicit's questions shows in a quick input. */
  get showing(): boolean {
    return this.cancelCurrent !== undefined;
  }

  end(cancel: () => void): void {
    if (this.cancelCurrent !== cancel) return;
    this.cancelCurrent = undefined;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
  }

  private escape(): void {
    if (this.cancelCurrent) this.cancelCurrent();
    // The key outlived our input (it is reset asynchronously): Escape does what it always does.
    else void vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  }

  dispose(): void {
    this.command.dispose();
    this.cancelCurrent = undefined;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
  }
}
