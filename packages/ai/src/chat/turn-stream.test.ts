import { isStepCount, jsonSchema, streamText, type TextStreamPart, type ToolSet, toUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createProgressRelay } from './progress-relay.ts';
import { createTurnSource, createTurnStream, type TurnStreamOptions } from './turn-stream.ts';

const tools: ToolSet = {
  lookup: {
    description: 'Look something up',
    inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
    execute: async ({ q }: { q: string }) => ({ found: q }),
  } as never,
  broken: {
    description: 'Always fails',
    inputSchema: jsonSchema({ type: 'object' }),
    execute: async () => {
      throw new Error('database unavailable');
    },
  } as never,
};

/** A fresh `streamText` run of the same script (a stream can be read once). */
function run(script: () => Parameters<typeof scriptedModel>) {
  return streamText({ model: scriptedModel(...script()), messages: [{ role: 'user', content: 'go' }], tools, stopWhen: isStepCount(4), onError: () => {} });
}

async function read(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

/** Message ids differ between runs (a new one per turn); everything else must match chunk for chunk. */
const normalise = (chunks: UIMessageChunk[]) => chunks.map((c) => (c.type === 'start' ? { ...c, messageId: 'm' } : c));

/** The turn stream of a fresh run of `script`, read to its end; no proofs and no trailer unless given. */
function turnChunks(script: () => Parameters<typeof scriptedModel>, options: Partial<Omit<TurnStreamOptions, 'source' | 'tools'>> = {}): Promise<UIMessageChunk[]> {
  return read(
    createTurnStream({
      source: run(script).stream,
      tools,
      originalMessages: [],
      metadata: undefined,
      onError: String,
      proofs: { before: () => undefined },
      trailer: () => [],
      ...options,
    }),
  );
}

const scripts: Record<string, () => Parameters<typeof scriptedModel>> = {
  text: () => [textStep('Hello there.')],
  'tool call and answer': () => [callsStep([['c1', 'lookup', { q: 'A-1' }]]), textStep('Found it.')],
  'parallel calls, one failing': () => [
    callsStep([
      ['c1', 'lookup', { q: 'A-1' }],
      ['c2', 'broken', {}],
    ]),
    textStep('One failed.'),
  ],
  'unparsable input and unknown tool (invalid calls)': () => [
    callsStep([
      ['c1', 'lookup', '{"q": '],
      ['c2', 'nope', {}],
    ]),
    textStep('Sorry.'),
  ],
};

describe('createTurnStream: one stage with the same chunks as toUIMessageStream', () => {
  for (const [name, script] of Object.entries(scripts)) {
    it(name, async () => {
      const original: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] }];
      const sdk = await read(
        toUIMessageStream({ stream: run(script).stream, tools, originalMessages: original, generateMessageId: () => 'x', sendFinish: false, redactToolErrors: false, onError: String }) as ReadableStream<UIMessageChunk>,
      );
      const ours = await turnChunks(script, { originalMessages: original });
      expect(ours.length).toBeGreaterThan(2);
      expect(normalise(ours)).toEqual(normalise(sdk));
    });
  }

  it('a continued assistant message keeps its id; metadata rides on start', async () => {
    const original: UIMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] },
      { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'before' }] },
    ];
    const chunks = await turnChunks(scripts.text!, { originalMessages: original, metadata: { mode: 'internal' } });
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'a1', messageMetadata: { mode: 'internal' } });
  });

  it('proofs go out before their chunk (after start), the trailer last; a failing proof ends with an error chunk', async () => {
    const seen: string[] = [];
    const ok = await turnChunks(scripts['tool call and answer']!, {
      proofs: {
        before: (chunk) => {
          seen.push(chunk.type);
          if (chunk.type === 'start' || chunk.type === 'tool-output-available') return Promise.resolve([{ type: 'data-proof', id: chunk.type, data: 1 } as UIMessageChunk]);
          return undefined;
        },
      },
      // The finish reason comes from the source's `finish` part (reading result.finishReason would replay the stream).
      trailer: (last, reason) => [{ type: 'finish', finishReason: last?.type === 'finish-step' ? reason : 'other' } as UIMessageChunk],
    });
    const types = ok.map((c) => (c.type === 'data-proof' ? `proof:${(c as { id: string }).id}` : c.type));
    expect(types.slice(0, 2)).toEqual(['start', 'proof:start']);
    expect(types.indexOf('proof:tool-output-available')).toBe(types.indexOf('tool-output-available') - 1);
    expect(types.at(-1)).toBe('finish');
    expect(ok.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(seen).toEqual(ok.filter((c) => c.type !== 'data-proof' && c.type !== 'finish').map((c) => c.type));

    const failed = await turnChunks(scripts['tool call and answer']!, {
      onError: (e) => `failed: ${(e as Error).message}`,
      proofs: { before: (chunk) => (chunk.type === 'tool-output-available' ? Promise.reject(new Error('no key')) : undefined) },
      trailer: async () => [{ type: 'finish' } as UIMessageChunk],
    });
    expect(failed.at(-1)).toEqual({ type: 'error', errorText: 'failed: no key' });
    expect(failed.some((c) => c.type === 'tool-output-available' || c.type === 'finish')).toBe(false);
  });

  it('a reader that cancels while the trailer or a proof is pending (Stop) ends the stream quietly: no error, no failed turn', async () => {
    for (const waitOn of ['trailer', 'proof'] as const) {
      const errors: unknown[] = [];
      let release: (chunks: UIMessageChunk[]) => void = () => {};
      const pending = new Promise<UIMessageChunk[]>((resolve) => {
        release = resolve;
      });
      let waiting: () => void = () => {};
      const reached = new Promise<void>((resolve) => {
        waiting = resolve;
      });
      const wait = () => {
        waiting();
        return pending;
      };
      const stream = createTurnStream({
        source: run(scripts.text!).stream,
        tools,
        originalMessages: [],
        metadata: undefined,
        onError: (error) => {
          errors.push(error);
          return String(error);
        },
        proofs: { before: (chunk) => (waitOn === 'proof' && chunk.type === 'text-delta' ? wait() : undefined) },
        trailer: () => (waitOn === 'trailer' ? wait() : []),
      });
      const reader = stream.getReader();
      const reading = (async () => {
        for (let read = await reader.read(); !read.done; read = await reader.read());
      })().catch((error: unknown) => error);
      await reached;
      await reader.cancel('stop');
      release([{ type: 'finish' } as UIMessageChunk]);
      expect(await reading, waitOn).toBeUndefined();
      // Let the pull that was waiting run on: it must neither enqueue (which throws) nor report an error.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(errors, waitOn).toEqual([]);
    }
  });
});

