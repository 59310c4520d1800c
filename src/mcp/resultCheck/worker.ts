/**
 * The result-check worker (bundled as dist/result-check-worker.js): compiles a
 * tool's outputSchema and checks results against it, off the extension host's
 * thread. The host ends it and starts another when a check overruns its
 * deadline (resultChecker.ts), so nothing here needs a time limit of its own.
 */
import { parentPort } from 'node:worker_threads';
import type { JsonSchemaValidator } from '@modelcontextprotocol/client';
import { BoundedSchemaValidator } from './schemaEngines';
import type { CheckReply, CheckRequest } from './protocol';

const engines = new BoundedSchemaValidator();
/** Compiled schemas by their text, most recent last. */
const compiled = new Map<string, JsonSchemaValidator<unknown>>();
const MAX_COMPILED = 50;

function validatorFor(schema: object): JsonSchemaValidator<unknown> {
  const key = JSON.stringify(schema);
  let validator = compiled.get(key);
  if (validator) {
    compiled.delete(key);
  } else {
    validator = engines.getValidator<unknown>(schema as Parameters<typeof engines.getValidator>[0]);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
  }
  compiled.set(key, validator);
  return validator;
}

function answer(request: CheckRequest): CheckReply {
  let validator: JsonSchemaValidator<unknown>;
  try {
    validator = validatorFor(request.schema);
  } catch (error) {
    return { id: request.id, outcome: 'unusable', errorMessage: error instanceof Error ? error.message : String(error) };
  }
  if (request.compileOnly) return { id: request.id, outcome: 'valid' };
  let result: ReturnType<typeof validator>;
  try {
    result = validator(request.data);
  } catch (error) {
    return { id: request.id, outcome: 'unusable', errorMessage: error instanceof Error ? error.message : String(error) };
  }
  return result.valid
    ? { id: request.id, outcome: 'valid' }
    : { id: request.id, outcome: 'invalid', errorMessage: result.errorMessage ?? 'does not match' };
}

parentPort?.on('message', (request: CheckRequest) => parentPort?.postMessage(answer(request)));
