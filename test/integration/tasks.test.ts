/**
 * MCP tasks with server-everything: an elicitation the server sends as a task
 * (`trigger-elicitation-request-async`: Elicit answers with a task handle, the
 * server polls tasks/get and fetches the answer with tasks/result) and a tool
 * that only runs as a task and asks for clarification on the way
 * (`simulate-research-query`), through McpConnection and the real broker.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import type { ServerConfig } from '../../src/core/mcpConfig/serverConfig';
import { McpConnection } from '../../src/mcp/connection';
import { scriptedBroker, type Script } from '../support/scriptedRenderer';

const everything = join(__dirname, '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const open: McpConnection[] = [];
const processes: ChildProcess[] = [];
after(async () => {
  await Promise.all(open.map((c) => c.stop()));
  for (const child of processes) child.kill();
});

function connect(transport: ServerConfig['transport'], script: Script): { connection: McpConnection; seen: Question[]; logs: string[] } {
  const { broker, renderer } = scriptedBroker(script);
  const logs: string[] = [];
  const config: ServerConfig = { name: 'everything', source: 'test', transport };
  const connection = new McpConnection(config, { ask: (r) => broker.ask(r), log: (line) => logs.push(line) });
  open.push(connection);
  return { connection, seen: renderer.seen, logs };
}

const stdio: ServerConfig['transport'] = { type: 'stdio', command: process.execPath, args: [everything, 'stdio'], env: {} };

async function everythingOverHttp(): Promise<ServerConfig['transport']> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(process.execPath, [everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  processes.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('listening on port') && resolve());
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)));
  });
  return { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} };
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
}

describe('elicitation in MCP tasks (server-everything)', () => {
  it('answers an elicitation the server sends as a task, and the server reports the answer', async () => {
    const { connection, seen } = connect(stdio, (q) => {
      assert.equal(q.request.asker.detail, 'tool trigger-elicitation-request-async');
      assert.deepEqual(
        q.form!.fields.map((f) => f.name),
        ['name', 'favoriteColor', 'agreeToTerms'],
      );
      return { action: 'accept', content: { name: 'Grace Hopper', favoriteColor: 'Blue', agreeToTerms: true } };
    });
    const tools = await connection.listTools();
    assert.ok(
      tools.some((t) => t.name === 'trigger-elicitation-request-async'),
      'the server saw the tasks capability',
    );
    const text = textOf(await connection.callTool('trigger-elicitation-request-async', {}));
    assert.match(text, /\[COMPLETED\] User provided the requested information!/);
    assert.match(text, /- Name: Grace Hopper/);
    assert.match(text, /- Favorite Color: Blue/);
    assert.match(text, /- Agreed to terms: true/);
    assert.match(text, /Task created: [0-9a-f]+/, 'it ran as a task, not synchronously');
    assert.equal(seen.length, 1);
  });

  it('reports a declined task elicitation as declined', async () => {
    const { connection } = connect(stdio, () => ({ action: 'decline' }));
    const text = textOf(await connection.callTool('trigger-elicitation-request-async', {}));
    assert.match(text, /\[DECLINED\] User declined to provide the requested information\./);
  });

  for (const [label, transport] of [
    ['stdio', async () => stdio],
    ['Streamable HTTP', everythingOverHttp],
  ] as const) {
    it(`runs a task-only tool and answers its clarification question (${label})`, async () => {
      const answers: ElicitResult[] = [];
      const { connection, seen, logs } = connect(await transport(), (q) => {
        assert.equal(q.request.asker.detail, 'tool simulate-research-query');
        const field = q.form!.fields[0]!;
        assert.equal(field.name, 'interpretation');
        assert.deepEqual(field.kind === 'choice' && field.options.map((o) => o.value), ['programming', 'snake', 'comedy']);
        const answer: ElicitResult = { action: 'accept', content: { interpretation: 'snake' } };
        answers.push(answer);
        return answer;
      });
      const tools = await connection.listTools();
      assert.equal(tools.find((t) => t.name === 'simulate-research-query')?.execution?.taskSupport, 'required');
      const text = textOf(await connection.callTool('simulate-research-query', { topic: 'python', ambiguous: true }));
      assert.match(text, /# Research Report: python \(snake\)/, 'the server used the answer');
      assert.match(text, /- \*\*Clarification\*\*: snake/);
      assert.equal(seen.length, 1);
      assert.ok(
        logs.some((l) => /tool simulate-research-query task: working/.test(l)),
        'task progress is in the log',
      );
    });
  }
});
