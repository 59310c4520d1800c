#!/usr/bin/env node
// A soak asker (issue #37): an MCP server written with the official v2 server package that speaks
// 2025-11-25 over stdio and asks the client on its own, at random moments, as a busy server does,
// for as long as it runs. Each question carries a token ("<name>-<pid>-<n>") in its message and
// wants it back in its `token` field, so an answer that reaches the wrong asker shows.
//
//   node soak-server.mjs --name s03      (the name is an argument, so the harness can find the process)
//
// Environment:
//   SOAK_LOG        JSON lines: {event: 'asked'|'fate'|'fault', asker, question, fate, content, at}
//   SOAK_MEAN_MS    mean time between two questions (exponential), 1500
//   SOAK_OPEN       at most this many of its questions open at once, 2
//   SOAK_WITHDRAW   the chance that the server gives up a question it asked (cancels it), 0.08
//   SOAK_STOP       a file: once it exists, no new question is asked
import { appendFileSync, existsSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/server';
import { serveLegacyStdio } from '../fixtures/serveLegacyStdio.mjs';

const name = process.argv[process.argv.indexOf('--name') + 1] ?? 'soak';
const meanMs = Number(process.env.SOAK_MEAN_MS ?? 1500);
const maxOpen = Number(process.env.SOAK_OPEN ?? 2);
const withdrawChance = Number(process.env.SOAK_WITHDRAW ?? 0.08);

function log(entry) {
  appendFileSync(process.env.SOAK_LOG, JSON.stringify({ asker: name, at: Date.now(), ...entry }) + '\n');
}

const schema = {
  type: 'object',
  properties: {
    token: { type: 'string', title: 'Token', description: 'Copy the token from the question' },
    pick: { type: 'string', title: 'Pick', enum: ['a', 'b', 'c'] },
    n: { type: 'integer', title: 'Number', minimum: 1, maximum: 9 },
  },
  required: ['token', 'pick', 'n'],
};

const server = new Server({ name, version: '1.0.0' }, { capabilities: {} });
let asked = 0;
let open = 0;

async function ask() {
  const question = `${name}-${process.pid}-${++asked}`;
  const giveUp = new AbortController();
  const withdraws = Math.random() < withdrawChance;
  const timer = withdraws ? setTimeout(() => giveUp.abort(new Error('the asker gave up')), 500 + Math.random() * 2500) : undefined;
  open++;
  log({ event: 'asked', question });
  try {
    const result = await server.elicitInput(
      { message: `Soak question from ${name}: soak token ${question}`, requestedSchema: schema },
      { signal: giveUp.signal, timeout: 3_600_000 },
    );
    const fate = result.action === 'accept' ? 'answered' : result.action === 'decline' ? 'declined' : 'cancelled';
    log({ event: 'fate', question, fate, ...(result.content ? { content: result.content } : {}) });
  } catch (error) {
    if (giveUp.signal.aborted) {
      log({ event: 'fault', kind: 'asker cancels' });
      log({ event: 'fate', question, fate: 'withdrawn' });
    } else {
      log({ event: 'fate', question, fate: 'error', message: String(error?.message ?? error).slice(0, 200) });
    }
  } finally {
    clearTimeout(timer);
    open--;
  }
}

/** Asks at random moments (exponential gaps), keeping at most SOAK_OPEN open, until SOAK_STOP exists. */
async function askForever() {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, -Math.log(1 - Math.random()) * meanMs));
    if (process.env.SOAK_STOP && existsSync(process.env.SOAK_STOP)) return;
    if (open < maxOpen) void ask();
  }
}

server.oninitialized = () => void askForever();
await serveLegacyStdio(server, () => undefined);
