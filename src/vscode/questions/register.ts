/**
 * How questions are shown and what is waiting: the renderers the broker hands
 * questions to (quick input, form panel, URL consent), and the Pending
 * Questions list and the question history with their commands.
 */
import * as vscode from 'vscode';
import type { Question } from '../../core/broker/broker';
import type { UrlWaits } from '../../core/broker/urlWaits';
import type { AnswerMemory } from '../../core/memory/answerMemory';
import type { SavedSecrets } from '../savedSecrets';
import type { Services } from '../services';
import { registerUseFormCommand } from './appQuestions';
import { FormPanelRenderer } from './formPanel';
import { QuestionHistory } from './history';
import type { KeptRounds, KeptRoundSummary } from './keptRounds';
import type { LostQuestions } from './lostQuestions';
import { PendingQuestions, type OtherWindowsQueue } from './pendingQuestions';
import { QuickInputEscape } from './quickInputEscape';
import { QuickInputRenderer } from './quickInputRenderer';
import { RendererRouter } from './rendererRouter';
import { UrlConsentRenderer } from './urlConsentRenderer';

export interface Renderers {
  router: RendererRouter;
  forms: FormPanelRenderer;
  quickInputEscape: QuickInputEscape;
}

export function createRenderers(
  extensionUri: vscode.Uri,
  parts: {
    vault: SavedSecrets;
    keptRounds: KeptRounds;
    urlWaits: UrlWaits;
    timeoutMs: () => number;
    log: vscode.LogOutputChannel;
    memory: AnswerMemory;
  },
): Renderers {
  const { vault, keptRounds, urlWaits, timeoutMs, log, memory } = parts;
  const quickInputEscape = new QuickInputEscape();
  const forms = new FormPanelRenderer(extensionUri, {
    savedSecrets: vault,
    drafts: keptRounds,
    keepFocusElsewhere: () => quickInputEscape.showing,
  });
  const router = new RendererRouter(
    new QuickInputRenderer(vault, quickInputEscape, keptRounds),
    forms,
    new UrlConsentRenderer(urlWaits, timeoutMs, log, memory),
    (question, result) => vault.saveFrom(question, result),
  );
  return { router, forms, quickInputEscape };
}

/**
 * The renderers' own disposables, Pending Questions (with what outlived the last window and the other
 * windows' questions) and the history. A kept round is answered by its asker's feature (`answerKept`).
 */
export function registerQuestions(
  context: vscode.ExtensionContext,
  services: Services,
  renderers: Renderers,
  before: {
    keptRounds: KeptRounds;
    lostQuestions: LostQuestions;
    others: OtherWindowsQueue & vscode.Disposable;
    answerKept: (round: KeptRoundSummary) => Promise<void>;
  },
): void {
  const { forms, quickInputEscape } = renderers;
  const { keptRounds, lostQuestions, others, answerKept } = before;
  const reveal = (question: Question): boolean => forms.reveal(question);
  context.subscriptions.push(
    forms,
    quickInputEscape,
    others,
    new PendingQuestions(
      services.broker,
      reveal,
      {
        kept: keptRounds,
        lost: lostQuestions,
        answer: answerKept,
      },
      others,
    ),
    new QuestionHistory(services.globalState, services.broker, services.results),
    registerUseFormCommand(),
  );
}
