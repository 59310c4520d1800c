/**
 * The end of a 2025-era Streamable HTTP session, carried out even after its transport closed: the
 * answers that got no reply on the way are sent, then DELETE, each until the server replies, so
 * what the server still waits for ends there (answered, or with an error) instead of waiting for
 * ever. Found by the soak: a session given up while the network was down left its
 * server's questions open for ever, because its one DELETE could not reach the server and the
 * answers already given went nowhere.
 *
 * It reaches the session the way the transport last did (URL and headers, the session id and the
 * sign-in among them), through the transport's own fetch, so no SDK internals are needed.
 */

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** How long a session's end is tried for: a network may be down for minutes. */
export const PARTING_FOR_MS = 10 * 60_000;

/** Gaps between tries, the last repeated. */
export const PARTING_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 5_000];

/** One try's limit: a server that takes the connection but never replies is tried again. */
const TRY_MS = 30_000;

/** Headers that belong to the request they were sent with, not to the session. */
const REQUEST_HEADERS = ['accept', 'content-type', 'content-length', 'last-event-id', 'mcp-method', 'mcp-name'];

export interface SessionPartingOptions {
  log?: (line: string) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export class SessionParting {
  private address: { url: string; headers: Headers } | undefined;
  /** Answers and notifications that got no reply, in the order they were sent. */
  private readonly held = new Set<unknown>();
  private ending: Promise<void> | undefined;
  private deleting = false;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly fetch: Fetch,
    private readonly options: SessionPartingOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    // Unref'd: ending an old session never keeps a process alive (a test's, or a host shutting down).
    this.sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  }

  /** `fetch` for the transport, noting where and with which headers it reaches its session. */
  noting(fetch: Fetch): Fetch {
    return (input, init) => {
      const headers = new Headers(init?.headers);
      if (headers.has('mcp-session-id') && !this.deleting) {
        for (const name of REQUEST_HEADERS) headers.delete(name);
        this.address = { url: String(input), headers };
      }
      return fetch(input, init);
    };
  }

  /** `message` got no reply: if the session ends before it lands, it is sent first. */
  hold(message: unknown): void {
    if (!this.deleting) this.held.add(message);
  }

  /** `message` landed, or the server answered it with a status: nothing more to do for it. */
  release(message: unknown): void {
    this.held.delete(message);
  }

  /** Ends the session (once): the answers held, then DELETE. Resolves when done or given up. */
  end(): Promise<void> {
    return (this.ending ??= this.part());
  }

  private async part(): Promise<void> {
    const address = this.address;
    if (!address) return;
    const deadline = this.now() + PARTING_FOR_MS;
    // The oldest held first; each is let go once tried, so the loop ends.
    for (let message = this.oldestHeld(); message !== undefined; message = this.oldestHeld()) {
      const replied = await this.untilReplied(deadline, () => this.send(address, 'POST', JSON.stringify(message)));
      this.held.delete(message);
      if (!replied) return;
    }
    this.deleting = true;
    await this.untilReplied(deadline, () => this.send(address, 'DELETE'));
  }

  private async send(address: { url: string; headers: Headers }, method: 'POST' | 'DELETE', body?: string): Promise<Response> {
    const headers = new Headers(address.headers);
    if (body !== undefined) {
      headers.set('content-type', 'application/json');
      headers.set('accept', 'application/json, text/event-stream');
    }
    // A redirect is the server's reply: followed, it could carry the session's headers to another origin.
    return this.fetch(address.url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(TRY_MS) });
  }

  /** Tries `request` until the server replies with any status (true) or `deadline` passes (false). */
  private async untilReplied(deadline: number, request: () => Promise<Response>): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await request();
        await response.body?.cancel().catch(() => undefined);
        return true;
      } catch {
        if (this.now() >= deadline) {
          this.options.log?.('the server could not be reached to end the old session; its questions may wait there');
          return false;
        }
        await this.sleep(PARTING_DELAYS_MS[Math.min(attempt, PARTING_DELAYS_MS.length - 1)]!);
      }
    }
  }

  private oldestHeld(): unknown {
    return this.held.values().next().value;
  }
}
