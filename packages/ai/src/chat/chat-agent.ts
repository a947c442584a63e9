import {
  type AnyTool,
  type ApprovalDecision,
  type AvailableToolsOptions,
  createExecutor,
  idempotencyKeyOf,
  type InterceptorLike,
  type RunContext,
  type TicketSigner,
  type ToolCallResult,
  ToolError,
  type ToolErrorMessage,
  type ToolExecutor,
  type ToolsDeps,
  type ToolRegistry,
  type TraceRecord,
} from '@edgetool/core';
import {
  convertToModelMessages,
  createUIMessageStreamResponse,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  createUIMessageStream,
  safeValidateUIMessages,
  streamText,
  type ToolSet,
  type UIMessageChunk,
} from 'ai';
import { isOfflineModel } from '../offline-model/index.ts';
import { toAISDKTools, toolApprovalFor } from './ai-tools.ts';
import { checkFileUrlPolicy, checkFileUrls, type FileUrlPolicy } from './file-urls.ts';
import { ageToolFiles, takesToolDocuments, takesToolImages } from './tool-output.ts';
import { type CallResultStore, callResultKey, createMemoryCallResultStore, NOT_STARTED_RECORD, type RecordedCallResult } from './call-results.ts';
import { repairToolCallFor } from './invalid-calls.ts';
import { withMaskedClientResults } from './masked-results.ts';
import { ModelReplyError, modelReplyError } from './model-reply-error.ts';
import { createProgressRelay } from './progress-relay.ts';
import { withoutUnprovenMetadata } from './provider-metadata.ts';
import { createEarlySeals, createProofs, editedInput, sealedInput } from './turn-proofs.ts';
import { createTurnSource, type TurnSource, turnStreamOf } from './turn-stream.ts';
import { type SubCalls, takeSubCalls } from './sub-calls.ts';
import { meterCall, meterSlotOf, openTokenMeter } from './token-meter.ts';
import { streamTurnModel } from './stream-limits.ts';
import { type ResumableOptions, resumableResponse } from './resumable/record.ts';
import { createUnrunCalls, runsNoCalls } from './unrun-calls.ts';
import type { AgentInstructions, ModelSettings } from './model-settings.ts';
import { addUsage, emptyUsage, messageUsage, type TurnUsage } from './usage.ts';
import { DEFAULT_SEAL_TTL_MS } from './proofs.ts';
import {
  dataByCallId,
  type EdgetoolMessageMetadata,
  type EdgetoolUIMessage,
  type ExecutionMode,
  shownUsage,
  TICKET_PART,
  type TicketPartData,
  type TurnLimit,
  toolNameOf,
  toolParts,
} from './protocol.ts';
import {
  abortOption,
  activeToolsOption,
  anySignal,
  budgetedSteps,
  checkMaxSteps,
  checkTokenBudget,
  hiddenFailureLog,
  type InputTokenEstimate,
  mayAsk,
  prepareTurn,
  returnDirectStop,
  turnBudget,
  turnLimits,
} from './loop-parts.ts';
import { type UnfinishedCall, verifyContinuation } from './verify-continuation.ts';

/** Options for {@link createChatAgent}; `TDeps` is what its tools need in `run.deps` (see `withDeps`). */
export interface ChatAgentOptions<TDeps = unknown> {
  /** Any AI SDK language model: `openai('gpt-4o')`, `createOfflineModel()`, a mock. */
  readonly model: LanguageModel;
  readonly tools: ToolRegistry | readonly AnyTool[];
  /** What the model is told before the conversation: text, or a function of the turn's run (made once per turn). */
  readonly instructions?: AgentInstructions<TDeps>;
  /**
   * The model's settings for every step (`temperature`, `maxOutputTokens`, `reasoning`, `providerOptions`, `headers`,
   * `toolChoice`, …). A turn's `settings` override them.
   */
  readonly settings?: ModelSettings;
  /** Signs and verifies tickets and seals. Required: continuations cross a trust boundary. */
  readonly tickets: TicketSigner;
  /** Upper bound on model steps per turn: a whole number from 1, or `Infinity` for none (default 8). */
  readonly maxSteps?: number;
  /**
   * The most tokens a turn may use, counted as its `usage` is: every model step, plus what its tool calls report (agents
   * run as tools, any tool that calls a model; failed calls too). Checked between steps: once a step has reached it, the turn starts no other and ends with
   * `limit: 'tokens'` (the step that crosses it finishes; `settings.maxOutputTokens` bounds one step). Checked before
   * every model call too, the first included: a call whose estimated input ({@link ChatAgentOptions.inputTokenEstimate})
   * is over what the budget has left is not made, and the turn ends the same way. Default: none.
   * A turn's own `tokenBudget` can only lower it.
   */
  readonly tokenBudget?: number;
  /**
   * How the budget's check before each model call estimates the call's input tokens from what it will send
   * (instructions, messages, tool definitions). Default: `estimateInputTokens` (UTF-8 bytes / 4, and a fixed count per
   * image), a little over a provider's count for English and JSON. A function replaces it (a real tokenizer's count);
   * `false` turns the check off (the budget is then checked between steps only). Used only when a budget applies.
   */
  readonly inputTokenEstimate?: InputTokenEstimate;
  /** Global interceptors around every server tool call. */
  readonly interceptors?: readonly InterceptorLike[];
  readonly onTrace?: (record: TraceRecord) => void;
  /**
   * Time every layer of every server call and send it to the client as a trace part after the call's
   * seal (default true: UIs show a timeline). `false` saves the clock reads and the bytes.
   */
  readonly trace?: boolean;
  /** Lifetime of result seals: a positive whole number of milliseconds (default 30 days). Checked when the agent is made. */
  readonly sealTtlMs?: number;
  /** Model call retries (the AI SDK's `maxRetries`, default 2). */
  readonly maxRetries?: number;
  /**
   * Receives every model or stream error of a turn, with its details (default: `console.error`); a server's error
   * reply, or a reply its provider cannot read, as a `ModelReplyError` whose cause is the provider's error. The client reads
   * only {@link ChatAgentOptions.errorMessage}'s text for it. Also every tool failure whose message the model and client
   * did not read ({@link ChatAgentOptions.toolErrorMessage}): the `ToolError`, whose `callId` is the reference they read.
   */
  readonly onError?: (event: { error: unknown }) => void;
  /**
   * The text the client's `error` chunk carries for a model or stream error. Default: edgetool's own errors
   * (`ToolError`) as they are, a `ModelReplyError` (a server that answered with an error, or unreadably) as its fault
   * without the server's words, any other as `The model call failed (<error name>).`, so a provider's message (which
   * may carry internal details) never reaches the browser. `(error) => String(error)` shows everything.
   */
  readonly errorMessage?: (error: unknown) => string;
  /**
   * What the model, and so the client's UI stream and the history, read of a failed tool call: every message as it is
   * (`'verbatim'`, default), `'hide-unexpected'` to hide those edgetool did not write for the model (a plain `Error`, a
   * `TypeError`, a failed lazy import: `The tool failed unexpectedly (reference <call id>).`), or a function. UI and
   * text turns alike; see `ToolErrorMessage` in `@edgetool/core`. What they did not read goes to `onError`.
   */
  readonly toolErrorMessage?: ToolErrorMessage;
  /**
   * Time limits for the model's answer, the AI SDK's `timeout` and our `responseMs` (default `{ firstChunkMs: 60_000,
   * chunkMs: 60_000, responseMs: 120_000 }`: a model that hangs ends a UI turn with an error within a minute, a text
   * turn within two). An object replaces the default whole. `false` sets none. Tools have their own `policy.timeoutMs`.
   */
  readonly modelTimeout?: ModelTimeout | false;
  /**
   * Keeps the result of every call that ran with an approval, so that the same continuation sent again (its answer
   * was lost on the way) gets that result back instead of a refused ticket, and the call does not run twice. Default:
   * in memory (one process or isolate); across Worker isolates, use a shared store (the demo keeps them in D1).
   */
  readonly callResults?: CallResultStore;
  /**
   * Images in tool results (a tool's `toModelOutput` parts) reach the model as images. Default: when the model takes
   * them ({@link takesToolImages}: OpenAI's and Azure's Responses API, Anthropic, the offline model); other models
   * read the parts' text, with a line naming each image. `true` forces images, `false` text.
   */
  readonly toolImages?: boolean;
  /**
   * PDF documents in tool results (`documentPart`) reach the model as documents. Default: when the model takes them
   * ({@link takesToolDocuments}: OpenAI's and Azure's Responses API, Anthropic, the offline model), each after the line
   * that names it; other models read only that line (its file name, type and size), while images still follow
   * `toolImages`. `true` forces documents, `false` text.
   */
  readonly toolDocuments?: boolean;
  /**
   * For how many turns the images and documents of a tool result reach the model as files (a turn ends with the next
   * user message; `1`: only in the turn that made them). Older results reach it as their text with a line naming each
   * file, so a PDF or chart is not sent again with every later request. Default: `Infinity` (always as files). The
   * messages and their seals do not change, only what the model is sent.
   */
  readonly toolFileTurns?: number;
  /**
   * Which `file` parts of a client's messages may name a URL rather than carry their bytes as a `data:` URL. Any other
   * URL the AI SDK downloads here when the model does not take it (its `supportedUrls`): a host the client picks, up to
   * 2 GiB. `'refuse'` (default): none, a `FileUrlError` (`invalid-input`) before anything runs; `'model'`: those the
   * model fetches itself; `'allow'`: all (the AI SDK's default); a function: those it returns true for.
   */
  readonly fileUrls?: FileUrlPolicy;
  /**
   * Receives each tool a turn leaves out of the model's list because its `policy.available` check did not answer within
   * 10 s, or before the turn's signal aborted (a `timeout` or `aborted` `ToolError`), and each one an unknown tool's
   * list leaves out or a client's result is refused for. Default: `console.error`. See `availableTools`.
   */
  readonly onLateCheck?: AvailableToolsOptions['onLateCheck'];
}

