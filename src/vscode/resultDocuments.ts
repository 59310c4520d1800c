/**
 * Tool, prompt and resource results and the question history, shown rendered
 * in VS Code's Markdown preview (read-only: a content provider's documents
 * cannot be edited), one tab per tool: a second run of the same tool replaces
 * what its tab shows. Every document passes inertMarkdown here, the one door
 * they all take: what servers and askers wrote cannot form a link that runs a
 * command, nor any HTML. The only HTML is Elicit's own <details> around a part
 * shown folded away (a tool's structured content), whose summary is Elicit's
 * text, escaped.
 */
import * as vscode from 'vscode';
import { inertMarkdown } from '../core/display';
import type { ResultDocument } from '../mcp/resultText';

export const RESULT_SCHEME = 'elicit-result';
/** One document per tool (and one for the history): past this many the oldest is forgotten. */
const MAX_DOCUMENTS = 100;
/** Larger documents open as plain text: the Markdown preview took a minute for 2 MB. */
export const MAX_RENDERED_CHARS = 256 * 1024;

export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** By URI; kept while its tab may show it (the preview reads it again when it is shown again). */
  private readonly contents = new Map<string, string>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  private readonly registration: vscode.Disposable;
  /** Each new document of a title a version of its own (its tab's title is the path alone). */
  private version = 0;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? vscode.l10n.t('This result is no longer available.');
  }

  /**
   * Shows `document` rendered, in the tab of `title` when there is one. `behind`: the questions it must
   * not cover (a tool's result comes when the tool is done, maybe while one is on screen).
   */
  async show(title: string, document: string | ResultDocument, options: { behind?: QuestionsOnScreen } = {}): Promise<void> {
    const text = documentText(typeof document === 'string' ? { markdown: document } : document);
    // A preview renders megabytes for a minute: a result that large opens as plain text.
    if (text.length > MAX_RENDERED_CHARS) return this.showPlain(title, text, options);
    const uri = this.keep(title, 'md', text);
    await behindQuestions(options.behind, async (background) => {
      try {
        // The Markdown preview as an editor of its own (it keeps showing this result whatever else becomes
        // active), opened without taking the focus: a webview takes it once its page has loaded, which can
        // be after the asker's next question opened, and would close that question's quick input.
        // `background` is read by VS Code's editor options (opened inactive), though not in the typed API.
        const show = background ? { preview: false, preserveFocus: true, background: true } : { preview: false, preserveFocus: true };
        await vscode.commands.executeCommand('vscode.openWith', uri, 'vscode.markdown.preview.editor', show);
      } catch {
        // No Markdown preview (the built-in extension disabled): the source, read-only.
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), plainOptions(background));
      }
    });
  }

  /**
   * Shows `text` as it is, read-only, in a text editor of its own: a result too large to render,
   * or what a question asks the person to read whole before answering (a secret's destination).
   */
  async showPlain(title: string, text: string, options: { behind?: QuestionsOnScreen } = {}): Promise<void> {
    const uri = this.keep(title, 'txt', text);
    await behindQuestions(options.behind, async (background) => {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), plainOptions(background));
    });
  }

  /**
   * Keeps `text` as the document of `title`: in the document its open tab shows (which is told to read
   * it again), or, with no tab open, in a new one. VS Code may still hold a closed tab's document, and
   * would show its old text again when the same document is opened.
   */
  private keep(title: string, extension: 'md' | 'txt', text: string): vscode.Uri {
    const safeTitle = title.replace(/[^\w.-]+/g, '-').slice(0, 80) || 'result';
    const path = `/${safeTitle}.${extension}`;
    const uri = shownInTab(path) ?? vscode.Uri.from({ scheme: RESULT_SCHEME, path, query: `v${++this.version}` });
    const key = uri.toString();
    this.contents.delete(key);
    this.contents.set(key, text);
    while (this.contents.size > MAX_DOCUMENTS) this.contents.delete(this.contents.keys().next().value!);
    // An open document (and its preview) reads the new text.
    this.changes.fire(uri);
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.changes.dispose();
    this.contents.clear();
  }
}

/** What a result opening must not cover: the questions on screen. */
export interface QuestionsOnScreen {
  /** Whether a question is on screen. */
  showing(): boolean;
  /** Puts the forms on screen back in front of a tab that opened over them. */
  bringForward(): void;
}

/**
 * Opens a tab (`open(background)`) behind the questions on screen: inactive when one shows as it is
 * asked for. A tab appears a moment after it is asked for (a preview's editor is resolved first), so a
 * form that showed in that moment is put back in front of it once it is there.
 */
async function behindQuestions(questions: QuestionsOnScreen | undefined, open: (background: boolean) => Promise<void>): Promise<void> {
  const background = questions?.showing() ?? false;
  await open(background);
  if (questions && !background && questions.showing()) questions.bringForward();
}

/** A text editor's options: `background` (opened inactive) is read by VS Code though not in the typed API. */
function plainOptions(background: boolean): vscode.TextDocumentShowOptions {
  const options = { preview: false, preserveFocus: background, background };
  return options;
}

/** The result document an open tab shows at `path` (a preview or a text editor), if one does. */
function shownInTab(path: string): vscode.Uri | undefined {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      // TabInputText and TabInputCustom (the Markdown preview) both name their document.
      const uri = (tab.input as { uri?: vscode.Uri } | undefined)?.uri;
      if (uri?.scheme === RESULT_SCHEME && uri.path === path) return uri;
    }
  }
  return undefined;
}

/** The document's text: inert Markdown, the folded part inside Elicit's own <details>. */
export function documentText(document: ResultDocument): string {
  const open = inertMarkdown(document.markdown);
  if (!document.folded) return open;
  // A blank line after <summary> ends the HTML block, so the part inside is Markdown again.
  const summary = escapeHtml(document.folded.summary);
  return `${open}\n\n<details>\n<summary>${summary}</summary>\n\n${inertMarkdown(document.folded.markdown)}\n\n</details>\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
