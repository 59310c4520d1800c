/**
 * The draft of a question asked in quick-input steps, kept across a window
 * reload as the form's raw values (stepDraft.ts): ticks, typed text and
 * answered steps go in and come back; a secret never goes in.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalize } from '../../src/core/form/normalize';
import { stepDraft, stepsFromDraft } from '../../src/core/form/stepDraft';

const form = normalize({
  type: 'object',
  properties: {
    parts: { type: 'array', title: 'Parts', items: { type: 'string', enum: ['drums', 'bass', 'keys'] } },
    bpm: { type: 'integer', title: 'BPM', minimum: 60, maximum: 180 },
    key: { type: 'string', title: 'Key', enum: ['C', 'Am'] },
    apiKey: { type: 'string', title: 'API key', format: 'password' },
  },
});

describe('stepDraft', () => {
  it('keeps the ticks of the open step and the answers of the steps before, and gives them back', () => {
    const draft = stepDraft(form, { key: 'Am' }, { name: 'parts', partial: ['bass', 'keys'] });
    assert.deepEqual(draft, { key: 'Am', parts: ['bass', 'keys'] });
    const back = stepsFromDraft(form, JSON.parse(JSON.stringify(draft)));
    assert.deepEqual(
      [...back],
      [
        ['parts', ['bass', 'keys']],
        ['key', 'Am'],
      ],
    );
  });

  it('keeps a number box as typed, even before it reads as a number', () => {
    assert.deepEqual(stepDraft(form, {}, { name: 'bpm', partial: '12' }), { bpm: '12' });
    assert.deepEqual([...stepsFromDraft(form, { bpm: '12' })], [['bpm', '12']]);
    assert.deepEqual(stepDraft(form, { bpm: 96 }), { bpm: '96' });
  });

  it('never keeps a secret, typed or answered', () => {
    assert.deepEqual(stepDraft(form, { apiKey: 'sk-123' }, { name: 'apiKey', partial: 'sk-1234' }), {});
    assert.deepEqual([...stepsFromDraft(form, { apiKey: 'sk-123' })], []);
  });

  it('drops what does not fit its field (an old or foreign draft)', () => {
    assert.deepEqual([...stepsFromDraft(form, { parts: ['tuba'], key: 'X', nope: 'y' })], [['parts', []]]);
    assert.deepEqual([...stepsFromDraft(form, undefined)], []);
  });
});
