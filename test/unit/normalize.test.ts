/** normalize(): requested schema → FormModel, or an InvalidRequestError naming the property. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateAnswer } from '../../src/core/form/ajvAnswerCheck';
import { InvalidRequestError, INVALID_PARAMS } from '../../src/core/errors';
import type { ChoiceField, Field, MultiChoiceField, NumberField, TextField } from '../../src/core/form/fields';
import { hasSecret, secretFieldNames } from '../../src/core/form/fields';
import { LIMITS, normalize, tryNormalize } from '../../src/core/form/normalize';
import { everythingSchema } from '../support/everythingSchema';

function schemaWith(properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'object', properties, ...extra };
}

/** The one field a one-property schema normalizes to. */
function only(prop: unknown, required = false): Field {
  const form = normalize(schemaWith({ f: prop }, required ? { required: ['f'] } : {}));
  assert.equal(form.fields.length, 1);
  return form.fields[0]!;
}

/** normalize() throws an InvalidRequestError whose message contains every fragment. */
function rejects(schema: unknown, ...fragments: string[]): string {
  let caught: unknown;
  try {
    normalize(schema);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof InvalidRequestError, `expected an InvalidRequestError, got ${String(caught)}`);
  assert.equal(caught.code, INVALID_PARAMS);
  assert.ok(caught.message.startsWith('Invalid elicitation schema: '), caught.message);
  for (const fragment of fragments) assert.ok(caught.message.includes(fragment), `"${caught.message}" lacks "${fragment}"`);
  return caught.message;
}

function rejectsProp(prop: unknown, ...fragments: string[]): string {
  return rejects(schemaWith({ myProp: prop }), 'property "myProp"', ...fragments);
}

describe('normalize: text fields', () => {
  it('a bare string is a plain text field labelled by its name', () => {
    assert.deepEqual(only({ type: 'string' }), { kind: 'text', name: 'f', label: 'f', required: false, secret: false });
  });

  it('keeps title, description, minLength, maxLength, pattern and default', () => {
    const field = only(
      { type: 'string', title: 'Code', description: 'Three letters', minLength: 3, maxLength: 3, pattern: '^[A-Z]+$', default: 'ABC' },
      true,
    );
    assert.deepEqual(field, {
      kind: 'text',
      name: 'f',
      label: 'Code',
      description: 'Three letters',
      required: true,
      secret: false,
      minLength: 3,
      maxLength: 3,
      pattern: '^[A-Z]+$',
      default: 'ABC',
    });
  });

  it('has no description key when the schema has none', () => {
    assert.equal(Object.hasOwn(only({ type: 'string' }), 'description'), false);
  });

  for (const format of ['email', 'uri', 'date', 'date-time'] as const) {
    it(`keeps format ${format}`, () => {
      const field = only({ type: 'string', format }) as TextField;
      assert.equal(field.kind, 'text');
      assert.equal(field.format, format);
      assert.equal(field.secret, false);
    });
  }

  for (const format of ['hostname', 'ipv4', 'uuid', 'color', '']) {
    it(`treats unknown format ${JSON.stringify(format)} as plain text`, () => {
      const field = only({ type: 'string', format }) as TextField;
      assert.equal(field.kind, 'text');
      assert.equal(Object.hasOwn(field, 'format'), false);
      assert.equal(field.secret, false);
    });
  }

  it('format password is a secret without a format', () => {
    const field = only({ type: 'string', format: 'password' }) as TextField;
    assert.equal(field.secret, true);
    assert.equal(field.format, undefined);
  });

  it('writeOnly: true is a secret, and keeps a real format', () => {
    const field = only({ type: 'string', writeOnly: true, format: 'email' }) as TextField;
    assert.equal(field.secret, true);
    assert.equal(field.format, 'email');
    assert.equal((only({ type: 'string', writeOnly: false }) as TextField).secret, false);
  });

  it('hasSecret and secretFieldNames find the secret fields', () => {
    const form = normalize(
      schemaWith({ user: { type: 'string' }, pass: { type: 'string', format: 'password' }, token: { type: 'string', writeOnly: true } }),
    );
    assert.equal(hasSecret(form), true);
    assert.deepEqual([...secretFieldNames(form)].sort(), ['pass', 'token']);
    assert.equal(hasSecret(normalize(schemaWith({ user: { type: 'string' } }))), false);
  });

  it('minLength 0 and equal min/max lengths are fine', () => {
    const field = only({ type: 'string', minLength: 0, maxLength: 0 }) as TextField;
    assert.equal(field.minLength, 0);
    assert.equal(field.maxLength, 0);
  });
});

describe('normalize: number and boolean fields', () => {
  it('number with minimum, maximum and default', () => {
    assert.deepEqual(only({ type: 'number', title: 'Ratio', minimum: -1.5, maximum: 2.5, default: 0.5 }), {
      kind: 'number',
      name: 'f',
      label: 'Ratio',
      required: false,
      integer: false,
      minimum: -1.5,
      maximum: 2.5,
      default: 0.5,
    });
  });

  it('integer with minimum, maximum and default', () => {
    const field = only({ type: 'integer', minimum: 60, maximum: 180, default: 90 }, true) as NumberField;
    assert.deepEqual(field, {
      kind: 'number',
      name: 'f',
      label: 'f',
      required: true,
      integer: true,
      minimum: 60,
      maximum: 180,
      default: 90,
    });
  });

  it('a bare number has no bounds', () => {
    const field = only({ type: 'number' }) as NumberField;
    assert.deepEqual(field, { kind: 'number', name: 'f', label: 'f', required: false, integer: false });
  });

  it('boolean with and without a default', () => {
    assert.deepEqual(only({ type: 'boolean', default: false }), {
      kind: 'boolean',
      name: 'f',
      label: 'f',
      required: false,
      default: false,
    });
    assert.deepEqual(only({ type: 'boolean', description: 'Agree?' }), {
      kind: 'boolean',
      name: 'f',
      label: 'f',
      description: 'Agree?',
      required: false,
    });
  });
});

