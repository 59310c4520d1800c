/**
 * server-everything over each transport — stdio, Streamable HTTP, legacy SSE
 * (configured as "sse", and reached by falling back from "http"), and HTTP
 * through a unix socket (`unix:///…sock#/mcp`, as VS Code writes it) — with
 * `trigger-elicitation-request` answered through the real broker, and
 * `trigger-url-elicitation` on the request path and the -32042 error path.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import type { ElicitResult } from '../../src/core/request';
import type { McpConnection } from '../../src/mcp/connection';
import {
  connectScripted,
  everythingEntry,
  httpServer,
  startEverythingHttp,
  stdioServer,
  textOf,
  type HttpEverything,
} from '../support/mcpServers';

const opened: McpConnection[] = [];
const httpServers: HttpEverything[] = [];
after(async () => {
  await Promise.all(opened.map((c) => c.stop()));
  await Promise.all(httpServers.map((s) => s.stop()));
});

const everythingAnswer = (q: Question): ElicitResult => {
  assert.equal(q.presentation, 'form');
  assert.equal(q.request.asker.detail, 'tool trigger-elicitation-request');
  return { action: 'accept', content: { name: 'Grace Hopper', check: true, email: 'grace@example.com' } };
};

async function answersTheElicitation(connection: McpConnection): Promise<void> {
  const result = await connection.callTool('trigger-elicitation-request', {});
  const text = textOf(result);
  assert.match(text, /User provided the requested information/);
  assert.match(text, /Name: Grace Hopper/);
  assert.match(text, /Favorite Integer: 42/, 'the default of an untouched field was sent');
}

describe('server-everything over every transport', () => {
  let streamable: HttpEverything;
  let sse: HttpEverything;
  before(async () => {
    [streamable, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
    httpServers.push(streamable, sse);
  });

  it('stdio: trigger-elicitation-request', async () => {
    const { connection } = connectScripted(stdioServer('everything', everythingEntry, {}, ['stdio']), everythingAnswer, opened);
    await answersTheElicitation(connection);
    assert.equal(connection.transportKind, 'stdio');
  });

  it('Streamable HTTP: trigger-elicitation-request', async () => {
    const { connection, logs } = connectScripted(httpServer('everything-http', streamable.url), everythingAnswer, opened);
    await answersTheElicitation(connection);
    assert.equal(connection.transportKind, 'http');
    assert.ok(!logs.some((l) => l.includes('legacy SSE')), 'no fallback was needed');
  });

  it('a unix socket (unix:///path.sock#/mcp): Streamable HTTP through the socket, server-sent events as they come', async () => {
    // The socket's far end is server-everything's own HTTP listener, byte for byte: only the socket is ours.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elicit-socket-'));
    const socketPath = path.join(dir, 'mcp.sock');
    const port = Number(new URL(streamable.url).port);
    const relayed: string[] = [];
    const relay = net.createServer((client) => {
      const upstream = net.connect(port, '127.0.0.1');
      client.once('data', (first: Buffer) => relayed.push(first.toString('latin1').split('\r\n')[0]!));
      client.pipe(upstream).pipe(client);
      const close = (): void => {
        client.destroy();
        upstream.destroy();
      };
      client.once('error', close);
      upstream.once('error', close);
    });
    await new Promise<void>((resolve) => relay.listen(socketPath, resolve));
    try {
      const mcpPath = new URL(streamable.url).pathname;
      const { connection } = connectScripted(httpServer('everything-unix', `unix://${socketPath}#${mcpPath}`), everythingAnswer, opened);
      await answersTheElicitation(connection);
      assert.equal(connection.transportKind, 'http');
      assert.ok(relayed.length > 0 && relayed.every((line) => line.endsWith(` ${mcpPath} HTTP/1.1`)), JSON.stringify(relayed));
      await connection.stop();
    } finally {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('legacy SSE, configured as "sse": trigger-elicitation-request', async () => {
    const { connection } = connectScripted(httpServer('everything-sse', sse.url, 'sse'), everythingAnswer, opened);
    await answersTheElicitation(connection);
    assert.equal(connection.transportKind, 'sse');
  });

  it('an "http" server that answers the Streamable HTTP initialize with a 4xx is reached over legacy SSE', async () => {
    const { connection, logs } = connectScripted(httpServer('everything-fallback', sse.url), everythingAnswer, opened);
    await answersTheElicitation(connection);
    assert.equal(connection.status, 'running');
    assert.equal(connection.transportKind, 'sse');
    assert.ok(
      logs.includes('[elicit] everything-fallback: the Streamable HTTP endpoint answered HTTP 404; trying the legacy SSE transport'),
      `the fallback is logged: ${JSON.stringify(logs)}`,
    );
  });

  it('when the SSE fallback fails too, the error says what both transports answered', async () => {
    const notMcp = streamable.url.replace(/\/mcp$/, '/nothing-here');
    const { connection } = connectScripted(httpServer('nothing-here', notMcp), () => ({ action: 'cancel' }), opened);
    await assert.rejects(
      connection.connect(),
      /Could not start MCP server "nothing-here": Streamable HTTP answered HTTP 404, and legacy SSE failed too: .*404/,
    );
    assert.equal(connection.status, 'error');
  });

  it('an HTTP server that is not there is an error naming it, without a fallback loop', async () => {
    const { connection } = connectScripted(httpServer('nobody', 'http://127.0.0.1:9/mcp'), () => ({ action: 'cancel' }), opened);
    await assert.rejects(connection.connect(), /Could not start MCP server "nobody"/);
    assert.equal(connection.status, 'error');
  });
});

describe('server-everything trigger-url-elicitation', () => {
  const seen: Question[] = [];
  const { connection } = connectScripted(
    stdioServer('everything-url', everythingEntry, {}, ['stdio']),
    (q) => {
      seen.push(q);
      return { action: 'accept' };
    },
    opened,
  );

  it('request path: consent through the broker (URL mode), the tool reports the accept', async () => {
    const result = await connection.callTool('trigger-url-elicitation', {
      url: 'https://example.com/authorize?x=1',
      elicitationId: 'req-1',
    });
    assert.match(textOf(result), /User completed the URL elicitation flow/);
    const question = seen.at(-1)!;
    assert.equal(question.presentation, 'url');
    assert.equal(question.url!.host, 'example.com');
    assert.equal(question.request.asker.detail, 'tool trigger-url-elicitation');
  });

  it('error path (-32042): runs the prerequisite URL elicitation, asks whether to retry (no completion comes), retries once', async () => {
    seen.length = 0;
    const result = await connection.callTool('trigger-url-elicitation', { url: 'https://example.com/next', errorPath: true });
    assert.match(textOf(result), /User completed the URL elicitation flow/);
    assert.deepEqual(
      seen.map((q) => (q.presentation === 'url' ? `url ${q.url!.host}` : `form ${q.form!.fields.length} fields`)),
      ['url modelcontextprotocol.io', 'form 0 fields', 'url example.com'],
      'prerequisite consent, the retry question, then the retried call’s own URL request',
    );
    assert.match(seen[1]!.request.message, /Finish in your browser \(modelcontextprotocol\.io\)/);
  });
});
