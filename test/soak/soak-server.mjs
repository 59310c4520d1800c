#!/usr/bin/env node
// A soak asker (issue #37): an MCP server written with the official v2 server package that speaks
// 2025-11-25 and asks the client on its own, at random moments, as a busy server does, for as long
// as it runs. Each question carries a token ("<name>-<pid>-<n>") in its message and wants it back
// in its `token` field, so an answer that reaches the wrong asker shows.
//
//   node soak-server.mjs --name s03           stdio (the name is an argument, so the harness can find the process)
//   node soak-server.mjs --name h03 --http    Streamable HTTP on $PORT: a session per client, each
//                                             asking on its own GET stream, which a client can resume
//                                             after a dropped connection (events kept, Last-Event-ID)
//   node soak-server.mjs --name m03 --modern [--http]
//                                             2026-07-28 only, stdio or Streamable HTTP: asks nothing
//                                             on its own; its tool `soak_round` asks one question in a
//                                             round (input_required) each time an agent calls it, the
//                                             token made from the caller's `call` id (the caller logs a
//                                             call that failed: the round's fate as its asker saw it)
//   node soak-server.mjs --name t03 --tasks [--http]
//                                             2026-07-28 only, stdio or Streamable HTTP, with MCP's tasks
//                                             extension: its tool `soak_task` runs as a task that asks one
//                                             question (input_required, answered with tasks/update) each
//                                             time an agent calls it, the token made from the call's id;
//                                             a task the client cancels (tasks/cancel) is that question's
//                                             fate 'error', one the server gives up on is 'withdrawn'
//   node soak-server.mjs --name r01 --recurring
//                                             2025-11-25 over stdio, asking the same question each time
//                                             (no token: an answer remembered "always" answers it), one
//                                             at a time and five times less often (Elicit answers at most
//                                             ten a minute per asker from memory)
//
// Environment:
//   SOAK_LOG        JSON lines: {event: 'asked'|'fate'|'fault', asker, question, fate, content, at}
//   SOAK_MEAN_MS    mean time between two questions (exponential), 1500
//   SOAK_OPEN       at most this many of its questions open at once (per session), 2
//   SOAK_WITHDRAW   the chance that the server gives up a question it asked (cancels it), 0.08
//   SOAK_STOP       a file: once it exists, no new question is asked
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import * as http from 'node:http';
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  Server,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  inputRequired,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { serveLegacyStdio } from '../fixtures/serveLegacyStdio.mjs';
import { serveHttp as serveModernHttp } from '../fixtures/serveHttp.mjs';

const name = process.argv[process.argv.indexOf('--name') + 1] ?? 'soak';
const recurring = process.argv.includes('--recurring');
const meanMs = Number(process.env.SOAK_MEAN_MS ?? 1500) * (recurring ? 5 : 1);
const maxOpen = recurring ? 1 : Number(process.env.SOAK_OPEN ?? 2);
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

/** The recurring question's: the same each time. */
const recurringSchema = {
  type: 'object',
  properties: { colour: { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] } },
  required: ['colour'],
};

let asked = 0;

/** One question to the client behind `server`, logged from asking to its fate. */
async function ask(server, session) {
  const question = `${name}-${process.pid}-${++asked}`;
  const giveUp = new AbortController();
  const withdraws = Math.random() < withdrawChance;
  const timer = withdraws ? setTimeout(() => giveUp.abort(new Error('the asker gave up')), 500 + Math.random() * 2500) : undefined;
  session.open++;
  log({ event: 'asked', question, ...(recurring ? { recurring } : {}) });
  try {
    const asking = recurring
      ? { message: `Soak recurring question from ${name}: which colour?`, requestedSchema: recurringSchema }
      : { message: `Soak question from ${name}: soak token ${question}`, requestedSchema: schema };
    const result = await server.elicitInput(asking, { signal: giveUp.signal, timeout: 3_600_000 });
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
    session.open--;
  }
}

/** Asks at random moments (exponential gaps), keeping at most SOAK_OPEN open, until SOAK_STOP exists or the session ends. */
async function askForever(server, session) {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, -Math.log(1 - Math.random()) * meanMs));
    if (session.closed || (process.env.SOAK_STOP && existsSync(process.env.SOAK_STOP))) return;
    if (session.open < maxOpen) void ask(server, session);
  }
}

/** `listening`: resolves once the client can hear what the server asks on its own. */
function newServer(session = { open: 0, closed: false, listening: Promise.resolve() }) {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: {} });
  server.oninitialized = () => void session.listening.then(() => askForever(server, session));
  server.onclose = () => (session.closed = true);
  return server;
}

