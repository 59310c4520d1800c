/**
 * The one request and result shape shared by every asker (MCP server, ACP agent,
 * language-model tool, other extensions) and every renderer.
 */

export type AskerKind = 'mcp' | 'acp' | 'tool' | 'extension' | 'gateway';

export interface Asker {
  kind: AskerKind;
  /** Shown to the person: "weather-server asks…". */
  name: string;
  /** What the asker is doing when it asks, e.g. "tool call get_forecast". */
  detail?: string;
  /** Where it is configured (see origin.ts): saved answers are offered only to the same origin. */
  origin?: string;
}

export type ElicitAction = 'accept' | 'decline' | 'cancel';

export type AnswerValue = string | number | boolean | string[];
export type ElicitContent = Record<string, AnswerValue>;

export interface ElicitResult {
  action: ElicitAction;
  /** Present only when action is "accept" in form mode. */
  content?: ElicitContent;
}

interface RequestBase {
  asker: Asker;
  message: string;
  /** Aborted by the asker (cancellation, disconnect): closes the UI and answers cancel. */
  signal?: AbortSignal;
}

export interface FormRequest extends RequestBase {
  mode: 'form';
  /** The schema exactly as the asker sent it; normalized by the broker. */
  requestedSchema: unknown;
}

export interface UrlRequest extends RequestBase {
  mode: 'url';
  url: string;
  elicitationId: string;
}

export type ElicitRequest = FormRequest | UrlRequest;

export const CANCELLED: ElicitResult = Object.freeze({ action: 'cancel' });
export const DECLINED: ElicitResult = Object.freeze({ action: 'decline' });
