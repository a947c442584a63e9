import type { FakeToolCall } from '@edgetool/fake-openai';

/** A thinking block before the answer: its text and signature, or a `redacted_thinking` block's opaque data. */
export type FakeThinking = { readonly thinking: string; readonly signature: string } | { readonly redacted: string };

/** Why the model stopped, as the Messages API says it in `message_delta`. */
export type FakeStopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded'
  | 'compaction'
  // A reason the API may add later, sent as it is.
  | (string & {});

/**
 * A scripted model reply: thinking blocks, text, tool calls (parallel when several), in that order (as Claude writes
 * them).
 */
export interface FakeAnthropicReply {
  /** `thinking` (a `thinking_delta` per word, then one `signature_delta`) and `redacted_thinking` blocks, first. */
  readonly thinking?: readonly FakeThinking[];
  /** The answer text; a string is split into word deltas, an array is sent as exactly these deltas. */
  readonly text?: string | readonly string[];
  /** `tool_use` blocks; ids default to `toolu_<n>`, unique over the server's lifetime. */
  readonly toolCalls?: readonly FakeToolCall[];
  /** Token counts reported in `message_start` and `message_delta`; rough estimates by default. */
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number };
  /** Overrides the stop reason (`tool_use` when the turn has tool calls, `end_turn` otherwise). */
  readonly stopReason?: FakeStopReason;
  /** After the content blocks, an `error` event (`overloaded_error`, …) instead of `message_delta` and `message_stop`. */
  readonly streamError?: { readonly type: string; readonly message: string };
  /**
   * Ends the response after this many events, as a connection that closes mid-answer: cleanly (the body ends), or
   * with `destroy` by dropping the socket.
   */
  readonly cut?: { readonly afterEvents: number; readonly destroy?: boolean };
}

/** An Anthropic-shaped HTTP error reply: `{ type: 'error', error: { type, message } }` with this status. */
export interface FakeAnthropicError {
  readonly error: {
    readonly status: number;
    readonly message: string;
    readonly type?: string;
    /** Extra response headers, for example `{ 'retry-after-ms': '1' }` to make the AI SDK retry quickly. */
    readonly headers?: Readonly<Record<string, string>>;
  };
}

/** What the fake model does for one request. */
export type FakeAnthropicTurn = FakeAnthropicReply | FakeAnthropicError;

/** A request the fake server accepted, recorded before it answered. */
export interface AnthropicRecordedRequest {
  /** 0-based position over the server's lifetime (not reset by `reset()`). */
  readonly index: number;
  readonly model: string;
  /** The parsed JSON body, exactly as the client sent it (`messages`, `tools`, `system`, …). */
  readonly body: Readonly<Record<string, unknown>>;
  /** Request headers, names lower-cased (`x-api-key`, `anthropic-version`, `anthropic-beta`, …). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Options of `startFakeAnthropic`. */
export interface FakeAnthropicOptions {
  /** When set, a request without `x-api-key: <apiKey>` gets a 401 `authentication_error`. */
  readonly apiKey?: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Loopback host to bind; defaults to 127.0.0.1. Non-loopback hosts are refused. */
  readonly host?: string;
}

/** A running fake Anthropic server. */
export interface FakeAnthropic {
  /** `http://127.0.0.1:PORT/v1`, ready for `createAnthropic({ baseURL })`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every request answered by a turn, oldest first. */
  readonly requests: readonly AnthropicRecordedRequest[];
  /** Queues scripted turns, consumed one per request in order. */
  enqueue(...turns: readonly FakeAnthropicTurn[]): void;
  /** Clears the queue and the recorded requests. */
  reset(): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}