/** The events of each GET stream, kept so a client that lost the stream gets what it missed. */
class KeptEvents {
  events = new Map();
  next = 0;
  async storeEvent(streamId, message) {
    const id = `${streamId}_${++this.next}`;
    this.events.set(id, { streamId, message });
    return id;
  }
  async getStreamIdForEventId(eventId) {
    return this.events.get(eventId)?.streamId;
  }
  async replayEventsAfter(lastEventId, { send }) {
    const streamId = this.events.get(lastEventId)?.streamId;
    if (streamId === undefined) return '';
    const after = Number(lastEventId.slice(lastEventId.lastIndexOf('_') + 1));
    for (const [id, event] of this.events) {
      if (event.streamId === streamId && Number(id.slice(id.lastIndexOf('_') + 1)) > after) await send(id, event.message);
    }
    return streamId;
  }
}

/** Streamable HTTP, 2025-11-25 sessions: a server and a transport per client that initializes. */
function serveHttp() {
  const sessions = new Map();
  const httpServer = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    let body;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId !== undefined || req.method !== 'POST' || body?.method !== 'initialize') {
        res.writeHead(sessionId !== undefined ? 404 : 400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, message: sessionId ? 'Unknown session' : 'Initialize first' },
          }),
        );
        return;
      }
      // The SDK's transport drops (keeps only for a resuming client) what the server sends before the
      // client opened its GET stream: a server asks on its own only once the client listens.
      let heard;
      const session = { open: 0, closed: false, listening: new Promise((resolve) => (heard = resolve)) };
      const server = newServer(session);
      transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new KeptEvents(),
        onsessioninitialized: (id) => void sessions.set(id, Object.assign(transport, { heard })),
        onsessionclosed: (id) => void sessions.delete(id),
      });
      await server.connect(transport);
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
    const request = new Request(new URL(req.url ?? '/', `http://${req.headers.host}`), {
      method: req.method,
      headers,
      signal: abort.signal,
      ...(req.method === 'POST' ? { body: text } : {}),
    });
    const response = await transport.handleRequest(request, { parsedBody: body });
    // The GET stream is open once its response is made.
    if (req.method === 'GET' && response.ok) transport.heard?.();
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    // A client gone (a dropped connection) cancels its stream, so the session knows it may open another.
    const reader = response.body.getReader();
    res.once('close', () => void reader.cancel().catch(() => undefined));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // Cancelled: the client went away.
    }
    res.end();
  });
  httpServer.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stderr.write(`${name} listening on port ${httpServer.address().port}\n`);
  });
}

/**
 * 2026-07-28: `soak_round({call})` asks one question as a round. The first leg logs the question
 * and returns input_required; the leg that brings the answer back logs its fate. Stateless, as the
 * revision wants: a restarted process finishes a round an earlier one began.
 */
function newRoundServer() {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [
      {
        name: 'soak_round',
        description: 'Asks the person one question in a round.',
        inputSchema: { type: 'object', properties: { call: { type: 'string' } }, required: ['call'] },
      },
    ],
  }));
  server.setRequestHandler('tools/call', (request, ctx) => {
    const question = `${name}-${String(request.params.arguments?.call ?? 'nocall')}`;
    const answer = ctx.mcpReq.inputResponses?.q;
    if (answer === undefined) {
      log({ event: 'asked', question });
      return inputRequired({
        inputRequests: {
          q: inputRequired.elicit({ message: `Soak round from ${name}: soak token ${question}`, requestedSchema: schema }),
        },
      });
    }
    const fate = answer.action === 'accept' ? 'answered' : answer.action === 'decline' ? 'declined' : 'cancelled';
    log({ event: 'fate', question, fate, ...(answer.content ? { content: answer.content } : {}) });
    return { content: [{ type: 'text', text: `${question}: ${fate}` }] };
  });
  return server;
}

const TASKS = 'io.modelcontextprotocol/tasks';
/** The tasks of this process (module level: the HTTP entry builds a server per request). */
const tasks = new Map();
/** How long an ended task can still be read (tasks/get) before it is forgotten. */
const KEEP_ENDED_MS = 120_000;

