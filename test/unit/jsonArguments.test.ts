/** checkJsonArguments: tool arguments typed as JSON, checked against the tool's full input schema. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkJsonArguments } from '../../src/core/form/jsonArguments';

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    filter: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1 },
        range: {
          type: 'object',
          properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
          required: ['from'],
        },
        tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      },
      additionalProperties: false,
    },
  },
  required: ['query'],
};

describe('checkJsonArguments', () => {
  it('returns a valid value as parsed', () => {
    const text = JSON.stringify({
      query: 'rain',
      filter: { limit: 5, range: { from: '2026-01-01', to: '2026-01-31' }, tags: [{ name: 'eu' }] },
    });
    assert.deepEqual(checkJsonArguments(schema, text), { value: JSON.parse(text) as Record<string, unknown> });
  });

  it("bad JSON: the parser's reason", () => {
    const result = checkJsonArguments(schema, '{"query": "rain",}');
    assert.equal(result.value, undefined);
    assert.match(result.error!, /^Not valid JSON: /);
    assert.match(checkJsonArguments(schema, '{query: 1}').error!, /^Not valid JSON: /);
  });

  it('JSON that is not an object', () => {
    for (const text of ['[]', '[{"query":"x"}]', '"rain"', '42', 'null', 'true']) {
      assert.deepEqual(checkJsonArguments(schema, text), { error: 'Must be a JSON object' }, text);
    }
  });

  it('a schema violation names the path of the offending value', () => {
    assert.deepEqual(checkJsonArguments(schema, '{"query": "x", "filter": {"limit": 0}}'), { error: 'filter.limit must be >= 1' });
    assert.deepEqual(checkJsonArguments(schema, '{"query": "x", "filter": {"range": {"from": "yesterday"}}}'), {
      error: 'filter.range.from must match format "date"',
    });
    assert.deepEqual(checkJsonArguments(schema, '{"query": "x", "filter": {"range": {}}}'), {
      error: "filter.range must have required property 'from'",
    });
    assert.deepEqual(checkJsonArguments(schema, '{"query": "x", "filter": {"tags": [{"name": "a"}, {"name": 2}]}}'), {
      error: 'filter.tags.1.name must be string',
    });
    assert.deepEqual(checkJsonArguments(schema, '{"query": "x", "filter": {"extra": 1}}'), {
      error: 'filter must NOT have additional properties',
    });
  });

  it('a violation at the top level has no path', () => {
    assert.deepEqual(checkJsonArguments(schema, '{}'), { error: "must have required property 'query'" });
    assert.deepEqual(checkJsonArguments(schema, '   '), { error: "must have required property 'query'" });
  });

  it('empty text is an empty object', () => {
    assert.deepEqual(checkJsonArguments({ type: 'object' }, ''), { value: {} });
    assert.deepEqual(checkJsonArguments({ type: 'object' }, ' \n '), { value: {} });
  });

  it('the same schema object is compiled once and gives the same verdicts again', () => {
    assert.deepEqual(checkJsonArguments(schema, '{"query": ""}'), { error: 'query must NOT have fewer than 1 characters' });
    assert.deepEqual(checkJsonArguments(schema, '{"query": ""}'), { error: 'query must NOT have fewer than 1 characters' });
    assert.deepEqual(checkJsonArguments(schema, '{"query": "ok"}'), { value: { query: 'ok' } });
  });

  it('a schema ajv cannot compile still accepts any JSON object (the server judges)', () => {
    const unresolvable = { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } };
    assert.deepEqual(checkJsonArguments(unresolvable, '{"a": 1}'), { value: { a: 1 } });
    const nonsense = { type: 'object', properties: { a: { type: 'no-such-type' } } };
    assert.deepEqual(checkJsonArguments(nonsense, '{"a": [1, 2]}'), { value: { a: [1, 2] } });
    // …but the JSON itself is still checked.
    assert.match(checkJsonArguments(unresolvable, '{').error!, /^Not valid JSON/);
    assert.deepEqual(checkJsonArguments(nonsense, '[]'), { error: 'Must be a JSON object' });
  });

  it('formats beyond the elicitation four are known (ajv-formats full set)', () => {
    const ip = { type: 'object', properties: { host: { type: 'string', format: 'ipv4' } } };
    assert.deepEqual(checkJsonArguments(ip, '{"host": "10.0.0.1"}'), { value: { host: '10.0.0.1' } });
    assert.deepEqual(checkJsonArguments(ip, '{"host": "10.0.0.300"}'), { error: 'host must match format "ipv4"' });
  });

  it('runs the patterns of a tool schema (nested, and patternProperties) in linear time, as forms do', () => {
    const hostile = {
      type: 'object',
      properties: { deep: { type: 'object', properties: { code: { type: 'string', pattern: '^(a|a){1,32}$' } } } },
      patternProperties: { '^(\\w|\\d){35}$': { type: 'number' } },
    };
    const nearMiss = 'a'.repeat(31) + '!';
    const key = '1'.repeat(35);
    const started = performance.now();
    assert.deepEqual(checkJsonArguments(hostile, JSON.stringify({ deep: { code: nearMiss } })), {
      error: 'deep.code is not in the form the tool asks for',
    });
    assert.deepEqual(checkJsonArguments(hostile, JSON.stringify({ [key]: 'x' })), { error: `${key} must be number` });
    assert.deepEqual(checkJsonArguments(hostile, JSON.stringify({ [key.slice(1) + '!']: 'x', deep: { code: 'aaa' } })).error, undefined);
    // V8's backtracking took seconds to minutes on each of these.
    assert.ok(performance.now() - started < 1_000, `took ${performance.now() - started} ms`);
  });
});
