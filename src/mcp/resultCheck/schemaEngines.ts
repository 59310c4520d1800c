/**
 * The JSON Schema engines that check a tool result's `structuredContent`
 * against the server's `outputSchema`: the same dialect dispatch as the MCP
 * SDK's default (no `$schema` or 2020-12, 2019-09, draft-07 / draft-06), with
 * every pattern through the bounded engine (src/core/form/ajvPatterns.ts), so
 * `^(a|a)*$` cannot backtrack. Even so, a check's cost is the server's choice
 * (uniqueItems on 20,000 objects, a 790 KB schema to compile, nested anyOf), so
 * these engines run only in the result-check worker (worker.ts), never on the
 * extension host's thread.
 */
import Ajv, { type Options, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { boundedRegExp } from '../../core/form/ajvPatterns';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';

type Dialect = '2020-12' | '2019-09' | 'draft-07';

const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ['json-schema.org/draft/2020-12/schema', '2020-12'],
  ['json-schema.org/draft/2019-09/schema', '2019-09'],
  ['json-schema.org/draft-07/schema', 'draft-07'],
  ['json-schema.org/draft-06/schema', 'draft-07'],
]);

/** The dialect a schema declares; no `$schema` means 2020-12, as in MCP 2026-07-28 and the SDK. */
export function declaredDialect(schema: object): Dialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return '2020-12';
  const dialect = DIALECTS.get(declared.replace(/^https?:\/\//, '').replace(/#$/, ''));
  if (dialect) return dialect;
  throw new Error(
    `The output schema declares a JSON Schema dialect Elicit cannot check ("$schema": ${JSON.stringify(declared.slice(0, 200))}).`,
  );
}

/** As the SDK's default engines, but with every pattern through the bounded engine. */
const ENGINE_OPTIONS: Options = { strict: false, validateSchema: false, validateFormats: true, allErrors: true };
const patterns = boundedRegExp();

/**
 * What is wrong, where: at most three problems. ajv's pattern message quotes the server's
 * pattern, asker text of no help to a person, so it is left out.
 */
function problems(errors: NonNullable<ValidateFunction['errors']>): string {
  const lines = errors.slice(0, 3).map((e) => {
    const where = e.instancePath === '' ? 'the result' : e.instancePath.slice(1).replace(/\//g, '.');
    return `${where} ${e.keyword === 'pattern' ? 'is not in the form the schema asks for' : (e.message ?? 'does not match')}`;
  });
  return errors.length > 3 ? `${lines.join('; ')} (and ${errors.length - 3} more)` : lines.join('; ');
}

export class BoundedSchemaValidator implements jsonSchemaValidator {
  private readonly engines = new Map<Dialect, Ajv>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // A schema that does not compile (an unsupported dialect, a pattern the bounded
    // engine refuses) throws here; the SDK turns that into a clear error from callTool.
    const check: ValidateFunction = this.engine(declaredDialect(schema)).compile(schema as object);
    return (input: unknown) => {
      if (check(input)) return { valid: true, data: input as T, errorMessage: undefined };
      return { valid: false, data: undefined, errorMessage: problems(check.errors ?? []) };
    };
  }

  /** Each dialect's engine is built the first time a schema declares it. */
  private engine(dialect: Dialect): Ajv {
    let engine = this.engines.get(dialect);
    if (!engine) {
      engine =
        dialect === '2020-12'
          ? new Ajv2020({ ...ENGINE_OPTIONS, code: { regExp: patterns } })
          : dialect === '2019-09'
            ? new Ajv2019({ ...ENGINE_OPTIONS, code: { regExp: patterns } })
            : new Ajv({ ...ENGINE_OPTIONS, code: { regExp: patterns } });
      addFormats(engine);
      this.engines.set(dialect, engine);
    }
    return engine;
  }
}
