/**
 * node:http ↔ the web-standard Request/Response the v2 MCP server package
 * serves: the gateway keeps its own node server (loopback, its own checks) and
 * hands each request over as a `Request` whose signal aborts when the client
 * goes away, then streams the `Response` back (SSE included).
 */
import type * as http from 'node:http';

export function toWebRequest(req: http.IncomingMessage, body: string | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  }
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const method = req.method ?? 'GET';
  return new Request(url, { method, headers, signal, ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}) });
}

/** Writes the response, streaming its body; stops reading when the client is gone. */
export async function sendWebResponse(response: Response, res: http.ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = (): void => void reader.cancel().catch(() => undefined);
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  } catch {
    // The client went away or the stream was cancelled: nothing left to send.
  } finally {
    res.off('close', stop);
    res.end();
  }
}
