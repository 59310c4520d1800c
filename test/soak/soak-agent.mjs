#!/usr/bin/env node
// The soak's CLI agent (issue #37): what an agent in a terminal does through the Elicit gateway,
// with the official v2 client package. It calls the 2026-07-28 soak servers' tools as the gateway
// forwards them ("<server>__soak_round", "<server>__soak_task") at random moments, each call with an
// id of its own; Elicit answers the server's round, or the task's question, by asking the person. A
// call that ends in an error is logged ("call failed"), the question's end as the agent saw it; the
// next call connects again.
//
// Environment: GATEWAY_URL, GATEWAY_TOKEN, SOAK_TOOLS (the gateway's tool names, comma-separated),
// SOAK_LOG, SOAK_STOP, SOAK_MEAN_MS (per tool, 1500), SOAK_OPEN (calls open per tool, 2).
import { appendFileSync, existsSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const tools = (process.env.SOAK_TOOLS ?? '').split(',').filter(Boolean);
const meanMs = Number(process.env.SOAK_MEAN_MS ?? 1500);
const maxOpen = Number(process.env.SOAK_OPEN ?? 2);
const log = (entry) => appendFileSync(process.env.SOAK_LOG, JSON.stringify({ at: Date.now(), ...entry }) + '\n');
const stopped = () => existsSync(process.env.SOAK_STOP);

/** The gateway connection; made again after it failed (a Reload Window restarts the gateway). */
let client;
let connecting;
function connected() {
  if (client) return Promise.resolve(client);
  connecting ??= (async () => {
    for (;;) {
      const next = new Client({ name: 'soak-agent', version: '1.0.0' }, { capabilities: {} });
      try {
        await next.connect(
          new StreamableHTTPClientTransport(new URL(process.env.GATEWAY_URL), {
            requestInit: { headers: { Authorization: `Bearer ${process.env.GATEWAY_TOKEN}` } },
          }),
        );
        process.stderr.write(`soak agent connected, MCP ${next.getNegotiatedProtocolVersion?.() ?? '?'}\n`);
        client = next;
        return next;
      } catch (error) {
        process.stderr.write(`soak agent could not connect: ${error?.message ?? error}\n`);
        await next.close().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  })().finally(() => (connecting = undefined));
  return connecting;
}
await connected();

let calls = 0;
const open = new Map(tools.map((tool) => [tool, 0]));
const running = new Set();

async function call(tool) {
  const id = `c${++calls}`;
  const server = tool.slice(0, tool.indexOf('__'));
  open.set(tool, open.get(tool) + 1);
  const through = await connected();
  try {
    const result = await through.callTool({ name: tool, arguments: { call: id } }, { timeout: 3_600_000 });
    if (result.isError) {
      const message = JSON.stringify(result.content);
      log({ event: 'call failed', question: `${server}-${id}`, message: message.slice(0, 200) });
      // The window closed or reloaded (the gateway says so before it goes): its session went with it.
      if (/window closed or reloaded/.test(message) && client === through) {
        client = undefined;
        void through.close().catch(() => undefined);
      }
    }
  } catch (error) {
    log({ event: 'call failed', question: `${server}-${id}`, message: String(error?.message ?? error).slice(0, 200) });
    // A JSON-RPC error (a numeric code) came through a working connection; anything else means the
    // connection failed with it (the gateway went away): the next call connects again.
    if (typeof error?.code !== 'number' && client === through) {
      client = undefined;
      void through.close().catch(() => undefined);
    }
  } finally {
    open.set(tool, open.get(tool) - 1);
  }
}

async function callForever(tool) {
  while (!stopped()) {
    await new Promise((resolve) => setTimeout(resolve, -Math.log(1 - Math.random()) * meanMs));
    if (stopped()) break;
    if (open.get(tool) < maxOpen) {
      const done = call(tool);
      running.add(done);
      void done.finally(() => running.delete(done));
    }
  }
}

await Promise.all(tools.map(callForever));
// The stop: the calls still open end as the person answers them.
while (running.size > 0) await Promise.race(running);
await client?.close();
