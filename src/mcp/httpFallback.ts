/**
 * Streamable HTTP first, legacy SSE as fallback: a server that answers the
 * Streamable HTTP `initialize` POST with a 4xx (other than an authorization
 * problem) is an older HTTP+SSE server, as the SDK's client docs describe.
 * The SDK's SdkHttpError is recognised by its name and status, so this stays
 * free of the SDK bundle.
 */

/** The HTTP status an SDK error carries, if it is an SdkHttpError. */
export function httpStatus(error: unknown): number | undefined {
  if (!(error instanceof Error) || error.name !== 'SdkHttpError') return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

export function shouldFallBackToSse(error: unknown): boolean {
  const status = httpStatus(error);
  // 401/403 mean "sign in", not "wrong transport": falling back would only hide that.
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/** "HTTP 404", without the page a server may have sent along (often a whole HTML document). */
export function fallbackReason(error: unknown): string {
  const status = httpStatus(error);
  return status === undefined ? 'an error' : `HTTP ${status}`;
}
