/** JSON-RPC error codes Elicit answers askers with. */
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/**
 * A request Elicit refuses to render, with a reason that names the property
 * and the problem. Adapters turn it into a JSON-RPC -32602 error.
 */
export class InvalidRequestError extends Error {
  readonly code = INVALID_PARAMS;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRequestError';
  }
}

/** Also true for one thrown by another bundle's copy of this class (the gateway runs in its own bundle). */
export function isInvalidRequestError(error: unknown): error is InvalidRequestError {
  return error instanceof Error && error.name === 'InvalidRequestError';
}

/**
 * Any thrown value as text for a log line or a message: an Error's message,
 * anything else as a string, and a spawn that found no such command named as
 * such (node's own message for it is `spawn x ENOENT`).
 */
export function errorText(error: unknown): string {
  const e = error as { code?: unknown; syscall?: unknown; path?: unknown } | null | undefined;
  if (e?.code === 'ENOENT' && typeof e.syscall === 'string' && e.syscall.startsWith('spawn')) {
    return `command not found (${typeof e.path === 'string' ? e.path : 'spawn'})`;
  }
  return error instanceof Error ? error.message : String(error);
}