describe('normalize: single choice', () => {
  it('untitled enum: labels are the values', () => {
    const field = only({ type: 'string', enum: ['a', 'b'], default: 'b' }) as ChoiceField;
    assert.equal(field.kind, 'choice');
    assert.deepEqual(field.options, [
      { value: 'a', label: 'a' },
      { value: 'b', label: 'b' },
    ]);
    assert.equal(field.default, 'b');
  });

  it('enum without a type is a choice too', () => {
    assert.equal(only({ enum: ['x'] }).kind, 'choice');
  });

  it('titled oneOf {const, title}', () => {
    const field = only({
      type: 'string',
      oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }, { const: 'b' }],
    }) as ChoiceField;
    assert.deepEqual(field.options, [
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
      { value: 'b', label: 'b' },
    ]);
  });

  it('titled anyOf {const, title}', () => {
    const field = only({ type: 'string', anyOf: [{ const: 'r', title: 'Red' }] }) as ChoiceField;
    assert.equal(field.kind, 'choice');
    assert.deepEqual(field.options, [{ value: 'r', label: 'Red' }]);
  });

  it('legacy enum + enumNames', () => {
    const field = only({ type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'], default: 'p2' }) as ChoiceField;
    assert.deepEqual(field.options, [
      { value: 'p1', label: 'Cats' },
      { value: 'p2', label: 'Dogs' },
    ]);
    assert.equal(field.default, 'p2');
  });

  it('no default key when none is given', () => {
    assert.equal(Object.hasOwn(only({ type: 'string', enum: ['a'] }), 'default'), false);
  });
});

describe('normalize: multiple choice', () => {
  it('a multi-select with minItems ≥ 1 is required, listed in `required` or not; minItems 0 changes nothing', () => {
    const fields = normalize({
      type: 'object',
      properties: {
        some: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 1 },
        none: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 0 },
        free: { type: 'array', items: { enum: ['a', 'b'] } },
      },
    }).fields;
    assert.deepEqual(
      fields.map((f) => [f.name, f.required]),
      [
        ['some', true],
        ['none', false],
        ['free', false],
      ],
    );
  });

  it('items.enum with minItems, maxItems and default', () => {
    const field = only(
      { type: 'array', title: 'Tags', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2, default: ['a'] },
      true,
    );
    assert.deepEqual(field, {
      kind: 'multiChoice',
      name: 'f',
      label: 'Tags',
      required: true,
      options: [
        { value: 'a', label: 'a' },
        { value: 'b', label: 'b' },
        { value: 'c', label: 'c' },
      ],
      minItems: 1,
      maxItems: 2,
      default: ['a'],
    });
  });

  it('items.anyOf with titles', () => {
    const field = only({
      type: 'array',
      items: {
        anyOf: [
          { const: 'f1', title: 'Tuna' },
          { const: 'f2', title: 'Salmon' },
        ],
      },
    }) as MultiChoiceField;
    assert.equal(field.kind, 'multiChoice');
    assert.deepEqual(field.options, [
      { value: 'f1', label: 'Tuna' },
      { value: 'f2', label: 'Salmon' },
    ]);
    assert.equal(field.minItems, undefined);
    assert.equal(field.maxItems, undefined);
  });

  it('items.oneOf is accepted as well', () => {
    const field = only({ type: 'array', items: { oneOf: [{ const: 'x' }] } }) as MultiChoiceField;
    assert.deepEqual(field.options, [{ value: 'x', label: 'x' }]);
  });

  it('a default listing an option twice is kept once', () => {
    const field = only({ type: 'array', items: { enum: ['a', 'b'] }, default: ['b', 'b', 'a'] }) as MultiChoiceField;
    assert.deepEqual(field.default, ['b', 'a']);
  });

  it('maxItems may exceed the options and minItems may equal them', () => {
    const field = only({ type: 'array', items: { enum: ['a', 'b'] }, minItems: 2, maxItems: 10 }) as MultiChoiceField;
    assert.equal(field.minItems, 2);
    assert.equal(field.maxItems, 10);
  });
});

