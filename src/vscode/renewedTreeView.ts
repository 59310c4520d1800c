/**
 * A tree view that is made anew once VS Code's extension host holds too much of its old rows.
 * The host registers a disposable store of every row it makes on the view itself, and a row
 * disposed at the next redraw stays in that set until the view is disposed (treeRedraw.ts paces
 * redraws; this bounds what they leave). The new view is created before the old one is disposed,
 * so VS Code keeps the view in place and only draws its rows afresh.
 */
import * as vscode from 'vscode';
import { inertText } from '../core/display';
import { RENEW_AFTER_ROWS, renewalDue } from './treeRedraw';

export class RenewedTreeView<T> implements vscode.Disposable {
  private current: vscode.TreeView<T>;
  private currentListener: vscode.Disposable | undefined;
  private rowsMade = 0;
  private descriptionText: string | undefined;
  private readonly visibility = new vscode.EventEmitter<vscode.TreeViewVisibilityChangeEvent>();
  readonly onDidChangeVisibility = this.visibility.event;

  constructor(
    private readonly viewId: string,
    private readonly options: vscode.TreeViewOptions<T>,
    private readonly budget = RENEW_AFTER_ROWS,
  ) {
    this.current = this.create();
  }

  get visible(): boolean {
    return this.current.visible;
  }

  /** The rows selected in the view now (the one clicked or opened with Enter). */
  get selection(): readonly T[] {
    return this.current.selection;
  }

  get description(): string | undefined {
    return this.descriptionText;
  }

  set description(text: string | undefined) {
    this.descriptionText = text;
    this.current.description = text === undefined ? undefined : inertText(text);
  }

  /** Counts rows handed to VS Code: each list getChildren returns, each row redrawn alone. */
  made(rows: number): void {
    this.rowsMade += rows;
  }

  /** Before a redraw: makes the view anew when it is due (renewalDue). */
  renewIfDue(): void {
    if (!renewalDue(this.rowsMade, this.current.visible, this.budget)) return;
    const old = this.current;
    const oldListener = this.currentListener;
    this.rowsMade = 0;
    this.current = this.create();
    oldListener?.dispose();
    old.dispose();
  }

  dispose(): void {
    this.currentListener?.dispose();
    this.current.dispose();
    this.visibility.dispose();
  }

  private create(): vscode.TreeView<T> {
    const view = vscode.window.createTreeView(this.viewId, this.options);
    if (this.descriptionText !== undefined) view.description = inertText(this.descriptionText);
    this.currentListener = view.onDidChangeVisibility((event) => {
      this.visibility.fire(event);
      // Just out of sight: the cheapest moment to let go of the old rows.
      if (!event.visible) this.renewIfDue();
    });
    return view;
  }
}