/** Time limits for the model, in milliseconds (see the AI SDK's `timeout`). */
export interface ModelTimeout {
  /**
   * Until the first chunk of each step (streaming). For a model object whose call ids the loop checks (any but one that
   * says its ids are unique), from the request on: a server that never answers it ends the turn too.
   */
  readonly firstChunkMs?: number;
  /** Between two chunks of the model's answer (streaming). */
  readonly chunkMs?: number;
  /** Each whole step, tools included. */
  readonly stepMs?: number;
  /**
   * Until each model call's whole answer when it is not streamed: text turns (`generateTextTurn`, `agentTool`), which
   * get no chunks to time. Tools are not counted. A UI turn streams, and `firstChunkMs` and `chunkMs` time it.
   */
  readonly responseMs?: number;
  /** The whole turn. */
  readonly totalMs?: number;
}

/** The default {@link ChatAgentOptions.modelTimeout}. */
export const DEFAULT_MODEL_TIMEOUT: ModelTimeout = { firstChunkMs: 60_000, chunkMs: 60_000, responseMs: 120_000 };

/** One turn's input. */
export interface ChatRequest<TDeps = unknown> {
  /** The conversation as `useChat` sends it (UI messages), or a single user prompt. */
  readonly messages: readonly unknown[] | string;
  readonly mode?: ExecutionMode;
  /** Who asks, the conversation id (tickets are bound to it), dependencies such as a database. */
  readonly run: RunContext<TDeps>;
  /** Abort the turn (for example `request.signal` when the client disconnects). */
  readonly signal?: AbortSignal | undefined;
  /**
   * A human approval already covers this whole turn (an approved agent-as-tool call): calls that
   * would need approval run without asking again. Never set this from client input.
   */
  readonly grantApprovals?: boolean;
  /**
   * This turn's model settings, over the agent's (field by field; provider options per provider). From server code:
   * a value a client chose (a temperature slider) must be checked before it goes here.
   */
  readonly settings?: ModelSettings;
  /**
   * This turn's token budget (the user's remaining quota, say): the lower of it and the agent's `tokenBudget` applies.
   */
  readonly tokenBudget?: number;
  /**
   * Keeps the turn's writes of approved calls' records (`callResults`) going after the client left: a Worker's
   * `ctx.waitUntil`. Without it a platform that stops a request when its client leaves may lose the record of a call
   * the turn gave up on before it started, and its Retry reads "outcome unknown" where it would run the call once.
   */
  readonly waitUntil?: ((work: Promise<unknown>) => void) | undefined;
}

/** A call the turn ended on: waiting for a human approval, or for the caller to run it. */
export interface PendingToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly kind: 'approval' | 'client';
  readonly ticket: string | undefined;
  readonly runsOn: TicketPartData['runsOn'] | undefined;
  /** For an approval: the arguments a human may edit before approving (`true`: any; see `policy.editable`). Absent: none. */
  readonly editable?: true | readonly string[];
  /** For an approval: what the human reads besides the arguments (the tool's `policy.approvalReason`). Absent: none. */
  readonly reason?: string;
}

