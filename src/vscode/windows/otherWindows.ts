/**
 * One queue across every VS Code window: this window lists its
 * pending questions to Elicit's other windows and lists theirs, through the
 * mesh in core/windows. A question from another window is drawn here with
 * Elicit's own renderers and its answer is sent to the window that asked,
 * whose broker checks it as its own; a refusal is shown here.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Broker, Question, Renderer } from '../../core/broker/broker';
import { CANCELLED } from '../../core/request';
import { inertText, oneLine } from '../../core/display';
import { answerFromOtherWindow } from '../../core/device/devicePolicy';
import type { OtherWindowsForDevices } from '../../core/windows/otherWindowQuestions';
import { WindowMesh } from '../../windows/mesh';
import type { QuestionSummary, RemoteAnswer, RemoteQuestion } from '../../core/windows/protocol';
import { summarize, remoteQuestion } from '../../core/windows/summary';
import { SETTING, settings } from '../settings';

/** Ids of questions drawn for other windows: apart from this window's own (which count up from 1). */
const REMOTE_IDS_FROM = 1_000_000_000;
/** Unix socket paths are limited to 107 bytes on Linux, 103 on macOS. */
const MAX_SOCKET_PATH = 103;
/**
 * The other windows get this window's list at most this often: many servers asking change it hundreds
 * of times a second, and each listing summarizes every question (the soak's CPU profile found it in the
 * host's long blocks).
 */
const PUBLISH_EVERY_MS = 100;

export class OtherWindows implements vscode.Disposable, OtherWindowsForDevices {
  private mesh: WindowMesh | undefined;
  private opening: Promise<void> | undefined;
  private readonly changes = new vscode.EventEmitter<void>();
  /** Fires when another window's questions change, or a window comes or goes. */
  readonly onDidChange = this.changes.event;
  /** Questions of other windows on screen here, to close when they are answered elsewhere. */
  private readonly drawn = new Map<string, { question: Question; closer: AbortController }>();
  private nextId = REMOTE_IDS_FROM;
  private readonly disposables: vscode.Disposable[] = [];
  private publishTimer: NodeJS.Timeout | undefined;
  /** This window's questions as the mesh lists them, summarized only when another window reads them. */
  private readonly ownQuestions = (): QuestionSummary[] => summarize(this.broker.pending());

