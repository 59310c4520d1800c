/**
 * The person's language on every request to a server (draft SEP-2792):
 * `params._meta["io.modelcontextprotocol/acceptLanguage"]`, stamped on each
 * outgoing request as the transport sends it (so the SDK's own requests, the
 * version probe and `initialize` included, carry it too), and the same bytes as
 * the `Accept-Language` header over HTTP (httpHeaders).
 */
import type { Transport } from '@modelcontextprotocol/client';
import { ACCEPT_LANGUAGE_META } from '../core/language';

export function stampAcceptLanguage(transport: Transport, value: string): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!('method' in message) || !('id' in message)) return send(message, options);
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = typeof params._meta === 'object' && params._meta !== null ? (params._meta as Record<string, unknown>) : {};
    return send({ ...message, params: { ...params, _meta: { ...meta, [ACCEPT_LANGUAGE_META]: value } } }, options);
  };
}

/**
 * The HTTP headers with Accept-Language, and the value to stamp: a header the
 * configuration sets itself wins, in the header and in `_meta` alike, so the two
 * are always byte for byte the same (a server may refuse a mismatch).
 */
export function withAcceptLanguage(
  headers: Record<string, string> | undefined,
  value: string | undefined,
): { headers: Record<string, string> | undefined; value: string | undefined } {
  const configured = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'accept-language')?.[1];
  if (configured !== undefined) return { headers, value: configured };
  if (value === undefined) return { headers, value };
  return { headers: { ...headers, 'Accept-Language': value }, value };
}
