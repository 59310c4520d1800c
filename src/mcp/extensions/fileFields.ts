/**
 * File fields (`x-mcp-file`, draft SEP-2356, continued by SEP-2631) as an extension of the client:
 * servers send such fields only to a client that declares `fileInputs`. The fields themselves are
 * read by the form's model (core/form/fileFields.ts) like any other.
 */
import type { ClientExtension } from './clientExtension';

/** `answered`: whether file fields are on for this start (read once, as the connection opens). */
export function fileFieldsExtension(answered: boolean): ClientExtension {
  return { capabilities: answered ? { fileInputs: {} } : {} };
}