  constructor(
    private readonly broker: Broker,
    private readonly renderer: Renderer,
    private readonly reveal: (question: Question) => boolean,
    private readonly storage: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      this.changes,
      broker.onDidChange(() => this.publishSoon()),
      vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration(SETTING.allWindows) && this.apply()),
    );
    this.apply();
  }

  /** The other windows' questions. */
  remote(): RemoteQuestion[] {
    return this.mesh?.remote() ?? [];
  }

  /** Sends an answer given on a paired device to the window that asked; rejects with its refusal. */
  answerFromDevice(remote: RemoteQuestion, answer: RemoteAnswer, device: string): Promise<void> {
    if (!this.mesh) return Promise.reject(new Error(vscode.l10n.t('The other windows are not reachable.')));
    return this.mesh.answer(remote.window.id, remote.question.id, answer, device);
  }

  /** Draws another window's question here and sends the answer to it. */
  async answer(remote: RemoteQuestion): Promise<void> {
    const { window, question } = remote;
    const folder = oneLine(window.folder, 60);
    if (!question.answerable) {
      void vscode.window.showInformationMessage(
        inertText(vscode.l10n.t('Answer this question in the window of {0}: it is answered only where it was asked.', folder)),
      );
      return;
    }
    const key = keyOf(remote);
    const open = this.drawn.get(key);
    if (open) {
      this.reveal(open.question);
      return;
    }
    const closer = new AbortController();
    let local: Question;
    try {
      local = remoteQuestion(remote, this.nextId++, settings.presentation(), closer.signal);
    } catch (error) {
      void vscode.window.showErrorMessage(
        inertText(vscode.l10n.t('This question from {0} cannot be shown here: {1}', folder, errorText(error))),
      );
      return;
    }
    this.drawn.set(key, { question: local, closer });
    try {
      const draw = (signal: AbortSignal): ReturnType<Renderer['render']> => this.renderer.render(local, signal);
      // A quick input waits its turn with this window's own; a form opens at once, as for its own questions.
      const outcome =
        local.presentation === 'form' ? await draw(closer.signal) : await this.broker.exclusive(draw, closer.signal, CANCELLED);
      if (closer.signal.aborted || (outcome.action !== 'accept' && outcome.action !== 'decline')) return;
      const answer =
        outcome.action === 'accept' ? { action: 'accept' as const, content: outcome.content ?? {} } : { action: 'decline' as const };
      await this.mesh?.answer(window.id, question.id, answer);
    } catch (error) {
      void vscode.window.showErrorMessage(
        inertText(vscode.l10n.t('The window of {0} did not take the answer: {1}', folder, errorText(error))),
      );
    } finally {
      this.drawn.delete(key);
      closer.abort();
    }
  }

  private apply(): void {
    if (settings.allWindows()) void this.start();
    else void this.stop();
  }

  private async start(): Promise<void> {
    if (this.mesh || this.opening) return this.opening;
    this.opening = (async () => {
      try {
        const dir = await meshDir(this.storage);
        const mesh = await WindowMesh.open({
          dir,
          folder: vscode.workspace.name ?? vscode.l10n.t('a window with no folder'),
          answer: async (id, answer, _from, device) => answerFromOtherWindow(this.broker, id, answer, device),
          log: (line) => this.log.info(line),
        });
        if (!settings.allWindows()) return void (await mesh.dispose());
        this.mesh = mesh;
        mesh.onDidChange(() => this.remoteChanged());
        mesh.publish(this.ownQuestions);
        this.log.info(`[windows] this window joined the others in ${dir}`);
      } catch (error) {
        this.log.warn(`[windows] questions of other windows are not shown: ${String(error)}`);
      } finally {
        this.opening = undefined;
      }
    })();
    return this.opening;
  }

  private async stop(): Promise<void> {
    await this.opening;
    const mesh = this.mesh;
    this.mesh = undefined;
    this.remoteChanged();
    await mesh?.dispose();
  }

  private publishSoon(): void {
    if (this.publishTimer || !this.mesh) return;
    this.publishTimer = setTimeout(() => {
      this.publishTimer = undefined;
      this.mesh?.publish(this.ownQuestions);
    }, PUBLISH_EVERY_MS);
  }

  /** A question answered elsewhere, or whose window closed, leaves this window's UI too. */
  private remoteChanged(): void {
    const listed = new Set(this.remote().map(keyOf));
    for (const [key, drawn] of this.drawn) if (!listed.has(key)) drawn.closer.abort();
    this.changes.fire();
  }

  dispose(): void {
    clearTimeout(this.publishTimer);
    void this.stop();
    for (const d of this.disposables) d.dispose();
  }
}

function keyOf(remote: RemoteQuestion): string {
  return `${remote.window.id}:${remote.question.id}`;
}

function errorText(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error), 300);
}

/**
 * The windows of one VS Code (one user data directory) meet in a directory of
 * the user's runtime dir, named by that data directory, so that each VS Code
 * (and each test run's) windows are a queue of their own. Without a runtime dir
 * the folder is in the shared temp dir, where a name others can compute could be
 * taken first by another user: there its name is random,
 * kept in the extension's global storage, which only this user reads.
 */
export async function meshDir(storage: vscode.Uri): Promise<string> {
  const runtime = process.env.XDG_RUNTIME_DIR;
  const scope = runtime ? createHash('sha256').update(storage.fsPath).digest('hex').slice(0, 12) : await meshId(storage.fsPath);
  const name = `elicit-${scope}`;
  const dir = path.join(runtime || os.tmpdir(), name);
  // The socket inside is <16 hex>.sock.
  return dir.length + 22 <= MAX_SOCKET_PATH || process.platform === 'win32' ? dir : path.join('/tmp', name);
}

export const MESH_ID_FILE = 'windows-mesh-id';

/** The random part of the mesh folder's name, made once per global storage (the first window to write it wins). */
async function meshId(storage: string): Promise<string> {
  const file = path.join(storage, MESH_ID_FILE);
  await fs.promises.mkdir(storage, { recursive: true });
  try {
    await fs.promises.writeFile(file, randomBytes(12).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const id = (await fs.promises.readFile(file, 'utf8')).trim();
  if (!/^[0-9a-f]{24}$/.test(id)) throw new Error(`${file} is not a name Elicit made`);
  return id;
}