describe('normalize: the schema as a whole', () => {
  it('required marks exactly the named fields', () => {
    const form = normalize(schemaWith({ a: { type: 'string' }, b: { type: 'number' }, c: { type: 'boolean' } }, { required: ['c', 'a'] }));
    assert.deepEqual(
      form.fields.map((f) => [f.name, f.required]),
      [
        ['a', true],
        ['b', false],
        ['c', true],
      ],
    );
  });

  it('missing properties is an empty form; so is a schema without type', () => {
    assert.deepEqual(normalize({ type: 'object' }), { fields: [] });
    assert.deepEqual(normalize({}), { fields: [] });
    assert.deepEqual(
      normalize({ properties: { a: { type: 'string' } } }).fields.map((f) => f.name),
      ['a'],
    );
  });

  it('keeps the order the asker listed the properties in', () => {
    const names = ['zeta', 'alpha', 'mid', 'beta', 'omega'];
    const properties = Object.fromEntries(names.map((n) => [n, { type: 'string' }]));
    assert.deepEqual(
      normalize(schemaWith(properties)).fields.map((f) => f.name),
      names,
    );
  });

  it('accepts exactly 100 properties', () => {
    const properties = Object.fromEntries(Array.from({ length: LIMITS.maxFields }, (_, i) => [`p${i}`, { type: 'boolean' }]));
    assert.equal(normalize(schemaWith(properties)).fields.length, 100);
  });

  it('accepts exactly 10000 options, single and multiple', () => {
    const values = Array.from({ length: LIMITS.maxOptions }, (_, i) => `o${i}`);
    assert.equal((only({ type: 'string', enum: values }) as ChoiceField).options.length, 10_000);
    assert.equal((only({ type: 'array', items: { enum: values } }) as MultiChoiceField).options.length, 10_000);
  });

  it('keeps, for a text field with a pattern, the first of its examples that the field accepts', () => {
    const fields = normalize({
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{3}$', examples: [null, 'abc', 'ABC', 'XYZ'] },
        none: { type: 'string', pattern: '^[A-Z]{3}$', examples: ['abc'] },
        plain: { type: 'string', examples: ['anything'] },
      },
    }).fields;
    assert.deepEqual(
      fields.map((f) => (f.kind === 'text' ? f.example : 'not text')),
      ['ABC', undefined, undefined],
    );
  });

  it('ignores keywords it has no use for (const, examples, additionalProperties, $schema)', () => {
    const form = normalize({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'string', examples: ['x'] } },
    });
    assert.equal(form.fields.length, 1);
  });
});

describe('normalize: the server-everything schema', () => {
  const form = normalize(structuredClone(everythingSchema));
  const byName = new Map(form.fields.map((f) => [f.name, f]));

  it('has 13 fields in the listed order with kinds and labels', () => {
    assert.equal(form.fields.length, 13);
    assert.deepEqual(
      form.fields.map((f) => [f.name, f.kind, f.label]),
      [
        ['name', 'text', 'String'],
        ['check', 'boolean', 'Boolean'],
        ['firstLine', 'text', 'String with default'],
        ['email', 'text', 'String with email format'],
        ['homepage', 'text', 'String with uri format'],
        ['birthdate', 'text', 'String with date format'],
        ['integer', 'number', 'Integer'],
        ['number', 'number', 'Number in range 1-1000'],
        ['untitledSingleSelectEnum', 'choice', 'Untitled Single Select Enum'],
        ['untitledMultipleSelectEnum', 'multiChoice', 'Untitled Multiple Select Enum'],
        ['titledSingleSelectEnum', 'choice', 'Titled Single Select Enum'],
        ['titledMultipleSelectEnum', 'multiChoice', 'Titled Multiple Select Enum'],
        ['legacyTitledEnum', 'choice', 'Legacy Titled Single Select Enum'],
      ],
    );
  });

  it('name is required, and so are the multi-selects (minItems 1); every field has its description, nothing is secret', () => {
    assert.deepEqual(
      form.fields.filter((f) => f.required).map((f) => f.name),
      ['name', 'untitledMultipleSelectEnum', 'titledMultipleSelectEnum'],
    );
    for (const field of form.fields) {
      const source = everythingSchema.properties[field.name as keyof typeof everythingSchema.properties];
      assert.equal(field.description, source.description, field.name);
    }
    assert.equal(hasSecret(form), false);
  });

  it('text fields: formats and the default', () => {
    assert.deepEqual(byName.get('name'), {
      kind: 'text',
      name: 'name',
      label: 'String',
      description: 'Your full, legal name',
      required: true,
      secret: false,
    });
    assert.equal((byName.get('firstLine') as TextField).default, 'It was a dark and stormy night.');
    assert.equal((byName.get('email') as TextField).format, 'email');
    assert.equal((byName.get('homepage') as TextField).format, 'uri');
    assert.equal((byName.get('birthdate') as TextField).format, 'date');
    assert.equal((byName.get('name') as TextField).format, undefined);
  });

  it('number fields: integer flag, bounds and defaults', () => {
    const integer = byName.get('integer') as NumberField;
    assert.deepEqual([integer.integer, integer.minimum, integer.maximum, integer.default], [true, 1, 100, 42]);
    const number = byName.get('number') as NumberField;
    assert.deepEqual([number.integer, number.minimum, number.maximum, number.default], [false, 0, 1000, 3.14]);
  });

  it('boolean without default', () => {
    assert.deepEqual(byName.get('check'), {
      kind: 'boolean',
      name: 'check',
      label: 'Boolean',
      description: 'Agree to the terms and conditions',
      required: false,
    });
  });

  it('single choices: untitled, titled oneOf, legacy enumNames', () => {
    const friends = byName.get('untitledSingleSelectEnum') as ChoiceField;
    assert.deepEqual(
      friends.options.map((o) => o.value),
      ['Monica', 'Rachel', 'Joey', 'Chandler', 'Ross', 'Phoebe'],
    );
    assert.ok(friends.options.every((o) => o.label === o.value));
    assert.equal(friends.default, 'Monica');
    const heroes = byName.get('titledSingleSelectEnum') as ChoiceField;
    assert.deepEqual(heroes.options, [
      { value: 'hero-1', label: 'Superman' },
      { value: 'hero-2', label: 'Green Lantern' },
      { value: 'hero-3', label: 'Wonder Woman' },
    ]);
    assert.equal(heroes.default, 'hero-1');
    const pets = byName.get('legacyTitledEnum') as ChoiceField;
    assert.deepEqual(
      pets.options.map((o) => `${o.value}=${o.label}`),
      ['pet-1=Cats', 'pet-2=Dogs', 'pet-3=Birds', 'pet-4=Fish', 'pet-5=Reptiles'],
    );
    assert.equal(pets.default, 'pet-1');
  });

  it('multiple choices: untitled enum and titled anyOf, 1 to 3 items, defaults', () => {
    const instruments = byName.get('untitledMultipleSelectEnum') as MultiChoiceField;
    assert.deepEqual(
      instruments.options.map((o) => o.label),
      ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass'],
    );
    assert.deepEqual([instruments.minItems, instruments.maxItems, instruments.default], [1, 3, ['Guitar']]);
    const fish = byName.get('titledMultipleSelectEnum') as MultiChoiceField;
    assert.deepEqual(fish.options, [
      { value: 'fish-1', label: 'Tuna' },
      { value: 'fish-2', label: 'Salmon' },
      { value: 'fish-3', label: 'Trout' },
    ]);
    assert.deepEqual([fish.minItems, fish.maxItems, fish.default], [1, 3, ['fish-1']]);
  });

  it('does not modify the schema it was given', () => {
    const copy = structuredClone(everythingSchema);
    normalize(copy);
    assert.deepEqual(copy, structuredClone(everythingSchema));
  });
});

