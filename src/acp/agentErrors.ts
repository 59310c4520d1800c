/**
 * Errors an agent answers a request with, made readable. Agents put the useful
 * part in the JSON-RPC `data`, not in the message: claude-agent-acp answers
 * -32603 "Internal error" with `data.details` ("Query closed before response
 * received"), codex-acp with a plain string ("CODEX_API_KEY is not set") or
 * `data.message`. The person sees the message and those details together.
 */
import { isObject } from '../core/json';

/** What is shown of a structured `data` that has no details field. */
const MAX_DATA_CHARS = 500;

/** An agent's error answer: the JSON-RPC code kept, the message completed with its details. */
export class AgentRequestError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'AgentRequestError';
  }
}

/** A JSON-RPC error answer (the SDK's RequestError) as an AgentRequestError; anything else unchanged. */
export function withDetails(error: unknown): unknown {
  if (error instanceof AgentRequestError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'number') return error;
  const data = (error as { data?: unknown }).data;
  return new AgentRequestError(describeAgentError(error.message, data), code, data);
}

/** "Internal error: Query closed before response received". */
export function describeAgentError(message: string, data: unknown): string {
  const details = detailsOf(data);
  if (details === undefined || details === '' || message.includes(details)) return message;
  return `${message}: ${details}`;
}

function detailsOf(data: unknown): string | undefined {
  if (data === undefined || data === null) return undefined;
  if (typeof data === 'string') return data.trim();
  if (isObject(data)) {
    for (const key of ['details', 'message', 'reason', 'error']) {
      const value = data[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
    }
  }
  const json = JSON.stringify(data) ?? '';
  return json.length > MAX_DATA_CHARS ? `${json.slice(0, MAX_DATA_CHARS - 1)}…` : json;
}

/**
 * Why a session could not open, for the panel: the agent's error with its
 * details and the last lines the agent wrote to stderr, which usually say more.
 */
export function sessionFailure(agent: string, error: AgentRequestError, stderrLines: readonly string[]): string {
  const stderr = stderrLines.length > 0 ? `\n\nThe last lines ${agent} wrote to stderr:\n${stderrLines.join('\n')}` : '';
  return `${agent} could not open a session: ${error.message}${stderr}`;
}
