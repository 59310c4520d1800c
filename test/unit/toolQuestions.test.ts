/** Agent questions: input checking, the schema shown, and answers that never carry a secret value. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../src/core/errors';
import { normalize } from '../../src/core/normalize';
import type { ElicitRequest, ElicitResult } from '../../src/core/request';
import {
  OTHER_VALUE,
  TOOL_QUESTION_SCHEMA,
  askToolQuestion,
  readToolQuestion,
  toRequestedSchema,
  toToolAnswer,
} from '../../src/core/toolQuestions';

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
      assert.throws(() => readToolQuestion(input), (e: unknown) => e instanceof InvalidRequestError && message.test(e.message));
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
    assert.throws(() => toRequestedSchema(readToolQuestion({ kind: 'form', question: 'q', schema: { type: 'object', properties: { a: { type: 'object' } } } })), InvalidRequestError);
  });
});

describe('toToolAnswer and askToolQuestion', () => {
  it('returns a reference, never the value, for a secret, and stores the value by name', async () => {
    const saved: Record<string, string> = {};
    const q = readToolQuestion({ kind: 'secret', question: 'Paste your key', secretName: 'openai-api-key' });
    const answer = await askToolQuestion(
      { ask: async () => ({ action: 'accept', content: { 'openai-api-key': 'sk-live-999' } }), saveSecret: async (n, v) => void (saved[n] = v) },
      asker,
      q,
    );
    assert.equal(answer.reference, '${secret:openai-api-key}');
    assert.ok(!JSON.stringify(answer).includes('sk-live-999'));
    assert.deepEqual(saved, { 'openai-api-key': 'sk-live-999' });
  });

  it('replaces a form\'s secret fields by references', () => {
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
    const replies: ElicitResult[] = [{ action: 'accept', content: { answer: OTHER_VALUE } }, { action: 'accept', content: { answer: 'Lydian' } }];
    const q = readToolQuestion({ kind: 'choice', question: 'Mode?', options: ['Ionian', 'Dorian'], allowOther: true });
    const answer = await askToolQuestion({ ask: async (r) => (asked.push(r), replies.shift()!), saveSecret: async () => undefined }, asker, q);
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
