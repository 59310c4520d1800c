/**
 * A large request must be cheap to check: option lookups are set lookups, in the
 * field rules and in ajv. Quadratic checks took 1.5 s in normalize and 4 s on
 * Submit here. The largest form read at all (formBudget.ts) holds one list of
 * 10,000 options with every option a default; five such lists are refused unread.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateAnswer } from '../../src/core/form/ajvAnswerCheck';
import { normalize } from '../../src/core/form/normalize';
import { completeAnswer } from '../../src/core/form/fieldRules';
import { fastestOfThree } from '../support/timing';

const options = Array.from({ length: 10_000 }, (_, i) => `option-${i}`);
const small = Array.from({ length: 100 }, (_, i) => `small-${i}`);
const properties: Record<string, unknown> = {};
properties.pick0 = { type: 'array', items: { type: 'string', enum: options }, default: options };
for (let f = 1; f < 3; f++) properties[`pick${f}`] = { type: 'array', items: { type: 'string', enum: small }, default: small };
properties.one = { type: 'string', enum: small, default: small.at(-1) };
const schema = { type: 'object', properties };

describe('many options', () => {
  it('checks 10 000 default choices in linear time before showing and on Submit', () => {
    assert.ok(fastestOfThree(() => normalize(schema)) < 300, 'normalize took too long');
    const form = normalize(schema);
    const answer = completeAnswer(form, {});
    assert.deepEqual(validateAnswer(form, answer), {});
    assert.ok(fastestOfThree(() => validateAnswer(form, answer)) < 300, 'validateAnswer took too long');
  });

  it('still refuses an option that is not offered, a repeated one, and a wrong type', () => {
    const form = normalize(schema);
    const answer = completeAnswer(form, {});
    const errors = validateAnswer(form, {
      ...answer,
      pick0: [...options.slice(1), 'option-x'],
      pick1: ['small-1', 'small-1'],
      pick2: [7 as unknown as string],
      one: 'nope',
    });
    assert.deepEqual(Object.keys(errors).sort(), ['one', 'pick0', 'pick1', 'pick2']);
    assert.equal(errors.pick0, 'Choose from the listed options');
    assert.equal(errors.pick1, 'Choose each option once');
    assert.equal(errors.one, 'Choose one of the listed options');
  });

  it('refuses five lists of 10 000 chosen options unread, saying the form is too large', () => {
    const many: Record<string, unknown> = {};
    for (let f = 0; f < 5; f++) many[`pick${f}`] = { type: 'array', items: { type: 'string', enum: options }, default: options };
    assert.throws(() => normalize({ type: 'object', properties: many }), /the form is too large to read/);
  });
});
