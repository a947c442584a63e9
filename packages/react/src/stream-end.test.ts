import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { describeChatError, STREAM_CUT } from './chat-error.ts';
import { endsWithFinish } from './stream-end.ts';

/** Reads a stream of these chunks through `endsWithFinish`: the chunks it passed, and the error it ended with. */
async function read(chunks: readonly UIMessageChunk[]): Promise<{ readonly types: string[]; readonly error: unknown }> {
  const source = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const reader = endsWithFinish(source).getReader();
  const types: string[] = [];
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) types.push(next.value.type);
    return { types, error: undefined };
  } catch (error) {
    return { types, error };
  }
}

describe('endsWithFinish', () => {
  it('passes a response that ends with its finish, an error or an abort', async () => {
    const start: UIMessageChunk = { type: 'start' };
    expect(await read([start, { type: 'finish' }])).toEqual({ types: ['start', 'finish'], error: undefined });
    expect(await read([start, { type: 'error', errorText: 'boom' }])).toEqual({ types: ['start', 'error'], error: undefined });
    expect(await read([start, { type: 'abort' }])).toEqual({ types: ['start', 'abort'], error: undefined });
  });

  it('fails a response cut off before its finish, after passing what came, and an empty one', async () => {
    const cut = await read([{ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'It has ' }]);
    expect(cut.types).toEqual(['start', 'text-start', 'text-delta']);
    expect(cut.error).toMatchObject({ name: STREAM_CUT });
    expect((await read([])).error).toMatchObject({ name: STREAM_CUT });
    expect(describeChatError(cut.error)).toEqual({
      kind: 'unreachable',
      status: undefined,
      code: 'stream-cut',
      message: 'The connection closed before the server finished its answer.',
    });
  });
});
