/**
 * Who holds the gateway's port when Elicit cannot bind it (issue #33, finding 3).
 * CLI agents keep the address they were given; if another program took the port
 * while VS Code was closed (another user of a shared machine, say), they would send
 * it their bearer token. So before Elicit lets clients keep that address, the holder
 * must prove it is an Elicit gateway with the same token, without the token being
 * sent: it answers a fresh challenge with an HMAC of the challenge and the port it
 * listens on, keyed by the token (a holder relaying the challenge to a gateway on
 * another port gets a proof for the wrong port). No vscode import.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';

/** Where a gateway answers the challenge (no token needed: the answer proves it has it). */
export const PROOF_PATH = '/elicit-proof';
const PROBE_TIMEOUT_MS = 2_000;

/** The answer to `nonce` from a gateway with `token` listening on `port`. */
export function gatewayProof(token: string, port: number, nonce: string): string {
  return createHmac('sha256', token).update(`elicit-gateway-proof\n${port}\n${nonce}`).digest('hex');
}

/** A challenge's shape: 32 random bytes in hex. Anything else is refused unanswered. */
export function isNonce(value: string | null): value is string {
  return value !== null && /^[0-9a-f]{64}$/.test(value);
}

/**
 * 'elicit': an Elicit gateway with this token holds the port (another window of
 * this person); 'other': something else does (or does not answer in time); 'free':
 * nothing listens there now.
 */
export async function portHolder(port: number, token: string): Promise<'elicit' | 'other' | 'free'> {
  const nonce = randomBytes(32).toString('hex');
  const answer = await new Promise<{ status: number; body: string } | 'refused' | 'failed'>((resolve) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: `${PROOF_PATH}?nonce=${nonce}`, timeout: PROBE_TIMEOUT_MS, headers: { host: `127.0.0.1:${port}` } },
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
  const expected = Buffer.from(gatewayProof(token, port, nonce), 'hex');
  const given = typeof proof === 'string' && /^[0-9a-f]{64}$/.test(proof) ? Buffer.from(proof, 'hex') : undefined;
  return given && timingSafeEqual(given, expected) ? 'elicit' : 'other';
}
