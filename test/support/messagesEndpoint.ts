/**
 * An Anthropic Messages-style endpoint (`POST /v1/messages?beta=true`, streamed
 * server-sent events) for claude-agent-acp's Claude Agent SDK, scripted per test.
 * A turn streams `message_start`, one content block (`text` with `text_delta`s,
 * or `tool_use` with its input as one `input_json_delta`), `message_delta`
 * (stop_reason `end_turn` or `tool_use`) and `message_stop`.
 */
import { ScriptedModel, type ModelTurn, type SseEvent } from './scriptedModel';

export function messagesEndpoint(): ScriptedModel {
  return new ScriptedModel({ path: '/v1/messages', isTurn: (body) => !isSideRequest(body), events: messageEvents });
}

/**
 * The SDK's side requests: a session title (no tools offered) and a prompt
 * suggestion after the turn (its own user message, "[SUGGESTION MODE: …").
 */
function isSideRequest(body: Record<string, unknown>): boolean {
  if (!Array.isArray(body.tools) || body.tools.length === 0) return true;
  const last = Array.isArray(body.messages) ? (body.messages.at(-1) as { role?: string; content?: unknown }) : undefined;
  return last?.role === 'user' && typeof last.content === 'string' && last.content.startsWith('[SUGGESTION MODE');
}

function messageEvents(turn: ModelTurn, n: number): SseEvent[] {
  const usage = { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const events: SseEvent[] = [
    {
      type: 'message_start',
      message: {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-scripted',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    },
  ];
  if ('text' in turn) {
    events.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    events.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } });
  } else {
    events.push({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: `toolu_${n}`, name: turn.tool, input: {} },
    });
    const json = typeof turn.input === 'string' ? turn.input : JSON.stringify(turn.input);
    events.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json } });
  }
  events.push({ type: 'content_block_stop', index: 0 });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: 'text' in turn ? 'end_turn' : 'tool_use', stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  events.push({ type: 'message_stop' });
  return events;
}

/** The `tool_result` blocks of a request's messages (the person's answer comes back in one). */
export function toolResults(body: Record<string, unknown>): Array<{ tool_use_id: string; content: unknown; is_error?: boolean }> {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []))
    .filter((block) => block.type === 'tool_result')
    .map((block) => block as { tool_use_id: string; content: unknown; is_error?: boolean });
}

/** A tool result's text, whether the SDK sent a string or text blocks. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? (content as Array<{ text?: string }>).map((c) => c.text ?? '').join('') : '';
}
