/**
 * The JSON Schema validator the MCP SDK's Client is given. The SDK compiles a
 * tool's outputSchema and checks each result on the thread that calls it; here
 * that is the extension host, where a server's schema and result could stall
 * everything for seconds. So the SDK is told every result is valid,
 * and McpConnection checks it instead, in a worker with a deadline
 * (resultChecker.ts), with the SDK's own error messages. The SDK's other rule,
 * "a tool with an outputSchema must return structuredContent", still runs.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';

export class WorkerCheckedSchemas implements jsonSchemaValidator {
  getValidator<T>(_schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  }
}
