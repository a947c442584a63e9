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
 * The events of a streamed reply, in the order the Messages API sends them: `message_start`, `ping`, its thinking
 * blocks (`thinking_delta`s and a `signature_delta`; a `redacted_thinking` block whole in its start), a text block
 * (`text_delta`s), a `tool_use` block per call (an empty `input_json_delta` first, then the JSON in pieces), then
 * `message_delta` with the stop reason (`tool_use` or `end_turn` unless the turn names one) and `message_stop`, or an
 * `error` event in their place.
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
  for (const block of turn.thinking ?? []) {
    if ('redacted' in block) {
      events.push({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.redacted } });
      events.push({ type: 'content_block_stop', index: index++ });
      continue;
    }
    events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const thinking of splitText(block.thinking)) events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } });
    events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    events.push({ type: 'content_block_stop', index: index++ });
  }
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
  if (turn.streamError !== undefined) {
    events.push({ type: 'error', error: { type: turn.streamError.type, message: turn.streamError.message } });
    return events;
  }
  const stop_reason = turn.stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn');
  events.push({ type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
  events.push({ type: 'message_stop' });
  return events;
}

/** Reads a tool call's input as the non-streamed API returns it: the JSON object, or the text as sent when it is none. */
function inputOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The same reply as one Messages API JSON body (a request without `stream: true`): the content blocks the events
 * would have built, the stop reason and the usage. A turn's `cut` and `streamError` apply to streams only.
 */
export function messageBody(input: MessageEventsInput): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  let stopReason: unknown = null;
  let usage: Record<string, unknown> = {};
  let id: unknown;
  const { streamError: _, ...turn } = input.turn;
  for (const event of messageEvents({ ...input, turn })) {
    if (event.type === 'message_start') {
      const message = event.message as { id: unknown; usage: Record<string, unknown> };
      id = message.id;
      usage = { ...message.usage };
    }
    if (event.type === 'content_block_start') content.push({ ...(event.content_block as Record<string, unknown>) });
    const block = content[event.index as number];
    const delta = event.delta as Record<string, string> | undefined;
    if (event.type === 'content_block_delta' && block !== undefined && delta !== undefined) {
      if (delta.type === 'text_delta') block.text = `${block.text as string}${delta.text}`;
      if (delta.type === 'thinking_delta') block.thinking = `${block.thinking as string}${delta.thinking}`;
      if (delta.type === 'signature_delta') block.signature = delta.signature;
      if (delta.type === 'input_json_delta') block.partial = `${(block.partial as string | undefined) ?? ''}${delta.partial_json}`;
    }
    if (event.type === 'message_delta') {
      stopReason = (event.delta as { stop_reason: unknown }).stop_reason;
      usage = { ...usage, ...(event.usage as Record<string, unknown>) };
    }
  }
  for (const block of content) {
    if (block.type !== 'tool_use') continue;
    block.input = inputOf((block.partial as string | undefined) ?? '{}');
    delete block.partial;
  }
  return { id, type: 'message', role: 'assistant', model: input.model, content, stop_reason: stopReason, stop_sequence: null, usage };
}

/** Writes an event the way the Messages API does: `event: <type>` and `data: <json>`, then a blank line. */
export function formatEvent(event: MessageEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
