/** History entries never hold a secret, and say how each question ended. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnsweredQuestion, Question } from '../../src/core/broker/broker';
import { SECRET_MASK, toHistoryEntry } from '../../src/core/broker/history';
import { normalize } from '../../src/core/form/normalize';

function answered(result: AnsweredQuestion['result'], reason?: AnsweredQuestion['reason']): AnsweredQuestion {
  const requestedSchema = {
    type: 'object',
    properties: {
      user: { type: 'string', title: 'User' },
      token: { type: 'string', title: 'API token', format: 'password' },
      pin: { type: 'string', writeOnly: true },
      tags: { type: 'array', items: { enum: ['a', 'b'] } },
    },
  };
  const question: Question = {
    id: 1,
    request: { mode: 'form', asker: { kind: 'mcp', name: 'weather', detail: 'tool forecast' }, message: 'Sign in', requestedSchema },
    form: normalize(requestedSchema),
    presentation: 'form',
    receivedAt: 1000,
    state: 'showing',
  };
  return { question, result, answeredAt: 2000, reason };
}

describe('toHistoryEntry', () => {
  it('masks every secret field and keeps the others readable', () => {
    const entry = toHistoryEntry(answered({ action: 'accept', content: { user: 'ada', token: 'sk-123', pin: '0000', tags: ['a', 'b'] } }));
    assert.deepEqual(entry.answers, [
      { label: 'User', value: 'ada' },
      { label: 'API token', value: SECRET_MASK },
      { label: 'pin', value: SECRET_MASK },
      { label: 'tags', value: 'a, b' },
    ]);
    assert.ok(!JSON.stringify(entry).includes('sk-123'));
    assert.ok(!JSON.stringify(entry).includes('0000'));
    assert.equal(entry.asker.name, 'weather');
    assert.equal(entry.action, 'accept');
  });

  it('marks a question answered from memory as automatic (issue #22)', () => {
    const automatic: AnsweredQuestion = { ...answered({ action: 'accept', content: { user: 'ada' } }), automatic: [] };
    assert.equal(toHistoryEntry(automatic).automatic, true);
    assert.equal(toHistoryEntry(answered({ action: 'accept', content: { user: 'ada' } })).automatic, undefined);
  });

  it('records declines, timeouts and withdrawals without answers', () => {
    assert.equal(toHistoryEntry(answered({ action: 'decline' })).answers, undefined);
    assert.equal(toHistoryEntry(answered({ action: 'cancel' }, 'timeout')).reason, 'timeout');
    assert.equal(toHistoryEntry(answered({ action: 'cancel' }, 'aborted')).reason, 'aborted');
  });
});