/** What every finished turn reports, a UI turn ({@link ChatTurnResult}) or a text turn (`TextTurnResult`). */
export interface TurnOutcome {
  /** The answer: the text after the turn's last tool call (or the return-direct output). */
  readonly text: string;
  readonly finishReason: string;
  /** Calls this server executed during the turn. */
  readonly toolResults: readonly ToolCallResult[];
  /** Calls the turn ended on: waiting for an approval, or for the caller to run them. */
  readonly pending: readonly PendingToolCall[];
  /** The loop ended on return-direct tools; the model was not called again. */
  readonly returnDirect: boolean;
  /**
   * The limit the loop stopped at, its last calls' results not yet read by the model: `'steps'` (`maxSteps`) or
   * `'tokens'` (`tokenBudget`). `undefined` when the model answered, or the turn ended on pending calls or an error.
   */
  readonly limit: TurnLimit | undefined;
  /**
   * The tokens the turn used: its model steps, plus what the calls this server ran reported (`result.usage`: agents run
   * as tools, any tool that calls a model), whatever their outcome. A turn cut short counts the steps that finished.
   */
  readonly usage: TurnUsage;
  readonly run: RunContext;
}

/** The awaited outcome of a turn. */
export interface ChatTurnResult extends TurnOutcome {
  /** The assistant message of this turn (a continued one keeps its id). */
  readonly message: EdgetoolUIMessage;
  /** The whole conversation after this turn, ready to send back. */
  readonly messages: EdgetoolUIMessage[];
}

/**
 * A running turn: one UI message stream (for `useChat`) and, if you ask for it, its result.
 * There is one stream: read `stream`, or send it with `toResponse()`, once.
 */
export interface ChatTurn {
  readonly stream: ReadableStream<UIMessageChunk>;
  /**
   * An SSE `Response` in the AI SDK UI message protocol. Unless `result` was read before, the chunks go out
   * as they are and nothing folds them into a conversation (what a Worker that only answers wants). With `resumable`,
   * a client that goes away mid-answer leaves the turn running, recorded for `resumeResponse` (see {@link ResumableOptions}).
   */
  toResponse(init?: ChatResponseInit): Response;
  /**
   * The turn's outcome, built from the stream as it is read. Read it before `toResponse()` (for example
   * `ctx.waitUntil(turn.result.then(save))`); afterwards it rejects with an `Error` saying so. Read before anything
   * has the stream, it runs the turn to its end by itself (so `await turn.result` alone settles), and the chunks wait
   * for `stream` or `toResponse()`. A stream cancelled early settles it with what arrived (`finishReason: 'aborted'`).
   */
  readonly result: Promise<ChatTurnResult>;
  /**
   * The tokens the turn used (see {@link TurnOutcome.usage}), once its stream has ended, been cancelled or failed. It
   * needs no fold: a Worker that only sends `toResponse()` meters with `ctx.waitUntil(turn.usage.then(record))`.
   */
  readonly usage: Promise<TurnUsage>;
}

/** `turn.toResponse()`'s options: the response's status and headers, and whether the turn outlives its client. */
export interface ChatResponseInit extends ResponseInit {
  /** Opt in: the turn goes on detached when its client goes away, and a reload resumes it. Nothing is written otherwise. */
  readonly resumable?: ResumableOptions | undefined;
}

/** The chat loop over an edgetool registry. */
export interface ChatAgent<TDeps = unknown> {
  readonly registry: ToolRegistry;
  /** The server-side executor (policy and chain; tickets are checked by the loop before it runs). */
  readonly executor: ToolExecutor;
  readonly model: LanguageModel;
  /** The options the agent was created with (`generateTextTurn` runs the same loop from them). */
  readonly options: ChatAgentOptions<TDeps>;
  /**
   * Verifies the continuation (throws a `ContinuationError` before anything runs when it is forged),
   * then streams the turn.
   */
  stream(request: ChatRequest<TDeps>): Promise<ChatTurn>;
  /** Runs a turn to the end and returns its result (for servers, scripts and tests). */
  generate(request: ChatRequest<TDeps>): Promise<ChatTurnResult>;
}

/** How a model is named in message metadata and health checks. */
export function describeModel(model: LanguageModel): { provider: string; modelId: string; offline: boolean } {
  if (typeof model === 'string') return { provider: 'gateway', modelId: model, offline: false };
  return { provider: model.provider, modelId: model.modelId, offline: isOfflineModel(model) };
}

/**
 * The AI SDK `timeout` of a UI turn's stream: the agent's `modelTimeout` without `responseMs` (text turns apply it
 * themselves; a stream is timed by its chunks). A `responseMs` that is not a positive number fails here, when the
 * agent is made.
 */
function streamTimeout(modelTimeout: ModelTimeout | false | undefined): Omit<ModelTimeout, 'responseMs'> | undefined {
  if (modelTimeout === false) return undefined;
  const { responseMs, ...stream } = modelTimeout ?? DEFAULT_MODEL_TIMEOUT;
  if (responseMs !== undefined && responseMs !== Number.POSITIVE_INFINITY && !(typeof responseMs === 'number' && responseMs > 0 && responseMs <= 2_147_483_647)) {
    throw new RangeError(`\`modelTimeout.responseMs\` must be a number of milliseconds from 1 to 2147483647, or Infinity for none; got ${String(responseMs)}.`);
  }
  return Object.keys(stream).length === 0 ? undefined : stream;
}

/**
 * The agent's `sealTtlMs` (`undefined`: the default), checked as the signer checks a seal's lifetime: a bad one failed at
 * the first seal, after the call it covers had run (a write done, its result never sent).
 */
function checkSealTtl(sealTtlMs: unknown): number {
  if (sealTtlMs === undefined) return DEFAULT_SEAL_TTL_MS;
  if (Number.isSafeInteger(sealTtlMs) && (sealTtlMs as number) > 0) return sealTtlMs as number;
  throw new RangeError(`\`sealTtlMs\` must be a positive whole number of milliseconds; got ${String(sealTtlMs)}.`);
}

/** Every tool call id of a UI history (the model's prompt leaves incomplete calls out; the history keeps them). */
function* historyCallIds(messages: readonly EdgetoolUIMessage[]): Iterable<string> {
  for (const message of messages) {
    if (message.role === 'assistant') for (const part of toolParts(message)) yield part.toolCallId;
  }
}

function toUIMessages(messages: readonly unknown[] | string): unknown[] {
  if (typeof messages !== 'string') return [...messages];
  return [{ id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: messages }] }];
}

/**
 * Why a request whose conversation ends with the assistant's answer is refused: a turn goes on from a user message, or
 * from the answers to the calls of the message it continues (approvals, a client's results), never from the model's text.
 */
export const ENDS_WITH_ANSWER =
  "Invalid messages: the conversation ends with the assistant's answer. A request ends with a user message, or with the answers to the tool calls of the assistant message it continues.";

/**
 * The error a UI turn ends with when the model's answer stopped before the model finished it (its stream closed without
 * a finish reason; `finishReason: 'interrupted'`). What came before stays in the message.
 */
export const MODEL_CUT_TEXT = "The model's answer was cut off: its stream ended before the model finished. What came is kept; send a message to go on.";

/**
 * What the model reads for a call answered in an earlier turn whose result never reached the client, when the server
 * cannot confirm what happened (no result was recorded; for a denial, the decision kept with its ticket is gone). It
 * does not say what the user answered: the client could have rewritten that.
 */
