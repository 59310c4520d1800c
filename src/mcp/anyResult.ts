/**
 * A result schema that takes the peer's result as it is, for requests whose
 * results Elicit reads itself (2025-era tasks, the raw multi round-trip legs):
 * the SDK's explicit-schema `request()` path wants a Standard Schema.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';

export const ANY_RESULT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'elicit',
    validate: (value: unknown) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'the result is not an object' }] },
  },
};
