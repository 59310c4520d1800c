#!/usr/bin/env node
// The benchmark's MCP 2026-07-28 server (official v2 SDK, stdio). Tools:
//   round_once   one round of four questions, then a result;
//   round_chain  $BENCH_CHAIN rounds of four questions, one after another (the state counts them).
// Each time it returns a round it appends { tool, sentAt: Date.now() } to $RECORD_FILE, so the
// browser's clock can time when the round's form became usable.
import { appendFileSync } from 'node:fs';
import { Server, inputRequired } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const chain = Number(process.env.BENCH_CHAIN ?? 7);
const field = (message, name, schema) =>
  inputRequired.elicit({ message, requestedSchema: { type: 'object', properties: { [name]: schema }, required: [name] } });
const round = () => ({
  name: field('What is the song called?', 'name', { type: 'string', title: 'Song name' }),
  key: field('Which key?', 'key', { type: 'string', title: 'Key', enum: ['C', 'Am', 'F'] }),
  bpm: field('How fast?', 'bpm', { type: 'integer', title: 'BPM', minimum: 60, maximum: 180 }),
  loop: field('Loop it?', 'loop', { type: 'boolean', title: 'Loop' }),
});

function sendRound(tool, requestState) {
  appendFileSync(process.env.RECORD_FILE, JSON.stringify({ tool, sentAt: Date.now() }) + '\n');
  return inputRequired({ inputRequests: round(), ...(requestState !== undefined ? { requestState } : {}) });
}

serveStdio(() => {
  const server = new Server({ name: 'round-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [
      { name: 'round_once', description: 'One round of four questions.', inputSchema: { type: 'object', properties: {} } },
      { name: 'round_chain', description: `${chain} rounds of four questions.`, inputSchema: { type: 'object', properties: {} } },
    ],
  }));
  server.setRequestHandler('tools/call', (request, ctx) => {
    const tool = request.params.name;
    const answered = ctx.mcpReq.inputResponses !== undefined;
    if (tool === 'round_once') return answered ? { content: [{ type: 'text', text: 'done' }] } : sendRound(tool);
    const done = Number(ctx.mcpReq.requestState() ?? 0) + (answered ? 1 : 0);
    if (done >= chain) return { content: [{ type: 'text', text: `${done} rounds` }] };
    return sendRound(tool, String(done));
  });
  return server;
});
