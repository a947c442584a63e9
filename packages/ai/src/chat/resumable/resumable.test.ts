import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import { readUIMessageStream, type UIMessage, type UIMessageChunk, uiMessageChunkSchema } from 'ai';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { callsStep, scriptedModel, textStep } from '../../testing/mock-model.ts';
import { createChatAgent } from '../chat-agent.ts';
import { appendBatches } from './internal.ts';
import type { EdgetoolUIMessage } from '../protocol.ts';
import {
  cancelResumable,
  createMemoryResumableStore,
  MAX_RESUMABLE_APPEND_BYTES,
  type ResumableBatch,
  type ResumableOptions,
  type ResumableRecording,
  type ResumableStore,
  ResumableStoreError,
  resumableResponse,
  resumeResponse,
} from './index.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'resumable-test-secret-32-bytes-long!!!' }] });

/** A gate a test opens: the slow tool waits on it (or on its signal). */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A store that counts its calls, over the memory store (`fail`: every append fails, or each while it returns true). */
function countingStore(options: { now?: () => number; fail?: boolean | (() => boolean) } = {}) {
  const inner = createMemoryResumableStore(options.now === undefined ? {} : { now: options.now });
  const calls: string[] = [];
  const store: ResumableStore = {
    append: (batch) => {
      calls.push('append');
      const fail = typeof options.fail === 'function' ? options.fail() : options.fail === true;
      return fail ? Promise.reject(new Error('disk full')) : inner.append(batch);
    },
    finish: (...args) => {
      calls.push('finish');
      return inner.finish(...args);
    },
    read: (...args) => {
      calls.push('read');
      return inner.read(...args);
    },
    cancel: (...args) => {
      calls.push('cancel');
      return inner.cancel(...args);
    },
  };
  return { store, calls };
}

/** A turn whose one tool call waits for `held` (or its abort): slow enough to reload in the middle of. */
function slowAgent(held: Promise<void>) {
  const seen = { ran: 0, finished: 0, aborted: 0 };
  const slowExport = defineTool({
    name: 'slow_export',
    description: 'A long export',
    input: v.object({ rows: v.number() }),
    execute: async ({ rows }, ctx) => {
      seen.ran++;
      await Promise.race([held, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
      if (ctx.signal.aborted) {
        seen.aborted++;
        throw ctx.signal.reason;
      }
      seen.finished++;
      return { exported: rows };
    },
  });
  const model = scriptedModel(callsStep([['c1', 'slow_export', { rows: 3 }]]), textStep('The export is done.'));
  return { agent: createChatAgent({ model, tools: [slowExport], tickets }), seen };
}

const ask = (text: string) => ({ messages: text, run: createRunContext({ conversationId: 'chat-1' }) });

function resumable(store: ResumableStore, extra: Partial<ResumableOptions> = {}) {
  const waits: Promise<unknown>[] = [];
  const options: ResumableOptions = { store, chatId: 'chat-1', owner: 'user-1', waitUntil: (p) => waits.push(p), intervalMs: 5, ...extra };
  return { options, settled: () => Promise.all(waits) };
}

/** Reads a body until `until` holds of the text so far, then cancels it (the client goes away). */
async function readThenLeave(response: Response, until: (text: string) => boolean): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const read = await reader.read();
    if (read.done) throw new Error(`the stream ended before the condition held: ${text}`);
    text += decoder.decode(read.value, { stream: true });
  }
  await reader.cancel();
  return text;
}

const events = (text: string) => text.split('\n\n').filter((event) => event !== '');
const chunksOf = (text: string): UIMessageChunk[] =>
  events(text)
    .filter((event) => event !== 'data: [DONE]')
    .map((event) => JSON.parse(event.slice('data: '.length)) as UIMessageChunk);

async function fold(text: string): Promise<UIMessage> {
  let last: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunksOf(text)) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const message of readUIMessageStream<UIMessage>({ stream })) last = message;
  if (last === undefined) throw new Error('no message');
  return last;
}

