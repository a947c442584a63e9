import { ToolError } from '@edgetool/core';
import { generateId, type LanguageModelUsage, type TextStreamPart, type ToolSet, toUIMessageChunk, type UIMessage, type UIMessageChunk } from 'ai';
import type { ProgressRelay } from './progress-relay.ts';
import type { TurnProofs } from './turn-proofs.ts';
import { nameFor, namesNoTool } from './call-id-renamer.ts';

/** Options for {@link createTurnStream}. */
export interface TurnStreamOptions {
  /** `streamText`'s `result.stream`. */
  readonly source: ReadableStream<TextStreamPart<ToolSet>>;
  readonly tools: ToolSet;
  /** The conversation so far: a continued assistant message keeps its id. */
  readonly originalMessages: readonly UIMessage[];
  /** Sent on the `start` chunk. */
  readonly metadata: unknown;
  readonly proofs: TurnProofs;
  /** Progress reports of running server calls, sent between the source's chunks while calls run. */
  readonly progress?: ProgressRelay | undefined;
  /** The text of an `error` chunk (model errors, and a proof or trailer that fails). */
  readonly onError: (error: unknown) => string;
  /**
   * Chunks to append when the source ends (given the last chunk sent, to skip it after `abort` or `error`, and the
   * finish reason of the source's `finish` part, `interrupted` for a last step that had none): the loop's `finish` and
   * return-direct text.
   */
  readonly trailer: (last: UIMessageChunk | undefined, finishReason: string | undefined) => Promise<UIMessageChunk[]> | UIMessageChunk[];
  /** The tokens of each model step, as it finishes. */
  readonly onStepUsage?: ((usage: LanguageModelUsage) => void) | undefined;
  /** Called once when the stream is over: ended (after the trailer), failed, or cancelled by its reader. */
  readonly onClose?: (() => void) | undefined;
  /**
   * Called when the stream stops before its source ended (its reader cancelled it, or a proof failed), with why: the
   * turn must stop too. Cancelling the source stops no tool that runs, nor the model's request.
   */
  readonly onStop?: ((reason: unknown) => void) | undefined;
}

/** Where a {@link TurnSource} puts its chunks: a `ReadableStream`'s controller, or any sink with the same two methods. */
export interface TurnSink {
  enqueue(chunk: UIMessageChunk): void;
  close(): void;
}

/** A turn's UI chunks without a stream of their own: {@link createTurnStream} wraps one, the fold writes its chunks on. */
export interface TurnSource {
  /** Puts the next chunk (or a few: proofs before their chunk) into `sink`, or ends it; as a stream's `pull`. */
  pull(sink: TurnSink): Promise<void>;
  /** Puts every chunk into `sink` as soon as it is ready, until the turn ends or is cancelled (no backpressure). */
  pump(sink: TurnSink): Promise<void>;
  /** The reader stopped: the turn stops (`onStop`) and the source is cancelled. */
  cancel(reason: unknown): Promise<void>;
}

/**
 * The UI message stream of a turn in one stage: each `streamText` part becomes its UI chunk through the AI SDK's
 * own `toUIMessageChunk`, preceded by its proofs. It replaces `toUIMessageStream` (a pull stream, an async
 * transform and a message-id transform) plus a transform for the proofs: four stages every chunk crossed, each a few
 * microseconds of web-stream machinery per chunk in Node and in Workers. What `toUIMessageStream` adds around
 * the conversion is kept: the response message id on `start` (a continued message keeps its id), metadata on
 * `start`, and no `tool-output-error` for a call the model made invalid (its `tool-input-error` says it).
 * Pull-driven: a part is read only when the reader wants a chunk, so backpressure reaches `streamText`.
 */
export function createTurnStream(options: TurnStreamOptions): ReadableStream<UIMessageChunk> {
  return turnStreamOf(createTurnSource(options));
}

/** A {@link TurnSource} as the pull-driven stream {@link createTurnStream} returns. */
export function turnStreamOf(source: TurnSource): ReadableStream<UIMessageChunk> {
  return new ReadableStream<UIMessageChunk>({ pull: (controller) => source.pull(controller), cancel: (reason) => source.cancel(reason) });
}

