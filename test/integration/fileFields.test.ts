/**
 * File fields (draft SEP-2356/2631, `x-mcp-file`) against a server written with the
 * official v2 server package (test/fixtures/file-server.mjs), over both protocol
 * revisions, through McpConnection and the real broker with a scripted answerer that
 * answers as the file dialog does (a data URI of a real file). What the server
 * received is read from its own record.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Question } from '../../src/core/broker/broker';
import type { FileField } from '../../src/core/form/fields';
import { mediaTypeOf, toDataUri } from '../../src/core/form/fileFields';
import { McpConnection } from '../../src/mcp/connection';
import { fixture, stdioServer, textOf } from '../support/mcpServers';
import { newRecordFile, readRecords } from '../support/records';
import { answerFields, scriptedBroker, type Script } from '../support/scriptedRenderer';

const serverFile = fixture('file-server.mjs');
const opened: McpConnection[] = [];
after(async () => {
  await Promise.all(opened.map((c) => c.stop()));
});

const folder = mkdtempSync(join(tmpdir(), 'elicit-files-'));
/** A file on disk and the value the dialog makes of it. */
function file(name: string, bytes: Buffer): { value: string; sha256: string; size: number } {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  const read = readFileSync(path);
  return {
    value: toDataUri(name, mediaTypeOf(name), read.toString('base64')),
    sha256: createHash('sha256').update(read).digest('hex'),
    size: read.length,
  };
}
const report = file('Q3 report (final).pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3000, 7), Buffer.from('\n%%EOF\n')]));
const shot = file('screen.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));

function connect(env: Record<string, string>, script: Script, filesOn: boolean): { connection: McpConnection; seen: Question[] } {
  const { broker, renderer } = scriptedBroker(script, 60_000, { acceptsFiles: (request) => filesOn && request.asker.kind === 'mcp' });
  const connection = new McpConnection(stdioServer('files', serverFile, env), {
    ask: (r) => broker.ask(r),
    log: () => undefined,
    fileInputs: () => filesOn,
  });
  opened.push(connection);
  return { connection, seen: renderer.seen };
}

for (const revision of ['2026-07-28', '2025-11-25'] as const) {
  describe(`file fields over MCP ${revision}`, () => {
    const record = newRecordFile();
    const env = { RECORD_FILE: record, ...(revision === '2025-11-25' ? { FILE_LEGACY: 'only' } : {}) };
    const last = (): Record<string, unknown> => readRecords(record).at(-1)!;

    it('declares fileInputs when on, and the file chosen reaches the server byte for byte', async () => {
      const { connection, seen } = connect(env, (q) => answerFields(q, { document: report.value }), true);
      const result = await connection.callTool('attach_document', {});
      assert.equal(connection.protocolVersion, revision);
      const field = seen[0]!.form!.fields[0] as FileField;
      assert.equal(field.kind, 'file');
      assert.deepEqual(field.accept, ['application/pdf', '.txt']);
      assert.equal(field.maxSize, 1024 * 1024);
      assert.equal(seen[0]!.presentation, 'quickInput', 'one file field is a quick-input step');
      const entry = last();
      assert.equal(entry.declared, true);
      assert.deepEqual(entry.files, [
        { field: 'document', name: 'Q3 report (final).pdf', mediaType: 'application/pdf', size: report.size, sha256: report.sha256 },
      ]);
      assert.equal(textOf(result), `Received Q3 report (final).pdf (application/pdf, ${report.size} bytes)`);
    });

    it('sends a list of files with the other fields of a form', async () => {
      const { connection, seen } = connect(
        env,
        (q) => answerFields(q, { title: 'Crash on save', screenshots: [shot.value, shot.value], severity: 'high' }),
        true,
      );
      await connection.callTool('file_bug', {});
      const shots = seen[0]!.form!.fields.find((f) => (f.property ?? f.name) === 'screenshots') as FileField;
      assert.equal(shots.kind, 'file');
      assert.equal(shots.multiple, true);
      assert.equal(shots.minItems, 1);
      assert.equal(shots.maxItems, 3);
      assert.equal(seen[0]!.presentation, 'form');
      const entry = last();
      assert.deepEqual(entry.content, { title: 'Crash on save', severity: 'high' });
      assert.deepEqual(
        (entry.files as Array<{ name: string; sha256: string }>).map((f) => [f.name, f.sha256]),
        [
          ['screen.png', shot.sha256],
          ['screen.png', shot.sha256],
        ],
      );
    });

    it('when off, declares nothing: the server asks for a plain URI, and no file field is drawn', async () => {
      const { connection, seen } = connect(env, (q) => answerFields(q, { document: 'https://example.com/report.pdf' }), false);
      await connection.callTool('attach_document', {});
      assert.equal(last().declared, false);
      assert.equal(seen[0]!.form!.fields[0]!.kind, 'text');
    });

    it('when off, a question that carries x-mcp-file anyway is refused with a sentence, never drawn as a text box', async () => {
      const { connection, seen } = connect({ ...env, FILE_DECLARE: 'always' }, () => assert.fail('a file question is not shown'), false);
      const outcome = await connection.callTool('attach_document', {}).then(
        (result) => textOf(result),
        (error: unknown) => String(error),
      );
      assert.equal(seen.length, 0);
      assert.match(outcome, /file fields are off in Elicit/);
      assert.match(outcome, /elicit\.experimental\.fileFields/);
    });

    it('refuses a field that allows only an out-of-band upload, saying why', async () => {
      const { connection, seen } = connect(env, () => assert.fail('not shown'), true);
      const outcome = await connection.callTool('upload_only', {}).then(
        (result) => textOf(result),
        (error: unknown) => String(error),
      );
      assert.equal(seen.length, 0);
      assert.match(outcome, /transferModes does not allow "inline"/);
    });
  });
}
