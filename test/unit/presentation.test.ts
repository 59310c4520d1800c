/** choosePresentation: the one decision point for quick input vs form. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Field, FormModel } from '../../src/core/form/fields';
import { normalize } from '../../src/core/form/normalize';
import { choosePresentation, MAX_QUICK_INPUT_DESCRIPTION, MAX_QUICK_INPUT_STEPS } from '../../src/core/form/presentation';
import { everythingSchema } from '../support/everythingSchema';
import { scriptedBroker } from '../support/scriptedRenderer';

function textFields(count: number, description?: string): FormModel {
  const fields: Field[] = Array.from({ length: count }, (_, i) => ({
    kind: 'text',
    name: `f${i}`,
    label: `Field ${i}`,
    required: false,
    secret: false,
    ...(description === undefined ? {} : { description }),
  }));
  return { fields };
}

describe('choosePresentation', () => {
  it('the limits are 3 steps and 200 characters of description', () => {
    assert.equal(MAX_QUICK_INPUT_STEPS, 3);
    assert.equal(MAX_QUICK_INPUT_DESCRIPTION, 200);
  });

  it('defaults to "auto"', () => {
    assert.equal(choosePresentation(textFields(1)), 'quickInput');
    assert.equal(choosePresentation(textFields(4)), 'form');
  });

  describe('auto', () => {
    it('no fields: a quick input (a plain confirmation)', () => {
      assert.equal(choosePresentation({ fields: [] }, 'auto'), 'quickInput');
    });

    for (const count of [1, 2, 3]) {
      it(`${count} simple field(s): a quick input`, () => {
        assert.equal(choosePresentation(textFields(count), 'auto'), 'quickInput');
      });
    }

    for (const count of [4, 5, 13, 100]) {
      it(`${count} fields: a form`, () => {
        assert.equal(choosePresentation(textFields(count), 'auto'), 'form');
      });
    }

    it('a description of 200 characters still fits; 201 needs a form', () => {
      assert.equal(choosePresentation(textFields(1, 'd'.repeat(200)), 'auto'), 'quickInput');
      assert.equal(choosePresentation(textFields(1, 'd'.repeat(201)), 'auto'), 'form');
    });

    it('one long description among short ones needs a form', () => {
      const form = textFields(3, 'short');
      form.fields[2] = { ...form.fields[2]!, description: 'long '.repeat(100) };
      assert.equal(choosePresentation(form, 'auto'), 'form');
    });

    it('kinds do not matter, only count and description length', () => {
      const form = normalize({
        type: 'object',
        properties: {
          ok: { type: 'boolean' },
          n: { type: 'integer', minimum: 1 },
          tags: { type: 'array', items: { enum: ['a', 'b'] } },
        },
      });
      assert.equal(choosePresentation(form, 'auto'), 'quickInput');
    });

    it('the 13-field server-everything schema is a form', () => {
      assert.equal(choosePresentation(normalize(structuredClone(everythingSchema)), 'auto'), 'form');
    });
  });

  describe('quickInput', () => {
    it('always a quick input, whatever the size or descriptions', () => {
      assert.equal(choosePresentation({ fields: [] }, 'quickInput'), 'quickInput');
      assert.equal(choosePresentation(textFields(1), 'quickInput'), 'quickInput');
      assert.equal(choosePresentation(textFields(13), 'quickInput'), 'quickInput');
      assert.equal(choosePresentation(textFields(2, 'x'.repeat(5000)), 'quickInput'), 'quickInput');
    });
  });

  describe('form', () => {
    it('always a form, even with no fields', () => {
      assert.equal(choosePresentation({ fields: [] }, 'form'), 'form');
      assert.equal(choosePresentation(textFields(1), 'form'), 'form');
      assert.equal(choosePresentation(textFields(50), 'form'), 'form');
    });
  });
});

describe('a later round of a request through the broker', () => {
  const sections = [
    {
      key: 'r2',
      message: 'And the tempo?',
      requestedSchema: { type: 'object', properties: { tempo: { type: 'integer' }, key: { type: 'string' } } },
    },
  ];
  const asker = { kind: 'mcp' as const, name: 'songs' };

  it('stays a form, with the earlier answers listed (issue #25 item 7); the first round of the same size is quick input', async () => {
    const seen: string[] = [];
    const { broker } = scriptedBroker((q) => {
      seen.push(q.presentation);
      return { action: 'decline' };
    });
    await broker.ask({ mode: 'group', asker, message: 'And the tempo?', sections });
    await broker.ask({
      mode: 'group',
      asker,
      message: 'And the tempo?',
      sections,
      earlier: [{ message: 'About the piece', lines: ['Title: Étude'] }],
    });
    assert.deepEqual(seen, ['quickInput', 'form']);
  });
});
