/**
 * Tool, prompt and resource results and the question history, shown in
 * read-only editors (a content provider's documents cannot be edited). Every
 * document passes inertMarkdown here, the one door they all take: what servers
 * and askers wrote cannot form a link that runs a command.
 */
import * as vscode from 'vscode';
import { inertMarkdown } from '../core/display';

export const RESULT_SCHEME = 'elicit-result';

export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private readonly closeListener: vscode.Disposable;
  private count = 0;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this);
    // Forget a result once its editor is closed, so results do not pile up in memory.
    this.closeListener = vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme === RESULT_SCHEME) this.contents.delete(doc.uri.toString());
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? vscode.l10n.t('This result is no longer available.');
  }

  async show(title: string, markdown: string): Promise<vscode.TextEditor> {
    const safeTitle = title.replace(/[^\w.-]+/g, '-').slice(0, 80) || 'result';
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${++this.count}/${safeTitle}.md` });
    this.contents.set(uri.toString(), inertMarkdown(markdown));
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  dispose(): void {
    this.registration.dispose();
    this.closeListener.dispose();
    this.contents.clear();
  }
}