describe('normalize: rejections name the property and the problem', () => {
  it('a nested object', () => {
    rejectsProp({ type: 'object', properties: { street: { type: 'string' } } }, 'nested object');
  });

  it('$ref at the top level, in a property and in items', () => {
    rejects({ $ref: '#/$defs/form' }, 'requestedSchema uses $ref');
    rejectsProp({ $ref: '#/$defs/x' }, 'uses $ref');
    rejectsProp({ type: 'array', items: { $ref: '#/$defs/option' } }, 'property "myProp": items uses $ref');
  });

  it('other composition keywords ($dynamicRef, allOf, not, if, patternProperties)', () => {
    rejectsProp({ type: 'string', allOf: [{ minLength: 1 }] }, 'allOf');
    rejectsProp({ type: 'string', not: { const: 'x' } }, 'not');
    rejectsProp({ type: 'string', if: { const: 'x' } }, 'if');
    rejectsProp({ type: 'string', $dynamicRef: '#x' }, '$dynamicRef');
    rejects({ type: 'object', patternProperties: { '^x': { type: 'string' } } }, 'requestedSchema uses patternProperties');
  });

  it('an array of objects', () => {
    rejectsProp({ type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }, 'array of objects');
  });

  it('an array without items, items of another type, items without options', () => {
    rejectsProp({ type: 'array' }, 'without items');
    rejectsProp({ type: 'array', items: { type: 'number', enum: [1] } }, 'items must be options', '"number"');
    rejectsProp({ type: 'array', items: { type: 'string' } }, 'items must list options');
    rejectsProp({ type: 'array', items: 'string' }, 'items must be an object');
  });

  it('required naming something that is not a property, or not a list of strings', () => {
    rejects(
      schemaWith({ a: { type: 'string' } }, { required: ['a', 'ghost'] }),
      'requestedSchema.required names "ghost", which is not a property',
    );
    rejects(schemaWith({ a: { type: 'string' } }, { required: 'a' }), 'requestedSchema.required must be an array');
    rejects(schemaWith({ a: { type: 'string' } }, { required: [1] }), 'requestedSchema.required must contain only strings');
    rejects({ type: 'object', required: ['toString'] }, '"toString", which is not a property');
  });

  describe('a default of the wrong type', () => {
    it('text', () => {
      rejectsProp({ type: 'string', default: 5 }, 'default must be a string, not 5');
      rejectsProp({ type: 'string', default: null }, 'default must be a string, not null');
    });
    it('number', () => {
      rejectsProp({ type: 'number', default: '5' }, 'default must be a number, not "5"');
      rejectsProp({ type: 'number', default: true }, 'default must be a number, not true');
    });
    it('integer', () => {
      rejectsProp({ type: 'integer', default: 1.5 }, 'default must be a whole number');
      rejectsProp({ type: 'integer', default: [1] }, 'default must be a number, not a list');
    });
    it('boolean', () => {
      rejectsProp({ type: 'boolean', default: 'true' }, 'default must be a boolean');
    });
    it('single choice', () => {
      rejectsProp({ type: 'string', enum: ['a', 'b'], default: 'c' }, 'default "c" is not one of the options');
      rejectsProp({ type: 'string', enum: ['1'], default: 1 }, 'default 1 is not one of the options');
    });
    it('multiple choice', () => {
      rejectsProp({ type: 'array', items: { enum: ['a'] }, default: 'a' }, 'default must be a list of the options');
      rejectsProp({ type: 'array', items: { enum: ['a'] }, default: ['a', 'z'] }, 'default must be a list of the options');
    });
  });

  it('an empty enum, single and multiple', () => {
    rejectsProp({ type: 'string', enum: [] }, 'has no options');
    rejectsProp({ type: 'array', items: { enum: [] } }, 'items has no options');
    rejectsProp({ type: 'string', oneOf: [] }, 'has no options');
  });

  it('duplicate options', () => {
    rejectsProp({ type: 'string', enum: ['a', 'b', 'a'] }, 'repeats an option');
    rejectsProp(
      {
        type: 'string',
        oneOf: [
          { const: 'a', title: 'A' },
          { const: 'a', title: 'Also A' },
        ],
      },
      'repeats an option',
    );
    rejectsProp({ type: 'array', items: { anyOf: [{ const: 'x' }, { const: 'x' }] } }, 'items repeats an option');
  });

  it('enumNames of another length, or not strings', () => {
    rejectsProp({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] }, 'enumNames must be a list as long as enum');
    rejectsProp({ type: 'string', enum: ['a'], enumNames: 'A' }, 'enumNames must be a list as long as enum');
    rejectsProp({ type: 'string', enum: ['a'], enumNames: [1] }, 'enumNames must contain only strings');
  });

  it('malformed options', () => {
    rejectsProp({ type: 'string', enum: ['a', 2] }, 'enum values must be strings, not 2');
    rejectsProp({ type: 'string', enum: 'a' }, 'enum must be a list');
    rejectsProp({ type: 'string', oneOf: [{ title: 'no const' }] }, 'oneOf[0] needs a string const');
    rejectsProp({ type: 'string', anyOf: ['a'] }, 'anyOf[0] must be an object');
    rejectsProp({ type: 'string', oneOf: [{ const: 'a', title: 7 }] }, 'oneOf[0].title must be a string');
    rejectsProp({ type: 'string', anyOf: { const: 'a' } }, 'anyOf must be a list');
  });

  it('minimum greater than maximum: length, number and items', () => {
    rejectsProp({ type: 'string', minLength: 5, maxLength: 4 }, 'minLength 5 is greater than maxLength 4');
    rejectsProp({ type: 'number', minimum: 10, maximum: 9.5 }, 'minimum 10 is greater than maximum 9.5');
    rejectsProp({ type: 'integer', minimum: 1, maximum: 0 }, 'minimum 1 is greater than maximum 0');
    rejectsProp({ type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 3, maxItems: 2 }, 'minItems 3 is greater than maxItems 2');
  });

  it('minItems greater than the number of options', () => {
    rejectsProp({ type: 'array', items: { enum: ['a', 'b'] }, minItems: 3 }, 'minItems 3 is more than the 2 options');
  });

  it('bounds that are not numbers or not counts', () => {
    rejectsProp({ type: 'string', minLength: -1 }, 'minLength must be a whole number of 0 or more');
    rejectsProp({ type: 'string', maxLength: 2.5 }, 'maxLength must be a whole number');
    rejectsProp({ type: 'string', maxLength: '3' }, 'maxLength must be a whole number');
    rejectsProp({ type: 'number', minimum: '0' }, 'minimum must be a number');
    rejectsProp({ type: 'number', maximum: Infinity }, 'maximum must be a number');
    rejectsProp({ type: 'number', default: NaN }, 'default must be a number');
    rejectsProp({ type: 'array', items: { enum: ['a'] }, maxItems: -2 }, 'maxItems must be a whole number');
  });

  it('a bad pattern', () => {
    rejectsProp({ type: 'string', pattern: '([a-z' }, 'pattern is not a valid regular expression');
    rejectsProp({ type: 'string', pattern: '\\p{Nope}' }, 'pattern is not a valid regular expression');
    rejectsProp({ type: 'string', pattern: 42 }, 'pattern must be a string');
    rejectsProp({ type: 'string', pattern: 'a'.repeat(LIMITS.maxPatternLength + 1) }, 'pattern is longer than 1000 characters');
  });

  it('title, description and format of the wrong type', () => {
    rejectsProp({ type: 'string', title: 1 }, 'title must be a string');
    rejectsProp({ type: 'string', description: {} }, 'description must be a string');
    rejectsProp({ type: 'string', format: ['email'] }, 'format must be a string');
  });

  it('an unknown type, no type, a list of types', () => {
    rejectsProp({ type: 'date' }, 'has unsupported type "date"');
    rejectsProp({ type: 'null' }, 'has unsupported type "null"');
    rejectsProp({ type: 7 }, 'has unsupported type 7');
    rejectsProp({ title: 'untyped' }, 'has no type');
    rejectsProp({ type: ['string', 'null'] }, 'has a list of types');
  });

  it('a property that is not an object', () => {
    rejectsProp('string', 'must be an object, not "string"');
    rejectsProp(null, 'must be an object, not null');
    rejectsProp(true, 'must be an object, not true');
    rejectsProp([{ type: 'string' }], 'must be an object, not a list');
  });

  it('a schema that is not an object', () => {
    rejects(null, 'requestedSchema must be an object, not null');
    rejects(undefined, 'requestedSchema must be an object, not undefined');
    rejects([], 'requestedSchema must be an object, not a list');
    rejects('{"type":"object"}', 'requestedSchema must be an object, not "{\\"type\\":\\"object\\"}"');
    rejects(42, 'requestedSchema must be an object, not 42');
  });

  it('a top-level type other than object, properties that are not an object', () => {
    rejects({ type: 'array' }, 'requestedSchema must have type "object", not "array"');
    rejects({ type: 'object', properties: [] }, 'requestedSchema.properties must be an object, not a list');
  });

  it('more than 100 properties', () => {
    const properties = Object.fromEntries(Array.from({ length: LIMITS.maxFields + 1 }, (_, i) => [`p${i}`, { type: 'boolean' }]));
    rejects(schemaWith(properties), 'requestedSchema has 101 properties; at most 100 are supported');
  });

  it('more than 10000 options', () => {
    const values = Array.from({ length: LIMITS.maxOptions + 1 }, (_, i) => `o${i}`);
    rejectsProp({ type: 'string', enum: values }, 'has 10001 options; at most 10000 are supported');
    rejectsProp({ type: 'array', items: { enum: values } }, 'items has 10001 options');
  });

  it('property names that are empty or too long', () => {
    rejects(schemaWith({ '': { type: 'string' } }), 'property names must be 1 to 200 characters long');
    rejects(schemaWith({ ['n'.repeat(201)]: { type: 'string' } }), 'property names must be 1 to 200 characters long');
    assert.equal(normalize(schemaWith({ ['n'.repeat(200)]: { type: 'string' } })).fields.length, 1);
  });

  it('clips long asker text echoed into a message', () => {
    const name = 'x'.repeat(150);
    const message = rejects(schemaWith({ [name]: { type: 'string', enum: ['a'], default: 'y'.repeat(5000) } }), 'property "xxx', '...');
    assert.ok(message.length < 250, `message is ${message.length} characters`);
    assert.ok(!message.includes('x'.repeat(61)));
    assert.ok(!message.includes('y'.repeat(61)));
  });
});

