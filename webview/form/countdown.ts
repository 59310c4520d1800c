/**
 * The asker's timer on a question as a line under its title ("codex answers
 * for you in 0:45 (its own timer)"), updated every second. Screen readers are
 * told through a polite live region of its own, only when it first shows and
 * at coarse steps (countdown.ts), never every second.
 */
import { countdownText, crossesAnnounceStep } from '../../src/core/countdown';
import { cleanText } from '../../src/core/display';
import { el } from '../shared/dom';

export class CountdownLine {
  /** What the person sees; not live, so its every-second change is not read out. */
  readonly element = el('p', { className: 'countdown' });
  /** What a screen reader is told, at coarse steps. */
  readonly announcer = el('div', { className: 'visually-hidden', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly deadline: number;
  private readonly timer: ReturnType<typeof setInterval>;
  private left: number;

  constructor(
    private readonly asker: string,
    leftMs: number,
  ) {
    // The page's own clock from here on: the host's (code-server's server) may differ from the browser's.
    this.deadline = performance.now() + leftMs;
    this.left = leftMs;
    this.element.textContent = this.text();
    // Told once, a moment after the page is drawn, so the region exists before it changes.
    setTimeout(() => (this.announcer.textContent = this.text()), 500);
    this.timer = setInterval(() => this.tick(), 1000);
  }

  private tick(): void {
    const now = this.deadline - performance.now();
    this.element.textContent = this.text(now);
    if (crossesAnnounceStep(this.left, now)) this.announcer.textContent = this.text(now);
    this.left = now;
    if (now <= 0) clearInterval(this.timer);
  }

  private text(left = this.left): string {
    return countdownText(cleanText(this.asker), left);
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
