/**
 * Restarts a server that crashed (it was running, then its connection closed),
 * with a growing delay and a limit: after `maxRestarts` crashes without a
 * stable run in between it stays in error until the person restarts it. A
 * server that fails to start in the first place is not retried: that needs a
 * fix, not a loop.
 */
import type { Disposable } from '../core/events';
import type { McpConnection, ServerStatus } from './connection';

export interface RestartPolicy {
  /** Automatic restarts before giving up. */
  maxRestarts: number;
  /** Delay before the first restart; doubles for each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A run this long counts as stable: the crash count starts again. */
  stableMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = Object.freeze({
  maxRestarts: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  stableMs: 60_000,
});

/** The delay before restart number `attempt` (1-based). */
export function restartDelay(attempt: number, policy: RestartPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
}

export class CrashRecovery implements Disposable {
  private previous: ServerStatus;
  private runningSince = 0;
  private restarts = 0;
  private restarting = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: Disposable;
  private _nextRestartAt: number | undefined;
  private _gaveUp = false;

  constructor(
    private readonly connection: McpConnection,
    private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY,
    private readonly log: (line: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.previous = connection.status;
    this.subscription = connection.onDidChangeStatus((status) => this.onStatus(status));
  }

  /** When the next automatic restart is due, while one is scheduled. */
  get nextRestartAt(): number | undefined {
    return this._nextRestartAt;
  }

  /** True once the limit was reached: the server waits for the person. */
  get gaveUp(): boolean {
    return this._gaveUp;
  }

  /** The person restarted or stopped it: forget the crash count and any scheduled restart. */
  reset(): void {
    this.cancelTimer();
    this.restarts = 0;
    this.restarting = false;
    this._gaveUp = false;
  }

  dispose(): void {
    this.cancelTimer();
    this.subscription.dispose();
  }

  private onStatus(status: ServerStatus): void {
    const previous = this.previous;
    this.previous = status;
    if (status === 'running') {
      this.runningSince = this.now();
      this.restarting = false;
      return;
    }
    if (status === 'stopped') {
      this.reset();
      return;
    }
    if (status !== 'error') return;
    const crashed = previous === 'running';
    const restartFailed = previous === 'starting' && this.restarting;
    if (!crashed && !restartFailed) return;
    if (crashed && this.now() - this.runningSince >= this.policy.stableMs) this.restarts = 0;
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.restarts >= this.policy.maxRestarts) {
      this.restarting = false;
      this._gaveUp = true;
      this.log(`${this.connection.name} stopped unexpectedly ${this.restarts + 1} times in a row; it stays stopped until you restart it`);
      return;
    }
    this.restarts++;
    const delay = restartDelay(this.restarts, this.policy);
    this.log(
      `${this.connection.name} stopped unexpectedly; restarting in ${formatDelay(delay)} (attempt ${this.restarts} of ${this.policy.maxRestarts})`,
    );
    this.cancelTimer();
    this._nextRestartAt = this.now() + delay;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this._nextRestartAt = undefined;
      this.restarting = true;
      this.connection.connect().catch(() => undefined); // A failure comes back here as status "error".
    }, delay);
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this._nextRestartAt = undefined;
  }
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
