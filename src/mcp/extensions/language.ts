/**
 * The person's language (draft SEP-2792) as an extension of the client: nothing to declare; every
 * request carries it in `_meta` and, over HTTP, as the Accept-Language header (acceptLanguage.ts).
 */
import { stampAcceptLanguage, withAcceptLanguage } from '../acceptLanguage';
import type { ClientExtension } from './clientExtension';

/** `acceptLanguage`: VS Code's display language as an Accept-Language value, when known. */
export function languageExtension(acceptLanguage: string | undefined): ClientExtension {
  return {
    capabilities: {},
    httpHeaders: (headers) => withAcceptLanguage(headers, acceptLanguage).headers,
    onTransport: (transport, launch) => {
      // The header and _meta carry the same bytes: a configured Accept-Language header wins in both.
      const value = launch.type === 'stdio' ? acceptLanguage || undefined : withAcceptLanguage(launch.headers, acceptLanguage).value;
      if (value !== undefined) stampAcceptLanguage(transport, value);
    },
  };
}
