/** JSON-RPC error codes Elicit answers askers with. */
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
