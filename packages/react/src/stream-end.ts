import type { UIMessage, UIMessageChunk } from 'ai';
import { DefaultChatTransport } from 'ai';
import { STREAM_CUT } from './chat-error.ts';

/** The chunks that end a response: after one of them, the stream closing is the end the server meant. */
const ENDINGS: ReadonlySet<UIMessageChunk['type']> = new Set(['finish', 'error', 'abort']);

/**
 * The response's chunks, failing with a `STREAM_CUT` error when the stream closes before a `finish` (or an `error`, an
 * `abort`) came: a proxy or a dropped connection ended it midway, or the body was empty. `useChat` took such a
 * response as a finished answer, so the part that came looked complete and nothing offered to send it again.
 */
export function endsWithFinish(stream: ReadableStream<UIMessageChunk>): ReadableStream<UIMessageChunk> {
  let ended = false;
  return stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        if (ENDINGS.has(chunk.type)) ended = true;
        controller.enqueue(chunk);
      },
      flush(controller) {
        if (ended) return;
        const error = new Error('The connection closed before the server finished its answer.');
        error.name = STREAM_CUT;
        controller.error(error);
      },
    }),
  );
}

/** `useChat`'s HTTP transport, whose responses fail when they end without a `finish` (see `endsWithFinish`). */
export class FinishCheckingTransport<TMessage extends UIMessage> extends DefaultChatTransport<TMessage> {
  protected override processResponseStream(stream: ReadableStream<Uint8Array<ArrayBufferLike>>): ReadableStream<UIMessageChunk> {
    return endsWithFinish(super.processResponseStream(stream));
  }
}
