/**
 * URL-mode elicitation: nothing is fetched or opened until the person agrees in
 * a modal that shows the asker, the host on its own line, the full URL and any
 * warnings. On consent the URL opens in the system browser (`openExternal`,
 * where neither Elicit nor a model can read the page), the asker is told
 * `accept`, and a "waiting for <host>" notification with Cancel stays until the
 * asker reports completion. Where Elicit knows who the asker is, a third
 * choice declines and sets "never open links from <asker>".
 */
import * as vscode from 'vscode';
import type { Question, Renderer } from '../../core/broker/broker';
import { askerTitle, inertText, oneLine } from '../../core/display';
import { CANCELLED, DECLINED, type ElicitResult } from '../../core/request';
import { askerKey, type UrlWaits } from '../../core/broker/urlWaits';
import type { AnswerMemory } from '../../core/memory/answerMemory';

export class UrlConsentRenderer implements Renderer {
  constructor(
    private readonly waits: UrlWaits,
    private readonly waitTimeoutMs: () => number,
    private readonly log: vscode.LogOutputChannel,
    private readonly memory?: Pick<AnswerMemory, 'ruleOffer' | 'rules'>,
  ) {}

  async render(question: Question, signal: AbortSignal): Promise<ElicitResult> {
    const review = question.url;
    const request = question.request;
    if (!review || request.mode !== 'url' || signal.aborted) return CANCELLED;
    const host = review.displayHost ? `${review.displayHost}  (${review.host})` : review.host;
    const detail = inertText(
      [
        oneLine(request.message, 1000),
        '',
        vscode.l10n.t('Host: {0}', host),
        vscode.l10n.t('Full URL: {0}', review.url),
        // The warnings are the core's (urlSafety.ts), in English.
        ...(review.warnings.length > 0 ? ['', ...review.warnings.map((w) => `⚠ ${w}`)] : []),
        '',
        vscode.l10n.t('Elicit opens it in your browser. Nothing is loaded before you choose Open.'),
      ].join('\n'),
    );
    const open = vscode.l10n.t('Open');
    const decline = vscode.l10n.t('Decline');
    const never = vscode.l10n.t('Never Open Links from {0}', inertText(oneLine(request.asker.name, 40)));
    // The first button is the default one: with a warning, Enter must not open the link.
    const buttons = review.warnings.length > 0 ? [decline, open] : [open, decline];
    if (this.memory?.ruleOffer(request) === 'noLinks') buttons.push(never);
    const modal = vscode.window.showWarningMessage(
      inertText(vscode.l10n.t('{0}: open {1}?', askerTitle(request.asker), review.host)),
      { modal: true, detail },
      ...buttons,
    );
    const choice = await raceAbort(modal, signal);
    if (signal.aborted) {
      // A modal cannot be closed from code; if the person still chooses Open, say why nothing happens.
      void Promise.resolve(modal).then((late) => {
        if (late === open) {
          void vscode.window.showInformationMessage(
            inertText(vscode.l10n.t('{0} no longer needs this link, so it was not opened.', request.asker.name)),
          );
        }
      });
      return CANCELLED;
    }
    if (choice === decline) return DECLINED;
    if (choice === never) {
      // Listed in Remembered Answers, where it is forgotten; the next link from this asker is declined unseen.
      await this.memory!.rules.add(request);
      return DECLINED;
    }
    if (choice !== open) return CANCELLED;

    const opened = await vscode.env.openExternal(vscode.Uri.parse(review.url, true));
    if (!opened) {
      this.log.warn(`${request.asker.name}: the browser did not open ${review.host}`);
      return CANCELLED;
    }
    // MCP 2026-07-28 names no id to complete: its asker shows its own "Done" step instead.
    if (request.elicitationId) this.showWaiting(askerKey(request.asker), request.elicitationId, review.displayHost ?? review.host);
    return { action: 'accept' };
  }

  /** Consent is not completion: keep a visible waiting state until the asker says it is done. */
  private showWaiting(key: string, elicitationId: string, host: string): void {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), this.waitTimeoutMs());
    const waiting = this.waits.wait(key, elicitationId, stop.signal);
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: inertText(vscode.l10n.t('Waiting for {0} to finish…', host)),
        cancellable: true,
      },
      async (_progress, token) => {
        token.onCancellationRequested(() => stop.abort());
        const outcome = await waiting;
        clearTimeout(timer);
        this.log.info(`URL elicitation at ${host}: ${outcome}`);
      },
    );
  }
}

/** Resolves with the modal's choice, or undefined as soon as the asker gives up. */
function raceAbort<T>(thenable: Thenable<T>, signal: AbortSignal): Promise<T | undefined> {
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    thenable.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      () => resolve(undefined),
    );
  });
}
