import * as vscode from 'vscode';

/** Elicit's own version, as servers and apps are told it. */
export function extensionVersion(): string {
  return (vscode.extensions.getExtension('elicit-dev.elicit')?.packageJSON as { version?: string } | undefined)?.version ?? '0.0.0';
}
