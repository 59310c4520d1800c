/** Which bounded numbers are a row of choices, which are stars, and the slider's range and step (issue #34 item 3). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NumberField } from '../../src/core/form/fields';
import { numberScale, sliderRange, starsText } from '../../src/core/form/numberScale';
import { normalize } from '../../src/core/form/normalize';

const field = (over: Partial<NumberField>): NumberField => ({
  kind: 'number',
  name: 'n',
  label: 'n',
  required: true,
  integer: true,
  ...over,
});

describe('numberScale', () => {
  it('makes a whole-number range of 2 to 10 values a row, and names stars only for a rating', () => {
    assert.deepEqual(numberScale(field({ label: 'Rate this clip', minimum: 1, maximum: 5 })), { values: [1, 2, 3, 4, 5], stars: true });
    assert.deepEqual(numberScale(field({ label: 'Priority', minimum: 1, maximum: 3 })), { values: [1, 2, 3], stars: false });
    assert.equal(numberScale(field({ label: 'Stars', description: 'how many', minimum: 0, maximum: 5 }))?.stars, true);
    assert.equal(numberScale(field({ label: 'Quality', description: 'Your score', minimum: 1, maximum: 10 }))?.stars, true);
    // "rated" and "restart" are not the words; a range below zero is no star rating.
    assert.equal(numberScale(field({ label: 'Restarts allowed', minimum: 1, maximum: 5 }))?.stars, false);
    assert.equal(numberScale(field({ label: 'Rating', minimum: -2, maximum: 2 }))?.stars, false);
  });

  it('leaves out numbers that are not whole, unbounded on a side, of one value or of more than ten', () => {
    assert.equal(numberScale(field({ integer: false, minimum: 1, maximum: 5 })), undefined);
    assert.equal(numberScale(field({ minimum: 1 })), undefined);
    assert.equal(numberScale(field({ maximum: 5 })), undefined);
    assert.equal(numberScale(field({ minimum: 3, maximum: 3 })), undefined);
    assert.equal(numberScale(field({ minimum: 1, maximum: 11 })), undefined);
    assert.deepEqual(numberScale(field({ minimum: 0.5, maximum: 3.5 }))?.values, [1, 2, 3]);
  });

  it('draws a value as filled and hollow stars up to the highest of the scale', () => {
    const scale = numberScale(field({ label: 'Rating', minimum: 1, maximum: 5 }))!;
    assert.equal(starsText(1, scale), '★☆☆☆☆');
    assert.equal(starsText(5, scale), '★★★★★');
    assert.equal(starsText(0, numberScale(field({ label: 'Rating', minimum: 0, maximum: 3 }))!), '☆☆☆');
  });
});

describe('sliderRange', () => {
  it('gives a bounded number that is no row a slider: whole numbers by 1, others by a round step', () => {
    assert.deepEqual(sliderRange(field({ label: 'BPM', minimum: 60, maximum: 180 })), { min: 60, max: 180, step: 1 });
    assert.deepEqual(sliderRange(field({ integer: false, minimum: 0, maximum: 1 })), { min: 0, max: 1, step: 0.01 });
    assert.deepEqual(sliderRange(field({ integer: false, minimum: 0, maximum: 5000 })), { min: 0, max: 5000, step: 1 });
    assert.equal(sliderRange(field({ minimum: 1, maximum: 5 })), undefined, 'a row of choices instead');
    assert.equal(sliderRange(field({ minimum: 60 })), undefined);
    assert.equal(sliderRange(field({ minimum: 5, maximum: 5 })), undefined);
    assert.equal(sliderRange(field({ minimum: 0.2, maximum: 0.8 })), undefined, 'no whole number in reach');
    assert.equal(sliderRange(field({ integer: false, minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE })), undefined);
  });
});

describe('option descriptions and previews', () => {
  it("reads an option's description and claude's preview, leaves out a malformed preview, cuts a huge one", () => {
    const form = normalize({
      type: 'object',
      properties: {
        layout: {
          type: 'string',
          oneOf: [
            {
              const: 'Grid',
              title: 'Grid',
              description: 'Cards in rows.',
              _meta: { '_claude/askUserQuestionOption': { preview: '┌──┐\r\n│  │\r\n└──┘' } },
            },
            { const: 'List', title: 'List', _meta: { '_claude/askUserQuestionOption': { preview: 42 } } },
            { const: 'Wall', _meta: { '_claude/askUserQuestionOption': { preview: 'x'.repeat(30_000) } } },
            { const: 'Plain', _meta: 'not an object' },
          ],
        },
      },
    });
    const [grid, list, wall, plain] = form.fields[0]!.kind === 'choice' ? form.fields[0].options : [];
    assert.deepEqual(grid, { value: 'Grid', label: 'Grid', description: 'Cards in rows.', preview: '┌──┐\n│  │\n└──┘' });
    assert.deepEqual(list, { value: 'List', label: 'List' });
    assert.equal(wall!.preview!.length, 20_001);
    assert.deepEqual(plain, { value: 'Plain', label: 'Plain' });
  });

  it('refuses an option description that is not text, as any other description', () => {
    assert.throws(
      () => normalize({ type: 'object', properties: { a: { type: 'string', oneOf: [{ const: 'x', description: 7 }] } } }),
      /oneOf\[0\]\.description must be a string/,
    );
  });
});