/** The same turn pushed into a sink by `pump` (what the fold does) instead of pulled by a stream. */
async function pumpedChunks(script: () => Parameters<typeof scriptedModel>, options: Partial<Omit<TurnStreamOptions, 'source' | 'tools'>> = {}) {
  const chunks: UIMessageChunk[] = [];
  let closes = 0;
  const source = createTurnSource({
    source: run(script).stream,
    tools,
    originalMessages: [],
    metadata: undefined,
    onError: String,
    proofs: { before: () => undefined },
    trailer: () => [],
    ...options,
  });
  await source.pump({ enqueue: (chunk) => chunks.push(chunk), close: () => closes++ });
  return { chunks, closes };
}

describe('createTurnSource: pump pushes exactly the chunks the stream gives', () => {
  /** Proofs on start and results (awaited), a trailer: every path of a pull that enqueues. */
  const withProofs = (fail: boolean): Partial<Omit<TurnStreamOptions, 'source' | 'tools'>> => ({
    proofs: {
      before: (chunk) => {
        if (fail && chunk.type === 'tool-output-error') return Promise.reject(new Error('no key'));
        if (chunk.type === 'start' || chunk.type.startsWith('tool-output')) return Promise.resolve([{ type: 'data-proof', id: chunk.type, data: 1 } as UIMessageChunk]);
        return undefined;
      },
    },
    trailer: async (last, reason) => [{ type: 'finish', finishReason: last?.type === 'finish-step' ? reason : 'other' } as UIMessageChunk],
  });
  for (const [name, script] of Object.entries(scripts)) {
    for (const fail of [false, true]) {
      it(`${name}${fail ? ', a failing proof' : ''}`, async () => {
        const pulled = await turnChunks(script, withProofs(fail));
        const pumped = await pumpedChunks(script, withProofs(fail));
        expect(pulled.length).toBeGreaterThan(2);
        expect(normalise(pumped.chunks)).toEqual(normalise(pulled));
        expect(pumped.closes).toBe(1);
      });
    }
  }

  it('a cancel while it pumps stops it: the turn stops, nothing more is pushed, the sink is not closed', async () => {
    const stops: unknown[] = [];
    let cancel: () => Promise<void> = async () => {};
    const chunks: UIMessageChunk[] = [];
    let closes = 0;
    const source = createTurnSource({
      source: run(scripts['tool call and answer']!).stream,
      tools,
      originalMessages: [],
      metadata: undefined,
      onError: String,
      onStop: (reason) => stops.push(reason),
      proofs: { before: (chunk) => (chunk.type === 'tool-output-available' ? cancel().then(() => []) : undefined) },
      trailer: () => [{ type: 'finish' } as UIMessageChunk],
    });
    cancel = () => source.cancel('stop');
    await source.pump({ enqueue: (chunk) => chunks.push(chunk), close: () => closes++ });
    expect(stops).toEqual(['stop']);
    expect(closes).toBe(0);
    expect(chunks.some((c) => c.type === 'tool-output-available' || c.type === 'finish')).toBe(false);
  });
});

