/**
 * What ajv runs for every regular expression in a schema (`pattern`,
 * `patternProperties`, `propertyNames` through `pattern`): the bounded engine
 * (linearPattern.ts), never V8's backtracking RegExp. Text longer than the
 * caller's limit does not match, so no input can exceed the engine's bound.
 */
import { MAX_BOUNDED_INPUT } from './linearPattern';
import { compilePattern } from './fieldRules';
import { errorText } from '../errors';

export type AjvRegExpEngine = ((pattern: string) => { test(text: string): boolean }) & { code: string };

export function boundedRegExp(maxInput: number = MAX_BOUNDED_INPUT): AjvRegExpEngine {
  return Object.assign(
    (pattern: string) => {
      let compiled: ReturnType<typeof compilePattern>;
      try {
        compiled = compilePattern(pattern);
      } catch (error) {
        // Say which part of the schema failed: the engine's own message only says why.
        throw new Error(`A pattern in the schema cannot be used: ${errorText(error)}`);
      }
      // ajv caches compiled patterns under toString().
      return { test: (text: string) => text.length <= maxInput && compiled.test(text), toString: () => `bounded:${maxInput}:${pattern}` };
    },
    { code: 'boundedRegExp' },
  );
}
