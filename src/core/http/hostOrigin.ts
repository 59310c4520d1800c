/**
 * The one Host and Origin check of Elicit's two listeners, the gateway (loopback,
 * plain HTTP) and the device server (HTTPS on the LAN): a web page in the person's
 * own browser can reach either, and DNS rebinding can make it look same-origin.
 *
 * - The Host header must name the server exactly (an allowlist), which rebinding
 *   cannot fake. A repeated Host is refused: node keeps the first and drops the
 *   rest, so the servers pass `headersDistinct`, where a repeat is seen.
 * - An Origin, when sent, must be the server's own (or one it is also served from).
 *
 * Pure: the servers pass in their headers.
 */

export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface HostAllowlist {
  /** "host:port" pairs, lower case, as the Host header must say them. */
  hosts: readonly string[];
  /** The scheme the server speaks: its own origin is `${scheme}://${host}`. */
  scheme: 'https' | 'http';
  /**
   * Origins the server is also reached from: a forwarded address (code-server,
   * Codespaces) whose proxy may send its own Host. Exact "https://name[:port]".
   */
  origins?: readonly string[];
}

/** A header's one value; none when it is missing or repeated. */
export function singleHeader(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  if (typeof value === 'string') return value;
  return value?.length === 1 ? value[0] : undefined;
}

/** The host names (with port) a server listening at `addresses` on `port` answers to. */
export function allowedHosts(addresses: readonly string[], port: number): string[] {
  return addresses.map((address) => `${address.includes(':') ? `[${address}]` : address}:${port}`.toLowerCase());
}

/** Undefined when Host and Origin are the server's own; otherwise which one is not. */
export function refuseHostOrOrigin(headers: RequestHeaders, allow: HostAllowlist): 'host' | 'origin' | undefined {
  const host = singleHeader(headers, 'host')?.toLowerCase();
  if (host === undefined || !allow.hosts.includes(host)) return 'host';
  if (headers.origin === undefined) return undefined;
  const origin = singleHeader(headers, 'origin');
  if (origin === undefined) return 'origin';
  return origin === `${allow.scheme}://${host}` || (allow.origins ?? []).includes(origin) ? undefined : 'origin';
}