describe('createTurnStream: progress of a continued turn', () => {
  it('a continuation whose calls were all denied never waits for a progress report: its stream just runs to the end', async () => {
    const relay = createProgressRelay({ decisions: new Map([['c1', { approved: false }], ['c2', { approved: false }]]) });
    let waits = 0;
    const progress = {
      ...relay,
      arrived: () => {
        waits++;
        return relay.arrived();
      },
    };
    // What streamText sends for such a continuation: the denials, then the model's answer.
    const parts = [
      { type: 'start' },
      { type: 'tool-output-denied', toolCallId: 'c1', toolName: 'lookup' },
      { type: 'tool-output-denied', toolCallId: 'c2', toolName: 'lookup' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', text: 'Not done.' },
      { type: 'text-end', id: 't1' },
    ] as TextStreamPart<ToolSet>[];
    const source = new ReadableStream<TextStreamPart<ToolSet>>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    const options = { tools, originalMessages: [], metadata: undefined, onError: String, proofs: { before: () => undefined }, trailer: () => [] };
    const chunks = await read(createTurnStream({ ...options, source, progress }));
    expect(chunks.map((c) => c.type)).toEqual(['start', 'tool-output-denied', 'tool-output-denied', 'text-start', 'text-delta', 'text-end']);
    expect(waits).toBe(0);
  });
});

describe('createTurnSource: progress of a pumped turn', () => {
  it('a pumped turn races no read against the relay; a report that comes while it waits goes out before the next part', async () => {
    const relay = createProgressRelay();
    let races = 0;
    const progress = {
      ...relay,
      arrived: () => {
        races++;
        return relay.arrived();
      },
    };
    // The source is fed by hand: the call's input, then (while the pump waits) a burst of reports, then its result.
    let feed: ReadableStreamDefaultController<TextStreamPart<ToolSet>> | undefined;
    const source = new ReadableStream<TextStreamPart<ToolSet>>({
      start(controller) {
        feed = controller;
      },
    });
    const sent: string[] = [];
    const sink = {
      enqueue: (chunk: UIMessageChunk) => sent.push(chunk.type === 'data-edgetool-progress' ? `progress ${(chunk.data as { message: string }).message}` : chunk.type),
      close: () => sent.push('close'),
    };
    const options = { tools, originalMessages: [], metadata: undefined, onError: String, proofs: { before: () => undefined }, trailer: () => [] };
    const pumped = createTurnSource({ ...options, source, progress }).pump(sink);
    const parts = [
      { type: 'start' },
      { type: 'start-step', request: {}, warnings: [] },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: { q: 'A-1' } },
    ] as TextStreamPart<ToolSet>[];
    for (const part of parts) feed?.enqueue(part);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual(['start', 'start-step', 'tool-input-available']);
    // Reported while the pump waits for the source: the burst goes out as its latest report, before the result.
    for (let i = 1; i <= 3; i++) relay.report({ callId: 'c1', toolName: 'lookup', progress: { message: `batch ${i}` } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent.slice(3)).toEqual(['progress batch 3']);
    relay.report({ callId: 'c1', toolName: 'lookup', progress: { message: 'last' } });
    feed?.enqueue({ type: 'tool-result', toolCallId: 'c1', toolName: 'lookup', input: { q: 'A-1' }, output: { found: 'A-1' } } as TextStreamPart<ToolSet>);
    feed?.close();
    await pumped;
    expect(sent.slice(4)).toEqual(['progress last', 'tool-output-available', 'close']);
    expect(races).toBe(0);
  });

  it('a report that comes after the reader cancelled a pumped turn is not written', async () => {
    const relay = createProgressRelay();
    const source = new ReadableStream<TextStreamPart<ToolSet>>({
      start(controller) {
        controller.enqueue({ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: { q: 'A-1' } } as TextStreamPart<ToolSet>);
      },
    });
    const sent: string[] = [];
    const options = { tools, originalMessages: [], metadata: undefined, onError: String, proofs: { before: () => undefined }, trailer: () => [] };
    const turn = createTurnSource({ ...options, source, progress: relay });
    const pumped = turn.pump({ enqueue: (chunk) => sent.push(chunk.type), close: () => sent.push('close') });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual(['tool-input-available']);
    const cancelled = turn.cancel('stop');
    relay.report({ callId: 'c1', toolName: 'lookup', progress: { message: 'too late' } });
    await Promise.all([cancelled, pumped]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual(['tool-input-available']);
  });
});
