import { argumentsToString, splitArguments, splitText } from '@edgetool/fake-openai';
import type { FakeAnthropicReply } from './types.ts';

/** One server-sent event of the Messages API: its `event:` name is the `type` of its `data:` JSON. */
export interface MessageEvent {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** The ids and numbers a reply needs besides the turn itself. */
export interface MessageEventsInput {
  readonly turn: FakeAnthropicReply;
  readonly model: string;
  /** `msg_<n>`. */
  readonly messageId: string;
  /** Makes the id of a tool call that names none (`toolu_<n>`). */
  readonly toolId: () => string;
  /** The request body's size in characters, for the default input token estimate. */
  readonly requestChars: number;
}

const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

/**
 * The events of a streamed reply, in the order the Messages API sends them: `message_start`, `ping`, a text block
 * (`text_delta`s), a `tool_use` block per call (an empty `input_json_delta` first, then the JSON in pieces), then
 * `message_delta` with the stop reason (`tool_use` or `end_turn`) and `message_stop`.
 */
export function messageEvents({ turn, model, messageId, toolId, requestChars }: MessageEventsInput): MessageEvent[] {
  const textDeltas = turn.text === undefined ? [] : splitText(turn.text);
  const calls = (turn.toolCalls ?? []).map((call) => ({ id: call.id ?? toolId(), name: call.name, input: argumentsToString(call.args) }));
  const inputTokens = turn.usage?.inputTokens ?? tokens(requestChars);
  const outputTokens = turn.usage?.outputTokens ?? tokens(textDeltas.join('').length + calls.reduce((n, call) => n + call.input.length, 0));
  const message = { id: messageId, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null };
  const events: MessageEvent[] = [
    { type: 'message_start', message: { ...message, usage: { input_tokens: inputTokens, output_tokens: 1 } } },
    { type: 'ping' },
  ];
  let index = 0;
  if (textDeltas.length > 0) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const text of textDeltas) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    events.push({ type: 'content_block_stop', index: index++ });
  }
  for (const call of calls) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    for (const partial_json of ['', ...splitArguments(call.input)]) {
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
    }
    events.push({ type: 'content_block_stop', index: index++ });
  }
  const stop_reason = calls.length > 0 ? 'tool_use' : 'end_turn';
  events.push({ type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
  events.push({ type: 'message_stop' });
  return events;
}

/** Writes an event the way the Messages API does: `event: <type>` and `data: <json>`, then a blank line. */
export function formatEvent(event: MessageEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
