/**
 * Who holds a port Elicit cannot bind: the gateway's,
 * which CLI agents keep in their configuration, or the paired devices', which a
 * phone keeps as a bookmark. If another program took it while VS Code was closed
 * (another user of a shared machine, say), they would send it their token or
 * cookie. So before Elicit lets clients keep that address, the holder must prove it
 * is Elicit with the same key, without the key being sent: it answers a fresh
 * challenge with an HMAC of the challenge and the port it listens on, keyed by the
 * shared key (the gateway's token; the devices' proof key), so a holder relaying
 * the challenge to an Elicit server on another port gets a proof for the wrong port.
 * On loopback both addresses are held and checked: a client that
 * resolves "localhost" may try ::1 first, so a program there would shadow 127.0.0.1.
 * No vscode import.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';

/** Where an Elicit server answers the challenge, `/elicit-proof/<nonce>` (no key needed: the answer proves it has it). */
export const PROOF_PATH = '/elicit-proof';
const PROBE_TIMEOUT_MS = 2_000;

/** The answer to `nonce` from an Elicit server with `key` listening on `port`. */
export function holderProof(key: string, port: number, nonce: string): string {
  return createHmac('sha256', key).update(`elicit-port-proof\n${port}\n${nonce}`).digest('hex');
}

/** 32 bytes in lowercase hex: the shape of a challenge, a proof and a proof key. Anything else is refused. */
export function isHex32(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

/**
 * Who answered a challenge: 'elicit', an Elicit server with this key (another window of this
 * person); 'other', something that answered and is not; 'silent', something that took the
 * connection and sent no answer in time (a busy Elicit window may, once; a squatter may, always);
 * 'free', nothing listens there now.
 */
export type HolderAnswer = 'elicit' | 'other' | 'silent' | 'free';

/**
 * Errors that say the address does not exist on this machine (no IPv6 loopback, say): nothing can
 * listen there, so nothing can shadow the port there.
 */
const NO_SUCH_ADDRESS = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT', 'ENETUNREACH', 'EHOSTUNREACH']);

/** The other loopback address at the same port, which a client resolving "localhost" may try first; none for other addresses. */
export function loopbackTwin(address: string): string | undefined {
  if (address === '127.0.0.1') return '::1';
  if (address === '::1') return '127.0.0.1';
  return undefined;
}

/**
 * 'elicit': an Elicit server with this key holds the port (another window of this
 * person); 'other': something else does (or does not answer in time); 'free':
 * nothing listens there now. `tls`: the holder speaks HTTPS (its certificate is not
 * checked: the proof is what counts). On loopback both addresses are checked.
 */
export async function portHolder(
  port: number,
  key: string,
  where: { address?: string; tls?: boolean } = {},
): Promise<'elicit' | 'other' | 'free'> {
  const answer = await holderAnswer(port, key, where);
  return answer === 'silent' ? 'other' : answer;
}

/**
 * As portHolder, telling a holder that answered wrong from one that did not answer. Each loopback
 * address is asked: a stranger on either is a stranger ('other' over 'silent' over 'elicit' over 'free').
 */
export async function holderAnswer(port: number, key: string, where: { address?: string; tls?: boolean } = {}): Promise<HolderAnswer> {
  const address = where.address ?? '127.0.0.1';
  const twin = loopbackTwin(address);
  const answers = await Promise.all([address, ...(twin ? [twin] : [])].map((at) => askAt(port, key, at, where.tls === true)));
  const worst: HolderAnswer[] = ['other', 'silent', 'elicit', 'free'];
  return worst.find((answer) => answers.includes(answer))!;
}

async function askAt(port: number, key: string, address: string, tls: boolean): Promise<HolderAnswer> {
  const nonce = randomBytes(32).toString('hex');
  const hostHeader = `${address.includes(':') ? `[${address}]` : address}:${port}`;
  const get = tls ? https.get : http.get;
  const answer = await new Promise<{ status: number; body: string } | 'free' | 'silent' | 'other'>((resolve) => {
    let answered = false;
    // The whole look, not only each wait for a byte: a holder that trickles its answer must not hold a watch for ever.
    const deadline = setTimeout(() => request.destroy(new Error('timeout')), PROBE_TIMEOUT_MS);
    const settle = (outcome: { status: number; body: string } | 'free' | 'silent' | 'other'): void => {
      clearTimeout(deadline);
      resolve(outcome);
    };
    const request = get(
      {
        host: address,
        port,
        path: `${PROOF_PATH}/${nonce}`,
        timeout: PROBE_TIMEOUT_MS,
        headers: { host: hostHeader },
        // A connection of its own: one kept alive from an earlier look may reach a holder that no longer listens.
        agent: false,
        ...(tls ? { rejectUnauthorized: false } : {}),
      },
      (response) => {
        answered = true;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
          if (body.length > 4_096) response.destroy();
        });
        response.on('end', () => settle({ status: response.statusCode ?? 0, body }));
        // Cut off (too long, broken off, past the deadline): it answered, and not as Elicit. After 'end' this changes nothing.
        response.on('close', () => settle('other'));
        response.on('error', () => settle('other'));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || NO_SUCH_ADDRESS.has(error.code ?? '')) settle('free');
      // Took the connection and gave no answer (timeout, reset, hang up); one that began an answer and broke off is a stranger.
      else settle(answered ? 'other' : 'silent');
    });
  });
  if (typeof answer === 'string') return answer;
  if (answer.status !== 200) return 'other';
  let proof: unknown;
  try {
    proof = (JSON.parse(answer.body) as { proof?: unknown }).proof;
  } catch {
    return 'other';
  }
  const expected = Buffer.from(holderProof(key, port, nonce), 'hex');
  const given = isHex32(proof) ? Buffer.from(proof, 'hex') : undefined;
  return given && timingSafeEqual(given, expected) ? 'elicit' : 'other';
}