describe("normalize: defaults that break their own field's rules", () => {
  // An untouched field's default is sent as the answer, so one that breaks the
  // field's rules is refused up front with an InvalidRequestError.
  const cases: Array<[string, Record<string, unknown>]> = [
    ['text shorter than minLength', { type: 'string', minLength: 3, default: 'a' }],
    ['text that is not an email', { type: 'string', format: 'email', default: 'nope' }],
    ['text that misses the pattern', { type: 'string', pattern: '^[0-9]+$', default: 'abc' }],
    ['a number above maximum', { type: 'integer', maximum: 3, default: 10 }],
    ['fewer options than minItems', { type: 'array', items: { enum: ['a', 'b'] }, minItems: 1, default: [] }],
  ];
  for (const [what, prop] of cases) {
    it(`refuses a default that is ${what}`, () => {
      rejectsProp(prop, 'default');
    });
  }
});

describe('normalize: odd property names', () => {
  it('names that are Object.prototype members are ordinary fields', () => {
    const form = normalize(schemaWith({ constructor: { type: 'string' }, toString: { type: 'number' } }, { required: ['constructor'] }));
    assert.deepEqual(
      form.fields.map((f) => [f.name, f.kind, f.required]),
      [
        ['constructor', 'text', true],
        ['toString', 'number', false],
      ],
    );
  });

  it('a "__proto__" property (from JSON.parse) is refused, since an answer object cannot carry it', () => {
    // JSON.parse makes "__proto__" an own key. Accepting it produced a form whose
    // answer lost the field (completeAnswer), whose "Required" error vanished
    // (checkAnswer) and whose ajv schema was corrupt (validateAnswer threw).
    const schema: unknown = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}');
    rejects(schema, 'property "__proto__"');
  });
});

