/**
 * The progress of a request that may ask the person something on the way (Run
 * Tool, Get Prompt, Read Resource): a notification with Cancel, except while
 * that server's form is on screen. A notification toast sits at the bottom
 * right of the editor area, over the form's Submit / Cancel row, so then the
 * progress waits in the status bar, and the toast comes back once the form has
 * been gone a moment (the server may ask its next round at once). It also
 * starts in the status bar for a moment, so a server that asks right away
 * never gets a toast at all.
 */
import * as vscode from 'vscode';
import { inertText } from '../../core/display';
import type { Broker } from '../../core/broker/broker';
import { Emitter } from '../../core/events';

/** Quiet time before the toast appears: at the start, and after the server's form closes. */
const FIRST_TOAST_MS = 500;
const TOAST_AGAIN_MS = 1000;

/** Whether a form of the server is on screen, and when that may have changed. */
export interface FormWatch {
  showing(): boolean;
  onDidChange(listener: () => void): { dispose(): void };
}

/** Forms of this server that the broker is showing (quick inputs sit at the top, clear of toasts). */
export function serverForms(broker: Broker, server: string): FormWatch {
  return {
    showing: () =>
      broker
        .pending()
        .some(
          (q) => q.state === 'showing' && q.presentation === 'form' && q.request.asker.kind === 'mcp' && q.request.asker.name === server,
        ),
    onDidChange: (listener) => broker.onDidChange(listener),
  };
}

/** The line under a progress's title (a task's status), which the caller sets as the work goes on. */
export class ProgressLine {
  private message: string | undefined;
  private readonly changes = new Emitter<string>();

  set(message: string): void {
    if (message === this.message) return;
    this.message = message;
    this.changes.fire(message);
  }

  /** Shows the line in `progress` now and whenever it changes, until the returned function is called. */
  showIn(progress: vscode.Progress<{ message?: string }>): () => void {
    const show = (message: string): void => progress.report({ message: inertText(message) });
    if (this.message !== undefined) show(this.message);
    const listening = this.changes.event(show);
    return () => listening.dispose();
  }
}

/** Shows `title` until `work` settles; Cancel in the notification aborts `controller`. */
export async function progressAside(
  title: string,
  work: Promise<unknown>,
  controller: AbortController,
  forms: FormWatch,
  line: ProgressLine = new ProgressLine(),
): Promise<void> {
  // Callers name servers, tools and URIs in it: made inert here, the one place it is shown.
  const shown = inertText(title);
  let finished = false;
  const ended = work.then(
    () => void (finished = true),
    () => void (finished = true),
  );
  let quiet = FIRST_TOAST_MS;
  while (!finished) {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: shown }, async (progress) => {
      const stop = line.showIn(progress);
      await quietFor(quiet, ended, forms);
      stop();
    });
    if (finished) return;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: shown, cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        const stop = line.showIn(progress);
        await untilFormShows(ended, forms);
        stop();
      },
    );
    quiet = TOAST_AGAIN_MS;
  }
}

/** Resolves when the work ends, or once no form has shown for `ms` in a row. */
function quietFor(ms: number, ended: Promise<void>, forms: FormWatch): Promise<void> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      watch.dispose();
      resolve();
    };
    const restart = (): void => {
      clearTimeout(timer);
      timer = forms.showing() ? undefined : setTimeout(finish, ms);
    };
    const watch = forms.onDidChange(restart);
    void ended.then(finish);
    restart();
  });
}

/** Resolves when the work ends or a form of the server shows. */
function untilFormShows(ended: Promise<void>, forms: FormWatch): Promise<void> {
  return new Promise((resolve) => {
    const finish = (): void => {
      watch.dispose();
      resolve();
    };
    const watch = forms.onDidChange(() => forms.showing() && finish());
    void ended.then(finish);
    if (forms.showing()) finish();
  });
}
