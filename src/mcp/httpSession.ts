/**
 * A 2025-11-25 Streamable HTTP session kept through a flaky network, and ended when it is gone.
 * The SDK's client transport resumes a dropped GET stream (on which a server's own questions come)
 * twice and then stops listening without a word; a server that restarted answers 404 to the old
 * session forever; and an answer whose POST failed on the way is simply lost. Found by the soak. Here:
 *
 * - the GET stream is resumed more patiently (RECONNECTION, Last-Event-ID as the SDK sends it);
 * - an answer or a notification whose POST got no HTTP reply (a dropped connection) is sent again
 *   for about as long as the GET stream is resumed; a server ignores a response to a request it no
 *   longer waits for, so a POST that did land and is sent twice costs nothing;
 * - a 404 to the session, a GET stream that could not be resumed, or an answer that could not be
 *   sent at all ends the connection with a reason (`onLost`), so crash recovery starts a new
 *   session; the old one is ended (`SessionParting`: the answers still on their way, then DELETE,
 *   tried until the server can be reached again), so its questions end there instead of waiting
 *   for ever;
 * - a session left without its GET stream for longer than the resuming lasts ends the same way
 *   (`GetStreamWatch`): the SDK opens the stream once after `initialized` and never tries again if
 *   that one request fails, so the server's questions would wait for ever.
 *
 * No SDK import: the transport is reached through the few members used here.
 */

import { waitAtMost } from '../core/time/delay';
import { httpStatus as httpStatusOf } from './httpFallback';
import type { SessionParting } from './sessionParting';

/** Resuming the GET stream: 0.5 s, then growing to 5 s, ten times (about 30 s in all). */
export const RECONNECTION = Object.freeze({
  initialReconnectionDelay: 500,
  maxReconnectionDelay: 5_000,
  reconnectionDelayGrowFactor: 1.6,
  maxRetries: 10,
});

/** A session with no GET stream for this long (longer than RECONNECTION's tries) has lost it. */
export const STREAMLESS_MS = 40_000;

/** Gaps before sending an answer again after its POST got no reply: about 28 s in all, as long as the GET stream is resumed. */
export const RESEND_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000, 5_000];

interface JsonRpcMessageLike {
  method?: unknown;
  id?: unknown;
}

/** The members of the SDK's StreamableHTTPClientTransport this needs. */
export interface HttpSessionTransport {
  send(message: JsonRpcMessageLike, options?: unknown): Promise<void>;
  onerror?: (error: Error) => void;
  readonly sessionId?: string;
}

export interface HttpSessionOptions {
  /** Called once, when the session cannot go on. */
  onLost(why: string): void;
  /** What happens to the session on the way: an answer sent again, for the server's log. */
  log?: (line: string) => void;
  /** The GET stream's watch, whose fetch the transport was given. */
  stream?: GetStreamWatch;
  /** The session's end, whose fetch the transport was given: it sends what got no reply before DELETE. */
  parting?: SessionParting;
  /** How often the GET stream is looked at, 5 s. */
  checkEveryMs?: number;
  now?: () => number;
  resendDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Ends a Streamable HTTP transport's session (`parting`; none for other transports): waits at most
 * 2 s, while its end goes on being tried (the server may be unreachable for now).
 */
export async function endSession(parting: SessionParting | undefined): Promise<void> {
  if (parting) await waitAtMost(parting.end(), 2_000);
}

/** A request of ours: sending it twice could run a tool twice, so it is never sent again. */
function isRequest(message: JsonRpcMessageLike): boolean {
  return typeof message.method === 'string' && message.id !== undefined;
}

/**
 * Watches `transport` (install before or after connect: the SDK chains an `onerror` it finds).
 * Returns a function that stops watching.
 */
export function keepHttpSession(transport: HttpSessionTransport, options: HttpSessionOptions): () => void {
  const delays = options.resendDelaysMs ?? RESEND_DELAYS_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let watching = true;
  const lost = (why: string): void => {
    if (!watching) return;
    watching = false;
    options.onLost(why);
  };
  /** A 404 to a request that carried our session: the server no longer knows it (it restarted, or ended it). */
  const sessionUnknown = (error: unknown): boolean => httpStatusOf(error) === 404 && transport.sessionId !== undefined;

  const send = transport.send.bind(transport);
  const parting = options.parting;
  transport.send = async (message, sendOptions) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await send(message, sendOptions);
        parting?.release(message);
        return;
      } catch (error) {
        if (sessionUnknown(error)) lost('the server no longer knows this session (HTTP 404)');
        // Only what got no HTTP reply at all is sent again; a status is the server's answer.
        const unanswered = !isRequest(message) && httpStatusOf(error) === undefined;
        // Held until it lands: a session that ends meanwhile sends it before its DELETE.
        if (unanswered) parting?.hold(message);
        else parting?.release(message);
        if (!unanswered || !watching || attempt >= delays.length) {
          if (unanswered && watching) lost('an answer could not be sent to the server');
          throw error;
        }
        options.log?.(`a message got no reply from the server; sending it again in ${delays[attempt]} ms`);
        await sleep(delays[attempt]!);
      }
    }
  };

  const now = options.now ?? Date.now;
  const stream = options.stream;
  const check = stream
    ? setInterval(() => {
        if (transport.sessionId !== undefined && stream.streamlessFor(now()) > STREAMLESS_MS) {
          lost('the stream of its questions closed and could not be opened again');
        }
      }, options.checkEveryMs ?? 5_000)
    : undefined;
  check?.unref?.();

  const previous = transport.onerror;
  transport.onerror = (error) => {
    previous?.(error);
    if (sessionUnknown(error)) lost('the server no longer knows this session (HTTP 404)');
    // The SDK's words when it stops resuming the GET stream: nothing the server asks arrives after that.
    else if (/^Maximum reconnection attempts/.test(error.message)) lost('the stream of its questions could not be resumed');
  };
  return () => {
    watching = false;
    clearInterval(check);
  };
}

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Sees the GET streams a transport opens through its fetch: how many are open, and since when
 * none is. A server that answers the GET with 405 offers no stream, and is never judged for it.
 */
export class GetStreamWatch {
  private open = 0;
  private noneSince: number;
  private streamless = false;

  constructor(private readonly now: () => number = Date.now) {
    this.noneSince = now();
  }

  /** How long the session has been without a GET stream, 0 while one is open or none is offered. */
  streamlessFor(at: number): number {
    return this.open > 0 || this.streamless ? 0 : at - this.noneSince;
  }

  /** `fetch`, watching the GET requests that open an event stream. */
  wrap(fetch: Fetch): Fetch {
    return async (input, init) => {
      const method = (init?.method ?? 'GET').toUpperCase();
      const response = await fetch(input, init);
      if (method !== 'GET') return response;
      if (response.status === 405) this.streamless = true;
      if (!response.ok || !response.body || !/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) return response;
      return this.watched(response);
    };
  }

  /** The response with a body that counts as an open stream until it ends, fails or is cancelled. */
  private watched(response: Response): Response {
    this.open++;
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      this.open--;
      if (this.open === 0) this.noneSince = this.now();
    };
    const reader = response.body!.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            end();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          end();
          controller.error(error);
        }
      },
      async cancel(reason) {
        end();
        await reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}
