/**
 * With `elicit.gateway.port` set, one window serves that port and the others stand by. A window
 * standing by watches the port: once it has stayed free for longer than a reload takes, the window
 * that served it has closed for good, and this one may take it over. A reload of the serving window
 * (seconds) never hands its agents to another folder's window.
 * A program that holds the port and does not prove it is Elicit gets every CLI agent's token: it is
 * reported at its first wrong answer, and a free look between its answers forgives nothing.
 * No vscode import.
 */
import { holderAnswer, type HolderAnswer } from '../process/portHolder';

/** Longer than a reload of a busy window takes, from its old extension host's end to its new gateway. */
export const TAKE_OVER_AFTER_MS = 30_000;
/** How often a window standing by looks at the port. */
export const WATCH_EVERY_MS = 5_000;
/**
 * How soon a wrong answer is looked at again. An Elicit window whose token was just replaced in
 * another window proves itself with the new one by then; a stranger cannot.
 */
export const CONFIRM_AFTER_MS = 1_000;

export interface PortWatchOptions {
  port: number;
  /** The gateway token as it is now (another window may have replaced it): the holder proves it is Elicit with it. */
  token(): string | Promise<string>;
  freeForMs?: number;
  everyMs?: number;
  confirmAfterMs?: number;
  /**
   * The port has been free long enough: take it. True when taken (the watch then ends).
   * `strangerSeen`: while this window watched, a program that did not prove it is Elicit held the
   * port, and may have the token clients sent it: take the port with a new one.
   */
  onFree(strangerSeen: boolean): Promise<boolean>;
  /**
   * A program that did not prove it is Elicit holds the port: it answered wrong (twice, a moment
   * apart), or it has not answered for as long as it takes to take a port over (a busy Elicit
   * window that is slow to answer once is not taken for one). Once, until an Elicit window proves
   * itself there again.
   */
  onStranger(): void;
}

/** What one look at the port calls for. */
export type LookOutcome = 'wait' | 'confirm' | 'stranger' | 'take';

/**
 * What the watch remembers between looks, and what each look calls for. Pure, so its rules are
 * tested on their own. Only a proof from an Elicit window forgives a stranger: a squatter that lets
 * one look in five find the port free is still reported, and its silence still counts.
 */
export class StandbyLooks {
  private freeSince: number | undefined;
  /** When a holder first took a look's connection without answering, since the last proof. */
  private silentSince: number | undefined;
  /** The last look got a wrong answer: the next, soon after, tells a window that just changed its token from a stranger. */
  private confirming = false;
  private told = false;
  private reported = false;

  constructor(private readonly freeForMs: number) {}

  /**
   * A stranger was reported while this window watched, or something held the port without
   * answering and no Elicit window proved itself since: whoever it was may have the token.
   */
  get strangerSeen(): boolean {
    return this.reported || this.silentSince !== undefined;
  }

  see(holder: HolderAnswer, now: number): LookOutcome {
    const confirming = this.confirming;
    this.confirming = false;
    if (holder === 'elicit') {
      this.freeSince = undefined;
      this.silentSince = undefined;
      this.told = false;
      return 'wait';
    }
    // A wrong answer followed by anything but a proof (gone at once, silent, wrong again) is a stranger.
    if (confirming) return this.stranger();
    if (holder === 'free') {
      this.freeSince ??= now;
      if (now - this.freeSince < this.freeForMs) return 'wait';
      this.freeSince = undefined;
      return 'take';
    }
    this.freeSince = undefined;
    if (holder === 'other') {
      if (this.told) return 'wait';
      this.confirming = true;
      return 'confirm';
    }
    this.silentSince ??= now;
    return now - this.silentSince >= this.freeForMs ? this.stranger() : 'wait';
  }

  private stranger(): LookOutcome {
    this.reported = true;
    if (this.told) return 'wait';
    this.told = true;
    return 'stranger';
  }
}

export class PortWatch {
  private timer: NodeJS.Timeout | undefined;
  private readonly looks: StandbyLooks;
  private ended = false;

  constructor(private readonly options: PortWatchOptions) {
    this.looks = new StandbyLooks(options.freeForMs ?? TAKE_OVER_AFTER_MS);
    this.next(options.everyMs ?? WATCH_EVERY_MS);
  }

  private next(afterMs: number): void {
    if (this.ended) return;
    this.timer = setTimeout(() => void this.look(), afterMs);
    // A watch never keeps the extension host alive on its own.
    this.timer.unref?.();
  }

  private async look(): Promise<void> {
    const holder = await holderAnswer(this.options.port, await this.options.token());
    if (this.ended) return;
    const outcome = this.looks.see(holder, Date.now());
    if (outcome === 'take' && (await this.options.onFree(this.looks.strangerSeen).catch(() => false))) {
      this.dispose();
      return;
    }
    if (outcome === 'stranger') this.options.onStranger();
    this.next(outcome === 'confirm' ? (this.options.confirmAfterMs ?? CONFIRM_AFTER_MS) : (this.options.everyMs ?? WATCH_EVERY_MS));
  }

  dispose(): void {
    this.ended = true;
    clearTimeout(this.timer);
  }
}
