/**
 * An asker's own timer on a question as a line ("codex answers for you in 0:45
 * (its own timer)"), updated every second: under a form's title, on a paired
 * phone's card, on the agent panel's question card. Screen readers are told
 * through a polite live region of its own, only when it first shows and at
 * coarse steps (src/core/countdown.ts), never every second. The page needs the
 * `.visually-hidden` rule (shared/visuallyHidden.css).
 */
import { countdownText, crossesAnnounceStep } from '../../src/core/time/countdown';
import { cleanText } from '../../src/core/display';
import { el } from './dom';

export class CountdownLine {
  /**
   * What the person sees. Never live, even inside a live region (the agent panel's transcript is one),
   * so its every-second change is not read out.
   */
  readonly element = el('p', { className: 'countdown', attrs: { 'aria-live': 'off' } });
  /** What a screen reader is told, at coarse steps. */
  readonly announcer = el('div', { className: 'visually-hidden', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly deadline: number;
  private readonly timer: ReturnType<typeof setInterval>;
  private left: number;

  /** `leftMs` is counted from now by this page's clock: the host's (or the computer's) may differ. */
  constructor(
    private readonly asker: string,
    leftMs: number,
  ) {
    this.deadline = performance.now() + leftMs;
    this.left = leftMs;
    this.element.textContent = this.text();
    // Told once, a moment after the line is drawn, so the region exists before it changes.
    setTimeout(() => {
      if (this.element.isConnected) this.announcer.textContent = this.text();
    }, 500);
    this.timer = setInterval(() => this.tick(), 1000);
  }

  /** Both nodes, to append where the line goes. */
  get nodes(): [HTMLElement, HTMLElement] {
    return [this.element, this.announcer];
  }

  private tick(): void {
    // A card redrawn or removed takes its line with it: the line stops on its own, whoever forgot it.
    if (!this.element.isConnected) return this.dispose();
    const now = this.deadline - performance.now();
    this.element.textContent = this.text(now);
    if (crossesAnnounceStep(this.left, now)) this.announcer.textContent = this.text(now);
    this.left = now;
    if (now <= 0) this.dispose();
  }

  private text(left = this.left): string {
    return countdownText(cleanText(this.asker), left);
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
