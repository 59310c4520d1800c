/**
 * Elicit's public API for other extensions, version 1.
 *
 *   const elicit = vscode.extensions.getExtension<ElicitApi>('elicit-dev.elicit');
 *   const api = await elicit?.activate();
 *   const result = await api?.elicit({ message: 'Pick a key', requestedSchema: { … } });
 *
 * Questions go through the same broker, renderers, limits and history as those
 * of MCP servers and agents; the asker shown to the person is your extension.
 * Keep this file free of imports: it is the contract other extensions copy.
 */

export type ElicitAnswerValue = string | number | boolean | string[];

export interface ElicitFormRequest {
  mode?: 'form';
  /** What you ask, in a sentence. */
  message: string;
  /** The MCP 2025-11-25 restricted form schema: a flat object of strings, numbers, booleans and choices. */
  requestedSchema: Record<string, unknown>;
  /** Shown after your extension's name, e.g. "while importing settings". */
  detail?: string;
}

export interface ElicitUrlRequest {
  mode: 'url';
  message: string;
  /** Only http(s) URLs are accepted; the person sees it in full and must agree before it opens. */
  url: string;
  /** Optional: defaults to a fresh id. */
  elicitationId?: string;
  detail?: string;
}

export type ElicitApiRequest = ElicitFormRequest | ElicitUrlRequest;

/**
 * The person's location, shared from their paired phone (its browser reads it once they agree there), or
 * a place they type in the editor instead. Never remembered; the history keeps only "location shared (about N m)".
 */
export interface ElicitLocationRequest {
  mode: 'location';
  /** Why you need it, shown to the person (at most 500 characters). */
  message: string;
  /** high: as precise as the phone can tell · low: rounded to 0.01° (about 1 km) before it leaves the phone. */
  accuracy: 'high' | 'low';
  detail?: string;
}

export interface ElicitLocationResult {
  /** accept: shared, or a place typed instead · denied: the person or their phone's browser refused · cancel: closed, aborted, no position found in time. */
  action: 'accept' | 'denied' | 'cancel';
  /** With accept: degrees and the accuracy in metres, or the place the person typed. */
  location?: { lat: number; lng: number; accuracy: number } | { place: string };
  /** How it ended, in a sentence. */
  note?: string;
}

export interface ElicitApiResult {
  /** accept: answered (form) or agreed to open (URL) · decline: said no · cancel: closed, timed out or aborted. */
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, ElicitAnswerValue>;
}

export interface ElicitApi {
  readonly version: 1;
  /**
   * Asks the person. Rejects with an Error whose `code` is -32602 when the
   * request cannot be shown (an unsupported schema, a refused URL, too many
   * open questions from your extension).
   */
  elicit(request: ElicitLocationRequest, options?: { signal?: AbortSignal }): Promise<ElicitLocationResult>;
  elicit(request: ElicitApiRequest, options?: { signal?: AbortSignal }): Promise<ElicitApiResult>;
}
