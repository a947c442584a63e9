import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { describeChatError, RESPONSE_TOO_LARGE } from './chat-error.ts';
import { addsPart, boundedResponse, chunkChars } from './response-bound.ts';

const chunks = (list: readonly object[]) => list as UIMessageChunk[];

async function read(stream: ReadableStream<UIMessageChunk>): Promise<{ readonly got: UIMessageChunk[]; readonly error: unknown }> {
  const got: UIMessageChunk[] = [];
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) got.push(next.value);
    return { got, error: undefined };
  } catch (error) {
    return { got, error };
  }
}

describe('chunkChars', () => {
  it('a delta counts its length, at least 1; any other chunk its JSON', () => {
    expect(chunkChars({ type: 'text-delta', id: 't', delta: 'hello' })).toBe(5);
    expect(chunkChars({ type: 'reasoning-delta', id: 'r', delta: '' })).toBe(1);
    expect(chunkChars({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"a":' })).toBe(5);
    const output = { type: 'tool-output-available', toolCallId: 'c1', output: { big: 'x'.repeat(100) } } as UIMessageChunk;
    expect(chunkChars(output)).toBe(JSON.stringify(output).length);
  });
});

describe('addsPart', () => {
  it('texts, steps, calls once per id and kept data parts once per id; not deltas, ends or transient data', () => {
    const seen = new Set<string>();
    const list = chunks([
      { type: 'start' },
      { type: 'start-step' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'a' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'x' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'x', input: {} },
      { type: 'tool-input-available', toolCallId: 'c2', toolName: 'x', input: {} },
      { type: 'data-edgetool-ticket', id: 'c2', data: {} },
      { type: 'data-edgetool-ticket', id: 'c2', data: {} },
      { type: 'data-note', data: {} },
      { type: 'data-edgetool-progress', id: 'c2', data: {}, transient: true },
      { type: 'finish-step' },
      { type: 'finish' },
    ]);
    expect(list.map((chunk) => addsPart(chunk, seen))).toEqual([false, true, true, false, false, true, false, true, true, false, true, false, false, false]);
  });

  it('a reasoning file, a custom part and a steering message each add a part, as the AI SDK pushes one a chunk', () => {
    const seen = new Set<string>();
    const list = chunks([
      { type: 'reasoning-file', url: 'data:image/png;base64,AA', mediaType: 'image/png' },
      { type: 'custom', kind: 'x' },
      { type: 'custom', kind: 'x' },
      { type: 'steering-message', id: 's', parts: [] },
      { type: 'steering-message', id: 's', parts: [] },
    ]);
    expect(list.map((chunk) => addsPart(chunk, seen))).toEqual([true, true, true, true, true]);
  });
});

describe('boundedResponse', () => {
  const text = (n: number) => chunks([{ type: 'start' }, ...Array.from({ length: n }, () => ({ type: 'text-delta', id: 't', delta: 'abcd' })), { type: 'finish' }]);
  const stream = (list: readonly UIMessageChunk[]) =>
    new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of list) controller.enqueue(chunk);
        controller.close();
      },
    });

  it('passes a response within its bounds whole', async () => {
    const list = text(10);
    expect(await read(boundedResponse(stream(list), { chars: 1_000, parts: 10 }))).toEqual({ got: list, error: undefined });
    expect(await read(boundedResponse(stream(list), { chars: Number.POSITIVE_INFINITY, parts: Number.POSITIVE_INFINITY }))).toEqual({ got: list, error: undefined });
  });

  it('fails at the first chunk past a bound, after every chunk before it, and cancels what it reads from', async () => {
    let cancelled: unknown;
    const source = new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of text(100)) controller.enqueue(chunk);
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    // `start` is 16 characters of JSON; each delta 4: 5 deltas fit in 36.
    const { got, error } = await read(boundedResponse(source, { chars: 36, parts: 10 }));
    expect(got).toEqual(text(5).slice(0, 6));
    expect(error).toMatchObject({ name: RESPONSE_TOO_LARGE });
    expect((error as Error).message).toBe(
      'The answer was stopped: the server sent more than the 36 characters this page takes in one response (maxResponseChars). What came before is kept.',
    );
    // The pipe cancels its source once the error has gone through (a tick later).
    await vi.waitFor(() => expect(cancelled).toBe(error), { timeout: 5_000 });
    expect(describeChatError(error)).toEqual({ kind: 'stream', status: undefined, code: 'response-too-large', message: (error as Error).message });
  });

  it('fails past the parts bound, the words naming parts', async () => {
    const many = chunks(Array.from({ length: 5 }, (_, i) => ({ type: 'text-start', id: `t${i}` })));
    const { got, error } = await read(boundedResponse(stream(many), { chars: 1_000, parts: 3 }));
    expect(got).toHaveLength(3);
    expect((error as Error).message).toContain('more than the 3 parts this page takes in one response (maxResponseParts)');
  });

  it('an endless stream of custom parts stops at the parts bound', async () => {
    const custom = chunks(Array.from({ length: 50 }, () => ({ type: 'custom', kind: 'k' })));
    const { got, error } = await read(boundedResponse(stream(custom), { chars: 1_000_000, parts: 20 }));
    expect(got).toHaveLength(20);
    expect(error).toMatchObject({ name: RESPONSE_TOO_LARGE });
  });

  it("a call's argument deltas that come at once go on as one, in order, the same argument folded (review34)", async () => {
    // 3,000 deltas of one character, the AI SDK parsing the whole argument again at each: quadratic (40,000 took 22 s).
    const deltas = (id: string, n: number) => Array.from({ length: n }, (_, i) => ({ type: 'tool-input-delta', toolCallId: id, inputTextDelta: i === 0 ? '{"x":"' : 'a' }));
    const list = chunks([
      { type: 'start' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 't' },
      ...deltas('c1', 3_000),
      { type: 'tool-input-start', toolCallId: 'c2', toolName: 't' },
      { type: 'tool-input-delta', toolCallId: 'c2', inputTextDelta: '' },
      ...deltas('c2', 3),
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"}' },
      { type: 'finish' },
    ]);
    const { got, error } = await read(boundedResponse(stream(list), { chars: 1_000_000, parts: 10 }));
    expect(error).toBeUndefined();
    const a = `{"x":"${'a'.repeat(2_999)}`;
    expect(got).toEqual([
      list[0],
      list[1],
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: a },
      list[3_002],
      { type: 'tool-input-delta', toolCallId: 'c2', inputTextDelta: '{"x":"aa' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"}' },
      { type: 'finish' },
    ]);
    // What the AI SDK folds of it: the same arguments as from the deltas one by one.
    const fold = async (source: ReadableStream<UIMessageChunk>) => {
      let last: unknown;
      for await (const message of readUIMessageStream({ stream: source })) last = message.parts;
      return last;
    };
    expect(await fold(boundedResponse(stream(list), { chars: 1_000_000, parts: 10 }))).toEqual(await fold(stream(list)));
  });

  it('argument deltas that come apart go on as they come; held ones go before the error past a bound', async () => {
    const source = new TransformStream<UIMessageChunk, UIMessageChunk>();
    const writer = source.writable.getWriter();
    // The start's JSON is 59 characters, the deltas 4 more; 40 go past 100.
    const reading = read(boundedResponse(source.readable, { chars: 100, parts: 10 }));
    await writer.write({ type: 'tool-input-start', toolCallId: 'c', toolName: 't' } as UIMessageChunk);
    await writer.write({ type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: 'ab' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await writer.write({ type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: 'cd' });
    await writer.write({ type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: 'e'.repeat(40) }).catch(() => undefined);
    const { got, error } = await reading;
    expect(got.slice(1)).toEqual([
      { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: 'ab' },
      { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: 'cd' },
    ]);
    expect(error).toMatchObject({ name: RESPONSE_TOO_LARGE });
  });
});
