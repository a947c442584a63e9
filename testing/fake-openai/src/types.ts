/** Which OpenAI endpoint a request hit: Chat Completions or Responses. */
export type FakeEndpoint = 'chat' | 'responses';

/** One tool call the fake model makes; `args` as a string is sent verbatim (so tests can send malformed JSON). */
export interface FakeToolCall {
  readonly name: string;
  readonly args: unknown;
  /** The call id the model reports; defaults to `call_<n>`, unique over the server's lifetime. */
  readonly id?: string;
}

/** Token counts reported for a turn; defaults are rough estimates from the request and the reply. */
export interface FakeUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** Of `inputTokens`, read from the prompt cache (`cached_tokens`; default 0). */
  readonly cachedInputTokens?: number;
  /** Of `outputTokens`, spent on reasoning (`reasoning_tokens`; default 0). */
  readonly reasoningTokens?: number;
}

/** A scripted model reply: text, tool calls (parallel when several), or both. */
export interface FakeReplyTurn {
  /** The answer text; a string is split into word deltas, an array is sent as exactly these deltas. */
  readonly text?: string | readonly string[];
  readonly toolCalls?: readonly FakeToolCall[];
  /**
   * A reasoning item before the answer (Responses API only): its summary text, and the `encrypted_content` a stateless
   * (`store: false`) client must send back with it. Its id is `rs_<n>`.
   */
  readonly reasoning?: { readonly summary: string; readonly encryptedContent?: string };
  /**
   * A compaction item first in the output (Responses API only, as `context_management` makes one): the
   * `encrypted_content` that stands for the conversation before it. Its id is `cmp_<n>`.
   */
  readonly compaction?: { readonly encryptedContent: string };
  /** Delay before each streamed event (and before a non-streamed body), for abort and timing tests. */
  readonly chunkDelayMs?: number;
  /** Send headers and any content deltas, then never finish: the request ends only when the client aborts. */
  readonly hang?: boolean;
  /** Fail mid-stream after the content: an in-stream error event instead of the normal ending. */
  readonly streamError?: { readonly message: string; readonly code?: string };
  readonly usage?: FakeUsage;
  /** Overrides the finish reason (`stop`, or `tool_calls` when the turn has tool calls). */
  readonly finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
}

/** An OpenAI-shaped HTTP error reply: `{ error: { message, type, param, code } }` with this status. */
export interface FakeErrorTurn {
  readonly error: {
    readonly status: number;
    readonly message: string;
    readonly type?: string;
    readonly code?: string | null;
    /** Extra response headers, for example `{ 'retry-after-ms': '1' }` to make the AI SDK retry quickly. */
    readonly headers?: Readonly<Record<string, string>>;
  };
}

/**
 * A reply written exactly as given, for what real OpenAI-compatible servers send and a scripted turn cannot (arguments
 * split mid-escape, parallel calls whose deltas interleave, `reasoning_content`, a `refusal`, no usage, no `[DONE]`, a
 * dropped connection). Nothing is planned or checked: the test writes the wire.
 */
export interface FakeRawTurn {
  readonly raw: {
    /** A streamed request's SSE events, each sent as `data: <JSON>`; a string is sent as the event's data verbatim. */
    readonly events?: readonly unknown[];
    /** Send `data: [DONE]` after the events (default `true`). */
    readonly done?: boolean;
    /**
     * A streamed request's body as bytes on the wire, in place of `events`: each piece written on its own once the one
     * before has left, so a client reads them apart (an event split mid-line, CRLF line ends, `: keep-alive` comment
     * lines); no `[DONE]` is added.
     */
    readonly wire?: readonly string[];
    /**
     * Destroy the connection after the events (a streamed request) or halfway through the body (a non-streamed one):
     * no `[DONE]`, no end of the chunked body, as a proxy or a crashed server leaves it.
     */
    readonly drop?: boolean;
    /** A non-streamed request's JSON body. */
    readonly body?: unknown;
    /** The HTTP status (default 200). */
    readonly status?: number;
    readonly headers?: Readonly<Record<string, string>>;
  };
}

/** What the fake model does for one request. */
export type FakeTurn = FakeReplyTurn | FakeErrorTurn | FakeRawTurn;

/** A tool call as it appears in the conversation history sent by the client. */
export interface NormalisedToolCall {
  readonly id: string;
  readonly name: string;
  /** The raw JSON arguments string as sent. */
  readonly arguments: string;
}

/** One conversation message, in the same shape whichever endpoint carried it. */
export type NormalisedMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls: readonly NormalisedToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A request the fake server received, recorded before it answered. */
export interface RecordedRequest {
  /** 0-based position over the server's lifetime (not reset by `reset()`). */
  readonly index: number;
  readonly endpoint: FakeEndpoint;
  readonly path: string;
  readonly stream: boolean;
  readonly model: string;
  /** The parsed JSON body, exactly as the client sent it. */
  readonly body: Readonly<Record<string, unknown>>;
  /** Request headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The conversation in endpoint-independent form (Responses `item_reference`s resolved). */
  readonly messages: readonly NormalisedMessage[];
  /** Names of the function tools offered to the model. */
  readonly toolNames: readonly string[];
}

/** Decides the turn for a request when no scripted turn is queued. */
export type FakeResponder = (request: RecordedRequest) => FakeTurn | Promise<FakeTurn>;

/** Options of `startFakeOpenAI`. */
export interface FakeOpenAIOptions {
  /** When set, any request without `Authorization: Bearer <apiKey>` gets a 401. */
  readonly apiKey?: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Loopback host to bind; defaults to 127.0.0.1. Non-loopback hosts are refused. */
  readonly host?: string;
  /** Responder used when the queue is empty (and restored by `reset()`). */
  readonly responder?: FakeResponder;
}

/** A running fake OpenAI server. */
export interface FakeOpenAI {
  /** `http://127.0.0.1:PORT/v1`, ready for `createOpenAI({ baseURL })`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every request answered by a turn, oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** Queues scripted turns, consumed one per request in order. */
  enqueue(...turns: readonly FakeTurn[]): void;
  /** Sets the responder used when the queue is empty; `undefined` removes it. */
  respondWith(responder: FakeResponder | undefined): void;
  /** How many queued turns are still unused. */
  pendingTurns(): number;
  /** Clears the queue and the recorded requests and restores the responder given at start. */
  reset(): void;
  /** Stops listening and drops open connections (hung requests included). */
  close(): Promise<void>;
}
