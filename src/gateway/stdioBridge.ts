/**
 * The stdio bridge shipped in the VSIX (dist/mcp-bridge.js): for an agent that takes MCP
 * servers only as commands (no `mcpCapabilities.http`), Elicit's entry for each of the
 * person's servers runs this script, which relays MCP between the agent (newline-delimited
 * JSON-RPC on stdin/stdout) and that server's endpoint in Elicit (agentEndpoints.ts,
 * Streamable HTTP on 127.0.0.1). It knows only the endpoint's URL and the session's token
 * (ELICIT_MCP_URL, ELICIT_MCP_TOKEN), never anything of the server itself.
 *
 * Each message is POSTed as it comes (requests run side by side); the answer, JSON or a
 * server-sent event stream, is written back line by line. A refused request is answered
 * with a JSON-RPC error, so the agent never waits for an answer that cannot come. Node
 * built-ins only: it runs as a plain script.
 */
import * as readline from 'node:readline';

const url = process.env.ELICIT_MCP_URL ?? '';
const token = process.env.ELICIT_MCP_TOKEN ?? '';
let sessionId: string | undefined;
let protocolVersion: string | undefined;
const inFlight = new Set<Promise<void>>();

function write(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function fail(id: unknown, message: string): void {
  if (id !== undefined && id !== null) write({ jsonrpc: '2.0', id, error: { code: -32603, message } });
}

function headers(): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}),
  };
}

/** One message from Elicit to the agent; the answer to `initialize` names the revision later requests say. */
function deliver(message: unknown, answersInitialize: boolean): void {
  const version = (message as { result?: { protocolVersion?: unknown } } | null)?.result?.protocolVersion;
  if (answersInitialize && typeof version === 'string') protocolVersion = version;
  write(message);
}

/** The data lines of a server-sent event stream, one JSON-RPC message per event. */
async function relayEvents(body: ReadableStream<Uint8Array>, answersInitialize: boolean): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const flush = (): void => {
    const text = data.join('');
    data = [];
    if (text === '') return;
    try {
      deliver(JSON.parse(text), answersInitialize);
    } catch {
      // Not JSON-RPC (a comment or a keep-alive): nothing for the agent.
    }
  };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') flush();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
  }
  flush();
}

async function relay(line: string): Promise<void> {
  let message: { id?: unknown; method?: unknown };
  try {
    message = JSON.parse(line) as typeof message;
  } catch {
    write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    return;
  }
  try {
    const response = await fetch(url, { method: 'POST', headers: headers(), body: line });
    const session = response.headers.get('mcp-session-id');
    if (session) sessionId = session;
    if (!response.ok) {
      fail(message.id, `Elicit refused the request (HTTP ${response.status}): ${(await response.text()).slice(0, 500)}`);
      return;
    }
    const type = response.headers.get('content-type') ?? '';
    const answersInitialize = message.method === 'initialize';
    if (type.includes('text/event-stream') && response.body) await relayEvents(response.body, answersInitialize);
    else if (type.includes('application/json')) {
      const answer = (await response.json()) as unknown;
      for (const each of Array.isArray(answer) ? answer : [answer]) deliver(each, answersInitialize);
    } else await response.body?.cancel();
  } catch (error) {
    fail(message.id, `Elicit could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function end(): Promise<void> {
  await Promise.allSettled([...inFlight]);
  // The session is ended at Elicit too, so nothing of it waits there.
  if (sessionId) await fetch(url, { method: 'DELETE', headers: headers() }).catch(() => undefined);
  process.exit(0);
}

if (!url || !token) {
  process.stderr.write('elicit mcp bridge: ELICIT_MCP_URL and ELICIT_MCP_TOKEN must be set\n');
  process.exit(2);
}
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  const relayed = relay(line);
  inFlight.add(relayed);
  void relayed.finally(() => inFlight.delete(relayed));
});
lines.on('close', () => void end());
