/**
 * The server a paired phone talks to: HTTPS with Elicit's own certificate on
 * the address the person chose, or plain HTTP on loopback only (for VS Code's
 * own forwarding, which puts its HTTPS and sign-in in front). It serves the
 * page, pairing, a JSON list of waiting questions, their answers, and
 * server-sent events when the list changes.
 *
 *   GET  /                     the page (no data in it; anyone who reaches the Host may load it)
 *   POST /api/pair             {code, name} → {name, confirmCode}; sets the claim cookie
 *   GET  /api/pair             the claim's status; once confirmed in the editor, sets the device cookie
 *   GET  /api/questions        {questions}                       (device cookie)
 *   POST /api/questions/<id>   an answer → {ok} or {errors}      (device cookie)
 *   GET  /api/events           text/event-stream, "questions"   (device cookie)
 *
 * Every refusal, whatever its reason (Host, Origin, target, token, pairing),
 * is the same 403 with the same body, so a refused request learns nothing.
 * Node only, no vscode.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { PairedDevice, DeviceRegistry } from '../core/device/devices';
import { PAIRING_LIFETIME_MS } from '../core/device/devices';
import type { DeviceQuestions } from '../core/device/deviceQuestions';
import type { Pairing } from '../core/device/pairing';
import { CONFIRM_WINDOW_MS } from '../core/device/pairing';
import { phoneQuestions } from '../core/device/phoneQuestions';
import {
  COMMON_HEADERS,
  allowedHosts,
  clearedCookie,
  cookieScope,
  readCookies,
  refuseRequest,
  secretCookie,
  type Allowlist,
  type CookieScope,
  type RequestFacts,
} from '../core/device/requestChecks';
import type { Disposable } from '../core/events';
import { holderProof, listenOnLoopback, type LoopbackTwin } from '../process/portHolder';

export interface DeviceServerOptions {
  /** The address to listen on: a LAN address the person chose, or loopback. Never 0.0.0.0 unless they chose it. */
  address: string;
  /** 0 picks a free port. */
  port: number;
  /** Absent: plain HTTP, allowed on loopback only. */
  tls?: { key: string; cert: string };
  /** More "host:port" names the server answers to (a forwarded address, say). */
  extraHosts?: readonly string[];
  /** The scheme the phone's browser sees when it differs (loopback HTTP behind forwarding over HTTPS). */
  publicScheme?: 'https' | 'http';
  /** The origins of forwarded addresses the page is served from ("https://name[:port]"). */
  extraOrigins?: readonly string[];
  /** The path a forwarding proxy serves the server under ("/proxy/8443/"): the cookies are kept to it. */
  cookiePath?: string;
  pairing: Pairing;
  devices: DeviceRegistry;
  questions: DeviceQuestions;
  /** The page, written for one response (its CSP nonce is fresh each time). */
  page?: () => { html: string; csp: string };
  /** One line per refused request, without anything the request carried. */
  log?: (line: string) => void;
  /** The key other windows share (SecretStorage): with it this server proves it is Elicit to one finding its port taken. */
  proofKey?: string;
}

const MAX_BODY = 64 * 1024;
const HEARTBEAT_MS = 15_000;
const REFUSED_BODY = JSON.stringify({ error: 'forbidden' });

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopback(address: string): boolean {
  return LOOPBACK.has(address) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::ffff:127.0.0.1';
}

interface EventStream {
  response: http.ServerResponse;
  deviceId: string;
  token: string;
}

export class DeviceServer {
  private server: http.Server | undefined;
  /** On loopback, the other loopback address at the same port: a forwarding proxy resolving "localhost" may try it first. */
  private twin: LoopbackTwin | undefined;
  private allow: Allowlist | undefined;
  private readonly streams = new Set<EventStream>();
  private readonly listeners: Disposable[] = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly cookies: CookieScope;

