/**
 * How questions are shown and what is waiting: the renderers the broker hands
 * questions to (quick input, form panel, URL consent), and the Pending
 * Questions list and the question history with their commands.
 */
import * as vscode from 'vscode';
import type { Question } from '../../core/broker/broker';
import type { UrlWaits } from '../../core/broker/urlWaits';
import type { AnswerMemory } from '../../core/memory/answerMemory';
import { answerKeptRound } from '../mcp/keptRoundAnswer';
import type { SavedSecrets } from '../savedSecrets';
import type { Services } from '../services';
import { FormPanelRenderer } from './formPanel';
import { QuestionHistory } from './history';
import type { KeptRounds } from './keptRounds';
import type { LostQuestions } from './lostQuestions';
import { PendingQuestions } from './pendingQuestions';
import { QuickInputEscape } from './quickInputEscape';
import { QuickInputRenderer } from './quickInputRenderer';
import { RendererRouter } from './rendererRouter';
import { UrlConsentRenderer } from './urlConsentRenderer';
import { OtherWindows } from '../windows/otherWindows';

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
 * The renderers' own disposables, Pending Questions (with what outlived the last window) and the history.
 * Returns the other windows' queue, which paired devices list too.
 */
export function registerQuestions(
  context: vscode.ExtensionContext,
  services: Services,
  renderers: Renderers,
  before: { keptRounds: KeptRounds; lostQuestions: LostQuestions },
): OtherWindows {
  const { forms, quickInputEscape, router } = renderers;
  const { keptRounds, lostQuestions } = before;
  const reveal = (question: Question): boolean => forms.reveal(question);
  // One queue across every window (issue #24).
  const others = new OtherWindows(services.broker, router, reveal, context.globalStorageUri, services.log);
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
        answer: (round) => answerKeptRound(services, keptRounds, round),
      },
      others,
    ),
    new QuestionHistory(services.globalState, services.broker, services.results),
  );
  return others;
}
