/**
 * HTTP over a local socket, for VS Code's `unix:///path/server.sock` and
 * (Windows) `pipe:///name` server URLs, with the HTTP path in the fragment
 * (`unix:///tmp/mcp.sock#/mcp`). The SDK's HTTP transports take a `fetch`:
 * this one sends each request through the socket with node:http and hands the
 * response body back as a stream, so server-sent events flow as they come.
 */
import * as http from 'node:http';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/client';

export interface SocketEndpoint {
  /** The socket's path (a Windows named pipe as `\\.\pipe\name`). */
  socketPath: string;
  /** The URL the transport is given: `http://localhost` and the fragment's path. */
  url: string;
}

/** The socket and the HTTP URL of a `unix:` or `pipe:` server URL; undefined for any other URL. */
export function socketEndpoint(serverUrl: string): SocketEndpoint | undefined {
  let parsed: URL;
  try {
    parsed = new URL(serverUrl);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'unix:' && parsed.protocol !== 'pipe:') return undefined;
  const where = decodeURIComponent(parsed.pathname);
  const socketPath = parsed.protocol === 'pipe:' ? `\\\\.${where.replace(/\//g, '\\')}` : where;
  const httpPath = parsed.hash.startsWith('#/') ? parsed.hash.slice(1) : '/';
  return { socketPath, url: `http://localhost${httpPath}` };
}

/** A fetch that sends every request through `socketPath`, whatever host the URL names. */
export function socketFetch(socketPath: string): FetchLike {
  return async (url, init = {}) => {
    const target = new URL(String(url));
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = await requestBody(init.body);
    return new Promise<Response>((resolve, reject) => {
      const request = http.request(
        {
          socketPath,
          path: `${target.pathname}${target.search}`,
          method: init.method ?? 'GET',
          headers: { host: 'localhost', ...headers },
        },
        (response) => {
          response.once('close', () => init.signal?.removeEventListener('abort', abort));
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (Array.isArray(value)) for (const one of value) responseHeaders.append(name, one);
            else if (value !== undefined) responseHeaders.set(name, value);
          }
          const status = response.statusCode ?? 502;
          // A response to HEAD, and 204/304, has no body; the Response constructor refuses one.
          const empty = init.method === 'HEAD' || status === 204 || status === 304;
          if (empty) response.resume();
          const stream = empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
          resolve(new Response(stream, { status, statusText: response.statusMessage ?? '', headers: responseHeaders }));
        },
      );
      const abort = (): void => {
        request.destroy(new DOMException('The operation was aborted.', 'AbortError'));
      };
      if (init.signal?.aborted) return abort();
      init.signal?.addEventListener('abort', abort, { once: true });
      request.once('error', (error) => {
        init.signal?.removeEventListener('abort', abort);
        reject(error);
      });
      request.end(body);
    });
  };
}

async function requestBody(body: RequestInit['body']): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  // URLSearchParams, Blob, streams: what the Request constructor makes of them.
  return Buffer.from(await new Response(body).arrayBuffer());
}
