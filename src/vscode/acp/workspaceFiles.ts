/**
 * An agent's file reads and writes go through VS Code's documents: a read sees
 * what the editor holds (unsaved changes included), a write is one undoable
 * WorkspaceEdit that is then saved. The connection has already checked that
 * the path is inside a workspace folder.
 */
import * as vscode from 'vscode';
import { inertText } from '../../core/display';
import { FileNotFoundError } from '../../acp/connection';
import { fileExists } from '../fileExists';

export async function readWorkspaceText(file: string): Promise<string> {
  const uri = vscode.Uri.file(file);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  if (!(await fileExists(uri))) throw new FileNotFoundError(`${file} does not exist`);
  const document = await vscode.workspace.openTextDocument(uri);
  return document.getText();
}

export async function writeWorkspaceText(file: string, content: string, label: string): Promise<void> {
  const uri = vscode.Uri.file(file);
  const edit = new vscode.WorkspaceEdit();
  // The label is shown in the undo history; it names the agent.
  const metadata: vscode.WorkspaceEditEntryMetadata = { label: inertText(label), needsConfirmation: false };
  if (await fileExists(uri)) {
    const document = await vscode.workspace.openTextDocument(uri);
    const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    edit.replace(uri, whole, content, metadata);
  } else {
    edit.createFile(uri, { ignoreIfExists: true }, metadata);
    edit.insert(uri, new vscode.Position(0, 0), content, metadata);
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code did not apply the edit');
  const document = await vscode.workspace.openTextDocument(uri);
  if (document.isDirty && !(await document.save())) throw new Error('VS Code could not save the file');
}