/** The task's life: asked after a short stretch of work; answered, declined, cancelled or given up. */
function startTask(call) {
  const now = new Date().toISOString();
  const task = { taskId: randomUUID(), status: 'working', createdAt: now, lastUpdatedAt: now, question: `${name}-${call}` };
  tasks.set(task.taskId, task);
  setTimeout(
    () => {
      if (task.status !== 'working') return;
      setTaskStatus(task, 'input_required');
      log({ event: 'asked', question: task.question, task: true });
      if (Math.random() < withdrawChance) setTimeout(() => giveUp(task), 500 + Math.random() * 2500);
    },
    100 + Math.random() * 500,
  );
  return task;
}

function setTaskStatus(task, status, extra = {}) {
  if (['completed', 'failed', 'cancelled'].includes(task.status)) return;
  Object.assign(task, { status, lastUpdatedAt: new Date().toISOString() }, extra);
  if (['completed', 'failed', 'cancelled'].includes(status)) setTimeout(() => tasks.delete(task.taskId), KEEP_ENDED_MS).unref();
}

function giveUp(task) {
  if (task.status !== 'input_required') return;
  log({ event: 'fault', kind: 'asker cancels' });
  log({ event: 'fate', question: task.question, fate: 'withdrawn' });
  setTaskStatus(task, 'cancelled', { statusMessage: 'the asker gave up' });
}

/** tasks/get's view of a task. */
function taskView(task) {
  const view = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: KEEP_ENDED_MS,
    pollIntervalMs: 300,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
  };
  if (task.status === 'input_required') {
    const q = inputRequired.elicit({ message: `Soak task from ${name}: soak token ${task.question}`, requestedSchema: schema });
    return { ...view, inputRequests: { q } };
  }
  if (task.status === 'completed') return { ...view, result: task.result };
  return view;
}

function newTaskServer() {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {}, extensions: { [TASKS]: {} } } });
  const requireExtension = (ctx) => {
    if (ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS] === undefined) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS]: {} } } },
        'Declare the tasks extension',
      );
    }
  };
  const find = (taskId) => {
    const task = tasks.get(taskId);
    if (!task) throw new ProtocolError(-32602, 'Task not found');
    return task;
  };
  server.setRequestHandler('tools/list', () => ({
    tools: [
      {
        name: 'soak_task',
        description: 'Runs as a task that asks the person one question.',
        inputSchema: { type: 'object', properties: { call: { type: 'string' } }, required: ['call'] },
      },
    ],
  }));
  server.setRequestHandler('tools/call', (request, ctx) => {
    requireExtension(ctx);
    return { resultType: 'task', ...taskView(startTask(String(request.params.arguments?.call ?? 'nocall'))) };
  });
  const byId = { params: z.object({ taskId: z.string() }).passthrough() };
  server.setRequestHandler('tasks/get', byId, (params, ctx) => {
    requireExtension(ctx);
    return taskView(find(params.taskId));
  });
  server.setRequestHandler('tasks/update', byId, (params, ctx) => {
    requireExtension(ctx);
    const task = find(params.taskId);
    const answer = ctx.mcpReq.inputResponses?.q;
    // A key not outstanding is ignored, as the extension says.
    if (answer === undefined || task.status !== 'input_required') return {};
    const fate = answer.action === 'accept' ? 'answered' : answer.action === 'decline' ? 'declined' : 'cancelled';
    log({ event: 'fate', question: task.question, fate, ...(answer.content ? { content: answer.content } : {}) });
    setTaskStatus(task, 'working');
    setTimeout(() => setTaskStatus(task, 'completed', { result: { content: [{ type: 'text', text: `${task.question}: ${fate}` }] } }), 100);
    return {};
  });
  server.setRequestHandler('tasks/cancel', byId, (params, ctx) => {
    requireExtension(ctx);
    const task = find(params.taskId);
    // The client gave up the call (its caller went): the question's fate as this asker hears it.
    if (task.status === 'input_required') {
      log({ event: 'fate', question: task.question, fate: 'error', message: 'the client cancelled the task' });
    }
    setTaskStatus(task, 'cancelled');
    return {};
  });
  return server;
}

const modern = process.argv.includes('--modern');
const withTasks = process.argv.includes('--tasks');
if ((modern || withTasks) && process.argv.includes('--http'))
  serveModernHttp(
    createMcpHandler(() => (withTasks ? newTaskServer() : newRoundServer()), { legacy: 'reject' }),
    { name },
  );
else if (withTasks) serveStdio(() => newTaskServer(), { legacy: 'reject' });
else if (modern) serveStdio(() => newRoundServer(), { legacy: 'reject' });
else if (process.argv.includes('--http')) serveHttp();
else await serveLegacyStdio(newServer(), () => undefined);
