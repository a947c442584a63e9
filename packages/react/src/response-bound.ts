import type { UIMessageChunk } from 'ai';
import { RESPONSE_TOO_LARGE } from './chat-error.ts';

/** What one response may add to the conversation (`useEdgeChat`'s `maxResponseChars` and `maxResponseParts`). */
export interface ResponseBounds {
  /** Characters: text, reasoning and argument deltas by their length, any other chunk by its JSON's. */
  readonly chars: number;
  /**
   * Parts of the message: a text, a reasoning, a step, a tool call, a source, a file (a reasoning's too), a custom or
   * steering-message part, a data part that is kept.
   */
  readonly parts: number;
}

/**
 * The characters a chunk adds to the message it writes: a delta of text, reasoning or a call's arguments its own (at
 * least 1, so that a stream of empty deltas ends too), any other chunk (a call's arguments or output whole, a data
 * part, metadata) the length of its JSON, which holds what the message keeps of it.
 */
export function chunkChars(chunk: UIMessageChunk): number {
  switch (chunk.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return Math.max(1, chunk.delta.length);
    case 'tool-input-delta':
      return Math.max(1, chunk.inputTextDelta.length);
    default:
      return JSON.stringify(chunk)?.length ?? 1;
  }
}

/**
 * Whether a chunk adds a part to the message (`seen`: the tool calls and identified data parts of the response so far,
 * which a later chunk of the same id updates in place). A transient data part (progress) is kept in no message.
 */
export function addsPart(chunk: UIMessageChunk, seen: Set<string>): boolean {
  const key = (id: string) => {
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  };
  switch (chunk.type) {
    case 'text-start':
    case 'reasoning-start':
    case 'start-step':
    case 'source-url':
    case 'source-document':
    case 'file':
    // Each of these is a part of its own too (the AI SDK pushes one a chunk): left out, an endless stream of them grew
    // the message past maxResponseParts (~33,000 parts under the default characters).
    case 'reasoning-file':
    case 'custom':
    case 'steering-message':
      return true;
    case 'tool-input-start':
    case 'tool-input-available':
    case 'tool-input-error':
      return key(`tool:${chunk.toolCallId}`);
    default: {
      if (!chunk.type.startsWith('data-')) return false;
      const data = chunk as { readonly id?: unknown; readonly transient?: unknown };
      if (data.transient === true) return false;
      return typeof data.id === 'string' ? key(`${chunk.type}:${data.id}`) : true;
    }
  }
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * The response's chunks, failing with a {@link RESPONSE_TOO_LARGE} error at the first chunk that would take it past
 * `bounds` (read when the response starts): a huge or endless answer (a buggy or hostile server, a model in a loop)
 * grew the message in memory, and re-rendered it, until the user pressed Stop. The chunks before it are passed on, so
 * what came is kept; the rest is not read (the response's body is cancelled).
 *
 * A call's argument deltas that come one after another go on as one delta, once the chunks that came at once have been
 * read (a task later) or another chunk comes; an empty one alone is dropped. The AI SDK parses a call's whole argument
 * text again at each delta: 40,000 deltas of one character took 22 s of the page's main thread (quadratic; the default
 * bound of 1,000,000 characters let hours through), and a long argument streamed as a model streams it cost seconds.
 */
export function boundedResponse(stream: ReadableStream<UIMessageChunk>, bounds: ResponseBounds): ReadableStream<UIMessageChunk> {
  let chars = 0;
  let parts = 0;
  const seen = new Set<string>();
  // The argument deltas of one call held to go on as one, and the task that sends them.
  let held: Extract<UIMessageChunk, { type: 'tool-input-delta' }> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = (controller: TransformStreamDefaultController<UIMessageChunk>): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (held === undefined) return;
    const chunk = held;
    held = undefined;
    controller.enqueue(chunk);
  };
  return stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        chars += chunkChars(chunk);
        if (addsPart(chunk, seen)) parts++;
        const over =
          chars > bounds.chars
            ? `more than the ${count(bounds.chars)} characters this page takes in one response (maxResponseChars)`
            : parts > bounds.parts
              ? `more than the ${count(bounds.parts)} parts this page takes in one response (maxResponseParts)`
              : undefined;
        if (over !== undefined) {
          release(controller);
          const error = new Error(`The answer was stopped: the server sent ${over}. What came before is kept.`);
          error.name = RESPONSE_TOO_LARGE;
          controller.error(error);
          return;
        }
        if (chunk.type !== 'tool-input-delta') {
          release(controller);
          controller.enqueue(chunk);
          return;
        }
        if (held !== undefined && held.toolCallId !== chunk.toolCallId) release(controller);
        if (held !== undefined) held = { ...held, inputTextDelta: held.inputTextDelta + chunk.inputTextDelta };
        else if (chunk.inputTextDelta !== '') {
          held = chunk;
          timer = setTimeout(() => {
            try {
              release(controller);
            } catch {
              // The response ended meanwhile (cancelled, or failed): nothing more goes on.
            }
          }, 0);
        }
      },
      flush(controller) {
        release(controller);
      },
    }),
  );
}
