/** Whether a file or folder exists, through VS Code's file system (works for remote and virtual files too). */
import * as vscode from 'vscode';

export async function fileExists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
