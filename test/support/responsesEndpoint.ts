/**
 * An OpenAI Responses-style endpoint (`POST /v1/responses`, server-sent events)
 * for codex (@openai/codex 0.166 under @agentclientprotocol/codex-acp), scripted
 * per test. Codex reads `response.created`, the `response.output_item.done` items
 * (a message, a `function_call` or a `custom_tool_call`) and `response.completed`
 * (with `usage`); text deltas only stream the message.
 */
import { ScriptedModel, type ModelTurn, type SseEvent } from './scriptedModel';

export function responsesEndpoint(): ScriptedModel {
  const model = new ScriptedModel({ path: '/v1/responses', isTurn: (body) => !isTitleRequest(body), events: responseEvents });
  // codex-acp titles a new session in a side thread of its own and reads a JSON object back.
  model.fallbackText = JSON.stringify({ title: 'Scripted session' });
  return model;
}

/** codex-acp's session title request (its own prompt, model gpt-5.6-luna), not part of the conversation. */
function isTitleRequest(body: Record<string, unknown>): boolean {
  return JSON.stringify(body.input ?? []).includes('generate a very short title for a conversation');
}

function responseEvents(turn: ModelTurn, n: number): SseEvent[] {
  const id = `resp_${n}`;
  const item = 'text' in turn ? messageItem(turn.text, n) : toolCallItem(turn, n);
  const events: SseEvent[] = [{ type: 'response.created', response: { id } }];
  events.push({ type: 'response.output_item.added', output_index: 0, item });
  if ('text' in turn) {
    events.push({ type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: item.id, delta: turn.text });
  }
  events.push({ type: 'response.output_item.done', output_index: 0, item });
  events.push({
    type: 'response.completed',
    response: {
      id,
      usage: {
        input_tokens: 1,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 1,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 2,
      },
    },
  });
  return events;
}

function messageItem(text: string, n: number): Record<string, unknown> {
  return {
    type: 'message',
    id: `msg_${n}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function toolCallItem(turn: Extract<ModelTurn, { tool: string }>, n: number): Record<string, unknown> {
  const callId = `call_${n}`;
  return typeof turn.input === 'string'
    ? { type: 'custom_tool_call', id: `ctc_${n}`, call_id: callId, name: turn.tool, input: turn.input, status: 'completed' }
    : {
        type: 'function_call',
        id: `fc_${n}`,
        call_id: callId,
        name: turn.tool,
        arguments: JSON.stringify(turn.input),
        status: 'completed',
      };
}

/** The `function_call_output` / `custom_tool_call_output` items codex sent back in a request's input. */
export function toolOutputs(body: Record<string, unknown>): Array<{ call_id: string; output: unknown }> {
  const input = Array.isArray(body.input) ? (body.input as Array<Record<string, unknown>>) : [];
  return input
    .filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output')
    .map((i) => ({ call_id: String(i.call_id), output: i.output }));
}

/** The text of every user message in a request's input (a steered answer arrives as one). */
export function userTexts(body: Record<string, unknown>): string[] {
  const input = Array.isArray(body.input) ? (body.input as Array<Record<string, unknown>>) : [];
  return input
    .filter((i) => i.type === 'message' && i.role === 'user')
    .flatMap((i) => (Array.isArray(i.content) ? (i.content as Array<{ text?: string }>) : []))
    .map((c) => c.text ?? '');
}
