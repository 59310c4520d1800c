/**
 * Streamable HTTP first, legacy SSE as fallback: a server that answers the
 * Streamable HTTP `initialize` POST with a 4xx (other than an authorization
 * problem) is an older HTTP+SSE server, as the SDK's client docs describe.
 */
import { SdkHttpError } from '@modelcontextprotocol/client';

export function shouldFallBackToSse(error: unknown): boolean {
  if (!(error instanceof SdkHttpError)) return false;
  const status = error.status;
  // 401/403 mean "sign in", not "wrong transport": falling back would only hide that.
  return status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/** "HTTP 404", without the page a server may have sent along (often a whole HTML document). */
export function fallbackReason(error: unknown): string {
  return error instanceof SdkHttpError ? `HTTP ${error.status}` : 'an error';
}
