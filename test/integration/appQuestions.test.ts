/**
 * A server's own app for a question (draft SEP-3118, MCP Apps) against a server
 * written with the official v2 server package (test/fixtures/app-server.mjs), over
 * both protocol revisions: declared only when on; a question that names an app
 * carries it, bound to the server that asked (its page is read from that server
 * and no other); a question with a secret field is never shown in an app; a server
 * on this machine may give its app hosts of the person's network (#57 finding 5).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import { APP_MIME_TYPE } from '../../src/core/apps/appQuestion';
import { McpConnection } from '../../src/mcp/connection';
import { fixture, stdioServer, textOf } from '../support/mcpServers';
import { newRecordFile, readRecords } from '../support/records';
import { answerFields, scriptedBroker, type Script } from '../support/scriptedRenderer';

const serverFile = fixture('app-server.mjs');
const opened: McpConnection[] = [];
after(async () => {
  await Promise.all(opened.map((c) => c.stop()));
});

function connect(
  name: string,
  env: Record<string, string>,
  script: Script,
  appsOn: boolean,
): { connection: McpConnection; seen: Question[] } {
  const { broker, renderer } = scriptedBroker(script);
  const connection = new McpConnection(stdioServer(name, serverFile, env), {
    ask: (r) => broker.ask(r),
    log: () => undefined,
    appQuestions: () => appsOn,
  });
  opened.push(connection);
  return { connection, seen: renderer.seen };
}

for (const revision of ['2026-07-28', '2025-11-25'] as const) {
  describe(`app questions over MCP ${revision}`, () => {
    const record = newRecordFile();
    const other = newRecordFile();
    const env = (file: string): Record<string, string> => ({
      RECORD_FILE: file,
      ...(revision === '2025-11-25' ? { APP_LEGACY: 'only' } : {}),
    });

    it('declares the ui extension when on: the question names its app, read from the server that asked', async () => {
      // Another server serving the same ui:// address: a question of the first must never read it.
      const decoy = connect('decoy', env(other), () => assert.fail('not asked'), true);
      await decoy.connection.listTools();
      let page = '';
      const { connection, seen } = connect(
        'palette',
        env(record),
        async (q) => {
          assert.equal(q.request.app?.resourceUri, 'ui://palette/picker');
          const resource = await q.request.app!.read(new AbortController().signal);
          page = resource.html;
          return answerFields(q, { color: 'green' });
        },
        true,
      );
      const result = await connection.callTool('pick_color', {});
      assert.equal(connection.protocolVersion, revision);
      assert.equal(textOf(result), 'Painted it green.');
      assert.equal(seen[0]!.presentation, 'form', 'a question with an app is drawn in the form tab');
      assert.match(page, /<title>Palette<\/title>/);
      assert.deepEqual(
        readRecords(record).map((r) => r.read ?? r.tool),
        ['ui://palette/picker', 'pick_color'],
      );
      assert.equal(readRecords(record).at(-1)!.declared, true);
      assert.deepEqual(readRecords(other), [], 'the other server was never read');
    });

    it('when off, declares nothing and the server names no app', async () => {
      const { connection, seen } = connect('palette-off', env(record), (q) => answerFields(q, { color: 'red' }), false);
      await connection.callTool('pick_color', {});
      assert.equal(seen[0]!.request.app, undefined);
      assert.equal(seen[0]!.presentation, 'quickInput');
      assert.equal(readRecords(record).at(-1)!.declared, false);
    });

    it("lets the app of a server on this machine (stdio) reach the person's network, and names every site it may reach", async () => {
      let csp: unknown;
      const { connection } = connect(
        'palette-lan',
        env(record),
        async (q) => {
          csp = (await q.request.app!.read(new AbortController().signal)).csp;
          return answerFields(q, { color: 'red' });
        },
        true,
      );
      assert.equal(textOf(await connection.callTool('lan_color', {})), 'Painted it red.');
      assert.deepEqual(csp, {
        connectDomains: ['http://192.168.1.20:8080'],
        resourceDomains: [],
        frameDomains: ['https://printer.local'],
        baseUriDomains: [],
      });
    });

    it('never shows an app for a question with a secret field', async () => {
      const { connection, seen } = connect(
        'palette-secret',
        env(record),
        (q) => answerFields(q, { color: 'blue', key: 's3cret-studio' }),
        true,
      );
      await connection.callTool('secret_color', {});
      assert.ok(seen[0]!.request.app, 'the server named it');
      assert.equal(seen[0]!.presentation, 'quickInput', 'but Elicit draws the question itself');
    });
  });
}

describe('an app resource', () => {
  it('is the page of the ui:// resource with the MCP App type', async () => {
    const { readAppResource } = await import('../../src/core/apps/appQuestion');
    assert.throws(() => readAppResource({ contents: [{ uri: 'ui://x', mimeType: 'text/html', text: '<p>' }] }, 'ui://x'), /not an MCP App/);
    assert.equal(
      readAppResource({ contents: [{ uri: 'ui://x', mimeType: APP_MIME_TYPE, blob: btoa('<p>hi</p>') }] }, 'ui://x').html,
      '<p>hi</p>',
    );
  });
});
