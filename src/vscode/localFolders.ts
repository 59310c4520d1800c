/** The workspace folders on disk: the only places servers and agents are started in and work in. */
import * as path from 'node:path';
import * as vscode from 'vscode';

export function localFolders(): vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

/** Whether `dir` is a local workspace folder of this window or inside one. */
export function inWorkspaceFolder(dir: string): boolean {
  if (!path.isAbsolute(dir)) return false;
  return localFolders().some((f) => {
    const rel = path.relative(f.uri.fsPath, dir);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}
