import type { FakeToolCall } from '@edgetool/fake-openai';

/** A scripted model reply: text, tool calls (parallel when several), or both (the text first, as Claude writes). */
export interface FakeAnthropicReply {
  /** The answer text; a string is split into word deltas, an array is sent as exactly these deltas. */
  readonly text?: string | readonly string[];
  /** `tool_use` blocks; ids default to `toolu_<n>`, unique over the server's lifetime. */
  readonly toolCalls?: readonly FakeToolCall[];
  /** Token counts reported in `message_start` and `message_delta`; rough estimates by default. */
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number };
}

/** An Anthropic-shaped HTTP error reply: `{ type: 'error', error: { type, message } }` with this status. */
export interface FakeAnthropicError {
  readonly error: { readonly status: number; readonly message: string; readonly type?: string };
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
