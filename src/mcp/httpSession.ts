/**
 * A 2025-11-25 Streamable HTTP session kept through a flaky network, and ended when it is gone.
 * The SDK's client transport resumes a dropped GET stream (on which a server's own questions come)
 * twice and then stops listening without a word; a server that restarted answers 404 to the old
 * session forever; and an answer whose POST failed on the way is simply lost. Found by the soak
 * (issue #37). Here:
 *
 * - the GET stream is resumed more patiently (RECONNECTION, Last-Event-ID as the SDK sends it);
 * - an answer or a notification whose POST got no HTTP reply (a dropped connection) is sent again
 *   a few times; a server ignores a response to a request it no longer waits for, so a POST that
 *   did land and is sent twice costs nothing;
 * - a 404 to the session, a GET stream that could not be resumed, or an answer that could not be
 *   sent at all ends the connection with a reason (`onLost`), so crash recovery starts a new
 *   session; the old one is ended with DELETE first when the server can still be reached, so its
 *   questions end there with an error instead of waiting for ever.
 *
 * No SDK import: the transport is reached through the few members used here.
 */

/** Resuming the GET stream: 0.5 s, then growing to 5 s, ten times (about 30 s in all). */
export const RECONNECTION = Object.freeze({
  initialReconnectionDelay: 500,
  maxReconnectionDelay: 5_000,
  reconnectionDelayGrowFactor: 1.6,
  maxRetries: 10,
});

/** Gaps before sending an answer again after its POST got no reply. */
export const RESEND_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000];

interface JsonRpcMessageLike {
  method?: unknown;
  id?: unknown;
}

/** The members of the SDK's StreamableHTTPClientTransport this needs. */
export interface HttpSessionTransport {
  send(message: JsonRpcMessageLike, options?: unknown): Promise<void>;
  onerror?: (error: Error) => void;
  readonly sessionId?: string;
  terminateSession(): Promise<void>;
}

export interface HttpSessionOptions {
  /** Called once, when the session cannot go on. */
  onLost(why: string): void;
  resendDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
}

/** The HTTP status an SDK error carries (SdkHttpError: by name, so this stays free of the SDK bundle). */
export function httpStatusOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || error.name !== 'SdkHttpError') return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
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
  transport.send = async (message, sendOptions) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send(message, sendOptions);
      } catch (error) {
        if (sessionUnknown(error)) lost('the server no longer knows this session (HTTP 404)');
        // Only what got no HTTP reply at all is sent again; a status is the server's answer.
        const resend = watching && !isRequest(message) && httpStatusOf(error) === undefined && attempt < delays.length;
        if (!resend) {
          if (watching && !isRequest(message) && httpStatusOf(error) === undefined) lost('an answer could not be sent to the server');
          throw error;
        }
        await sleep(delays[attempt]!);
      }
    }
  };

  const previous = transport.onerror;
  transport.onerror = (error) => {
    previous?.(error);
    if (sessionUnknown(error)) lost('the server no longer knows this session (HTTP 404)');
    // The SDK's words when it stops resuming the GET stream: nothing the server asks arrives after that.
    else if (/^Maximum reconnection attempts/.test(error.message)) lost('the stream of its questions could not be resumed');
  };
  return () => {
    watching = false;
  };
}
