/**
 * Who holds a port Elicit cannot bind (issue #33, findings 3 and 6): the gateway's,
 * which CLI agents keep in their configuration, or the paired devices', which a
 * phone keeps as a bookmark. If another program took it while VS Code was closed
 * (another user of a shared machine, say), they would send it their token or
 * cookie. So before Elicit lets clients keep that address, the holder must prove it
 * is Elicit with the same key, without the key being sent: it answers a fresh
 * challenge with an HMAC of the challenge and the port it listens on, keyed by the
 * shared key (the gateway's token; the devices' proof key), so a holder relaying
 * the challenge to an Elicit server on another port gets a proof for the wrong port.
 * No vscode import.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';

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
 * 'elicit': an Elicit server with this key holds the port (another window of this
 * person); 'other': something else does (or does not answer in time); 'free':
 * nothing listens there now. `tls`: the holder speaks HTTPS (its certificate is not
 * checked: the proof is what counts).
 */
export async function portHolder(
  port: number,
  key: string,
  where: { address?: string; tls?: boolean } = {},
): Promise<'elicit' | 'other' | 'free'> {
  const nonce = randomBytes(32).toString('hex');
  const address = where.address ?? '127.0.0.1';
  const hostHeader = `${address.includes(':') ? `[${address}]` : address}:${port}`;
  const get = where.tls ? https.get : http.get;
  const answer = await new Promise<{ status: number; body: string } | 'refused' | 'failed'>((resolve) => {
    const request = get(
      {
        host: address,
        port,
        path: `${PROOF_PATH}/${nonce}`,
        timeout: PROBE_TIMEOUT_MS,
        headers: { host: hostHeader },
        ...(where.tls ? { rejectUnauthorized: false } : {}),
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
          if (body.length > 4_096) response.destroy();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', () => resolve('failed'));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? 'refused' : 'failed'));
  });
  if (answer === 'refused') return 'free';
  if (answer === 'failed' || answer.status !== 200) return 'other';
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
