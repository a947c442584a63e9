import { argumentsToString, splitText } from './split';
import type { FakeReplyTurn, RecordedRequest } from './types';

/** A tool call with its ids assigned. */
export interface PlannedToolCall {
  /** `call_id` / `tool_calls[].id`. */
  readonly id: string;
  /** The Responses output item id (`fc_<n>`); empty for Chat Completions. */
  readonly itemId: string;
  readonly name: string;
  readonly arguments: string;
}

/** A reply turn resolved into everything both endpoints need to render it. */
export interface ReplyPlan {
  readonly responseId: string;
  readonly messageId: string;
  readonly model: string;
  readonly created: number;
  readonly textDeltas: readonly string[];
  readonly text: string;
  readonly toolCalls: readonly PlannedToolCall[];
  /** The reasoning item (Responses API), with its id; `undefined` when the turn has none. */
  readonly reasoning: { readonly id: string; readonly summary: string; readonly encryptedContent: string | null } | undefined;
  /** The compaction item (Responses API), with its id; `undefined` when the turn has none. */
  readonly compaction: { readonly id: string; readonly encryptedContent: string } | undefined;
  readonly finishReason: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly reasoningTokens: number;
  readonly streamError: { readonly message: string; readonly code?: string } | undefined;
}

/** Issues ids that stay unique over a server's lifetime. */
export interface IdSource {
  next(prefix: 'call' | 'fc' | 'msg' | 'rs' | 'cmp' | 'resp' | 'chatcmpl'): string;
}

/** Creates an id source: `call_1`, `call_2`, … per prefix (`chatcmpl-1` for chat completions). */
export function createIdSource(): IdSource {
  const counters = new Map<string, number>();
  return {
    next(prefix) {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return prefix === 'chatcmpl' ? `chatcmpl-${n}` : `${prefix}_${n}`;
    },
  };
}

/** Fixed creation time of every response, so recorded output is deterministic. */
export const CREATED_AT = 1_700_000_000;

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Resolves a reply turn for a request: assigns ids, splits text, estimates usage. */
export function planReply(turn: FakeReplyTurn, request: RecordedRequest, ids: IdSource): ReplyPlan {
  const textDeltas = turn.text === undefined ? [] : splitText(turn.text);
  const text = textDeltas.join('');
  const responses = request.endpoint === 'responses';
  const toolCalls = (turn.toolCalls ?? []).map(
    (call): PlannedToolCall => ({
      id: call.id ?? ids.next('call'),
      itemId: responses ? ids.next('fc') : '',
      name: call.name,
      arguments: argumentsToString(call.args),
    }),
  );
  const outputText = text + toolCalls.map((call) => call.name + call.arguments).join('');
  return {
    responseId: ids.next(responses ? 'resp' : 'chatcmpl'),
    messageId: responses && textDeltas.length > 0 ? ids.next('msg') : '',
    reasoning:
      responses && turn.reasoning !== undefined
        ? { id: ids.next('rs'), summary: turn.reasoning.summary, encryptedContent: turn.reasoning.encryptedContent ?? null }
        : undefined,
    compaction: responses && turn.compaction !== undefined ? { id: ids.next('cmp'), encryptedContent: turn.compaction.encryptedContent } : undefined,
    model: request.model,
    created: CREATED_AT,
    textDeltas,
    text,
    toolCalls,
    finishReason: turn.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    inputTokens: turn.usage?.inputTokens ?? estimateTokens(JSON.stringify(request.messages)),
    outputTokens: turn.usage?.outputTokens ?? estimateTokens(outputText),
    cachedInputTokens: turn.usage?.cachedInputTokens ?? 0,
    reasoningTokens: turn.usage?.reasoningTokens ?? 0,
    streamError: turn.streamError,
  };
}

/** The events of a streamed reply; `contentEnd` events carry the content, the rest finish the reply. */
export interface StreamPlan {
  readonly events: readonly unknown[];
  readonly contentEnd: number;
}