/** A small deterministic PRNG (mulberry32), so a failure is reproducible. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weirdValues(): unknown[] {
  const values: unknown[] = [];
  const throwing = (where: string): object =>
    Object.defineProperty({}, where, {
      enumerable: true,
      get() {
        throw new Error(`getter ${where}`);
      },
    });
  const hostileProxy = new Proxy(
    {},
    {
      get() {
        throw new TypeError('proxy get');
      },
      ownKeys() {
        throw new TypeError('proxy ownKeys');
      },
    },
  );
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { d: deep } };
  const cyclic: Record<string, unknown> = { type: 'object' };
  cyclic.properties = { self: cyclic };
  const huge = 'h'.repeat(1_000_000);

  values.push(
    undefined,
    null,
    0,
    -0,
    NaN,
    Infinity,
    1n,
    true,
    '',
    huge,
    Symbol('s'),
    () => ({}),
    [],
    [[]],
    new Date(0),
    /re/,
    new Map(),
    new Set(),
    Object.create(null),
    Object.create({ type: 'object', properties: { inherited: { type: 'string' } } }),
    Object.assign(Object.create(null), {
      type: 'object',
      properties: Object.assign(Object.create(null), { a: Object.assign(Object.create(null), { type: 'string' }) }),
    }),
    new (class Weird {
      type = 'object';
      properties = { a: { type: 'string' } };
    })(),
    throwing('type'),
    throwing('properties'),
    { type: 'object', properties: throwing('a') },
    { type: 'object', properties: { a: throwing('type') } },
    { type: 'object', properties: { a: { type: 'array', items: throwing('enum') } } },
    {
      type: 'object',
      properties: {
        a: {
          type: 'string',
          enum: new Proxy(['a'], {
            get: () => {
              throw new Error('enum');
            },
          }),
        },
      },
    },
    hostileProxy,
    { type: 'object', properties: hostileProxy },
    { type: 'object', properties: { a: hostileProxy } },
    deep,
    cyclic,
    { type: 'object', properties: { d: deep } },
    JSON.parse('{"__proto__":{"type":"array"},"type":"object","properties":{"a":{"type":"string"}}}'),
    JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"boolean"}}}'),
    JSON.parse('{"type":"object","properties":{"a":{"__proto__":{"type":"number"}}}}'),
    JSON.parse('{"type":"object","properties":{"a":{"type":"string","enum":["__proto__","constructor"]}}}'),
    {
      type: 'object',
      properties: { [huge.slice(0, 199)]: { type: 'string', title: huge, description: huge, default: huge, pattern: 'h'.repeat(999) } },
    },
    { type: 'object', properties: { a: { type: 'string', pattern: huge } } },
    { type: 'object', properties: { a: { type: 'string', enum: [huge, huge] } } },
    {
      type: 'object',
      properties: { a: { type: 'number', minimum: Number.MAX_VALUE, maximum: Number.MAX_VALUE, default: -Number.MAX_VALUE } },
    },
    { type: 'object', properties: { a: { type: 'integer', default: 2 ** 60 } } },
    { type: 'object', properties: { [Symbol('hidden')]: { type: 'object' } } },
  );

  const rand = random(20260131);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const atoms: unknown[] = [
    undefined,
    null,
    0,
    1,
    -1,
    2.5,
    NaN,
    '',
    'x',
    'object',
    'string',
    'array',
    'number',
    'integer',
    'boolean',
    true,
    false,
    [],
    {},
    ['a', 'b'],
    ['a', 'a'],
    [1],
  ];
  const keys = [
    'type',
    'properties',
    'required',
    'items',
    'enum',
    'enumNames',
    'oneOf',
    'anyOf',
    'const',
    'title',
    'description',
    'default',
    'minLength',
    'maxLength',
    'minimum',
    'maximum',
    'minItems',
    'maxItems',
    'pattern',
    'format',
    'writeOnly',
    '$ref',
    'allOf',
    '__proto__',
    'constructor',
  ];
  const build = (depth: number): unknown => {
    const roll = rand();
    if (depth > 4 || roll < 0.3) return pick(atoms);
    if (roll < 0.4) return Array.from({ length: Math.floor(rand() * 4) }, () => build(depth + 1));
    const object: Record<string, unknown> = {};
    const count = Math.floor(rand() * 6);
    for (let i = 0; i < count; i++)
      Object.defineProperty(object, pick(keys), { value: build(depth + 1), enumerable: true, configurable: true, writable: true });
    return object;
  };
  const templates = [
    { type: 'string' },
    { type: 'number' },
    { type: 'integer' },
    { type: 'boolean' },
    { type: 'array', items: { enum: ['a', 'b'] } },
    { type: 'string', enum: ['a', 'b'] },
    { type: 'string', oneOf: [{ const: 'a' }] },
  ];
  for (let i = 0; i < 300; i++) {
    // Half fully random, half a valid field with one key replaced by something random.
    if (i % 2 === 0) {
      values.push(build(0));
    } else {
      const prop: Record<string, unknown> = { ...pick(templates) };
      prop[pick(keys)] = build(2);
      values.push({ type: 'object', properties: { f: prop }, required: rand() < 0.5 ? ['f'] : pick(atoms) });
    }
  }
  return values;
}

describe('tryNormalize is total', () => {
  const values = weirdValues();

  it(`returns {form} or {error: InvalidRequestError} for ${values.length} weird values, never throws`, () => {
    let forms = 0;
    let errors = 0;
    for (const [i, value] of values.entries()) {
      let result: ReturnType<typeof tryNormalize>;
      try {
        result = tryNormalize(value);
      } catch (error) {
        assert.fail(`value #${i} threw ${String(error)}`);
      }
      const keys = Object.keys(result);
      assert.equal(keys.length, 1, `value #${i}`);
      if ('form' in result) {
        forms++;
        assert.ok(Array.isArray(result.form.fields), `value #${i}`);
        for (const field of result.form.fields) {
          assert.ok(['text', 'number', 'boolean', 'choice', 'multiChoice'].includes(field.kind), `value #${i}`);
          assert.equal(typeof field.name, 'string');
          assert.equal(typeof field.label, 'string');
        }
        // Whatever normalize accepts, the host's ajv check can compile and run.
        assert.doesNotThrow(() => validateAnswer(result.form, {}), `value #${i}`);
      } else {
        errors++;
        assert.ok(result.error instanceof InvalidRequestError, `value #${i}`);
        assert.ok(result.error.message.startsWith('Invalid elicitation schema: '), result.error.message);
        assert.ok(result.error.message.length < 400, `value #${i}: a ${result.error.message.length}-character message`);
      }
    }
    assert.ok(values.length >= 300);
    assert.ok(forms > 10 && errors > 100, `forms ${forms}, errors ${errors}`);
  });

  it('turns a throwing getter into a plain refusal', () => {
    const schema = Object.defineProperty({}, 'type', {
      get() {
        throw new Error('boom');
      },
    });
    const result = tryNormalize(schema);
    assert.ok('error' in result);
    assert.equal(result.error.message, 'Invalid elicitation schema: it could not be read');
  });

  it('returns the same refusal normalize() throws', () => {
    const result = tryNormalize({ type: 'object', properties: { a: { type: 'object' } } });
    assert.ok('error' in result);
    assert.match(result.error.message, /property "a" is a nested object/);
  });

  it('ignores inherited properties of the properties object', () => {
    const properties = Object.create({ inherited: { type: 'string' } }) as Record<string, unknown>;
    properties.own = { type: 'boolean' };
    const result = tryNormalize({ type: 'object', properties });
    assert.ok('form' in result);
    assert.deepEqual(
      result.form.fields.map((f) => f.name),
      ['own'],
    );
  });
});

describe('normalize: a form sent again', () => {
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

  it('is read once: the same JSON text in a new object gets the same form, frozen, since every question with it shares it', () => {
    const first = normalize(copy(everythingSchema));
    const again = normalize(copy(everythingSchema));
    assert.equal(again, first);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.fields));
    for (const field of first.fields) {
      assert.ok(Object.isFrozen(field), field.name);
      if (field.kind === 'choice' || field.kind === 'multiChoice') {
        for (const option of field.options) assert.ok(Object.isFrozen(option), field.name);
      }
    }
  });

  it('another text is another form', () => {
    const a = normalize({ type: 'object', properties: { a: { type: 'string' } } });
    const b = normalize({ type: 'object', properties: { a: { type: 'string', maxLength: 3 } } });
    assert.notEqual(a, b);
    assert.equal((b.fields[0] as TextField).maxLength, 3);
  });

  it('an object that is not plain data is read as it is, not as its JSON text', () => {
    const plain = { type: 'object', properties: { a: { type: 'string' } } };
    assert.equal(normalize(copy(plain)).fields[0]!.required, false);
    // JSON.stringify leaves out a property that is not enumerable, and an inherited one; reading the object sees them.
    const hidden = Object.defineProperty(copy(plain), 'required', { value: ['a'], enumerable: false });
    assert.equal(normalize(hidden).fields[0]!.required, true);
    const inherited = Object.assign(Object.create({ required: ['a'] }) as object, copy(plain));
    assert.equal(normalize(inherited).fields[0]!.required, true);
    const withToJson = { ...copy(plain), toJSON: () => ({ type: 'object', properties: {} }) };
    assert.equal(normalize(withToJson).fields.length, 1);
  });
});

describe('normalize: an option whose value is ""', () => {
  // Found by test/unit/fuzz.test.ts: "" means "no answer" everywhere, so a quick pick could
  // offer it, the person pick it, and the host's final check refuse it as "Required".
  for (const prop of [
    { type: 'string', enum: ['', 'a'] },
    { type: 'string', oneOf: [{ const: '', title: 'None' }] },
    { type: 'array', items: { anyOf: [{ const: 'a' }, { const: '' }] } },
  ]) {
    it(`is refused: ${JSON.stringify(prop)}`, () => {
      assert.throws(
        () => normalize({ type: 'object', properties: { f: prop }, required: ['f'] }),
        (error: unknown) => error instanceof InvalidRequestError && /property "f".* has an empty option value/.test(error.message),
      );
    });
  }
});

/**
 * Bidi controls and invisible characters in the text a field is shown with could make it read as
 * something else (U+202E turns "exe.txt" around). They are removed where the form is built, so no
 * renderer can miss them; what is sent back (property names, option values, defaults) is untouched.
 */
