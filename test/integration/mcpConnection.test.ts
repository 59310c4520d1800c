/**
 * The extension's MCP client code (McpConnection + the real broker) against real
 * servers started as processes, with a scripted answerer in place of a person.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { McpConnection } from '../../src/mcp/connection';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import { askerKey, UrlWaits } from '../../src/core/broker/urlWaits';
import { newRecordFile, readRecords, waitForRecords } from '../support/records';
import { questions } from '../fixtures/questions.mjs';
import { scriptedBroker, type Script } from '../support/scriptedRenderer';
import { waitUntil } from '../support/waitUntil';

const root = join(__dirname, '..', '..');
const askServer = join(root, 'test', 'fixtures', 'ask-server.mjs');
const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

const open: McpConnection[] = [];
after(async () => {
  await Promise.all(open.map((c) => c.stop()));
});

const urlWaits = new UrlWaits();

function connect(config: ServerConfig, script: Script): { connection: McpConnection; seen: Question[]; logs: string[] } {
  const { broker, renderer } = scriptedBroker(script);
  const logs: string[] = [];
  const connection = new McpConnection(config, { ask: (r) => broker.ask(r), log: (l) => logs.push(l), urlWaits });
  open.push(connection);
  return { connection, seen: renderer.seen, logs };
}

function stdio(name: string, file: string, env: Record<string, string> = {}, args: string[] = []): ServerConfig {
  return { name, source: 'test', transport: { type: 'stdio', command: process.execPath, args: [file, ...args], env } };
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
}

describe('McpConnection with the ask-server fixture', () => {
  const record = newRecordFile();
  const answers: Array<(q: Question) => ElicitResult> = [];
  const { connection, seen } = connect(stdio('ask-server', askServer, { RECORD_FILE: record }), (q) => {
    const next = answers.shift();
    assert.ok(next, 'an unexpected question arrived');
    return next(q);
  });

  it('lists the tools and answers a one-field question', async () => {
    const tools = await connection.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['ask_name', 'ask_raw', 'ask_url', 'echo', ...Object.keys(questions)]) assert.ok(names.includes(name), name);
    assert.equal(connection.status, 'running');
    answers.push(() => ({ action: 'accept', content: { name: 'Ada' } }));
    const result = await connection.callTool('ask_name', {});
    assert.equal(textOf(result), 'Hello, Ada!');
    const question = seen.at(-1)!;
    assert.equal(question.request.asker.name, 'ask-server');
    assert.equal(question.request.asker.detail, 'tool ask_name');
    assert.equal(question.presentation, 'quickInput');
    const { callStarted, ...entry } = readRecords(record).at(-1)!;
    assert.equal(typeof callStarted, 'number', 'stamped with when the call started');
    assert.deepEqual(entry, {
      server: 'ask-server',
      tool: 'ask_name',
      result: { action: 'accept', content: { name: 'Ada' } },
    });
  });

  it('sends decline and cancel as such', async () => {
    answers.push(() => ({ action: 'decline' }));
    await connection.callTool('ask_name', {});
    answers.push(() => ({ action: 'cancel' }));
    await connection.callTool('ask_name', {});
    const outcomes = readRecords(record)
      .slice(-2)
      .map((r) => (r.result as ElicitResult).action);
    assert.deepEqual(outcomes, ['decline', 'cancel']);
  });

  it('sees keywords the SDK would strip (pattern) and renders format "password" as a secret', async () => {
    answers.push((q) => {
      const [code, key] = q.form!.fields;
      assert.equal(code!.kind === 'text' && code!.pattern, '^[A-Z]{3}$');
      assert.equal(key!.kind === 'text' && key!.secret, true);
      return { action: 'accept', content: { code: 'ABC', key: 'hunter2' } };
    });
    await connection.callTool('ask_raw', {
      params: {
        message: 'Code and key',
        requestedSchema: {
          type: 'object',
          properties: {
            code: { type: 'string', pattern: '^[A-Z]{3}$' },
            key: { type: 'string', format: 'password' },
          },
          required: ['code'],
        },
      },
    });
    assert.deepEqual(readRecords(record).at(-1)!.result, { action: 'accept', content: { code: 'ABC', key: 'hunter2' } });
  });

  it('answers an unsupported schema with a short -32602 and never shows it', async () => {
    const before = seen.length;
    await connection.callTool('ask_raw', {
      params: {
        message: 'Nested',
        requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: {} } } },
      },
    });
    const { error } = readRecords(record).at(-1) as { error: { code: number; message: string } };
    assert.equal(error.code, -32602);
    assert.match(error.message, /property "address" is a nested object/);
    assert.ok(error.message.length < 300, 'the error stays short');
    assert.equal(seen.length, before);
  });

  it('refuses a URL that is not http(s) and an unknown mode with -32602, never showing them', async () => {
    const before = seen.length;
    await connection.callTool('ask_raw', {
      params: { mode: 'url', message: 'Sign in', url: 'javascript:alert(1)', elicitationId: 'x1' },
    });
    let { error } = readRecords(record).at(-1) as { error: { code: number; message: string } };
    assert.equal(error.code, -32602);
    assert.match(error.message, /Refused to open the URL: only http and https links can be opened, not javascript:/);
    await connection.callTool('ask_raw', { params: { mode: 'telepathy', message: 'Think of a number' } });
    ({ error } = readRecords(record).at(-1) as { error: { code: number; message: string } });
    assert.equal(error.code, -32602);
    assert.match(error.message, /mode "telepathy" is not supported/);
    assert.equal(seen.length, before);
  });

  it('takes a URL request with consent, then ends the wait when the server reports completion', async () => {
    let waiting: Promise<string> | undefined;
    answers.push((q) => {
      assert.equal(q.presentation, 'url');
      assert.equal(q.url!.host, 'auth.example.com');
      assert.equal(q.url!.url, 'https://auth.example.com/login?state=e2e');
      const request = q.request as { elicitationId: string };
      waiting = urlWaits.wait(askerKey(q.request.asker), request.elicitationId);
      return { action: 'accept' };
    });
    const result = await connection.callTool('ask_url', {});
    assert.match(textOf(result), /URL elicitation login-1: accept/);
    assert.equal(await waiting, 'completed');
    const sent = await waitForRecords(record, 1, (r) => r.completed !== undefined || r.completionError !== undefined);
    const { callStarted, ...completion } = sent.at(-1)!;
    assert.equal(typeof callStarted, 'number', 'stamped with when the call started');
    assert.deepEqual(completion, { server: 'ask-server', tool: 'ask_url', completed: 'login-1' });
    assert.equal(urlWaits.size, 0, 'the repeated and unknown completions left nothing behind');
  });

  it('fills defaults of untouched fields into an accepted answer', async () => {
    answers.push(() => ({ action: 'accept', content: {} }));
    await connection.callTool('ask_raw', {
      params: {
        message: 'Defaults',
        requestedSchema: {
          type: 'object',
          properties: { bpm: { type: 'integer', default: 120 }, key: { type: 'string', enum: ['C', 'Am'], default: 'Am' } },
        },
      },
    });
    assert.deepEqual(readRecords(record).at(-1)!.result, { action: 'accept', content: { bpm: 120, key: 'Am' } });
  });

  it('answers a burst of ten 2025-era requests in full, as one grouped question', async () => {
    answers.push((q) => {
      assert.equal(q.request.mode, 'group');
      assert.equal(q.form!.sections!.length, 10);
      assert.equal(q.request.message, '10 questions');
      return { action: 'accept', content: Object.fromEntries(q.form!.fields.map((f, i) => [f.name, `Take ${i + 1}`])) };
    });
    const result = await connection.callTool('ask_ten', {});
    assert.equal(textOf(result), Array.from({ length: 10 }, (_, i) => `Take ${i + 1}`).join(', '));
    const burst = readRecords(record).filter((r) => r.tool === 'ask_ten');
    assert.equal(burst.length, 10);
    assert.ok(
      burst.every((r) => (r.result as { action: string }).action === 'accept'),
      'none refused',
    );
  });
});

describe('McpConnection with @modelcontextprotocol/server-everything', () => {
  it('answers trigger-elicitation-request through the real pipeline', async () => {
    const { connection, seen } = connect(stdio('everything', everything, {}, ['stdio']), (q) => {
      assert.equal(q.presentation, 'form');
      return { action: 'accept', content: { name: 'Grace Hopper', check: true, email: 'grace@example.com' } };
    });
    const tools = await connection.listTools();
    assert.ok(tools.some((t) => t.name === 'trigger-elicitation-request'));
    const result = await connection.callTool('trigger-elicitation-request', {});
    const text = textOf(result);
    assert.match(text, /User provided the requested information/);
    assert.match(text, /Name: Grace Hopper/);
    assert.match(text, /Favorite Integer: 42/, 'the default of an untouched field was sent');
    assert.equal(seen[0]!.form!.fields.length, 13);
  });
});

describe('MCP roots: the workspace folders', () => {
  it('server-everything lists the roots Elicit offers, and asks again after they change', async () => {
    let roots = [{ uri: 'file:///work/alpha', name: 'alpha' }];
    const connection = new McpConnection(stdio('everything-roots', everything, {}, ['stdio']), {
      ask: async () => ({ action: 'cancel' }),
      log: () => undefined,
      roots: () => roots,
    });
    open.push(connection);
    const before = textOf(await connection.callTool('get-roots-list', {}));
    assert.match(before, /Current MCP Roots \(1 total\)/);
    assert.match(before, /1\. alpha\s+URI: file:\/\/\/work\/alpha/);

    roots = [...roots, { uri: 'file:///work/beta', name: 'beta' }];
    await connection.rootsChanged();
    let after = '';
    await waitUntil(async () => {
      after = textOf(await connection.callTool('get-roots-list', {}));
      return after.includes('(2 total)');
    }, 'the server to fetch the changed roots');
    assert.match(after, /2\. beta\s+URI: file:\/\/\/work\/beta/);
  });

  it('without workspace folders to offer, the roots capability is not declared', async () => {
    const { connection } = connect(stdio('everything-no-roots', everything, {}, ['stdio']), () => ({ action: 'cancel' }));
    const tools = await connection.listTools();
    assert.ok(!tools.some((t) => t.name === 'get-roots-list'), 'server-everything offers get-roots-list only to clients with roots');
  });
});

describe('McpConnection failures', () => {
  it('reports a command that does not exist as an error on that server', async () => {
    const { connection } = connect(
      { name: 'missing', source: 'test', transport: { type: 'stdio', command: 'elicit-no-such-command', args: [], env: {} } },
      () => ({ action: 'cancel' }),
    );
    await assert.rejects(connection.connect(), /Could not start MCP server "missing"/);
    assert.equal(connection.status, 'error');
    assert.ok(connection.error);
  });
});
