/**
 * File fields (draft SEP-2356/2631, `x-mcp-file`): the keyword read into a field,
 * the value a picked file becomes, the host's check of that value (reading only its
 * head and length), where a file question may be answered, what the history keeps
 * of it, and the picker's rule that nothing is read unless every file fits.
 */
import './vscodeStandIn/install';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as vscode from 'vscode';
import { Broker, type Question, type RenderOutcome, type Renderer } from '../../src/core/broker/broker';
import { deviceVerdict } from '../../src/core/device/devicePolicy';
import { toHistoryEntry } from '../../src/core/broker/history';
import type { FileField } from '../../src/core/form/fields';
import {
  MAX_INLINE_FILE_BYTES,
  acceptText,
  accepts,
  checkFileValue,
  dialogFilters,
  fileRule,
  fileValueText,
  formatBytes,
  mediaTypeOf,
  readDataUri,
  readFileKeyword,
  toDataUri,
} from '../../src/core/form/fileFields';
import { collectAnswer, makeDraft } from '../../src/core/form/formState';
import { normalize } from '../../src/core/form/normalize';
import { validateAnswer } from '../../src/core/form/ajvAnswerCheck';
import { readOutsideAnswer } from '../../src/core/form/outsideAnswer';
import { CANCELLED, type ElicitRequest } from '../../src/core/request';
import { readChosenFiles, type FileReader } from '../../src/vscode/questions/chooseFiles';

const pdfField = (extra: Record<string, unknown> = {}): FileField =>
  normalize({
    type: 'object',
    properties: {
      document: {
        type: 'string',
        format: 'uri',
        title: 'Document',
        'x-mcp-file': { accept: ['application/pdf', '.TXT'], maxSize: 1000, ...extra },
      },
    },
    required: ['document'],
  }).fields[0] as FileField;

const uriOf = (name: string, bytes: Buffer, type = mediaTypeOf(name)): string => toDataUri(name, type, bytes.toString('base64'));