  constructor(private readonly options: DeviceServerOptions) {
    this.cookies = cookieScope(options.cookiePath);
    if (!options.tls && !isLoopback(options.address)) {
      throw new Error(`plain HTTP is served on loopback only, not on ${options.address}: give the server a certificate`);
    }
  }

  /** Listens; resolves with the port. */
  async start(): Promise<number> {
    const handler = (request: http.IncomingMessage, response: http.ServerResponse): void => {
      this.handle(request, response).catch(() => this.refuse(response, 'error'));
    };
    const server = this.options.tls
      ? https.createServer({ key: this.options.tls.key, cert: this.options.tls.cert, minVersion: 'TLSv1.2' }, handler)
      : http.createServer(handler);
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    this.server = server;
    this.twin = await listenOnLoopback(server, this.options.port, this.options.address);
    const port = (server.address() as AddressInfo).port;
    const scheme = this.options.tls ? 'https' : 'http';
    const hosts = allowedHosts(isLoopback(this.options.address) ? ['127.0.0.1', 'localhost', '::1'] : [this.options.address], port);
    this.allow = {
      hosts: [...hosts, ...(this.options.extraHosts ?? []).map((h) => h.toLowerCase())],
      scheme: this.options.publicScheme ?? scheme,
      origins: this.options.extraOrigins ?? [],
    };
    this.listeners.push(
      this.options.questions.onDidChange(() => this.pushQuestions()),
      // A revoked or expired device's open streams end with it.
      this.options.devices.onDidChange(() => this.dropUnpaired()),
      this.options.devices.onDidReplace(() => this.dropUnpaired()),
    );
    this.heartbeat = setInterval(() => {
      this.dropUnpaired();
      for (const stream of this.streams) stream.response.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    return port;
  }

  get port(): number | undefined {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const listener of this.listeners.splice(0)) listener.dispose();
    for (const stream of this.streams) stream.response.end();
    this.streams.clear();
    const server = this.server;
    this.server = undefined;
    const twin = this.twin?.close();
    this.twin = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await twin;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    // Loopback HTTP answers loopback peers only, whatever forwards to it.
    if (!this.options.tls && !isLoopback(request.socket.remoteAddress ?? '')) return this.refuse(response, 'peer');
    // Distinct: a repeated Host (which node folds to its first) is seen and refused.
    const facts: RequestFacts = { method: request.method ?? '', url: request.url ?? '', headers: request.headersDistinct };
    const refusal = refuseRequest(facts, this.allow!);
    if (refusal) return this.refuse(response, refusal);
    const route = `${facts.method === 'HEAD' ? 'GET' : facts.method} ${facts.url}`;
    if (route === 'GET /') return this.sendPage(response);
    // Another window finding this port taken asks the holder to prove it is Elicit (process/portHolder.ts).
    const challenge = /^GET \/elicit-proof\/([0-9a-f]{64})$/.exec(route);
    if (challenge && this.options.proofKey) {
      return this.sendJson(response, 200, { proof: holderProof(this.options.proofKey, this.port ?? 0, challenge[1]!) });
    }
    if (route === 'POST /api/pair') return this.claim(request, response);
    if (route === 'GET /api/pair') return this.collect(facts, response);
    const device = this.device(facts);
    if (!device) return this.refuse(response, 'token');
    if (route === 'GET /api/questions') return this.sendJson(response, 200, { questions: this.views() });
    if (route === 'GET /api/events') return this.openStream(response, device, readCookies(facts).get(this.cookies.device)!);
    const answer = /^POST \/api\/questions\/([1-9]\d{0,9})$/.exec(route);
    if (answer) return this.answer(request, response, Number(answer[1]), device);
    return this.refuse(response, 'route');
  }

  private views(): ReturnType<typeof phoneQuestions> {
    return this.options.questions.list();
  }

  private device(facts: RequestFacts): PairedDevice | undefined {
    return this.options.devices.verify(readCookies(facts).get(this.cookies.device));
  }

  private sendPage(response: http.ServerResponse): void {
    const page = this.options.page?.();
    if (!page) return this.refuse(response, 'route');
    response.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.csp });
    response.end(page.html);
  }

  private async claim(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const body = await readJson(request);
    const ticket = body && this.options.pairing.claim(body.code, body.name);
    if (!ticket) return this.refuse(response, 'pairing');
    const cookie = secretCookie(this.cookies.claim, ticket.secret, CONFIRM_WINDOW_MS / 1000, this.cookies.path);
    this.sendJson(response, 200, { name: ticket.claim.name, confirmCode: ticket.claim.confirmCode }, cookie);
  }

  private collect(facts: RequestFacts, response: http.ServerResponse): void {
    const status = this.options.pairing.collect(readCookies(facts).get(this.cookies.claim));
    if (status.status === 'refused') return this.refuse(response, 'pairing', clearedCookie(this.cookies.claim, this.cookies.path));
    if (status.status === 'waiting') return this.sendJson(response, 200, { status: 'waiting' });
    const { device, token } = this.options.devices.add(status.claim.name);
    const cookies = [
      secretCookie(this.cookies.device, token, PAIRING_LIFETIME_MS / 1000, this.cookies.path),
      clearedCookie(this.cookies.claim, this.cookies.path),
    ];
    this.sendJson(response, 200, { status: 'paired', name: device.name }, cookies);
  }

  private async answer(request: http.IncomingMessage, response: http.ServerResponse, id: number, device: PairedDevice): Promise<void> {
    const body = await readJson(request);
    if (!body) return this.sendJson(response, 400, { errors: { '': 'The answer is not JSON' } });
    const outcome = await this.options.questions.answer(id, body, device);
    if (outcome === 'gone') return this.sendJson(response, 404, { gone: true });
    if (!outcome.ok) return this.sendJson(response, 422, { errors: outcome.errors });
    this.sendJson(response, 200, { ok: true });
  }

  private openStream(response: http.ServerResponse, device: PairedDevice, token: string): void {
    // no-transform: a forwarding proxy that compresses (code-server's does) would otherwise hold events back in its buffer.
    response.writeHead(200, {
      ...COMMON_HEADERS,
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    response.flushHeaders();
    const stream: EventStream = { response, deviceId: device.id, token };
    this.streams.add(stream);
    response.on('close', () => this.streams.delete(stream));
    writeEvent(response, this.views());
  }

  private pushQuestions(): void {
    if (this.streams.size === 0) return;
    const questions = this.views();
    for (const stream of this.streams) writeEvent(stream.response, questions);
  }

  private dropUnpaired(): void {
    for (const stream of this.streams) {
      if (this.options.devices.verify(stream.token)?.id !== stream.deviceId) {
        this.streams.delete(stream);
        stream.response.end();
      }
    }
  }

  private refuse(response: http.ServerResponse, why: string, cookie?: string): void {
    this.options.log?.(`[elicit] device server refused a request (${why})`);
    if (response.headersSent) return void response.end();
    const headers: http.OutgoingHttpHeaders = { ...COMMON_HEADERS, 'content-type': 'application/json' };
    if (cookie) headers['set-cookie'] = cookie;
    response.writeHead(403, headers);
    response.end(REFUSED_BODY);
  }

  private sendJson(response: http.ServerResponse, status: number, value: unknown, cookies?: string | string[]): void {
    const headers: http.OutgoingHttpHeaders = { ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8' };
    if (cookies) headers['set-cookie'] = cookies;
    response.writeHead(status, headers);
    response.end(JSON.stringify(value));
  }
}

function writeEvent(response: http.ServerResponse, questions: unknown): void {
  response.write(`event: questions\ndata: ${JSON.stringify({ questions })}\n\n`);
}

/** The body as a JSON object: JSON content type only (a form posted from another page cannot send it), at most MAX_BODY. */
async function readJson(request: http.IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    request.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
