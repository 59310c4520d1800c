/**
 * With `elicit.gateway.port` set, one window serves that port and the others stand by. A window
 * standing by watches the port: once it has stayed free for longer than a reload takes, the window
 * that served it has closed for good, and this one may take it over. A reload of the serving window
 * (seconds) never hands its agents to another folder's window (issue #37, finding B). No vscode import.
 */
import { portHolder } from '../process/portHolder';

/** Longer than a reload of a busy window takes, from its old extension host's end to its new gateway. */
export const TAKE_OVER_AFTER_MS = 30_000;
/** How often a window standing by looks at the port. */
export const WATCH_EVERY_MS = 5_000;

export interface PortWatchOptions {
  port: number;
  /** The gateway token as it is now (another window may have replaced it): the holder proves it is Elicit with it. */
  token(): string | Promise<string>;
  freeForMs?: number;
  everyMs?: number;
  /** The port has been free long enough: take it. True when taken (the watch then ends). */
  onFree(): Promise<boolean>;
  /**
   * A program that did not prove it is Elicit has held the port as long as it takes to take one over
   * (a busy Elicit window that is slow to answer once is not taken for one). Once per such stretch.
   */
  onStranger(): void;
}

export class PortWatch {
  private timer: NodeJS.Timeout | undefined;
  private freeSince: number | undefined;
  private strangerSince: number | undefined;
  private strangerTold = false;
  private ended = false;

  constructor(private readonly options: PortWatchOptions) {
    this.next();
  }

  private next(): void {
    if (this.ended) return;
    this.timer = setTimeout(() => void this.look(), this.options.everyMs ?? WATCH_EVERY_MS);
    // A watch never keeps the extension host alive on its own.
    this.timer.unref?.();
  }

  private async look(): Promise<void> {
    const holder = await portHolder(this.options.port, await this.options.token());
    if (this.ended) return;
    const now = Date.now();
    const longEnough = this.options.freeForMs ?? TAKE_OVER_AFTER_MS;
    this.freeSince = holder === 'free' ? (this.freeSince ?? now) : undefined;
    this.strangerSince = holder === 'other' ? (this.strangerSince ?? now) : undefined;
    if (holder !== 'other') this.strangerTold = false;
    if (this.freeSince !== undefined && now - this.freeSince >= longEnough) {
      this.freeSince = undefined;
      if (await this.options.onFree().catch(() => false)) {
        this.dispose();
        return;
      }
    }
    if (this.strangerSince !== undefined && now - this.strangerSince >= longEnough && !this.strangerTold) {
      this.strangerTold = true;
      this.options.onStranger();
    }
    this.next();
  }

  dispose(): void {
    this.ended = true;
    clearTimeout(this.timer);
  }
}