/** What listenOnLoopback holds beside the server: closed with it. */
export interface LoopbackTwin {
  close(): Promise<void>;
}

const NOTHING_HELD: LoopbackTwin = { close: async () => undefined };
/** Tries of a free port (port 0) whose twin address another program happens to hold. */
const FREE_PORT_TRIES = 5;

/**
 * Listens on `address`, and on loopback holds the other loopback address at the same port too,
 * handing its connections to `server`: a program on [::1]:P would
 * otherwise get every client that resolves "localhost" to ::1 first (a forwarding proxy, a CLI
 * agent), with its token or cookie, while Elicit serves 127.0.0.1:P. A machine without the twin
 * address (no IPv6) has nothing there to shadow. A twin held by another program fails as the
 * address itself would (EADDRINUSE, so the caller asks who holds it); for port 0 another port is tried.
 */
export async function listenOnLoopback(
  server: net.Server,
  port: number,
  address: string,
  twin = loopbackTwin(address),
): Promise<LoopbackTwin> {
  for (let tries = 1; ; tries++) {
    await listen(server, port, address);
    if (!twin) return NOTHING_HELD;
    // As node's HTTP server sets its own connections (the SSE events go out at once).
    const held = net.createServer({ noDelay: true }, (socket) => server.emit('connection', socket));
    try {
      await listen(held, (server.address() as net.AddressInfo).port, twin);
    } catch (error) {
      if (NO_SUCH_ADDRESS.has((error as NodeJS.ErrnoException).code ?? '')) return NOTHING_HELD;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port !== 0 || tries === FREE_PORT_TRIES) throw error;
      continue;
    }
    // An accept error (too many open files) must not end the extension host.
    held.on('error', () => undefined);
    return { close: () => new Promise<void>((resolve) => held.close(() => resolve())) };
  }
}

function listen(server: net.Server, port: number, address: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