export const UNFINISHED_CALL_TEXT =
  'Error (execution-failed): This call was answered in an earlier request, but its result never arrived, so its outcome is unknown (it may have run). Check the current state before calling it again.';

/**
 * What the model reads for a client's result of an earlier turn that the server can no longer confirm (its ticket
 * expired, and the answer kept with its nonce with it, before any request sealed the result). It does not say what the
 * client answered: the client could have rewritten that.
 */
export const UNCONFIRMED_RESULT_TEXT =
  'Error (execution-failed): This call was run by the client in an earlier request, but the server can no longer confirm the result it reported, so its outcome is unknown (it may have run). Check the current state before calling it again.';

/**
 * What the model reads for a call answered in an earlier turn whose ticket the server took with another answer (another
 * tab of the conversation answered it first, or the history was rewritten): neither that answer, which this history
 * does not hold, nor the one it shows, which the server did not take.
 */
export const ANSWERED_OTHERWISE_TEXT: string =
  'Error (execution-failed): This call was answered more than once (in another tab of this conversation, for example), and the server took ' +
  'another answer than the one this conversation shows, so its outcome is unknown here (it may have run). Check the current state before calling it again.';

/**
 * The history as the model reads it: each unfinished call (see `VerifiedContinuation.unfinished`) gets its recorded
 * result, its confirmed denial, {@link UNFINISHED_CALL_TEXT}, for a client result it cannot confirm
 * {@link UNCONFIRMED_RESULT_TEXT}, or for an answer the server took otherwise {@link ANSWERED_OTHERWISE_TEXT}. The AI SDK
 * refuses an approved call without a result in the history.
 */
function withUnfinishedResults(messages: EdgetoolUIMessage[], unfinished: ReadonlyMap<string, UnfinishedCall>): EdgetoolUIMessage[] {
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const parts = message.parts.map((part) => {
      const id = (part as { toolCallId?: unknown }).toolCallId;
      const known = typeof id === 'string' ? unfinished.get(id) : undefined;
      if (known === undefined) return part;
      // A denial stays one: the model must not read that the user approved a call they refused. Its reason is the
      // client's unsealed text (only the decision is kept with the ticket), so the model reads none, as for a denial
      // without one.
      if (known.read === 'denied') {
        const { reason: _unsealed, ...approval } = (part as { approval?: { reason?: string } }).approval ?? {};
        return { ...part, state: 'output-denied', approval } as typeof part;
      }
      // A recorded result is read whatever this copy answered (a denial, when another tab approved first): the denial's
      // approval response goes no further than the AI SDK's prompt, which leaves approval responses out for the provider.
      if (known.read === 'result' && 'output' in known.result) return { ...part, state: 'output-available', output: known.result.output } as typeof part;
      const errorText =
        known.read === 'result' && 'errorText' in known.result
          ? known.result.errorText
          : known.read === 'unconfirmed'
            ? UNCONFIRMED_RESULT_TEXT
            : known.read === 'conflict'
              ? ANSWERED_OTHERWISE_TEXT
              : UNFINISHED_CALL_TEXT;
      // An unknown outcome keeps no approval: the client's answer is not known to be true, and an answer the AI SDK
      // sees in the history it may act on. Nor the output a client shows that the server cannot confirm.
      const { approval, output: _unconfirmed, ...rest } = part as typeof part & { approval?: unknown; output?: unknown };
      return { ...rest, ...(known.read === 'result' ? { approval } : {}), state: 'output-error', errorText } as typeof part;
    });
    return { ...message, parts };
  });
}

/**
 * The calls of the step the request continues (the tool parts after the last step start of the assistant message it
 * goes on with), when one it decides now is a return-direct tool's: once they have run, the loop may end on their
 * outputs without calling the model (see `returnDirectStop`). None otherwise.
 */
function continuedDirect(
  messages: readonly EdgetoolUIMessage[],
  verified: { readonly decisions: ReadonlyMap<string, unknown>; readonly inputs: ReadonlyMap<string, { readonly toolName: string }> },
  tools: ReadonlyMap<string, AnyTool>,
): string[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return [];
  if (![...verified.decisions.keys()].some((id) => tools.get(verified.inputs.get(id)?.toolName ?? '')?.policy.returnDirect === true)) return [];
  let step = last.parts.length - 1;
  while (step >= 0 && last.parts[step]?.type !== 'step-start') step--;
  return toolParts({ parts: last.parts.slice(step + 1) }).map((part) => part.toolCallId);
}

/** A write to a stream its reader has already closed (a client that left): nobody is there to tell, nothing to log. */
function isTeardown(error: unknown): boolean {
  return error instanceof TypeError && /already closed|is closed/i.test(error.message);
}

/** The default {@link ChatAgentOptions.onError}: the server's log gets what the client is not shown. */
function logError({ error }: { error: unknown }): void {
  console.error('edgetool: a chat turn failed:', error);
}

/**
 * The default {@link ChatAgentOptions.errorMessage}: our own messages, the fault of a model's server that answered with an
 * error or a reply its provider cannot read (not the server's words), and only the name of anything else.
 */
export function defaultErrorMessage(error: unknown): string {
  if (ToolError.isInstance(error)) return error.message;
  if (ModelReplyError.isInstance(error)) {
    return error.fault === 'error-reply' ? "The model's server answered with an error." : "The model's server sent a reply that could not be read.";
  }
  const name = error instanceof Error && error.name !== '' ? ` (${error.name})` : '';
  return `The model call failed${name}.`;
}

/** Reads a stream to its end. */
async function drain(stream: ReadableStream<unknown>): Promise<void> {
  const reader = stream.getReader();
  while (!(await reader.read()).done) {
    // Nothing to do with the chunks.
  }
}

/**
 * The same stream, read to its end now: its chunks queue up for whoever reads it later. Cancelling it cancels the
 * source, wherever the reading has got to.
 */
