/**
 * A scripted model endpoint in place of a model service: a node:http server that
 * answers each model request of a real agent with the next scripted turn (text,
 * or a tool call), streamed as server-sent events in the wire format of the
 * service the agent expects (responsesEndpoint.ts, messagesEndpoint.ts). Every
 * request body is recorded, so a test can assert what reached the model (the
 * tool result carrying the person's answer). Loopback only; no sign-in.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted model turn. */
export type ModelTurn =
  | { text: string; /** held open until this settles: the agent stays mid-turn */ until?: Promise<unknown> }
  | {
      tool: string;
      /** An object is sent as a function's JSON arguments; a string as a custom (freeform) tool's input. */
      input: Record<string, unknown> | string;
      until?: Promise<unknown>;
    };

export interface RecordedRequest {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** Whether a scripted turn answered it (false: a side request, or the script had run out). */
  scripted: boolean;
  /** Refused with 401: not the accepted key (acceptedKey). */
  refused?: boolean;
}

/** One server-sent event: `event: <type>` and the JSON as `data`. */
export interface SseEvent {
  type: string;
  [key: string]: unknown;
}

export interface WireFormat {
  /** The request path (without query) the agent posts to. */
  path: string;
  /** Whether this request is a conversation turn (scripted) or a side request (a title, a suggestion). */
  isTurn(body: Record<string, unknown>): boolean;
  /** The events that stream this turn; `n` numbers the responses (for ids). */
  events(turn: ModelTurn, n: number): SseEvent[];
}

export class ScriptedModel {
  readonly requests: RecordedRequest[] = [];
  private readonly turns: ModelTurn[] = [];
  private readonly server: http.Server;
  private responses = 0;
  /** What a request gets when the script has run out, or a side request: a short text. */
  fallbackText = 'Done.';
  /** When set, a request without `Authorization: Bearer <this>` is refused with 401 (recorded, no turn taken). */
  acceptedKey: string | undefined;

  constructor(private readonly format: WireFormat) {
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  /** Queues turns: each conversation request takes the next one. */
  script(...turns: ModelTurn[]): this {
    this.turns.push(...turns);
    return this;
  }

  /** Turns not yet taken. */
  get remaining(): number {
    return this.turns.length;
  }

  /** The conversation requests (the side requests left out). */
  get turnRequests(): RecordedRequest[] {
    return this.requests.filter((r) => !r.refused && (r.scripted || this.format.isTurn(r.body)));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || path !== this.format.path) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not scripted"}');
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (this.acceptedKey !== undefined && req.headers.authorization !== `Bearer ${this.acceptedKey}`) {
        this.requests.push({ url: req.url ?? '', headers: req.headers, body, scripted: false, refused: true });
        const error = { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' };
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
        return;
      }
      const turn = this.format.isTurn(body) ? this.turns.shift() : undefined;
      this.requests.push({ url: req.url ?? '', headers: req.headers, body, scripted: turn !== undefined });
      void this.stream(res, turn ?? { text: this.fallbackText });
    });
  }

  private async stream(res: http.ServerResponse, turn: ModelTurn): Promise<void> {
    const events = this.format.events(turn, ++this.responses);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // All but the last event go out at once; the last waits for `until`, keeping the turn open.
    const last = events.pop();
    for (const event of events) res.write(sse(event));
    if (turn.until) await turn.until.catch(() => undefined);
    if (last) res.write(sse(last));
    res.end();
  }
}

function sse(event: SseEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