describe('normalize: text shown for a field is cleaned of bidi and invisible characters', () => {
  const RLO = '\u202e';
  const ZWSP = '\u200b';
  const form = normalize(
    schemaWith({
      [`to${ZWSP}ken`]: { type: 'string' },
      file: { type: 'string', title: `Open ${RLO}txt.exe`, description: `Runs${ZWSP} it\nthen stops`, default: `a${ZWSP}b` },
      legacy: { type: 'string', enum: ['x', 'y'], enumNames: [`Ex${RLO}`, 'Why'] },
      titled: { type: 'string', oneOf: [{ const: `v${ZWSP}1`, title: `One${RLO}` }, { const: `v${ZWSP}2` }] },
      many: { type: 'array', items: { anyOf: [{ const: 'm', title: `M${ZWSP}` }] } },
      example: { type: 'string', pattern: '^[a-z]+', examples: [`bad${RLO}`, 'good'] },
    }),
  );
  const field = (name: string): Field => form.fields.find((f) => f.name === name)!;

  it('cleans titles, descriptions and option labels, keeping line breaks', () => {
    assert.equal(field('file').label, 'Open txt.exe');
    assert.equal(field('file').description, 'Runs it\nthen stops');
    assert.deepEqual(
      (field('legacy') as ChoiceField).options.map((o) => o.label),
      ['Ex', 'Why'],
    );
    assert.deepEqual(
      (field('titled') as ChoiceField).options.map((o) => o.label),
      ['One', 'v2'],
    );
    assert.deepEqual(
      (field('many') as MultiChoiceField).options.map((o) => o.label),
      ['M'],
    );
  });

  it('labels an untitled property with its cleaned name, and answers under the name as sent', () => {
    const token = form.fields.find((f) => f.label === 'token')!;
    assert.equal(token.name, `to${ZWSP}ken`);
  });

  it('keeps values and defaults exactly as the asker sent them', () => {
    assert.deepEqual(
      (field('titled') as ChoiceField).options.map((o) => o.value),
      [`v${ZWSP}1`, `v${ZWSP}2`],
    );
    assert.equal((field('file') as TextField).default, `a${ZWSP}b`);
  });

  it('never offers an example that hides such characters', () => {
    assert.equal((field('example') as TextField).example, 'good');
  });
});
