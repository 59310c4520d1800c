/**
 * Runs an MCP request with a cancellable progress notification (in the status
 * bar while the server's form is on screen: progressAside.ts) and shows its
 * result rendered, read-only, in its own tab — Run Tool, Get Prompt, Read Resource, and a
 * question kept across a reload, answered afterwards. Failures are logged and
 * shown; cancelling is quiet.
 */
import * as vscode from 'vscode';
import { inertText } from '../../core/display';
import type { ResultDocument } from '../../mcp/resultText';
import { ProgressLine, progressAside, serverForms } from './progressAside';
import type { Services } from '../services';
import { errorText } from '../../core/errors';

export interface CallToShow<T> {
  /** "Running songs › song_sketch", localized by the caller. */
  progress: string;
  /** The server that handles it: while one of its forms is on screen, the progress steps aside. */
  server: string;
  /** `report`: a line under the progress's title (a task's status), replacing the last. */
  call(signal: AbortSignal, report: (message: string) => void): Promise<T>;
  /** Names the result's tab: a second result of the same name replaces what it shows. */
  document: string;
  format(result: T): string | ResultDocument;
  /** A log line about the result (never its content). */
  logged(result: T): string;
  /** "songs › song_sketch": named in the log (in English) and the error message. */
  what: string;
}

export async function callAndShow<T>(
  services: Pick<Services, 'log' | 'results' | 'broker' | 'questionsOnScreen'>,
  request: CallToShow<T>,
): Promise<void> {
  const controller = new AbortController();
  try {
    const status = new ProgressLine();
    const work = request.call(controller.signal, (message) => status.set(message));
    // Server names, tool names and URIs come from servers and workspace files: shown as plain text.
    await progressAside(inertText(request.progress), work, controller, serverForms(services.broker, request.server), status);
    const result = await work;
    services.log.info(`${request.what}: ${request.logged(result)}`);
    // A result comes when the tool is done, maybe while another question is on screen, or just before the
    // server's next one: it opens behind them, and neither covers a question nor takes its keyboard.
    await services.results.show(request.document, request.format(result), { behind: services.questionsOnScreen });
  } catch (error) {
    if (controller.signal.aborted) {
      services.log.info(`${request.what}: cancelled`);
      return;
    }
    services.log.error(`${request.what}: ${errorText(error)}`);
    void vscode.window.showErrorMessage(inertText(vscode.l10n.t('Elicit: {0} failed: {1}', request.what, errorText(error))));
  }
}