/**
 * The work of {@link createTurnStream} as a source of chunks: the same chunks whether a stream pulls them or
 * {@link TurnSource.pump} pushes them into a sink (the fold's, which saves every chunk one stream stage).
 */
export function createTurnSource(options: TurnStreamOptions): TurnSource {
  const { tools, proofs, onError, metadata, progress, onStepUsage } = options;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    options.onClose?.();
  };
  const reader = options.source.getReader();
  /** A read of the source still under way (a progress report came first): the next pull awaits it, never a second read. */
  let reading: Promise<ReadableStreamReadResult<TextStreamPart<ToolSet>>> | undefined;
  /** Reads the next part, or returns `undefined` when progress reports are waiting to go out first. */
  const next = async (): Promise<ReadableStreamReadResult<TextStreamPart<ToolSet>> | undefined> => {
    reading ??= reader.read();
    if (progress === undefined || !progress.active()) {
      const read = await reading;
      reading = undefined;
      return read;
    }
    const first = await Promise.race([reading, progress.arrived()]);
    if (first !== undefined) reading = undefined;
    return first;
  };
  const lastMessage = options.originalMessages.at(-1);
  const responseMessageId = lastMessage?.role === 'assistant' ? lastMessage.id : generateId();
  const invalidCalls = new Set<string>();
  let last: UIMessageChunk | undefined;
  // Read from the `finish` part: `result.finishReason` would make streamText replay every part to a second reader.
  let finishReason: string | undefined;

  // The conversion options, made once: metadata rides on `start` only.
  const chunkOptions = { tools, sendFinish: false, onError, redactToolErrors: false, responseMessageId };
  const startOptions = metadata === undefined ? chunkOptions : { ...chunkOptions, messageMetadata: metadata };

  /** Converts one part; `undefined` for parts without a UI chunk. */
  const convert = (streamed: TextStreamPart<ToolSet>): UIMessageChunk | undefined => {
    const part = named(streamed, tools);
    if (part.type === 'abort' && part.reason?.startsWith('TimeoutError: ') === true) {
      // The AI SDK ends a turn that hit its model time limit as an abort; nobody stopped it, so it is an error.
      return { type: 'error', errorText: onError(new ToolError('timeout', `The model did not answer in time (${part.reason.slice('TimeoutError: '.length)}).`)) };
    }
    if (part.type === 'tool-call' && part.invalid) invalidCalls.add(part.toolCallId);
    if (part.type === 'tool-error' && !part.providerExecuted && invalidCalls.delete(part.toolCallId)) return undefined;
    // A last step with no finish reason from the model (`other` and no raw reason: the AI SDK's value when the model's
    // stream closed without its `finish` part, and Anthropic's for one cut before its stop reason) was cut off: the
    // AI SDK's own word for it is `interrupted`, which OpenAI's provider already reports.
    if (part.type === 'finish') finishReason = part.finishReason === 'other' && part.rawFinishReason === undefined ? 'interrupted' : part.finishReason;
    else if (part.type === 'finish-step') onStepUsage?.(part.usage);
    return toUIMessageChunk(part, part.type === 'start' ? startOptions : chunkOptions) as UIMessageChunk | undefined;
  };

  /**
   * The reader cancelled (the user pressed Stop, the client went away): a pull that was awaiting something stops there,
   * since enqueueing on a cancelled stream throws (and its error would read as a failed turn).
   */
  let cancelled = false;
  /** The sink was closed (the turn ended or failed): nothing more to pull. */
  let ended = false;

  /**
   * The pump's sink while it waits for the source's next part. A pumped turn does not race each read against the
   * progress relay (a `Promise.race`, an async call and a reaction per read while any call is open): a report for an
   * open call that comes in meanwhile is written into the sink from here, in a microtask, so that a burst of reports
   * goes out as its latest one. A pulled stream still races: its reader decides when a chunk is made.
   */
  let waiting: TurnSink | undefined;
  let flushing = false;
  const flush = () => {
    flushing = false;
    if (waiting === undefined || progress === undefined || cancelled || ended) return;
    for (const report of progress.take()) waiting.enqueue(report);
  };
  progress?.listen(() => {
    if (waiting === undefined || flushing) return;
    flushing = true;
    queueMicrotask(flush);
  });

  /** Stops the turn with an `error` chunk: a result must not go out without its proof, nor a failed source as a cut body. */
  const fail = (controller: TurnSink, error: unknown) => {
    controller.enqueue({ type: 'error', errorText: onError(error) });
    ended = true;
    controller.close();
    close();
    options.onStop?.(error);
    reader.cancel(error).catch(() => {});
  };

  /**
   * Puts the next chunk (and its proofs) into `controller`; with `all`, goes on to the next until the turn ends, in one
   * call (a pump that called `pull` for each chunk paid an async call and an await per chunk for nothing).
   */
  const run = async (controller: TurnSink, all: boolean): Promise<void> => {
    try {
      for (;;) {
        const reports = progress?.take();
        if (reports !== undefined && reports.length > 0) {
          for (const report of reports) controller.enqueue(report);
          if (all && !cancelled) continue;
          return;
        }
        let read: ReadableStreamReadResult<TextStreamPart<ToolSet>> | undefined;
        if (all && reading === undefined) {
          // Pumped: the source's read itself; a report that comes meanwhile is written by `flush`.
          waiting = controller;
          read = await reader.read();
          waiting = undefined;
        } else {
          // No read left over from a race and no call open (most parts): the source's read itself, without `next()`'s hop.
          read = reading === undefined && (progress === undefined || !progress.active()) ? await reader.read() : await next();
        }
        if (cancelled) return;
        if (read === undefined) continue;
        if (read.done) {
          let trailer: UIMessageChunk[];
          try {
            trailer = await options.trailer(last, finishReason);
          } catch (error) {
            trailer = [{ type: 'error', errorText: onError(error) }];
          }
          close();
          if (cancelled) return;
          for (const chunk of trailer) controller.enqueue(chunk);
          ended = true;
          controller.close();
          return;
        }
        const chunk = convert(read.value);
        if (chunk === undefined) continue;
        last = chunk;
        // A call's last report goes out before its result (and the result's seal).
        const report = progress?.saw(chunk);
        if (report !== undefined) controller.enqueue(report);
        const before = proofs.before(chunk);
        if (before === undefined) {
          controller.enqueue(chunk);
          if (all && !cancelled) continue;
          return;
        }
        // Proofs go out before the chunk they prove: a client never holds a result without its seal, or a call
        // without its ticket, even if it stops reading in between. `start` opens the message first.
        if (chunk.type === 'start') controller.enqueue(chunk);
        let parts: UIMessageChunk[];
        try {
          parts = await before;
        } catch (error) {
          if (!cancelled) fail(controller, error);
          return;
        }
        if (cancelled) return;
        for (const part of parts) controller.enqueue(part);
        if (chunk.type !== 'start') controller.enqueue(chunk);
        if (all && !cancelled) continue;
        return;
      }
    } catch (error) {
      waiting = undefined;
      // The source failed, not as a part (a provider's connection cut mid-answer): the client reads an `error` chunk,
      // as for a failed proof. A body that errors instead reads as a network failure, and `onError` never heard of it.
      if (cancelled) return;
      fail(controller, error);
    }
  };

  const source: TurnSource = {
    pull: (controller) => run(controller, false),
    pump: (sink) => (ended || cancelled ? Promise.resolve() : run(sink, true)),
    cancel(reason) {
      cancelled = true;
      close();
      options.onStop?.(reason);
      return reader.cancel(reason);
    },
  };
  return source;
}

/**
 * A part of a call whose tool name names no tool (empty, blank, longer than any tool's) with the name the model wrapper
 * gives it (`nameFor`): a model left unwrapped (a gateway id, one that says its ids are unique) is not renamed before the
 * AI SDK reads it, and its seal would refuse the name after the call was answered. Any other part as it is.
 */
function named(part: TextStreamPart<ToolSet>, tools: ToolSet): TextStreamPart<ToolSet> {
  if (part.type !== 'tool-input-start' && part.type !== 'tool-call' && part.type !== 'tool-error' && part.type !== 'tool-result') return part;
  if (part.providerExecuted === true || !namesNoTool(part.toolName)) return part;
  return { ...part, toolName: nameFor(part.toolName, Object.keys(tools).map((name) => ({ name }))) } as TextStreamPart<ToolSet>;
}
