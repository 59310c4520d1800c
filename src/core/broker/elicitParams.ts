/**
 * The params of an `elicitation/create` request, the same in MCP (2025-11-25)
 * and ACP: `message`, and `mode: "form"` (the default) with `requestedSchema`
 * or `mode: "url"` with `url` and `elicitationId`. One reading for both
 * adapters, so a malformed request gets the same sentence from either; the
 * schema and the URL themselves are judged later, by the broker.
 */
import { contentLanguageIn } from '../language';
import { InvalidRequestError } from '../errors';
import type { Asker, ElicitRequest } from '../request';

/** `method` names the request in the sentences (`elicitation/create`, or ACP's older `session/elicitation`). */
export function elicitRequestFrom(method: string, params: unknown, asker: Asker, signal: AbortSignal): ElicitRequest {
  if (typeof params !== 'object' || params === null) throw new InvalidRequestError(`${method} needs params`);
  const p = params as Record<string, unknown>;
  if (typeof p.message !== 'string') throw new InvalidRequestError(`${method} needs a "message" string`);
  const mode = p.mode ?? 'form';
  if (mode === 'url') {
    if (typeof p.url !== 'string') throw new InvalidRequestError('a URL elicitation needs a "url" string');
    if (typeof p.elicitationId !== 'string' || p.elicitationId === '')
      throw new InvalidRequestError('a URL elicitation needs an "elicitationId" string');
    return { mode: 'url', asker, message: p.message, url: p.url, elicitationId: p.elicitationId, signal };
  }
  if (mode !== 'form') throw new InvalidRequestError(`elicitation mode ${JSON.stringify(mode)} is not supported by this client`);
  const language = contentLanguageIn(p._meta);
  return { mode: 'form', asker, message: p.message, requestedSchema: p.requestedSchema, signal, ...(language ? { language } : {}) };
}