describe('resumable turns', () => {
  it('a turn that ends with its client connected makes no store call, and sends what toResponse() sends', async () => {
    const { store, calls } = countingStore();
    const held = gate();
    held.open();
    const { agent } = slowAgent(held.opened);
    const { options, settled } = resumable(store);
    const turn = await agent.stream(ask('Export 3 rows'));
    const response = turn.toResponse({ resumable: options, headers: { 'x-extra': '1' } });
    const text = await response.text();
    await settled();
    expect(calls).toEqual([]);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('x-extra')).toBe('1');
    expect(events(text).at(-1)).toBe('data: [DONE]');
    for (const chunk of chunksOf(text)) expect(await uiMessageChunkSchema().validate?.(chunk)).toMatchObject({ success: true });
    // The same events, in the same wire format, as the plain response of the same turn.
    const plain = await (await slowAgent(held.opened).agent.stream(ask('Export 3 rows'))).toResponse().text();
    expect(chunksOf(text).map((chunk) => chunk.type)).toEqual(chunksOf(plain).map((chunk) => chunk.type));
  });

  it('a client that goes away leaves the turn running: it is recorded, and a reload gets it byte for byte, then the rest', async () => {
    const { store } = countingStore();
    const held = gate();
    const { agent, seen } = slowAgent(held.opened);
    const { options, settled } = resumable(store, { turnId: 'turn-1' });
    const turn = await agent.stream(ask('Export 3 rows'));
    const result = turn.result;
    // The client reads until the tool call is announced, then the page reloads.
    const before = await readThenLeave(turn.toResponse({ resumable: options }), (text) => text.includes('"tool-input-available"'));
    // The reload: the recording so far, then the rest as it is written.
    let resumed: Response | undefined;
    for (let i = 0; i < 100 && resumed?.status !== 200; i++) {
      resumed = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1', pollMs: 5 });
      if (resumed.status !== 200) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(resumed?.status).toBe(200);
    held.open();
    const replay = await (resumed as Response).text();
    await settled();
    expect(seen).toEqual({ ran: 1, finished: 1, aborted: 0 });
    // What the POST had sent comes first, byte for byte; the whole is the turn's stream to its end.
    expect(replay.startsWith(before)).toBe(true);
    expect(events(replay).at(-1)).toBe('data: [DONE]');
    expect(chunksOf(replay).at(-1)?.type).toBe('finish');
    const settledResult = await result;
    expect(settledResult.finishReason).toBe('stop');
    // The replay folds into the very message the turn made: its tickets and seals are the turn's own.
    const replayed = await fold(replay);
    expect(replayed).toEqual(settledResult.message);
    // ...and they still verify: the next turn takes the replayed answer as history.
    const next = await createChatAgent({ model: scriptedModel(textStep('You are welcome.')), tools: [], tickets }).generate({
      messages: [...settledResult.messages.slice(0, -1), replayed as EdgetoolUIMessage, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks' }] }],
      run: createRunContext({ conversationId: 'chat-1' }),
    });
    expect(next.text).toBe('You are welcome.');
    // A reload after the end replays the whole turn at once.
    const again = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', pollMs: 5 });
    expect(await again.text()).toBe(replay);
  });

  it("the connection's signal detaches the turn as the client goes, not at a write that fails: a turn that ends just after is recorded", async () => {
    const { store, calls } = countingStore();
    const held = gate();
    const { agent, seen } = slowAgent(held.opened);
    const connection = new AbortController();
    const { options, settled } = resumable(store, { turnId: 'turn-1', signal: connection.signal });
    const turn = await agent.stream(ask('Export 3 rows'));
    const result = turn.result;
    const body = turn.toResponse({ resumable: options }).body as ReadableStream<Uint8Array>;
    // The runtime keeps draining the body into a socket the client has closed (it errors only at a later write):
    // nothing cancels the body. The connection's signal says the client went.
    const drained = new Response(body).text();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
    connection.abort();
    held.open();
    await drained;
    await settled();
    expect(seen).toEqual({ ran: 1, finished: 1, aborted: 0 });
    const resumed = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1', pollMs: 5 });
    expect(resumed.status).toBe(200);
    const replay = await resumed.text();
    expect(chunksOf(replay).at(-1)?.type).toBe('finish');
    expect((await fold(replay)).id).toBe((await result).message.id);
  });

  it("a connection's signal that aborts after the whole turn was sent records nothing", async () => {
    const { store, calls } = countingStore();
    const connection = new AbortController();
    const { options, settled } = resumable(store, { turnId: 'turn-1', signal: connection.signal });
    const turn = await createChatAgent({ model: scriptedModel(textStep('Hello.')), tools: [], tickets }).stream(ask('Hi'));
    const text = await turn.toResponse({ resumable: options }).text();
    expect(events(text).at(-1)).toBe('data: [DONE]');
    connection.abort();
    await settled();
    expect(calls).toEqual([]);
  });

  it('two reloads at once (two tabs) each read the whole turn, and neither writes to the store', async () => {
    const { store, calls } = countingStore();
    const held = gate();
    const { agent, seen } = slowAgent(held.opened);
    const { options, settled } = resumable(store, { turnId: 'turn-1' });
    const turn = await agent.stream(ask('Export 3 rows'));
    await readThenLeave(turn.toResponse({ resumable: options }), (text) => text.includes('"tool-input-available"'));
    while (!calls.includes('append')) await new Promise((resolve) => setTimeout(resolve, 1));
    // The readers' calls, apart from the writer's.
    const readerCalls: string[] = [];
    const noted = <T>(name: string, call: () => T): T => {
      readerCalls.push(name);
      return call();
    };
    const readerStore: ResumableStore = {
      append: (batch) => noted('append', () => store.append(batch)),
      finish: (...args) => noted('finish', () => store.finish(...args)),
      read: (...args) => noted('read', () => store.read(...args)),
      cancel: (...args) => noted('cancel', () => store.cancel(...args)),
    };
    const both = await Promise.all([1, 2].map(() => resumeResponse({ store: readerStore, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1', pollMs: 5 })));
    expect(both.map((response) => response.status)).toEqual([200, 200]);
    held.open();
    const [a, b] = await Promise.all(both.map((response) => response.text()));
    await settled();
    expect(a).toBe(b);
    expect(events(a as string).at(-1)).toBe('data: [DONE]');
    expect(seen).toEqual({ ran: 1, finished: 1, aborted: 0 });
    // The readers only read.
    expect(new Set(readerCalls)).toEqual(new Set(['read']));
  });

  it("a reload's GET that comes before the server saw the old connection go waits for its turn's recording (graceMs)", async () => {
    const { store, calls } = countingStore();
    const held = gate();
    const { agent, seen } = slowAgent(held.opened);
    const { options, settled } = resumable(store, { turnId: 'turn-1' });
    const turn = await agent.stream(ask('Export 3 rows'));
    const response = turn.toResponse({ resumable: options });
    // The reload asks while the POST is still connected: nothing is recorded yet.
    expect((await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1', graceMs: 0 })).status).toBe(204);
    const early = resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1', pollMs: 5, graceMs: 10_000 });
    const before = await readThenLeave(response, (text) => text.includes('"tool-input-available"'));
    const resumed = await early;
    expect(resumed.status).toBe(200);
    held.open();
    const replay = await resumed.text();
    await settled();
    expect(seen).toEqual({ ran: 1, finished: 1, aborted: 0 });
    expect(replay.startsWith(before)).toBe(true);
    expect(events(replay).at(-1)).toBe('data: [DONE]');

    // A turn that is never recorded: the wait ends after graceMs (pollMs apart), or at once when the GET goes away.
    calls.length = 0;
    expect((await resumeResponse({ store, chatId: 'chat-9', owner: 'user-1', turnId: 'turn-9', pollMs: 5, graceMs: 20 })).status).toBe(204);
    expect(calls).toEqual(['read', 'read', 'read', 'read', 'read']);
    calls.length = 0;
    const gone = new AbortController();
    const waiting = resumeResponse({ store, chatId: 'chat-9', owner: 'user-1', turnId: 'turn-9', pollMs: 5, graceMs: 60_000, signal: gone.signal });
    gone.abort();
    expect((await waiting).status).toBe(204);
    expect(calls.length).toBeLessThanOrEqual(2);
  });

  it('another owner, another turn id or an expired recording gets 204', async () => {
    let clock = 1_000;
    const { store } = countingStore({ now: () => clock });
    const held = gate();
    held.open();
    const { agent } = slowAgent(held.opened);
    const { options, settled } = resumable(store, { turnId: 'turn-1', ttlMs: 60_000, now: () => clock });
    const turn = await agent.stream(ask('Export 3 rows'));
    await readThenLeave(turn.toResponse({ resumable: options }), (text) => text.includes('"start"'));
    await settled();
    const resume = (extra: { owner?: string; turnId?: string }) => resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', pollMs: 5, ...extra });
    expect((await resume({})).status).toBe(200);
    expect((await resume({ owner: 'user-2' })).status).toBe(204);
    expect((await resumeResponse({ store, chatId: 'chat-2', owner: 'user-1' })).status).toBe(204);
    expect((await resume({ turnId: 'turn-0' })).status).toBe(204);
    expect((await resume({ turnId: 'turn-1' })).status).toBe(200);
    clock += 60_001;
    expect((await resume({ turnId: 'turn-1' })).status).toBe(204);
  });

  it('a newer turn of the chat replaces the older recording', async () => {
    const { store } = countingStore();
    const held = gate();
    held.open();
    for (const turnId of ['turn-1', 'turn-2']) {
      const { options, settled } = resumable(store, { turnId });
      const turn = await slowAgent(held.opened).agent.stream(ask('Export 3 rows'));
      await readThenLeave(turn.toResponse({ resumable: options }), (text) => text.includes('"start"'));
      await settled();
    }
    expect((await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1' })).status).toBe(204);
    expect((await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-2' })).status).toBe(200);
  });

  it('a cancel that came before the disconnect was noticed wins: the detached turn stops before writing anything', async () => {
    const { store, calls } = countingStore();
    const held = gate();
    const { agent, seen } = slowAgent(held.opened);
    const { options, settled } = resumable(store, { turnId: 'turn-1' });
    const turn = await agent.stream(ask('Export 3 rows'));
    const result = turn.result;
    const response = turn.toResponse({ resumable: options });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"tool-input-available"')) text += decoder.decode((await reader.read()).value);
    // stop(): the DELETE lands first, then the POST's connection closes.
    await cancelResumable({ store, chatId: 'chat-1', owner: 'user-1' });
    await reader.cancel();
    await settled();
    expect(seen).toEqual({ ran: 1, finished: 0, aborted: 1 });
    expect((await result).finishReason).toBe('aborted');
    expect(calls).toEqual(['cancel', 'append', 'finish']);
    expect(await store.read('["user-1","chat-1"]', 0)).toBeUndefined();
    expect((await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1' })).status).toBe(204);
  });

  it('a cancel after the detach stops the turn at its next check; a reload then resumes nothing', async () => {
    const { store, calls } = countingStore();
    const held = gate();
    const { agent, seen } = slowAgent(held.opened);
    const { options, settled } = resumable(store, { turnId: 'turn-1' });
    const turn = await agent.stream(ask('Export 3 rows'));
    const result = turn.result;
    await readThenLeave(turn.toResponse({ resumable: options }), (text) => text.includes('"tool-input-available"'));
    while (!calls.includes('append')) await new Promise((resolve) => setTimeout(resolve, 1));
    const resumed = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', pollMs: 5 });
    expect(resumed.status).toBe(200);
    await cancelResumable({ store, chatId: 'chat-1', owner: 'user-1' });
    await settled();
    expect(seen).toEqual({ ran: 1, finished: 0, aborted: 1 });
    expect((await result).finishReason).toBe('aborted');
    // The resume that was reading ends with what it had (no finish); a new one gets nothing.
    const tail = await resumed.text();
    expect(chunksOf(tail).some((chunk) => chunk.type === 'finish')).toBe(false);
    expect((await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1' })).status).toBe(204);
  });

  it('a store that fails is a ResumableStoreError to onError; the turn goes on to its end', async () => {
    const { store } = countingStore({ fail: true });
    const held = gate();
    const { agent, seen } = slowAgent(held.opened);
    const errors: unknown[] = [];
    const { options, settled } = resumable(store, { onError: (error) => errors.push(error) });
    const turn = await agent.stream(ask('Export 3 rows'));
    await readThenLeave(turn.toResponse({ resumable: options }), (text) => text.includes('"tool-input-available"'));
    held.open();
    await settled();
    expect(errors).toHaveLength(1);
    expect(ResumableStoreError.isInstance(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({ code: 'resumable-store-failed', operation: 'append', message: expect.stringContaining('disk full') });
    expect(seen).toEqual({ ran: 1, finished: 1, aborted: 0 });
    expect((await turn.usage).outputTokens).toBeGreaterThan(0);
  });

  it('a store that fails mid-recording gives the recording up: the resume reading it ends, and a reload finds nothing', async () => {
    let failing = false;
    const { store, calls } = countingStore({ fail: () => failing });
    const held = gate();
    const { agent, seen } = slowAgent(held.opened);
    const errors: unknown[] = [];
    const { options, settled } = resumable(store, { turnId: 'turn-1', onError: (error) => errors.push(error) });
    const turn = await agent.stream(ask('Export 3 rows'));
    await readThenLeave(turn.toResponse({ resumable: options }), (text) => text.includes('"tool-input-available"'));
    while (!calls.includes('append')) await new Promise((resolve) => setTimeout(resolve, 1));
    const resumed = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1', pollMs: 5 });
    expect(resumed.status).toBe(200);
    // A later batch fails (a batch too large for a row, a database that went away for a moment).
    failing = true;
    // The recording never grows again, yet it has not expired: the resume must still end.
    const tail = await resumed.text();
    expect(chunksOf(tail).some((chunk) => chunk.type === 'finish')).toBe(false);
    expect(errors).toHaveLength(1);
    expect((await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1' })).status).toBe(204);
    held.open();
    await settled();
    expect(seen).toEqual({ ran: 1, finished: 1, aborted: 0 });
  });

  it('a resume ends once the running recording stops being renewed (its writer was cut off), with what it had', async () => {
    let clock = 1_000;
    const store = createMemoryResumableStore({ now: () => clock });
    const key = '["user-1","chat-1"]';
    const batch = { key, turnId: 'turn-1', startedAt: 1_000 };
    await store.append({ ...batch, position: 0, chunks: ['data: {"type":"start"}\n\n'], expiresAt: 61_000 });
    const resumed = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1', pollMs: 1, staleMs: 100, now: () => clock });
    expect(resumed.status).toBe(200);
    const reader = (resumed.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"type":"start"}\n\n');
    // The writer is alive: a write with nothing to add renews the expiry, and the resume waits on.
    clock += 90;
    await store.append({ ...batch, position: 1, chunks: [], expiresAt: 61_090 });
    const next = reader.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock += 90;
    await store.append({ ...batch, position: 1, chunks: ['data: {"type":"start-step"}\n\n'], expiresAt: 61_180 });
    expect(new TextDecoder().decode((await next).value)).toBe('data: {"type":"start-step"}\n\n');
    // Then no write comes again (the Worker's waitUntil ran out): the resume ends without a finish.
    clock += 101;
    expect((await reader.read()).done).toBe(true);
  });

  it("the resume's own disconnect stops its polling", async () => {
    const { store, calls } = countingStore();
    const held = gate();
    const { agent } = slowAgent(held.opened);
    const { options, settled } = resumable(store, { turnId: 'turn-1' });
    const turn = await agent.stream(ask('Export 3 rows'));
    await readThenLeave(turn.toResponse({ resumable: options }), (text) => text.includes('"tool-input-available"'));
    while (!calls.includes('append')) await new Promise((resolve) => setTimeout(resolve, 1));
    const stopped = new AbortController();
    const resumed = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', pollMs: 1, signal: stopped.signal });
    const reader = (resumed.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reads = calls.filter((call) => call === 'read').length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.filter((call) => call === 'read').length).toBe(reads);
    held.open();
    await settled();
  });

  it("a resume whose GET's signal aborted before its first read answered sends what was read and stops, polling nothing", async () => {
    const { store, calls } = countingStore();
    const key = '["user-1","chat-1"]';
    await store.append({ key, turnId: 'turn-1', startedAt: Date.now(), position: 0, chunks: ['data: {"type":"start"}\n\n'], expiresAt: Date.now() + 60_000 });
    const gone = new AbortController();
    // The client goes while the first read is under way: the abort event fires before the resume listens for it.
    const slow: ResumableStore = {
      ...store,
      read: (...args) => {
        gone.abort();
        return store.read(...args);
      },
    };
    const resumed = await resumeResponse({ store: slow, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1', pollMs: 1, staleMs: 60_000, signal: gone.signal });
    const reader = (resumed.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"type":"start"}\n\n');
    const reads = calls.filter((call) => call === 'read').length;
    const end = await Promise.race([reader.read(), new Promise((resolve) => setTimeout(() => resolve('still polling'), 50))]);
    await reader.cancel();
    expect(end).toEqual({ done: true, value: undefined });
    expect(calls.filter((call) => call === 'read').length).toBe(reads);
  });

  it('a flush larger than an append may hold is written in bounded appends, in order, and replayed byte for byte', async () => {
    const sizes: number[] = [];
    const { store } = countingStore();
    const measured: ResumableStore = {
      ...store,
      append: (batch: ResumableBatch) => {
        sizes.push(batch.chunks.reduce((sum, chunk) => sum + new TextEncoder().encode(chunk).byteLength, 0));
        return store.append(batch);
      },
    };
    const held = gate();
    // A tool result of about 3 MB (a PDF in base64, say), with characters of 1 to 4 bytes of UTF-8 all through it.
    const big = 'JVBERi0xLjQK€ü😀'.repeat(200_000);
    const pdf = defineTool({
      name: 'export_pdf',
      description: 'Exports a PDF',
      input: v.object({}),
      execute: async () => {
        await held.opened;
        return { base64: big };
      },
    });
    const model = scriptedModel(callsStep([['c1', 'export_pdf', {}]]), textStep('Here is the PDF.'));
    const agent = createChatAgent({ model, tools: [pdf], tickets });
    const { options, settled } = resumable(measured, { turnId: 'turn-1' });
    const turn = await agent.stream(ask('Export the PDF'));
    const settledResult = turn.result;
    const before = await readThenLeave(turn.toResponse({ resumable: options }), (text) => text.includes('"tool-input-available"'));
    held.open();
    await settled();
    const result = await settledResult;
    // The 3 MB event went in several appends, none over the bound.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_RESUMABLE_APPEND_BYTES);
    expect(sizes.filter((size) => size > MAX_RESUMABLE_APPEND_BYTES / 2).length).toBeGreaterThanOrEqual(10);
    const resumed = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1' });
    expect(resumed.status).toBe(200);
    const replay = await resumed.text();
    expect(replay.startsWith(before)).toBe(true);
    expect(events(replay).at(-1)).toBe('data: [DONE]');
    const replayed = await fold(replay);
    expect(replayed).toEqual(result.message);
    expect(JSON.stringify(replayed)).toContain(big);
  });

  it('appends are cut between code points, and their chunks together are the events as they were', () => {
    const events = ['data: a\n\n', `data: ${'x😀'.repeat(5)}\n\n`, 'data: b\n\n', 'data: c\n\n'];
    for (const max of [4, 5, 9, 16, 64]) {
      const batches = appendBatches(events, max);
      expect(batches.flat().join('')).toBe(events.join(''));
      for (const batch of batches) {
        expect(new TextEncoder().encode(batch.join('')).byteLength).toBeLessThanOrEqual(max);
        // No piece starts or ends inside a surrogate pair.
        for (const chunk of batch) expect(chunk).toBe(new TextDecoder().decode(new TextEncoder().encode(chunk)));
      }
    }
    // Events that fit stay whole, and share an append while they fit.
    expect(appendBatches(['ab', 'cd', 'ef'], 4)).toEqual([['ab', 'cd'], ['ef']]);
    expect(appendBatches([], 4)).toEqual([]);
  });

  it('a turn that ends while a write is under way has its last events written too: the recording ends with its finish', async () => {
    const { store } = countingStore();
    // The store is slow: the first append is held until the turn has ended.
    const slowWrite = gate();
    let appends = 0;
    const slow: ResumableStore = {
      ...store,
      append: async (batch: ResumableBatch) => {
        if (appends++ === 0) await slowWrite.opened;
        return store.append(batch);
      },
    };
    const held = gate();
    const closed = gate();
    const source = new ReadableStream<UIMessageChunk>({
      async start(controller) {
        controller.enqueue({ type: 'start' });
        await held.opened;
        controller.enqueue({ type: 'text-start', id: 't1' });
        controller.enqueue({ type: 'text-delta', id: 't1', delta: 'The end.' });
        controller.enqueue({ type: 'text-end', id: 't1' });
        controller.enqueue({ type: 'finish' });
        controller.close();
        closed.open();
      },
    });
    const { options, settled } = resumable(slow, { turnId: 'turn-1' });
    await readThenLeave(resumableResponse(source, options), (text) => text.includes('"start"'));
    while (appends === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    // The rest of the turn comes, and it ends, while its first write is still under way.
    held.open();
    await closed.opened;
    await new Promise((resolve) => setTimeout(resolve, 0));
    slowWrite.open();
    await settled();
    const replay = await (await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1' })).text();
    expect(chunksOf(replay).map((chunk) => chunk.type)).toEqual(['start', 'text-start', 'text-delta', 'text-end', 'finish']);
    expect(events(replay).at(-1)).toBe('data: [DONE]');
  });

  it("a recording another version wrote, or one tampered with, is not replayed as the turn the GET names: 204, never a crash", async () => {
    const start = 'data: {"type":"start"}\n\n';
    const good = { turnId: 'turn-1', chunks: [start], end: undefined, startedAt: 1_000, cancelledAt: undefined, expiresAt: Date.now() + 60_000 };
    const storeOf = (read: () => unknown): ResumableStore => ({ ...createMemoryResumableStore(), read: async () => read() as ResumableRecording });
    const resume = async (recording: unknown, turnId?: string) => {
      const errors: ResumableStoreError[] = [];
      const store = storeOf(() => recording);
      const response = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId, graceMs: 0, onError: (error) => errors.push(error) });
      return { status: response.status, errors };
    };
    expect((await resume(good)).status).toBe(200);
    await (await resumeResponse({ store: storeOf(() => ({ ...good, end: 'done' })), chatId: 'chat-1', owner: 'user-1' })).text();
    // A turn id no client could have sent: not replayed, even to a GET that names no turn.
    for (const turnId of ['', 'x'.repeat(101), 'turn 1', 'turn-1\n', 42, null, undefined]) {
      expect(await resume({ ...good, turnId })).toEqual({ status: 204, errors: [] });
      expect(await resume({ ...good, turnId }, 'turn-1')).toEqual({ status: 204, errors: [] });
    }
    // Another turn's: not the one named.
    expect((await resume({ ...good, turnId: 'turn-2' }, 'turn-1')).status).toBe(204);
    // Not a recording at all: 204, and onError hears of it (a typed store error).
    for (const broken of [null, 'text', { ...good, chunks: null }, { ...good, chunks: [start, 7] }, { ...good, end: 'finished' }, { ...good, startedAt: '1000' }]) {
      const { status, errors } = await resume(broken, 'turn-1');
      expect(status).toBe(204);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 'resumable-store-failed', operation: 'read' });
    }
    // While the tail is read: a recording that turns malformed or changes its turn id ends the resume, with what came.
    for (const later of [{ ...good, chunks: null }, { ...good, turnId: 'turn-1 ' }]) {
      let reads = 0;
      const errors: ResumableStoreError[] = [];
      const store = storeOf(() => (reads++ === 0 ? good : later));
      const response = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1', pollMs: 1, onError: (error) => errors.push(error) });
      expect(await response.text()).toBe(start);
      expect(errors).toHaveLength(later.chunks === null ? 1 : 0);
    }
  });

  it('a resume reads a quiet tail less and less often (pollMs doubling to maxPollMs), and every pollMs again once chunks come', async () => {
    vi.useFakeTimers({ now: 1_000 });
    try {
      const { store, calls } = countingStore();
      const key = '["user-1","chat-1"]';
      const batch = { key, turnId: 'turn-1', startedAt: 1_000 };
      await store.append({ ...batch, position: 0, chunks: ['data: {"type":"start"}\n\n'], expiresAt: 600_000 });
      const reads = () => calls.filter((call) => call === 'read').length;
      // The writer renews the recording every 500 ms, with nothing new: a tool that takes its time.
      let renewals = 0;
      const writer = setInterval(() => {
        renewals++;
        void store.append({ ...batch, position: 1, chunks: [], expiresAt: 600_000 + renewals });
      }, 500);
      const resumed = await resumeResponse({ store, chatId: 'chat-1', owner: 'user-1', turnId: 'turn-1' });
      const reader = (resumed.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      const before = reads();
      const next = reader.read();
      // 10 quiet seconds: read after 0.5, 1.5, 3.5, 5.5, 7.5 and 9.5 s (the interval doubles to 2 s), not 20 times.
      await vi.advanceTimersByTimeAsync(10_000);
      expect(reads() - before).toBe(6);
      // Chunks come: the next read (at most 2 s later) sends them, and the reads are 500 ms apart again.
      await store.append({ ...batch, position: 1, chunks: ['data: {"type":"start-step"}\n\n'], expiresAt: 700_000 });
      await vi.advanceTimersByTimeAsync(1_500);
      expect(new TextDecoder().decode((await next).value)).toBe('data: {"type":"start-step"}\n\n');
      const after = reads();
      void reader.read();
      await vi.advanceTimersByTimeAsync(500);
      expect(reads() - after).toBe(1);
      // The resume still ends when the writer is gone (staleMs after the last renewal), backing off or not.
      clearInterval(writer);
      const end = reader.read();
      await vi.advanceTimersByTimeAsync(13_000);
      expect((await end).done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