function readAhead<T>(source: ReadableStream<T>): ReadableStream<T> {
  const reader = source.getReader();
  let cancelled = false;
  return new ReadableStream<T>({
    start(controller) {
      const pump = async () => {
        try {
          while (true) {
            const next = await reader.read();
            if (cancelled) return;
            if (next.done) return controller.close();
            controller.enqueue(next.value);
          }
        } catch (error) {
          if (!cancelled) controller.error(error);
        }
      };
      void pump();
    },
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
}

/** The text of the answer: text parts after the message's last tool part. */
function answerText(message: EdgetoolUIMessage): string {
  const parts = message.parts as { type: string; text?: string }[];
  let lastTool = -1;
  parts.forEach((part, i) => {
    if (part.type.startsWith('tool-') || part.type === 'dynamic-tool') lastTool = i;
  });
  return parts
    .slice(lastTool + 1)
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('');
}

/**
 * The calls a turn's message ends on: approval requests, and calls handed to the caller (those with a client-result
 * ticket). A server call the turn stopped in (an abort, a failed model stream) also stays `input-available`, but
 * nothing waits for anyone to run it.
 */
function pendingCalls(message: EdgetoolUIMessage): PendingToolCall[] {
  const tickets = dataByCallId<TicketPartData>(message, TICKET_PART);
  const pending: PendingToolCall[] = [];
  for (const part of toolParts(message)) {
    if (part.state !== 'approval-requested' && part.state !== 'input-available') continue;
    const ticket = tickets.get(part.toolCallId);
    if (part.state === 'input-available' && ticket?.purpose !== 'client-result') continue;
    pending.push({
      toolCallId: part.toolCallId,
      toolName: toolNameOf(part),
      input: part.input,
      kind: part.state === 'approval-requested' ? 'approval' : 'client',
      ticket: ticket?.ticket,
      runsOn: ticket?.runsOn,
      ...(part.state === 'approval-requested' && ticket?.editable !== undefined ? { editable: ticket.editable } : {}),
      ...(part.state === 'approval-requested' && typeof part.approval?.requestReason === 'string' ? { reason: part.approval.requestReason } : {}),
    });
  }
  return pending;
}

/**
 * The stream a client reads, and the result it builds as it is read: the AI SDK folds each chunk into the
 * message in place and hands the conversation over once, at the end (no tee, no second pipeline, no
 * per-chunk snapshots). If the client stops reading, the turn is cancelled and the result holds what it got.
 * The turn's chunks are written into the fold's stream as they are made, not merged from a stream of their own: one
 * stream stage less per chunk (`writer.merge` reads a merged stream as fast as it can anyway, so no backpressure is
 * lost). An empty stream is merged beside them only so that the reader's cancel, which the AI SDK passes to what it
 * merged, reaches the turn.
 */
function foldTurn(
  source: TurnSource,
  originalMessages: EdgetoolUIMessage[],
  errorText: (error: unknown) => string,
  toResult: (message: EdgetoolUIMessage, all: EdgetoolUIMessage[], isCancelled: boolean) => ChatTurnResult,
): { stream: ReadableStream<UIMessageChunk>; result: Promise<ChatTurnResult> } {
  let settle: (outcome: { result: ChatTurnResult } | { error: unknown }) => void = () => {};
  const result = new Promise<ChatTurnResult>((resolve, reject) => {
    settle = (outcome) => ('result' in outcome ? resolve(outcome.result) : reject(outcome.error));
  });
  result.catch(() => {}); // Rejections surface when awaited, never as unhandled.
  // The texts of the error chunks the turn wrote: each was reported (`onError`) when it was made, and the fold hands
  // every error chunk it reads to its `onError` again as an `Error` of that text, which must not report it twice.
  const written = new Set<string>();
  const stream = createUIMessageStream<EdgetoolUIMessage>({
    originalMessages,
    execute: ({ writer }) => {
      let release = () => {};
      writer.merge(
        new ReadableStream<never>({
          start: (controller) => {
            release = () => controller.close();
          },
          cancel: (reason) => source.cancel(reason),
        }),
      );
      const enqueue = (chunk: UIMessageChunk) => {
        if (chunk.type === 'error') written.add(chunk.errorText);
        writer.write(chunk as never);
      };
      return source.pump({ enqueue, close: () => {} }).finally(() => {
        try {
          release();
        } catch {
          // Cancelled already: the AI SDK stopped reading it.
        }
      });
    },
    onError: (error) => (error instanceof Error && written.has(error.message) ? error.message : errorText(error)),
    onEnd: ({ messages: all, isCancelled }) => {
      const message = all.at(-1);
      if (message?.role !== 'assistant') return settle({ error: new ToolError('execution-failed', 'The model produced no message.') });
      settle({ result: toResult(message, all, isCancelled === true) });
    },
  }) as ReadableStream<UIMessageChunk>;
  return { stream, result };
}

/**
 * Creates the chat loop: `internal` mode runs server tools through the edgetool chain until the model
 * answers; `manual` mode hands every call back to the caller with a ticket. Approvals and client
 * results are accepted only with tickets; every result in the history must carry this server's seal.
 * Given a list of tools, or a registry made from one, the agent is typed by the deps they need (`withDeps`): every
 * turn's `run` must carry them.
 */
export function createChatAgent<const TTools extends readonly AnyTool[]>(
  options: ChatAgentOptions<ToolsDeps<TTools>> & { readonly tools: TTools },
): ChatAgent<ToolsDeps<TTools>>;
export function createChatAgent<TDeps>(options: ChatAgentOptions<TDeps> & { readonly tools: ToolRegistry<TDeps> }): ChatAgent<TDeps>;
export function createChatAgent(options: ChatAgentOptions): ChatAgent;
export function createChatAgent(options: ChatAgentOptions): ChatAgent {
  const { model, tickets } = options;
  // No tickets here on purpose: the loop verifies every proof at the trust boundary, before execution.
  const traces = options.trace !== false;
  // The executor makes a list into a registry, and checks the shape of one made by hand.
  const executor = createExecutor({
    registry: options.tools,
    interceptors: options.interceptors ?? [],
    onTrace: options.onTrace,
    spans: traces,
    toolErrorMessage: options.toolErrorMessage,
    onLateCheck: options.onLateCheck,
  });
  const { registry } = executor;
  const maxSteps = checkMaxSteps(options.maxSteps);
  const tokenBudget = checkTokenBudget(options.tokenBudget, '`tokenBudget`');
  const sealTtlMs = checkSealTtl(options.sealTtlMs);
  const label = describeModel(model);
  const modelTimeout = streamTimeout(options.modelTimeout);
  const callResults = options.callResults ?? createMemoryCallResultStore();
  const fileTurns = options.toolFileTurns ?? Number.POSITIVE_INFINITY;
  ageToolFiles([], fileTurns); // A bad value fails here, not on the first turn.
  const fileUrls = checkFileUrlPolicy(options.fileUrls);
  // A provider's report of an error reply or of a reply it cannot read becomes a ModelReplyError, the same one each time
  // the turn meets it (the stream and the model both pass it on), so that it is reported once.
  const asReplyError = new WeakMap<object, unknown>();
  const typed = (error: unknown): unknown => {
    if (typeof error !== 'object' || error === null) return error;
    let mapped = asReplyError.get(error);
    if (mapped === undefined) {
      mapped = modelReplyError(error) ?? error;
      asReplyError.set(error, mapped);
    }
    return mapped;
  };
  // Each error reaches onError once, with its details (the stream and the model both pass model errors on).
  const reported = new WeakSet<object>();
  const report = (raw: unknown): void => {
    const error = typed(raw);
    if (typeof error === 'object' && error !== null) {
      if (reported.has(error)) return;
      reported.add(error);
    }
    options.onError?.({ error });
  };
  const clientText = options.errorMessage ?? defaultErrorMessage;
  /**
   * A `callResults` store that failed to record or to read a result: to `onError`, or the log. An `onError` that throws
   * changes nothing: the call's result (or its unknown outcome) goes on as it is.
   */
  const recordFailed = (error: unknown): void => {
    try {
      if (options.onError !== undefined) report(error);
      else console.error('edgetool: the callResults store failed:', error);
    } catch {
      // A broken listener must not fail the call.
    }
  };
  const logHidden = hiddenFailureLog(options.onError);
  /**
   * The client's text for a turn's error, reported on the way. Without an onError the log gets the turn's first
   * error only: what follows it is the stream being torn down (a write to a closed stream), not news.
   */
  const turnErrors = () => {
    let logged = false;
    return (raw: unknown): string => {
      const error = typed(raw);
      if (options.onError !== undefined) report(error);
      else if (!logged && !isTeardown(error)) {
        logged = true;
        logError({ error });
      }
      return clientText(error);
    };
  };

  async function stream<TDeps>(request: ChatRequest<TDeps>): Promise<ChatTurn> {
    const mode = request.mode ?? 'internal';
    if (mode !== 'internal' && mode !== 'manual') throw new ToolError('invalid-input', `Unknown mode ${JSON.stringify(mode)}: use "internal" or "manual".`);
    const run = request.run as RunContext;
    const validation = await safeValidateUIMessages<EdgetoolUIMessage>({ messages: toUIMessages(request.messages) });
    if (!validation.success) {
      // The validator quotes the offending value, which can be the whole conversation: keep the start of it.
      const why = validation.error.message;
      throw new ToolError('invalid-input', `Invalid messages: ${why.length > 500 ? `${why.slice(0, 500)}… (${why.length} characters)` : why}`, { cause: validation.error });
    }
    const messages = validation.data;
    // The instructions are the server's: a client's system message would be a prompt the server never wrote.
    if (messages.some((message) => message.role === 'system')) {
      throw new ToolError('invalid-input', 'Invalid messages: a client may send user and assistant messages only, not system messages.');
    }
    // A file part's URL the server would download (or hand on) is refused before the turn spends anything.
    await checkFileUrls(messages, fileUrls, model);

    // What the turn needs from the server (its tools, settings and instructions) before any ticket is claimed: a failure
    // here (instructions that read a database that is down, a refused toolChoice) must not spend the continuation's
    // approvals, or the same continuation sent again would read "outcome unknown" for calls that never ran.
    const { all, visible, settings, instructions } = await prepareTurn(registry, options, request.settings, run);
    // The request's own budget is checked before any ticket is claimed, as its settings are.
    const budget = turnBudget(tokenBudget, request.tokenBudget);
    // Kept under the call's approval ticket too: a regenerated call with the id of the call it replaced reads no record.
    const recordKey = (toolCallId: string, ticket: string) => callResultKey({ tickets, conversationId: run.conversationId, toolCallId, ticket });
    const recorded = (toolCallId: string, ticket: string) => callResults.get(recordKey(toolCallId, ticket));
    // The record of an approved call that this request ran or gave up on, under its ticket, for the seal's lifetime.
    // Its write is handed to the caller's `waitUntil` too (it outlives a client that left); its failure is the call's own
    // to report (`onRememberError`), so the copy handed on never rejects.
    const keep = (r: ToolCallResult, record: RecordedCallResult): Promise<void> | void => {
      const write = callResults.put(recordKey(r.call.id, approvalTickets.get(r.call.id) ?? ''), record, Date.now() + sealTtlMs);
      try {
        if (write !== undefined) request.waitUntil?.(Promise.resolve(write).catch(() => undefined));
      } catch {
        // A `waitUntil` that throws (called once its request is over) changes nothing: the write goes on as it would.
      }
      return write;
    };
    const results = new Map<string, ToolCallResult>();
    // Counted as the turn runs, for the agent calls it makes: their inner turns stop at what it has left.
    const meter = openTokenMeter(run, budget, results);
    // The calls each agent tool's sub-agent made, by the agent call's id, for its trace part.
    const subCalls = new Map<string, SubCalls>();
    // The arguments calls of this request ran with where the executor applied a human's edit, by call id: what their
    // seals cover and record (not the client's edit part, which the executor may have refused).
    const ranWith = new Map<string, unknown>();
    // The arguments earlier results ran with where a human edited them (the history's seals), and those of calls this
    // request answers from their record: the model reads what changed beside each.
    const edited = new Map<string, unknown>();
    // The continuation's decisions and the calls it answers from their record, once its tickets are claimed: the tools
    // are made before (the history's conversion needs them), and read these only when a call runs.
    const decisions = new Map<string, ApprovalDecision>();
    let replayed: ReadonlySet<string> = new Set();
    // Of those, the ones whose store confirmed this very decision (see VerifiedContinuation.confirmed).
    let confirmed: ReadonlySet<string> = new Set();
    // The approval ticket of each continued call (its recorded result is kept under it), once verified.
    let approvalTickets: ReadonlyMap<string, string> = new Map();
    // Made at the first call without an approval ticket that runs (see idempotencyKey below).
    let requestNonce: string | undefined;
    const early = createEarlySeals(tickets, run.conversationId, sealTtlMs);
    const errorText = turnErrors();
    let usage = emptyUsage();
    let ended: () => void = () => {};
    const usageAtEnd = new Promise<TurnUsage>((resolve) => {
      ended = () => resolve(usage);
    });
    const tools: ToolSet = await toAISDKTools(executor, {
      tools: all,
      run,
      mode,
      hidden: 'keep',
      images: options.toolImages ?? takesToolImages(model),
      documents: options.toolDocuments ?? takesToolDocuments(model),
      // The relay is made once the tickets are claimed (it opens the calls they approve), before any call runs.
      onProgress: (event) => progress.report(event),
      decisions,
      edited,
      grantApprovals: request.grantApprovals === true,
      // Each call this turn runs reads this turn's meter (another turn at once on the same run has its own).
      ...(meter === undefined ? {} : { running: (id: string) => meterCall(run, id, meter) }),
      // A continuation sent again: its call ran with the arguments its record names, whatever edit came this time.
      recall: (id) =>
        replayed.has(id)
          ? Promise.resolve()
              .then(() => recorded(id, approvalTickets.get(id) ?? ''))
              .then(
                (record) => {
                  if (record !== undefined && 'input' in record) {
                    ranWith.set(id, record.input);
                    edited.set(id, record.input);
                  }
                  return record;
                },
                // A store that cannot be read (it is down): the model reads that the outcome is unknown, which is true,
                // and never the store's error (its host, its words).
                (error: unknown) => {
                  recordFailed(error);
                  return undefined;
                },
              )
          : undefined,
      // An approved call is marked started (a second claim beside its ticket's nonce) before it runs, so that the same
      // continuation sent again after a cut before it started runs it (once: the mark is single-use), and one sent after
      // it started reads its record. A replay runs it only when the store confirmed the same approval: a store that keeps
      // no decisions could take a copy that approves for a first request that denied. No `claimMark`: no mark, as before.
      // A replay whose record says the call was given up on before it started takes a second mark (`rerun`) the same way.
      start: (id, mark) => {
        const ticket = approvalTickets.get(id);
        if (ticket === undefined || decisions.get(id)?.approved !== true || tickets.claimMark === undefined) return undefined;
        if (replayed.has(id) && !confirmed.has(id)) return undefined;
        return tickets.claimMark(ticket, mark).catch((error: unknown) => {
          recordFailed(error);
          throw error;
        });
      },
      // A call approved in this continuation writes under the key its result is recorded under: its ticket's, so a
      // regenerated call given the id of the call it replaced writes its own row, and this continuation sent again the same.
      // A call without a ticket runs in the request whose model made it (a continuation runs only approved calls), so
      // its key is this request's: a regenerated answer's write without approval that repeats the id of the call it
      // replaced is not taken for that call (a key of the conversation and the call id alone would read it as written).
      idempotencyKey: (id) => {
        const ticket = approvalTickets.get(id);
        if (ticket !== undefined) return recordKey(id, ticket);
        requestNonce ??= crypto.randomUUID();
        return idempotencyKeyOf({ conversationId: run.conversationId, callId: id, nonce: requestNonce });
      },
      // A store that fails is the server's failure, reported as the turn's other ones are (the call's result goes on).
      onRememberError: recordFailed,
      // A call marked started, then given up on before its chain started: the same continuation sent again runs it.
      notStarted: (r) => keep(r, NOT_STARTED_RECORD),
      remember: (r) =>
        keep(r, {
          ...(r.outcome.type === 'success' ? { output: r.outcome.output } : { errorText: r.content }),
          ...(ranWith.has(r.call.id) ? { input: ranWith.get(r.call.id) } : {}),
        }),
      onResult: (r) => {
        results.set(r.call.id, r);
        const sub = takeSubCalls(run, r.call.id);
        if (sub !== undefined) subCalls.set(r.call.id, sub);
        logHidden(r);
        // What the call reported spending, whatever its outcome (a sub-agent that timed out after two steps). Only calls
        // this server ran get here: a client's result carries no usage.
        usage = addUsage(usage, r.usage);
        // What the AI SDK will put in the chunk: the returned output, or ToolCallFailed's text.
        // A call a human edited ran with the edited arguments: its seal covers those.
        if (r.edits !== undefined) ranWith.set(r.call.id, editedInput(r.call.arguments, r.edits));
        const ran = sealedInput(ranWith, r.call.id, r.call.arguments);
        const proposed = ran === r.call.arguments ? undefined : { value: verified.inputs.get(r.call.id)?.input };
        early.start(r.call.id, r.call.name, ran, r.outcome.type === 'success' ? { output: r.outcome.output } : { errorText: r.content }, proposed);
      },
    });
    // Set by `beforeClaims`, which verifyContinuation calls on every path that returns.
    let modelMessages: ModelMessage[] = [];
    const toolsByName = new Map(all.map((t) => [t.name, t] as const));
    const verified = await verifyContinuation(messages, {
      tickets,
      registry,
      conversationId: run.conversationId,
      recorded,
      // The history is converted for the model before any ticket of the continuation is claimed: a part the conversion
      // refuses (a file part whose url is not a URL), or a tool's toModelOutput that throws on an old output, ends the
      // request without spending its approvals, so the same approvals sent again (the history fixed) still run.
      beforeClaims: async (known) => {
        for (const [id, input] of known.edited) edited.set(id, input);
        const answered = known.unfinished.size === 0 ? messages : withUnfinishedResults(messages, known.unfinished);
        // A client's results never came through the chain: the model reads them masked as a server-run result is.
        // Provider metadata no proof of this server covers (a client's, a seal from before) never reaches the provider.
        const forModel = withMaskedClientResults(withoutUnprovenMetadata(answered, known.unproven, known.unprovenParts), known.clientResults, executor, toolsByName);
        try {
          modelMessages = ageToolFiles(await convertToModelMessages(forModel, { tools, ignoreIncompleteToolCalls: true }), fileTurns);
        } catch (error) {
          // Parts the validator lets through but the conversion refuses (a file part whose url is not a URL).
          throw new ToolError('invalid-input', `Invalid messages: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        // A prompt that ends with the assistant's own words (a client that dropped the user's last message) is one the
        // model would continue as its own answer (Anthropic reads it as a prefill): no turn goes on from there.
        if (modelMessages.at(-1)?.role === 'assistant') throw new ToolError('invalid-input', ENDS_WITH_ANSWER);
      },
    });
    for (const [id, decision] of verified.decisions) decisions.set(id, decision);
    replayed = verified.replayed;
    confirmed = verified.confirmed;
    approvalTickets = verified.approvalTickets;
    const progress = createProgressRelay(verified);

    const direct = returnDirectStop(results, continuedDirect(messages, verified, toolsByName));
    const limits = turnLimits(maxSteps, budget, results, direct, meterSlotOf(run));

    // Aborted when the turn's stream stops early (its reader cancelled it: Stop, a closed tab; a proof failed): the
    // tools that run and the model's request stop with it. Cancelling streamText's stream stops neither.
    const stopped = new AbortController();
    const turnSignal = anySignal(request.signal, run.signal, stopped.signal);
    // Calls whose arguments the output token limit cut off: the renaming wrapper finds them, the repair says so.
    const cut = new Set<string>();
    // A model that repeats a call id of the history or of this turn (some OpenAI-compatible servers send `call_0` in
    // every response) has the repeat renamed before anything sees it: tickets, seals, callResults keys, the UI stream.
    // The same stage times the model's chunks; a limit that runs out aborts the turn's signal as the AI SDK's did.
    const streaming = streamTurnModel(model, {
      timeout: modelTimeout,
      taken: () => historyCallIds(messages),
      cut: (id) => cut.add(id),
      abort: (reason) => stopped.abort(reason),
    });
    const result = streamText({
      ...settings,
      model: streaming.model,
      ...(instructions === undefined ? {} : { instructions }),
      messages: modelMessages,
      tools,
      ...activeToolsOption(all, visible),
      // A call the AI SDK cannot parse (not JSON, no such tool) gets the executor's typed error, like any failed call.
      repairToolCall: repairToolCallFor(executor, {
        run,
        cut,
        onResult: (r) => {
          results.set(r.call.id, r);
          logHidden(r);
        },
      }),
      ...(request.grantApprovals !== true && mayAsk(visible, mode) ? { toolApproval: toolApprovalFor(registry, { run, mode, signal: turnSignal, decided: (id) => decisions.has(id) }) } : {}),
      stopWhen: limits.stop,
      ...budgetedSteps({ estimate: options.inputTokenEstimate, meter, instructions, tools: visible, refuse: limits.refuse, resumed: direct.resumed }),
      ...abortOption(turnSignal),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      // Model errors reach the client as an `error` chunk; do not also log them to the console.
      // Errors the client is told about reach onError through errorText. The AI SDK's own (also those after a turn
      // was cut short) go to a caller's onError only (report() calls nothing without one), not to the default log.
      onError: ({ error }) => report(error),
      ...(streaming.timeout === undefined ? {} : { timeout: streaming.timeout }),
      // A step's tokens count as soon as its model call ends, for the agent calls still running.
      ...(meter === undefined ? {} : { onLanguageModelCallEnd: ({ usage }: { usage: LanguageModelUsage }) => meter.step(usage) }),
    });
    const metadata: EdgetoolMessageMetadata = { model: label, mode };
    let finishReason = 'unknown';
    // The response message id goes into `start` (a continued message keeps its id), so the client gets it whether
    // or not the stream is folded into a result.
    const proofs = createProofs({
      tickets,
      conversationId: run.conversationId,
      mode,
      tools: toolsByName,
      sealTtlMs,
      inputs: verified.inputs,
      accepted: verified.accepted,
      results,
      traces,
      subCalls,
      decisions: verified.decisions,
      ranWith,
      early,
    });
    // The server calls nothing answered: those of a last step that ended early get a result in the trailer.
    const unrun = createUnrunCalls({ tools: toolsByName, mode });
    const source = createTurnSource({
      source: result.stream,
      tools,
      originalMessages: messages,
      metadata,
      onError: errorText,
      progress,
      onStepUsage: (step) => {
        usage = addUsage(usage, step);
      },
      onClose: () => {
        streaming.close();
        ended();
      },
      onStop: (reason) => stopped.abort(reason),
      proofs: {
        before: (chunk) => {
          unrun.saw(chunk);
          return proofs.before(chunk);
        },
      },
      trailer: (last, reason) => {
        if (last?.type === 'abort' || last?.type === 'error') {
          finishReason = last.type === 'abort' ? 'aborted' : 'error';
          return [];
        }
        const trailer: UIMessageChunk[] = [];
        // The calls of a last step that ended early (the AI SDK ran none), each with its result, sealed as any.
        const answerUnrun = async (ended: string | undefined): Promise<void> => {
          for (const { result, chunk } of await unrun.answer(ended, { executor, run })) {
            results.set(result.call.id, result);
            trailer.push(...((await proofs.before(chunk)) ?? []), chunk);
          }
        };
        const text = direct.text();
        if (text !== undefined) {
          trailer.push({ type: 'text-start', id: 'return-direct' }, { type: 'text-delta', id: 'return-direct', delta: text }, { type: 'text-end', id: 'return-direct' });
          finishReason = 'stop';
        } else if (reason === 'interrupted') {
          // The model's stream ended before it said it had finished: the answer may be cut anywhere. The client reads an
          // error after what came (kept, as after any error), not a `finish` that makes a cut answer look whole. A whole
          // call that came before the cut did not run (the AI SDK runs none without a finish): it gets its result first,
          // or the message kept it waiting (`input-available`) for ever.
          finishReason = reason;
          return answerUnrun(reason).then(() => [...trailer, { type: 'error', errorText: errorText(new ToolError('execution-failed', MODEL_CUT_TEXT)) }]);
        } else {
          finishReason = reason ?? 'error';
        }
        // Merged into the message's metadata by the client: the tokens the message cost (a continued message's earlier
        // requests included), and the limit this request hit.
        const finish = (): UIMessageChunk[] => {
          const stoppedAt = limits.hit();
          const shown = messageUsage(addUsage(usage, shownUsage(messages.at(-1))));
          const metadata: EdgetoolMessageMetadata = { usage: shown, ...(stoppedAt === undefined ? {} : { limit: stoppedAt }) };
          trailer.push({ type: 'finish', finishReason: finishReason as never, messageMetadata: metadata });
          return trailer;
        };
        if (!runsNoCalls(reason)) return finish();
        // A last step that ended early (token limit, filter, `other`): the AI SDK ran none of its calls. Each gets its
        // result, sealed as any, so the message does not keep them waiting and the model reads why next time.
        return answerUnrun(reason).then(finish);
      },
    });

    // The fold is set up only when `stream` or `result` is read: `toResponse()` alone sends the turn's own stream.
    let full: ReadableStream<UIMessageChunk> | undefined;
    const asIs = () => {
      full ??= turnStreamOf(source);
      return full;
    };
    const fold = () =>
      foldTurn(source, messages, errorText, (message, all, isCancelled) => ({
        text: answerText(message),
        // No trailer ran: the reader cancelled, or the turn failed (a proof, or the model's stream, ended it with an error).
        finishReason: finishReason !== 'unknown' ? finishReason : isCancelled ? 'aborted' : 'error',
        message,
        messages: all,
        toolResults: [...results.values()],
        pending: pendingCalls(message),
        returnDirect: direct.text() !== undefined,
        limit: limits.hit(),
        usage,
        run,
      }));
    let folded: ReturnType<typeof fold> | undefined;
    let sentAsIs = false;
    let handedOut = false;
    const folding = () => {
      folded ??= fold();
      return folded;
    };
    return {
      get stream() {
        if (sentAsIs) return asIs();
        handedOut = true;
        return folding().stream;
      },
      get result() {
        if (sentAsIs) return Promise.reject(new Error('turn.result was read after toResponse(): read it before, so the stream is folded as it is sent.'));
        const turn = folding();
        // Read before anyone has the stream: the turn reads itself to the end (as the AI SDK's `streamText` promises
        // do), so `await turn.result` alone does not wait forever; its chunks wait for a later `stream` or
        // `toResponse()`, whose reader can still cancel the turn.
        if (!handedOut) {
          handedOut = true;
          turn.stream = readAhead(turn.stream);
        }
        return turn.result;
      },
      toResponse: (init) => {
        sentAsIs = folded === undefined;
        handedOut = true;
        if (init?.resumable !== undefined) return resumableResponse(folded?.stream ?? asIs(), init.resumable, init);
        return createUIMessageStreamResponse({
          stream: folded?.stream ?? asIs(),
          ...(init?.status ? { status: init.status } : {}),
          ...(init?.statusText ? { statusText: init.statusText } : {}),
          ...(init?.headers ? { headers: init.headers } : {}),
        });
      },
      usage: usageAtEnd,
    };
  }

  async function generate<TDeps>(request: ChatRequest<TDeps>): Promise<ChatTurnResult> {
    const turn = await stream(request);
    await drain(turn.stream); // Reading the stream builds the result.
    return turn.result;
  }

  return { registry, executor, model, options, stream, generate };
}
