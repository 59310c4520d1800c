/**
 * Tool arguments whose schema is richer than an elicitation form (nested
 * objects, arrays of objects) are typed as JSON and checked by ajv against the
 * tool's full input schema. A schema ajv cannot compile (a pattern with a
 * backreference, say) is left to the server to judge.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { boundedRegExp } from './ajvPatterns';
import { errorText } from '../errors';

// Patterns (also in patternProperties and propertyNames) run in bounded time, on at most MAX_BOUNDED_INPUT characters.
// Made at the first tool whose arguments are typed as JSON, not when the answer check's bundle loads.
let ajv: Ajv | undefined;
function argumentsAjv(): Ajv {
  if (!ajv) {
    ajv = new Ajv({ allErrors: false, strict: false, validateSchema: false, code: { regExp: boundedRegExp() } });
    addFormats(ajv);
  }
  return ajv;
}
const cache = new WeakMap<object, ValidateFunction | Error>();

export function checkJsonArguments(schema: object, text: string): { value?: Record<string, unknown>; error?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch (error) {
    return { error: `Not valid JSON: ${errorText(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'Must be a JSON object' };
  const validate = compile(schema);
  if (validate instanceof Error) return { value: value as Record<string, unknown> }; // The server will judge what ajv cannot.
  if (!validate(value)) {
    const first = validate.errors?.[0];
    const where = first?.instancePath ? `${first.instancePath.slice(1).replace(/\//g, '.')} ` : '';
    // ajv's pattern message quotes the pattern: asker text, and of little help to a person.
    const message = first?.keyword === 'pattern' ? 'is not in the form the tool asks for' : first?.message;
    return { error: `${where}${message ?? 'does not match the tool schema'}`.trim() };
  }
  return { value: value as Record<string, unknown> };
}

function compile(schema: object): ValidateFunction | Error {
  let entry = cache.get(schema);
  if (!entry) {
    try {
      entry = argumentsAjv().compile(schema);
    } catch (error) {
      entry = error instanceof Error ? error : new Error(String(error));
    }
    cache.set(schema, entry);
  }
  return entry;
}
