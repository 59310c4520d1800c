/**
 * Elicit: Resume Agent Session — starts the agent (signing in when it asks),
 * lists its past sessions with `session/list`, and lets the person pick one by
 * title, folder and date. Only sessions in this window's folders are offered:
 * an agent works in a workspace folder. The agent keeps running and is handed
 * to the panel that reopens the session, so it starts only once.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { listSessions, offersOf, type PastSession } from '../../acp/agentSessions';
import type { AcpConnection } from '../../acp/connection';
import { NotSignedInError } from '../../acp/signIn';
import { inertText, oneLine } from '../../core/display';
import { inWorkspaceFolder, localFolders } from '../localFolders';
import { pickOnce } from '../pickOnce';
import { createAgentConnection, signedIn, type AgentContext } from './agentConnection';
import { errorText } from '../../core/errors';
import { KEPT_OPEN } from '../keptOpen';

export interface PickedSession {
  connection: AcpConnection;
  session: PastSession;
}

class CannotResumeError extends Error {}

interface SessionItem extends vscode.QuickPickItem {
  session: PastSession;
}

export async function pickPastSession(context: AgentContext): Promise<PickedSession | undefined> {
  const { agent } = context;
  let connection: AcpConnection | undefined;
  const giveUp = new AbortController();
  let sessions: PastSession[];
  try {
    const listed = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: inertText(vscode.l10n.t('Asking {0} for its sessions', agent.name)) },
      () =>
        signedIn<PastSession[]>(context, {
          start: async (secretEnv) => {
            await connection?.stop();
            connection = createAgentConnection(context, secretEnv);
            await connection.start();
            return connection;
          },
          attempt: (c) => {
            const offers = offersOf(c.initializeResponse);
            if (!offers.list) {
              throw new CannotResumeError(vscode.l10n.t('{0} cannot list its past sessions (it does not offer session/list).', agent.name));
            }
            if (!offers.load && !offers.resume)
              throw new CannotResumeError(vscode.l10n.t('{0} lists its sessions but cannot resume them.', agent.name));
            return listSessions(c);
          },
          notice: (_severity, text) => context.log.info(`[elicit] ${text}`),
          signal: giveUp.signal,
        }),
    );
    connection = listed.connection;
    sessions = listed.result;
  } catch (error) {
    await connection?.stop();
    const message = errorText(error);
    context.services.log.error(`${agent.name}: ${message}`);
    // Giving up the sign-in needs no message; anything else does.
    if (!(error instanceof NotSignedInError)) void vscode.window.showErrorMessage(inertText(vscode.l10n.t('Elicit: {0}', message)));
    return undefined;
  }
  const here = sessions.filter((s) => inWorkspaceFolder(s.cwd));
  if (here.length === 0) {
    await connection.stop();
    void vscode.window.showInformationMessage(
      inertText(
        sessions.length > 0
          ? vscode.l10n.t(
              "Elicit: {0} has no past sessions in this window's folders (it has {1} in other folders).",
              agent.name,
              sessions.length,
            )
          : vscode.l10n.t("Elicit: {0} has no past sessions in this window's folders.", agent.name),
      ),
    );
    return undefined;
  }
  const session = await showSessionPick(agent.name, here);
  if (!session) {
    await connection.stop();
    return undefined;
  }
  return { connection, session };
}

function showSessionPick(agent: string, sessions: PastSession[]): Promise<PastSession | undefined> {
  const pick = vscode.window.createQuickPick<SessionItem>();
  pick.title = inertText(vscode.l10n.t('Resume a {0} session', oneLine(agent, 80)));
  pick.placeholder = vscode.l10n.t('Pick a past session to open in a new tab');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.ignoreFocusOut = KEPT_OPEN.ignoreFocusOut;
  pick.items = sessions.map((session) => ({
    label: inertText(oneLine(session.title ?? vscode.l10n.t('Untitled session'), 120)),
    description: inertText(folderLabel(session.cwd)),
    detail: inertText([dateLabel(session.updatedAt), oneLine(session.sessionId, 120)].filter(Boolean).join(' · ')),
    session,
  }));
  return pickOnce<SessionItem, PastSession | undefined>(pick, new AbortController().signal, (item) => item.session, undefined);
}

/** "app" for the folder itself, "app/src" for one inside it. */
function folderLabel(dir: string): string {
  for (const folder of localFolders()) {
    const rel = path.relative(folder.uri.fsPath, dir);
    if (rel === '') return folder.name;
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return `${folder.name}/${rel.split(path.sep).join('/')}`;
  }
  return dir;
}

function dateLabel(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? oneLine(iso, 40) : date.toLocaleString();
}
