import type { ContextKey } from '../context/context-key.ts';
import type { RunContext } from '../context/run-context.ts';
import type { ToolError, ToolErrorCode } from '../errors/tool-error.ts';
import type { AnyTool } from '../tool/types.ts';

/** A tool call as a model (or a client) produced it. `arguments` is raw JSON text or an already parsed value. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** Where an executor runs. A tool whose policy says otherwise is deferred or refused. */
export type ExecutionSide = 'server' | 'client';

/** What a tool call ended in. Failures are values, never rejections. */
export type ToolOutcome<TOutput = unknown> =
  | { readonly type: 'success'; readonly output: TOutput }
  | { readonly type: 'error'; readonly error: ToolError }
  /** The call waits for a human decision; the ticket must come back with it. */
  | { readonly type: 'approval-required'; readonly ticket: string | undefined; readonly reason: string | undefined }
  /** The call must run on the client; the ticket must come back with its result. */
  | { readonly type: 'client-pending'; readonly ticket: string | undefined };

/** One timed step of a call: an interceptor, or the tool's own `execute`. */
export interface ToolSpan {
  readonly name: string;
  readonly kind: 'interceptor' | 'execute';
  /** Nesting depth in the onion (0 = outermost). */
  readonly depth: number;
  /** Milliseconds, from `performance.now()` (or the executor's clock). */
  readonly start: number;
  duration: number;
  outcome: ToolOutcome['type'] | 'running';
  errorCode?: ToolErrorCode | undefined;
}

/**
 * How far a running call is, for the people watching it (a chat UI's tool card). Never sent to the model.
 * The fields follow MCP's progress notifications: `completed` of `total` in any unit, and a short message.
 */
export interface ToolProgress {
  /** What the tool is doing now, for people (at most 500 characters; longer ones are cut). */
  readonly message?: string | undefined;
  /** Work done so far, in any unit (with `total`, a fraction of it). */
  readonly completed?: number | undefined;
  /** All the work, in the unit of `completed`, when the tool knows it. */
  readonly total?: number | undefined;
}

/**
 * Tokens a call spent (a tool that calls a model, an embedding API, a sub-agent), as `ctx.reportUsage()` takes them and
 * `ToolCallResult.usage` sums them. Flat counts, the shape of a chat message's `metadata.usage`; a count nobody
 * reported is absent, so `0` is a real zero.
 */
export interface ToolUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly totalTokens?: number;
  /** Output tokens spent on reasoning (part of `outputTokens`). */
  readonly reasoningTokens?: number;
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`). */
  readonly cachedInputTokens?: number;
}

/** A progress report of one call, as a listener receives it. */
export interface ToolProgressEvent {
  readonly callId: string;
  readonly toolName: string;
  readonly progress: ToolProgress;
}

/** Per-call context, passed as an argument through every interceptor and into `execute`. */
export interface ToolContext<TInput = unknown, TDeps = unknown> {
  readonly tool: AnyTool;
  readonly call: ToolCall;
  /** The parsed JSON arguments, before validation (what tickets hash). */
  readonly args: unknown;
  /** The validated input (an interceptor may replace it for those after it via `next({ input })`). */
  readonly input: TInput;
  /** Caller abort, run abort and timeout merged. */
  readonly signal: AbortSignal;
  readonly run: RunContext<TDeps>;
  readonly side: ExecutionSide;
  /** 1 for the first attempt; the retry interceptor increments it. */
  readonly attempt: number;
  /** Spans recorded so far for this call. */
  readonly spans: readonly ToolSpan[];
  /**
   * Reports how far the call is to whoever watches it (`ExecuteOptions.onProgress`; in the chat loop, the UI).
   * Cheap when nobody listens, safe to call often (a UI gets the latest report), ignored once the call has ended.
   * Throws a `TypeError` for a report that is not a {@link ToolProgress}.
   */
  progress(update: ToolProgress): void;
  /**
   * Reports tokens the call spent, as soon as it spent them: reports add up (over every attempt of a retried call) into
   * `ToolCallResult.usage`, whatever the call's outcome, so a call that later fails, times out or is aborted still
   * counts them (the chat loop adds them to the turn's `usage` and `tokenBudget`). Costs nothing when never called;
   * reports after the call ended are not counted. Throws a `TypeError` for a report that is not a {@link ToolUsage}.
   */
  reportUsage(usage: ToolUsage): void;
  /** The tokens reported so far (summed), `undefined` before the first report. */
  readonly usage: ToolUsage | undefined;
  /**
   * A key for the call's writes (an outbox row, a payment request): the same for every attempt and for the same approved
   * continuation sent again, new for each call a human approves, even one given the id of an earlier call. Its
   * conversation, call id and approval ticket's nonce (`idempotencyKeyOf`); `ExecuteOptions.idempotencyKey` when given.
   */
  readonly idempotencyKey: string;
  get<T>(key: ContextKey<T>): T | undefined;
  set<T>(key: ContextKey<T>, value: T): void;
  has(key: ContextKey<unknown>): boolean;
}

/** What an interceptor may change for the layers inside it. */
export interface NextOverrides<TInput = unknown> {
  readonly input?: TInput;
  readonly signal?: AbortSignal;
}

/** Continues the chain. Calling it twice is an error unless the interceptor is `reentrant`. */
export type ToolNext<TInput = unknown, TOutput = unknown> = (overrides?: NextOverrides<TInput>) => Promise<ToolOutcome<TOutput>>;

/** The interceptor function: around the rest of the chain, like Hono middleware. */
export type InterceptorFn<TInput = unknown, TOutput = unknown, TDeps = unknown> = (
  ctx: ToolContext<TInput, TDeps>,
  next: ToolNext<TInput, TOutput>,
) => Promise<ToolOutcome<TOutput>>;

/** A named interceptor (the name shows up in traces). */
export interface ToolInterceptor<TInput = unknown, TOutput = unknown, TDeps = unknown> {
  readonly kind: 'edgetool.interceptor';
  readonly name: string;
  /** May call `next()` more than once, one after another (retry). */
  readonly reentrant: boolean;
  /**
   * May return while its `next()` is still running (timeout): the layers inside go on detached.
   * Any other interceptor that returns early is waited for, so a call never ends while it still runs.
   */
  readonly abandons: boolean;
  /** Reads the call's spans (a tracer): the executor times every layer of a chain that has one. */
  readonly traces?: boolean | undefined;
  /**
   * Masks a call's input for what is recorded without running the chain (a trace record of a call that failed to
   * parse or validate). `redact()` sets it; raw argument text (not JSON) is passed as a string.
   */
  readonly redactInput?: ((input: unknown) => unknown) | undefined;
  /**
   * Masks a result that did not come back through the chain (a client's, `acceptClientResult`) as the interceptor masks
   * one that does, so the model reads the same either way. `redact()` sets it.
   */
  readonly redactOutput?: ((output: unknown) => unknown) | undefined;
  intercept(ctx: ToolContext<TInput, TDeps>, next: ToolNext<TInput, TOutput>): Promise<ToolOutcome<TOutput>>;
}

/** An interceptor or a bare function (named after the function). */
export type InterceptorLike<TInput = unknown, TOutput = unknown, TDeps = unknown> =
  | ToolInterceptor<TInput, TOutput, TDeps>
  | InterceptorFn<TInput, TOutput, TDeps>;
