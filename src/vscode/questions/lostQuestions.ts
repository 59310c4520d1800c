/**
 * Questions that cannot outlive a window reload — those of MCP 2025-era
 * servers, agents, the gateway, other extensions — end with it: their asker
 * waited on a connection the reload closed. Rather than vanish, they are
 * listed after the reload as lost, with who asked and what, until dismissed.
 * Only the asker's name and message are written (workspace state), never an
 * answer. Rounds of 2026-07-28 servers are kept whole instead (keptRounds.ts).
 */
import * as vscode from 'vscode';
import type { Broker, Question } from '../../core/broker/broker';
import { clip, oneLine } from '../../core/display';
import type { Asker } from '../../core/request';

const OPEN_KEY = 'elicit.openQuestions';
const LOST_KEY = 'elicit.lostQuestions';
/**
 * Open questions are written at most this often: each write sends the workspace's whole state. A
 * window that closes writes them at once (freeze); this only matters when its host dies unannounced.
 */
const WRITE_MS = 1_000;

export interface LostQuestion {
  id: string;
  asker: Pick<Asker, 'kind' | 'name' | 'detail'>;
  message: string;
  askedAt: number;
}

export class LostQuestions implements vscode.Disposable {
  private lost: LostQuestion[];
  private readonly session = Date.now().toString(36);
  private timer: NodeJS.Timeout | undefined;
  private written = '[]';
  /** Set as the window closes: questions then end only because the window does, and stay recorded. */
  private frozen = false;
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changes.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly broker: Broker,
    private readonly state: vscode.Memento,
  ) {
    // What was open when the last window ended was lost with it.
    this.lost = [...read(state, LOST_KEY), ...read(state, OPEN_KEY)];
    void state.update(LOST_KEY, this.lost);
    void state.update(OPEN_KEY, []);
    this.subscription = broker.onDidChange(() => this.schedule());
  }

  list(): readonly LostQuestion[] {
    return this.lost;
  }

  async dismiss(id: string): Promise<void> {
    this.lost = this.lost.filter((q) => q.id !== id);
    await this.state.update(LOST_KEY, this.lost);
    this.changes.fire();
  }

  /** The window is closing: what is open now is what the next window lists as lost. */
  async freeze(): Promise<void> {
    if (this.frozen) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    // Written before the servers stop, while their questions are still open.
    const writing = this.writeOpen();
    this.frozen = true;
    await writing;
  }

  private schedule(): void {
    if (this.frozen) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.writeOpen();
    }, WRITE_MS);
  }

  private async writeOpen(): Promise<void> {
    if (this.frozen) return;
    const open = this.broker
      .pending()
      .filter((q) => !survivesReload(q))
      .map((q) => this.record(q));
    const text = JSON.stringify(open);
    if (text === this.written) return;
    this.written = text;
    await this.state.update(OPEN_KEY, open);
  }

  private record(question: Question): LostQuestion {
    const { kind, name, detail } = question.request.asker;
    return {
      id: `${this.session}-${question.id}`,
      asker: { kind, name: clip(name, 120), ...(detail ? { detail: clip(detail, 120) } : {}) },
      message: clip(oneLine(question.request.message, 300), 300),
      askedAt: question.receivedAt,
    };
  }

  dispose(): void {
    void this.freeze();
    this.subscription.dispose();
    this.changes.dispose();
  }
}

/** A kept 2026-07-28 round is answered after the reload, not lost. */
function survivesReload(question: Question): boolean {
  return question.request.mode === 'group' && question.request.keptRound !== undefined;
}

function read(state: vscode.Memento, key: string): LostQuestion[] {
  const value = state.get<unknown>(key, []);
  if (!Array.isArray(value)) return [];
  return value.filter((q): q is LostQuestion => {
    const v = q as Partial<LostQuestion> | undefined;
    return (
      typeof v === 'object' && v !== null && typeof v.id === 'string' && typeof v.message === 'string' && typeof v.asker?.name === 'string'
    );
  });
}