describe('the x-mcp-file keyword', () => {
  it('makes a string a file field, and an array whose items carry it a list of files', () => {
    const field = pdfField();
    assert.deepEqual(field, {
      kind: 'file',
      name: 'document',
      label: 'Document',
      required: true,
      multiple: false,
      accept: ['application/pdf', '.txt'],
      maxSize: 1000,
      rule: 'PDF, TXT · at most 1000 bytes',
    });
    const list = normalize({
      type: 'object',
      properties: { shots: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string', 'x-mcp-file': { accept: ['image/*'] } } } },
    }).fields[0] as FileField;
    assert.equal(list.kind, 'file');
    assert.equal(list.multiple, true);
    assert.equal(list.minItems, 1);
    assert.equal(list.maxItems, 3);
    assert.equal(list.required, true, 'minItems 1 is "choose at least one"');
  });

  it('refuses what it cannot answer, naming the property and the problem', () => {
    const refuse = (prop: unknown, pattern: RegExp): void =>
      assert.throws(
        () => normalize({ type: 'object', properties: { f: prop } }),
        (e: Error) => pattern.test(e.message) && /property "f"/.test(e.message),
      );
    refuse({ type: 'number', 'x-mcp-file': {} }, /marks a string field/);
    refuse({ type: 'string', 'x-mcp-file': 'yes' }, /x-mcp-file must be an object/);
    refuse({ type: 'string', 'x-mcp-file': { accept: 'image/*' } }, /accept must be a list/);
    refuse({ type: 'string', 'x-mcp-file': { accept: Array.from({ length: 51 }, (_, i) => `.e${i}`) } }, /more than 50/);
    refuse({ type: 'string', 'x-mcp-file': { maxSize: -1 } }, /maxSize must be a whole number/);
    refuse({ type: 'string', 'x-mcp-file': { transferModes: ['upload'] } }, /does not allow "inline"/);
    refuse({ type: 'array', items: { type: 'number', 'x-mcp-file': {} } }, /items of a file list must be strings/);
    assert.deepEqual(readFileKeyword({ transferModes: ['inline', 'upload'] }), {});
  });

  it('never keeps a default: the person picks every file sent', () => {
    const field = pdfField();
    const withDefault = normalize({ type: 'object', properties: { d: { type: 'string', default: 'data:,x', 'x-mcp-file': {} } } })
      .fields[0]!;
    assert.equal(field.default, undefined);
    assert.equal(withDefault.default, undefined);
  });
});

describe('which files a field takes', () => {
  it('by media type, wildcard or extension', () => {
    const field = pdfField();
    assert.equal(accepts(field, 'a.pdf', 'application/pdf'), true);
    assert.equal(accepts(field, 'notes.TXT', mediaTypeOf('notes.TXT')), true);
    assert.equal(accepts(field, 'a.png', 'image/png'), false);
    assert.equal(accepts({ accept: ['image/*'] }, 'a.png', 'image/png'), true);
    assert.equal(accepts({}, 'anything.bin', 'application/octet-stream'), true);
    assert.equal(mediaTypeOf('archive'), 'application/octet-stream');
  });

  it('as dialog filters and words a person reads', () => {
    assert.deepEqual(dialogFilters(pdfField()), { 'PDF, TXT': ['pdf', 'txt'] });
    assert.equal(
      dialogFilters({ accept: ['application/x-unknown'] }),
      undefined,
      'an unknown type filters nothing (the check after the pick still holds)',
    );
    assert.equal(dialogFilters({}), undefined);
    assert.equal(acceptText({ accept: ['image/*', '.csv'] }), 'image files, CSV');
    assert.equal(fileRule(pdfField()), 'PDF, TXT · at most 1000 bytes');
    assert.equal(
      fileRule({ kind: 'file', name: 'x', label: 'x', required: false, multiple: true, minItems: 1, maxItems: 3 }),
      'Any file · at most 16 MB · 1 to 3 files',
    );
    assert.deepEqual(
      [formatBytes(1), formatBytes(1536), formatBytes(5 * 1024 * 1024), formatBytes(123.4 * 1024)],
      ['1 byte', '1.5 KB', '5 MB', '123 KB'],
    );
  });
});

describe('a file as a value', () => {
  it("is an RFC 2397 data URI whose name survives, with !'()* encoded as the SEP does", () => {
    const name = "Q3 (draft)! it's *final* — résumé.txt";
    const uri = uriOf(name, Buffer.from('hello'));
    assert.match(
      uri,
      /^data:text\/plain;name=Q3%20%28draft%29%21%20it%27s%20%2Afinal%2A%20%E2%80%94%20r%C3%A9sum%C3%A9\.txt;base64,aGVsbG8=$/,
    );
    assert.deepEqual(readDataUri(uri), { mediaType: 'text/plain', name, size: 5 });
  });

  it('is checked against the field from its head and length', () => {
    const field = pdfField();
    assert.equal(checkFileValue(field, uriOf('a.pdf', Buffer.alloc(1000))), undefined);
    assert.equal(checkFileValue(field, uriOf('a.pdf', Buffer.alloc(1001))), 'a.pdf is 1001 bytes; this field takes at most 1000 bytes');
    assert.equal(checkFileValue(field, uriOf('a.pdf', Buffer.alloc(5000))), 'A file is larger than 1000 bytes', 'told by its length alone');
    assert.equal(checkFileValue(field, uriOf('a.pdf', Buffer.alloc(998))), undefined);
    assert.equal(checkFileValue(field, uriOf('b.png', Buffer.alloc(10))), 'b.png is not one of the accepted types (PDF, TXT)');
    assert.equal(checkFileValue(field, 'https://example.com/a.pdf'), 'Must be a file chosen with Choose File…');
    assert.equal(checkFileValue(field, 'data:application/pdf;name=a.pdf;base64,@@@@'), 'Must be a file chosen with Choose File…');
    assert.equal(checkFileValue(field, ['x']), 'Must be a file');
  });

  it('measures an oversized value before reading it: 17 MB of text is refused by its length', () => {
    const field: FileField = { kind: 'file', name: 'f', label: 'F', required: true, multiple: false, rule: '' };
    const huge = `data:text/plain;base64,${'A'.repeat(Math.ceil(((MAX_INLINE_FILE_BYTES + 1024 * 1024) * 4) / 3))}`;
    const started = performance.now();
    assert.match(checkFileValue(field, huge)!, /larger than/);
    assert.ok(performance.now() - started < 50, 'no pass over the payload');
  });

  it('counts a list of files, and the host check (ajv and all) agrees', () => {
    const form = normalize({
      type: 'object',
      properties: { shots: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', 'x-mcp-file': { accept: ['image/*'] } } } },
    });
    const png = uriOf('s.png', Buffer.from([1, 2, 3]));
    assert.deepEqual(validateAnswer(form, { shots: [png] }), {});
    assert.deepEqual(validateAnswer(form, { shots: [png, png, png] }), { shots: 'Choose at most 2 files' });
    assert.deepEqual(validateAnswer(form, { shots: [] }), { shots: 'Choose at least one file' });
    assert.deepEqual(validateAnswer(form, {}), { shots: 'Choose at least one file' });
    const outside = readOutsideAnswer(form, { shots: ['data:image/png;base64,AAA='] });
    assert.equal(outside.ok, true);
  });

  it('reads as its name and size wherever answers are shown, never its bytes', () => {
    const value = uriOf('report.pdf', Buffer.alloc(2048));
    assert.equal(fileValueText(value), 'report.pdf (2 KB)');
    assert.equal(fileValueText([value, 'not a file']), 'report.pdf (2 KB), (a file)');
  });
});

describe('the form page and its drafts', () => {
  it('holds names only: the host adds the files, and a draft never keeps them', () => {
    const form = normalize({
      type: 'object',
      properties: { title: { type: 'string' }, document: { type: 'string', 'x-mcp-file': {} } },
      required: ['document'],
    });
    assert.deepEqual(collectAnswer(form, { title: 'x', document: null }), {
      content: { title: 'x' },
      errors: { document: 'Choose a file' },
    });
    assert.deepEqual(collectAnswer(form, { title: 'x', document: ['report.pdf (2 KB)'] }), { content: { title: 'x' }, errors: {} });
    assert.deepEqual(makeDraft(form, 1, { title: 'x', document: ['report.pdf (2 KB)'] }).values, { title: 'x' });
  });
});

class Answers implements Renderer {
  seen: Question[] = [];
  constructor(private readonly content: Record<string, string>) {}
  async render(question: Question): Promise<RenderOutcome> {
    this.seen.push(question);
    return { action: 'accept', content: this.content };
  }
}

const fileRequest = (kind: 'mcp' | 'acp' | 'tool' = 'mcp'): ElicitRequest => ({
  mode: 'form',
  asker: { kind, name: 'files' },
  message: 'Which document?',
  requestedSchema: {
    type: 'object',
    properties: { document: { type: 'string', 'x-mcp-file': { accept: ['.txt'] } } },
    required: ['document'],
  },
});

describe('the broker and a file question', () => {
  const options = { timeoutMs: () => 10_000, maxPendingPerAsker: () => 5, presentation: () => 'auto' as const };

  it('refuses it unless file fields are on for its asker, and says so to the asker and to the editor', async () => {
    const broker = new Broker(new Answers({}), options);
    const refused: ElicitRequest[] = [];
    broker.onDidRefuseFiles((request) => refused.push(request));
    await assert.rejects(broker.ask(fileRequest()), /file fields are off in Elicit.*elicit\.experimental\.fileFields/);
    const onlyMcp = new Broker(new Answers({}), { ...options, acceptsFiles: (r) => r.asker.kind === 'mcp' });
    await assert.rejects(onlyMcp.ask(fileRequest('acp')), /Elicit takes files only for MCP servers/);
    assert.equal(refused.length, 1);
  });

  it('answers it with a file when on, and keeps only its name and size in the history', async () => {
    const value = uriOf('notes.txt', Buffer.from('the bridge goes up a fourth'));
    const broker = new Broker(new Answers({ document: value }), { ...options, acceptsFiles: () => true });
    const answered: Parameters<typeof toHistoryEntry>[0][] = [];
    broker.onDidAnswer((a) => answered.push(a));
    assert.deepEqual(await broker.ask(fileRequest()), { action: 'accept', content: { document: value } });
    const entry = toHistoryEntry(answered[0]!);
    assert.deepEqual(entry.answers, [{ label: 'document', value: 'notes.txt (27 bytes)' }]);
    assert.doesNotMatch(JSON.stringify(entry), /base64/);
  });

  it('is answered only in the editor that asked: never from another window or a phone', async () => {
    const renderer = new Answers({});
    let release: () => void = () => undefined;
    renderer.render = (question: Question) => {
      renderer.seen.push(question);
      return new Promise((resolve) => (release = () => resolve(CANCELLED)));
    };
    const broker = new Broker(renderer, { ...options, acceptsFiles: () => true });
    const asked = broker.ask(fileRequest());
    await new Promise((resolve) => setTimeout(resolve, 20));
    const question = broker.pending()[0]!;
    assert.deepEqual(deviceVerdict(question), { allowed: false, reason: 'file' });
    assert.equal(
      broker.answerFromElsewhere(question.id, { action: 'accept', content: { document: uriOf('a.txt', Buffer.from('x')) } }),
      'This question can only be answered in the window that asked it.',
    );
    release();
    assert.deepEqual(await asked, CANCELLED);
  });
});

describe('reading the files picked', () => {
  const fakeFs = (sizes: Record<string, number>): FileReader & { reads: string[] } => {
    const reads: string[] = [];
    return {
      reads,
      stat: async (uri) => ({ type: vscode.FileType.File, size: sizes[uri.path]!, ctime: 0, mtime: 0 }),
      readFile: async (uri) => {
        reads.push(uri.path);
        return new Uint8Array(sizes[uri.path]!).fill(65);
      },
    };
  };

  it('reads nothing when a file is too large or of another type: the refusal comes from its size and name', async () => {
    const fs = fakeFs({ '/w/big.pdf': 4 * 1024 ** 3, '/w/ok.pdf': 10, '/w/pic.png': 10 });
    const field = pdfField();
    assert.deepEqual(await readChosenFiles(field, [vscode.Uri.file('/w/big.pdf')], fs), {
      problem: 'big.pdf is 4 GB; this field takes at most 1000 bytes',
    });
    assert.deepEqual(await readChosenFiles(field, [vscode.Uri.file('/w/pic.png')], fs), {
      problem: 'pic.png is not one of the accepted types (PDF, TXT)',
    });
    const many: FileField = { kind: 'file', name: 'f', label: 'F', required: false, multiple: true, rule: '' };
    assert.match(
      ((await readChosenFiles(many, [vscode.Uri.file('/w/ok.pdf'), vscode.Uri.file('/w/big.pdf')], fs)) as { problem: string }).problem,
      /Elicit sends at most 16 MB/,
    );
    assert.deepEqual(fs.reads, [], 'not one byte read');
  });

  it('reads the files once they all fit, into the values sent', async () => {
    const fs = fakeFs({ '/w/ok.pdf': 10 });
    const chosen = await readChosenFiles(pdfField(), [vscode.Uri.file('/w/ok.pdf')], fs);
    assert.deepEqual(chosen, {
      files: [{ name: 'ok.pdf', size: 10, value: `data:application/pdf;name=ok.pdf;base64,${Buffer.alloc(10, 65).toString('base64')}` }],
    });
    assert.deepEqual(fs.reads, ['/w/ok.pdf']);
  });
});
