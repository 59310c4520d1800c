/** The workspace folders on disk: the only places servers and agents are started in and work in. */
import * as vscode from 'vscode';

export function localFolders(): vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}
