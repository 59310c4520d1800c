import { createServer } from 'node:net';
import { listenOnLoopback } from '../process/portHolder';

/**
 * A port free on loopback now, on both loopback addresses (for a forwarded address, which must be
 * known before the server starts, and which the server then holds on both: portHolder.ts).
 */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  const twin = await listenOnLoopback(probe, 0, '127.0.0.1');
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await twin.close();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
