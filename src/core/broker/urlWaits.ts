/**
 * After a person consents to open a URL, the asker finishes out of band and
 * then says so (MCP `notifications/elicitation/complete`, ACP
 * `elicitation/complete`). This registry connects the two: the URL renderer
 * waits, the adapter completes. Unknown or repeated ids are ignored (spec).
 */
import { Emitter } from '../events';

export type UrlWaitOutcome = 'completed' | 'cancelled';

export class UrlWaits {
  private readonly waiting = new Map<string, (outcome: UrlWaitOutcome) => void>();
  private readonly cancellations = new Emitter<{ askerKey: string; elicitationId: string }>();
  /** A wait ended without completion: the person cancelled it, it timed out, or the asker left. */
  readonly onDidCancel = this.cancellations.event;

  /** Resolves when the asker completes this elicitation, or with 'cancelled' when `signal` aborts. */
  wait(askerKey: string, elicitationId: string, signal?: AbortSignal): Promise<UrlWaitOutcome> {
    const key = this.key(askerKey, elicitationId);
    this.waiting.get(key)?.('cancelled');
    return new Promise((resolve) => {
      const finish = (outcome: UrlWaitOutcome): void => {
        if (this.waiting.get(key) !== finish) return;
        this.waiting.delete(key);
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
        if (outcome === 'cancelled') this.cancellations.fire({ askerKey, elicitationId });
      };
      const onAbort = (): void => finish('cancelled');
      this.waiting.set(key, finish);
      if (signal?.aborted) return finish('cancelled');
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Returns false for an id nobody waits for (unknown or already completed). */
  complete(askerKey: string, elicitationId: string): boolean {
    const finish = this.waiting.get(this.key(askerKey, elicitationId));
    if (!finish) return false;
    finish('completed');
    return true;
  }

  /** Ends one wait as cancelled (the asker gave up on it); false for an id nobody waits for. */
  cancel(askerKey: string, elicitationId: string): boolean {
    const finish = this.waiting.get(this.key(askerKey, elicitationId));
    if (!finish) return false;
    finish('cancelled');
    return true;
  }

  /** Ends every wait of an asker (it disconnected). */
  cancelAll(askerKey: string): void {
    const prefix = `${JSON.stringify(askerKey)}:`;
    for (const [key, finish] of [...this.waiting]) if (key.startsWith(prefix)) finish('cancelled');
  }

  get size(): number {
    return this.waiting.size;
  }

  private key(askerKey: string, elicitationId: string): string {
    return `${JSON.stringify(askerKey)}:${elicitationId}`;
  }
}

/** One stable key per asker, e.g. for waits and saved secrets. */
export function askerKey(asker: { kind: string; name: string }): string {
  return `${asker.kind}:${asker.name}`;
}
