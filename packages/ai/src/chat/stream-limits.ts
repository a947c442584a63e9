import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { type LanguageModel, wrapLanguageModel } from 'ai';
import { callIdRenamer } from './call-id-renamer.ts';
import { deadlineTimer } from './deadline-timer.ts';
import type { ModelTimeout } from './chat-agent.ts';
import { saysIdsUnique, type UniqueToolCallIdsOptions } from './unique-call-ids.ts';

/**
 * The first-chunk and chunk limits of a UI turn's model streams (`modelTimeout.firstChunkMs`, `chunkMs`), kept as the
 * AI SDK keeps them but with one timer for the turn instead of a timer cleared and set again for every chunk and every
 * step: a chunk only notes when the limit now runs out, and the timer, when it fires, aborts or waits for what is left.
 * Not in the package's barrel: {@link streamTurnModel} uses it.
 */
export interface ChunkClock {
  /** A model call starts (its `doStream`): the first-chunk limit runs from now. */
  start(): void;
  /** A part of the model's stream arrived: an output part (text, reasoning, a tool call or its input, a file) resets the limit; `finish` or `error` ends it. */
  saw(part: LanguageModelV4StreamPart): void;
  /** The call is over (its stream ended, failed or was cancelled, or `doStream` threw): no limit runs until the next `start`. */
  stop(): void;
  /** The turn is over: no limit runs, and the timer is cleared (a pending one would keep a Node process alive). */
  close(): void;
}

/**
 * A {@link ChunkClock}: `abort` gets the AI SDK's own reason when a limit runs out, a `TimeoutError` `DOMException`
 * (`First chunk timeout of 50ms exceeded`, `Chunk timeout of 50ms exceeded`), so the turn ends as it did when the AI
 * SDK timed it. A limit of `Infinity` is none.
 */
export function chunkClock(firstChunkMs: number | undefined, chunkMs: number | undefined, abort: (reason: DOMException) => void): ChunkClock {
  // Which limit runs (its length and its name in the abort's message); the deadline timer keeps when it runs out.
  let ms = 0;
  let label = '';
  const deadline = deadlineTimer(() => abort(new DOMException(`${label} timeout of ${ms}ms exceeded`, 'TimeoutError')));
  const arm = (limit: number | undefined, what: string): void => {
    if (limit === undefined || limit === Number.POSITIVE_INFINITY) {
      deadline.clear();
      return;
    }
    ms = limit;
    label = what;
    deadline.set(limit);
  };
  // Between a turn's model calls (its tools run) the timer stays: when it fires with no limit running it ends, and a
  // call that starts before reuses it. A timer set and cleared per call cost more than all the rest of the clock.
  const stop = (): void => deadline.clear();
  /** An output part: the chunk limit runs from now. */
  const output = (): void => {
    if (label === 'Chunk' && deadline.running()) deadline.set(ms);
    else arm(chunkMs, 'Chunk');
  };
  return {
    start: () => {
      label = '';
      arm(firstChunkMs, 'First chunk');
    },
    saw: (part) => {
      switch (part.type) {
        case 'text-delta':
        case 'reasoning-delta':
        case 'tool-input-delta':
          if (part.delta.length > 0) output();
          return;
        case 'tool-call':
        case 'file':
          output();
          return;
        case 'finish':
        case 'error':
          stop();
          return;
        default:
          // `reasoning-file` (a later specification's output part) counts; other parts do not.
          if ((part as { type: string }).type === 'reasoning-file') output();
      }
    },
    stop,
    close: deadline.close,
  };
}

/** Options for {@link streamTurnModel}. */
export interface StreamTurnModelOptions extends UniqueToolCallIdsOptions {
  /** The agent's stream limits (`modelTimeout` without `responseMs`); `undefined`: none. */
  readonly timeout: Omit<ModelTimeout, 'responseMs'> | undefined;
  /** Ends the turn when a chunk limit runs out, with the AI SDK's `TimeoutError` (the turn's `streamText` signal). */
  readonly abort: (reason: DOMException) => void;
}

/** What {@link streamTurnModel} returns. */
export interface StreamTurnModel {
  readonly model: LanguageModel;
  /** The `timeout` to give `streamText`: what the model's stage does not time. */
  readonly timeout: Omit<ModelTimeout, 'responseMs'> | undefined;
  /** Call when the turn is over: clears the chunk limits' timer. */
  readonly close: () => void;
}

/**
 * A UI turn's model, and the `timeout` to give `streamText` with it. The tool call ids the model repeats are renamed (as
 * `withUniqueToolCallIds` does) and its first-chunk and chunk limits timed by a {@link ChunkClock}, in the one
 * stage over its stream: the AI SDK cleared and set a timer for every chunk and read its merged signal's `aborted` each
 * time (about 1 ms of the loop bench's 20-step turn). The first-chunk limit runs from the request, so a server that
 * never answers it ends the turn too (the AI SDK's ran from the opened stream). `streamText` keeps the step and total
 * limits, and every limit of a gateway id (a string: no object to wrap) and of a model that says its ids are unique.
 */
export function streamTurnModel(model: LanguageModel, options: StreamTurnModelOptions): StreamTurnModel {
  const { timeout } = options;
  // A gateway id has no object to wrap; a model that says its ids are unique needs no renaming stage, and a stage that
  // only timed its chunks cost as much as the AI SDK's timers (paired runs): the AI SDK times both.
  if (typeof model === 'string' || saysIdsUnique(model)) return { model, timeout, close: () => {} };
  const { firstChunkMs, chunkMs, ...rest } = timeout ?? {};
  const ids = callIdRenamer(options.taken, options.cut);
  const clock = firstChunkMs === undefined && chunkMs === undefined ? undefined : chunkClock(firstChunkMs, chunkMs, options.abort);
  // A model of another specification version as the AI SDK adapts it (an empty middleware list wraps nothing), so the
  // stage reads the parts of this one.
  const base: LanguageModelV4 = model.specificationVersion === 'v4' ? model : (wrapLanguageModel({ model, middleware: [] }) as LanguageModelV4);
  const doStream = async (call: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> => {
    clock?.start();
    let result: LanguageModelV4StreamResult;
    try {
      result = await base.doStream(call);
    } catch (error) {
      // A failed call (a retry may follow, after its delay) runs no limit until the next one starts.
      clock?.stop();
      throw error;
    }
    return { ...result, stream: ids.streamed(call, result.stream, clock) };
  };
  // A model of the specification's fields, the original's methods called on it (a provider's model is a class instance
  // whose methods may read private fields), as the text turn's `turnModel`: no middleware layer and its async hops.
  const wrapped: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: base.provider,
    modelId: base.modelId,
    get supportedUrls() {
      return base.supportedUrls;
    },
    // A UI turn only streams; a generate call would be the model's own.
    doGenerate: (call) => base.doGenerate(call),
    doStream,
  };
  return { model: wrapped, timeout: Object.keys(rest).length === 0 ? undefined : rest, close: clock === undefined ? () => {} : clock.close };
}
