/**
 * The validator Elicit gives the MCP SDK's Client for tool results (issue #21, finding 2):
 * the SDK's dialect dispatch, every pattern through the bounded engine, and messages that do
 * not repeat the server's pattern.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileLinearPattern } from '../../src/core/form/linearPattern';
import { BoundedSchemaValidator, declaredDialect } from '../../src/mcp/resultCheck/schemaEngines';

describe('BoundedSchemaValidator', () => {
  const validator = new BoundedSchemaValidator();

  it('checks an exponential pattern in bounded steps and says what is wrong without quoting the pattern', () => {
    const pattern = '^(a|a)*$';
    const value = `${'a'.repeat(5_000)}!`;
    // The same engine, measured: a backtracking engine needs 2^5000 steps for this.
    const { matched, steps } = compileLinearPattern(pattern).measure(value);
    assert.equal(matched, false);
    assert.ok(steps <= (value.length + 1) * compileLinearPattern(pattern).cost, `${steps} steps`);
    const check = validator.getValidator<{ code: string }>({ type: 'object', properties: { code: { type: 'string', pattern } } });
    const outcome = check({ code: value });
    assert.equal(outcome.valid, false);
    assert.equal(outcome.errorMessage, 'code is not in the form the schema asks for');
    assert.deepEqual(check({ code: 'aaa' }), { valid: true, data: { code: 'aaa' }, errorMessage: undefined });
  });

  it('refuses, at compile time, a pattern the bounded engine refuses, naming the pattern as the cause', () => {
    assert.throws(
      () => validator.getValidator({ type: 'string', pattern: 'a'.repeat(1_001) }),
      /A pattern in the schema cannot be used: .*1000 characters/,
    );
    assert.throws(
      () => validator.getValidator({ type: 'string', pattern: '(a)\\1' }),
      /A pattern in the schema cannot be used: .*backreference/,
    );
  });

  it('runs patterns in patternProperties and propertyNames through the bounded engine too', () => {
    const check = validator.getValidator({
      type: 'object',
      patternProperties: { '^(x|x)*$': { type: 'number' } },
      propertyNames: { pattern: '^(x|x)*y?$' },
    });
    assert.equal(check({ [`${'x'.repeat(3_000)}`]: 'not a number' }).valid, false);
    assert.equal(check({ [`${'x'.repeat(3_000)}!`]: 1 }).valid, false);
    assert.equal(check({ xx: 1 }).valid, true);
  });

  it('dispatches on $schema as the SDK does: none or 2020-12, 2019-09, draft-07 and draft-06', () => {
    assert.equal(declaredDialect({}), '2020-12');
    assert.equal(declaredDialect({ $schema: 'https://json-schema.org/draft/2020-12/schema' }), '2020-12');
    assert.equal(declaredDialect({ $schema: 'https://json-schema.org/draft/2019-09/schema#' }), '2019-09');
    assert.equal(declaredDialect({ $schema: 'http://json-schema.org/draft-07/schema#' }), 'draft-07');
    assert.equal(declaredDialect({ $schema: 'http://json-schema.org/draft-06/schema' }), 'draft-07');
    // 2020-12's prefixItems, draft-07's dependencies: each understood only by its own dialect.
    assert.equal(validator.getValidator({ type: 'array', prefixItems: [{ type: 'number' }] })(['x']).valid, false);
    const draft7 = validator.getValidator({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      dependencies: { a: ['b'] },
    });
    assert.equal(draft7({ a: 1 }).valid, false);
    assert.equal(draft7({ a: 1, b: 2 }).valid, true);
    const draft2019 = validator.getValidator({ $schema: 'https://json-schema.org/draft/2019-09/schema', dependentRequired: { a: ['b'] } });
    assert.equal(draft2019({ a: 1 }).valid, false);
  });

  it('refuses a dialect it cannot check, with a short message', () => {
    assert.throws(
      () => validator.getValidator({ $schema: `http://example.com/${'x'.repeat(1_000)}` }),
      (error: Error) => {
        assert.match(error.message, /dialect Elicit cannot check/);
        assert.ok(error.message.length < 300, error.message);
        return true;
      },
    );
  });

  it('checks formats (ajv-formats)', () => {
    const check = validator.getValidator({ type: 'string', format: 'email' });
    assert.equal(check('not an address').valid, false);
    assert.equal(check('someone@example.com').valid, true);
  });
});
