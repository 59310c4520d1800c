/**
 * A file field answered with VS Code's own file dialog (fileFields.ts): the person
 * picks, each file's size and type are checked from what the file system says of it,
 * and only when every file fits is any of them read, into a data URI. The bytes stay
 * in the extension host: a form's page and the history see names and sizes only.
 */
import * as vscode from 'vscode';
import type { FileField } from '../../core/form/fields';
import { MAX_INLINE_FILE_BYTES, dialogFilters, fileProblem, formatBytes, mediaTypeOf, toDataUri } from '../../core/form/fileFields';
import { oneLine } from '../../core/display';
import { errorText } from '../../core/errors';

/** A picked file, read: its value is the data URI sent for it. */
export interface ChosenFile {
  name: string;
  size: number;
  value: string;
}

/** The files picked and read, or why they cannot answer the field. */
export type FileChoice = { files: ChosenFile[] } | { problem: string };

/** What is needed of the file system: the stat before the read is what keeps an oversized file unread. */
export type FileReader = Pick<vscode.FileSystem, 'stat' | 'readFile'>;

/** Shows the file dialog; undefined when the person closes it without a file. */
export async function chooseFiles(field: FileField, title: string): Promise<FileChoice | undefined> {
  const filters = dialogFilters(field);
  const uris = await vscode.window.showOpenDialog({
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: field.multiple,
    title,
    openLabel: field.multiple ? vscode.l10n.t('Choose Files') : vscode.l10n.t('Choose File'),
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    ...(filters ? { filters } : {}),
  });
  if (!uris || uris.length === 0) return undefined;
  return readChosenFiles(field, uris);
}

export function fileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1) || uri.path;
}

/** Checks the picked files by name and size, then reads them; nothing is read unless all of them fit. */
export async function readChosenFiles(
  field: FileField,
  uris: readonly vscode.Uri[],
  fs: FileReader = vscode.workspace.fs,
): Promise<FileChoice> {
  if (field.multiple && field.maxItems !== undefined && uris.length > field.maxItems) {
    return { problem: vscode.l10n.t('Choose at most {0} files ({1} chosen)', field.maxItems, uris.length) };
  }
  const sizes: number[] = [];
  for (const uri of uris) {
    const name = fileName(uri);
    let stat: vscode.FileStat;
    try {
      stat = await fs.stat(uri);
    } catch (error) {
      return { problem: vscode.l10n.t('{0} cannot be read: {1}', oneLine(name, 80), oneLine(errorText(error), 200)) };
    }
    if ((stat.type & vscode.FileType.File) === 0) return { problem: vscode.l10n.t('{0} is not a file', oneLine(name, 80)) };
    const problem = fileProblem(field, name, stat.size);
    if (problem !== undefined) return { problem };
    sizes.push(stat.size);
  }
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total > MAX_INLINE_FILE_BYTES) {
    return {
      problem: vscode.l10n.t(
        'The files come to {0}; Elicit sends at most {1} at once',
        formatBytes(total),
        formatBytes(MAX_INLINE_FILE_BYTES),
      ),
    };
  }
  const files: ChosenFile[] = [];
  for (const uri of uris) {
    const name = fileName(uri);
    let bytes: Uint8Array;
    try {
      bytes = await fs.readFile(uri);
    } catch (error) {
      return { problem: vscode.l10n.t('{0} cannot be read: {1}', oneLine(name, 80), oneLine(errorText(error), 200)) };
    }
    // It may have grown since it was measured.
    const problem = fileProblem(field, name, bytes.byteLength);
    if (problem !== undefined) return { problem };
    const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    files.push({ name, size: bytes.byteLength, value: toDataUri(name, mediaTypeOf(name), base64) });
  }
  return { files };
}

/** How a chosen file is shown: "report.pdf (12.3 KB)". */
export function chosenFileLabel(file: Pick<ChosenFile, 'name' | 'size'>): string {
  return `${oneLine(file.name, 120)} (${formatBytes(file.size)})`;
}
