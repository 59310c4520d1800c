/**
 * Answering a question kept across a window reload (an MCP 2026-07-28 round):
 * the person answers it now, Elicit retries the original request with the kept
 * state, and the result opens in an editor as Run Tool's would.
 */
import * as vscode from 'vscode';
import { inertText, oneLine } from '../../core/display';
import { formatPromptResult } from '../../mcp/promptText';
import { formatResourceResult } from '../../mcp/resourceText';
import { formatToolResult, type ResultDocument } from '../../mcp/resultText';
import { subjectOf, type OpenRound } from '../../mcp/rounds';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../../mcp/types';
import { callAndShow } from './callAndShow';
import { resourceDocument } from './readResource';
import type { Services } from '../services';

/** Where kept rounds are (questions/keptRounds.ts): read to answer one, dismissed as it is answered. */
export interface KeptRoundsToAnswer {
  read(id: string): Promise<OpenRound | undefined>;
  dismiss(id: string): Promise<void>;
}

export async function answerKeptRound(
  services: Services,
  kept: KeptRoundsToAnswer,
  summary: { id: string; server: string },
): Promise<void> {
  const server = await services.registry.get(summary.server);
  if (!server) {
    void vscode.window.showErrorMessage(
      inertText(
        vscode.l10n.t(
          'Elicit: {0} is no longer configured, so its question cannot be answered. Dismiss it from Pending Questions.',
          oneLine(summary.server, 80),
        ),
      ),
    );
    return;
  }
  const round = await kept.read(summary.id);
  if (!round) {
    await kept.dismiss(summary.id);
    void vscode.window.showErrorMessage(vscode.l10n.t('Elicit: this question is no longer available.'));
    return;
  }
  // The name is not the server: after the reload another server may have it. The round stays listed.
  if (!server.ownsRound(round)) {
    void vscode.window.showErrorMessage(
      inertText(
        vscode.l10n.t(
          'Elicit: {0} as configured now is not the server that asked this question (it is started or reached differently, or comes from another file), so nothing was sent to it. Dismiss the question from Pending Questions, or answer it once {0} is configured as before.',
          oneLine(summary.server, 80),
        ),
      ),
    );
    return;
  }
  // Answering it keeps it again, under a new id, until the server has its answers.
  await kept.dismiss(summary.id);
  const subject = subjectOf(round);
  await callAndShow(services, {
    progress: vscode.l10n.t('Answering {0} › {1}', server.name, oneLine(subject, 80)),
    server: server.name,
    what: `${server.name} › ${oneLine(subject, 80)} (kept across a reload)`,
    call: (signal) => server.resumeRound(round, signal),
    document: documentTitle(round),
    format: (result) => formatResult(round, result),
    logged: () => 'done',
  });
}

function documentTitle(round: OpenRound): string {
  if (round.method === 'resources/read') return resourceDocument(round.server, String(round.params.uri));
  return `${round.server}-${String(round.params.name)}`;
}

function formatResult(round: OpenRound, result: Record<string, unknown>): string | ResultDocument {
  const name = String(round.params.name ?? '');
  switch (round.method) {
    case 'tools/call':
      return formatToolResult(round.server, name, result as CallToolResult);
    case 'prompts/get':
      return formatPromptResult(round.server, name, (round.params.arguments ?? {}) as Record<string, string>, result as GetPromptResult);
    case 'resources/read':
      return formatResourceResult(round.server, String(round.params.uri), result as ReadResourceResult);
  }
}
