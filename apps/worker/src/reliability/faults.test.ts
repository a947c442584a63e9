// Reliability, worker faults (issue "Reliability"): tools that throw, hang past their timeout or are
// aborted mid-stream, D1 batches that fail half-way, model failures, and clients that disconnect while
// reading the SSE body. After each fault: D1 holds no partial write, every response body ends (or
// errors) within STREAM_BOUND_MS, and the next request on the same Worker works.
//
// Faulty tools cannot be registered in the Worker itself, so most cases build the same agent the Worker
// builds (createChatAgent over demoTools, tickets in D1 via createTickets, the offline model) plus the
// faulty tools, behind a handler that mirrors src/api/chat.ts. Disconnects are also driven through
// `exports.default.fetch`, the Worker's real entry point.
import {
  type CallResultStore,
  ContinuationError,
  createChatAgent,
  createOfflineModel,
  type EdgetoolUIMessage,
  NOT_STARTED_RECORD_TEXT,
  type OfflineRule,
  UNKNOWN_OUTCOME_TEXT,
} from '@edgetool/ai';
import { type AnyTool, createRegistry, createRunContext, createTicketSigner, defineTool, type TicketSigner, ToolError } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { env } from 'cloudflare:workers';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { counts, fold, type Part, post, readBody, readTurn, respond, rows, STREAM_BOUND_MS, snapshotDb, toolPart, user, within } from '../../test/chat-client.ts';
import { createTickets, ticketKeys } from '../agent.ts';
import { createD1CallResultStore } from '../call-result-store.ts';
import { createD1NonceStore } from '../nonce-store.ts';
import { type DemoDeps, demoDeps, demoTools } from '../tools/index.ts';

/** A promise with its resolver, to wait for a tool to start. */
function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Faulty tools, fresh per test (their latches are per test). */
function faultyTools() {
  const started = signal();
  const sawAbort = signal<unknown>();
  const tools: AnyTool[] = [
    defineTool({
      name: 'explode',
      description: 'Always throws.',
      input: v.object({}),
      policy: { effects: 'read' },
      execute: () => {
        throw new Error('boom: the tool crashed');
      },
    }),
    defineTool({
      name: 'hang',
      description: 'Never settles and ignores its abort signal.',
      input: v.object({}),
      policy: { effects: 'read', timeoutMs: 40 },
      execute: () => new Promise<never>(() => {}),
    }),
    defineTool({
      name: 'wait_for_abort',
      description: 'Runs until its signal aborts.',
      input: v.object({}),
      policy: { effects: 'read' },
      execute: (_input, ctx) =>
        new Promise<never>((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort.resolve(ctx.signal.reason);
            reject(ctx.signal.reason);
          });
          started.resolve();
        }),
    }),
  ];
  return { tools, started: started.promise, sawAbort: sawAbort.promise };
}

interface Harness {
  /** POST /api/chat against the test agent, as src/api/chat.ts would answer it. */
  chat(body: { id: string; messages: unknown[] }, options?: { signal?: AbortSignal; deps?: DemoDeps }): Promise<Response>;
}

/** The Worker's agent (demo tools, D1 tickets, offline model) plus `extra` tools. */
function harness(
  extra: readonly AnyTool[] = [],
  rules: readonly OfflineRule[] = [],
  stores: { tickets?: TicketSigner; callResults?: CallResultStore } = {},
): Harness {
  const tickets = stores.tickets ?? createTickets(env);
  const callResults = stores.callResults === undefined ? {} : { callResults: stores.callResults };
  const agent = createChatAgent({ model: createOfflineModel({ rules }), tools: createRegistry({ tools: [...demoTools, ...extra] }), tickets, maxSteps: 4, ...callResults });
  return {
    async chat(body, options = {}) {
      try {
        const run = createRunContext({ conversationId: body.id, deps: options.deps ?? demoDeps(env), signal: options.signal });
        const turn = await agent.stream({ messages: body.messages, mode: 'internal', run, signal: options.signal });
        return turn.toResponse();
      } catch (error) {
        if (error instanceof ContinuationError) return Response.json({ error: { code: error.code, message: error.message } }, { status: 403 });
        if (ToolError.isInstance(error)) return Response.json({ error: { code: error.code, message: error.message } }, { status: 400 });
        throw error;
      }
    },
  };
}

/** D1 with `batch` replaced: runs the tool's statements plus one that violates a CHECK, so D1 must roll the whole batch back. */
function dbWithFailingBatch(): D1Database & { attempts: number } {
  const state = { attempts: 0 };
  const poison = () => env.DB.prepare("INSERT INTO order_events (order_id, kind, details, created_at) VALUES ('A-1001', 'not-a-kind', '{}', 'x')");
  return new Proxy(env.DB, {
    get(target, key) {
      if (key === 'attempts') return state.attempts;
      if (key === 'batch') {
        return (statements: D1PreparedStatement[]) => {
          state.attempts++;
          return target.batch([...statements, poison()]);
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as D1Database & { attempts: number };
}

/**
 * D1 whose `batch` waits until `until` aborts, then runs (a write in flight when the client leaves).
 * `landed` settles when that batch has finished in D1, whatever the request did meanwhile.
 */
function dbHeldUntilAbort(until: AbortSignal, reached: () => void): { db: D1Database; landed: Promise<unknown> } {
  const landed = signal<unknown>();
  const db = new Proxy(env.DB, {
    get(target, key) {
      if (key === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          reached();
          if (!until.aborted) await new Promise((resolve) => until.addEventListener('abort', resolve, { once: true }));
          const result = target.batch(statements);
          result.then(landed.resolve, landed.resolve);
          return result;
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, landed: landed.promise };
}

const types = (chunks: readonly UIMessageChunk[]) => chunks.map((c) => c.type);
const deliveryDate = async (id: string) => (await rows<{ delivery_date: string }>('SELECT delivery_date FROM orders WHERE id = ?1', id))[0]?.delivery_date;

/** The next request on the real Worker works: a lookup streams its answer to `finish`. */
async function nextRequestWorks(): Promise<void> {
  const { chunks, message } = await readTurn(await post({ id: `next-${crypto.randomUUID()}`, messages: [user('/query_order {"order_id":"A-1002"}')] }));
  expect(types(chunks).at(-1)).toBe('finish');
  expect(toolPart(message, 'query_order')?.state).toBe('output-available');
}

/** Asks for a date change on the harness and returns the approved continuation. */
async function approvedChange(h: Harness, conversation: string, order: string, date: string): Promise<{ approved: EdgetoolUIMessage[]; callId: string }> {
  const question = user(`/update_delivery_date {"order_id":"${order}","new_date":"${date}"}`);
  const first = await readTurn(await h.chat({ id: conversation, messages: [question] }));
  const part = toolPart(first.message, 'update_delivery_date');
  expect(part?.state).toBe('approval-requested');
  const callId = part?.toolCallId as string;
  return { approved: respond([question, first.message], callId, true), callId };
}

describe('worker faults: tools', () => {
  it('a tool that throws becomes an error part; the stream finishes and the next request works', async () => {
    const { tools } = faultyTools();
    const h = harness(tools);
    const before = await snapshotDb();
    // Two calls in one step: the crash must not take the healthy call down with it.
    const { chunks, message } = await readTurn(await h.chat({ id: 'fault-throw', messages: [user('/explode {}\n/query_order {"order_id":"A-1004"}')] }));
    expect(types(chunks).at(-1)).toBe('finish');
    expect(toolPart(message, 'explode')).toMatchObject({ state: 'output-error', errorText: expect.stringContaining('boom: the tool crashed') });
    expect(toolPart(message, 'query_order')?.state).toBe('output-available');
    expect(await snapshotDb()).toEqual(before);
    await nextRequestWorks();
  });

  it('a tool that hangs past its timeout is cut off with a timeout error; the stream finishes', async () => {
    const { tools } = faultyTools();
    const h = harness(tools);
    const { chunks, message } = await readTurn(await h.chat({ id: 'fault-hang', messages: [user('/hang {}')] }));
    expect(types(chunks).at(-1)).toBe('finish');
    const part = toolPart(message, 'hang');
    expect(part?.state).toBe('output-error');
    expect(part?.errorText).toMatch(/timeout|timed out/i);
    const trace = (message.parts as Part[]).find((p) => p.type === 'data-edgetool-trace');
    expect(trace?.data).toMatchObject({ toolName: 'hang', outcome: 'error', errorCode: 'timeout' });
    await nextRequestWorks();
  });

  it('a tool aborted mid-stream by the client sees its signal abort; the body ends and the next request works', async () => {
    const { tools, started, sawAbort } = faultyTools();
    const h = harness(tools);
    const client = new AbortController();
    const before = await snapshotDb();
    const response = await h.chat({ id: 'fault-abort', messages: [user('/wait_for_abort {}')] }, { signal: client.signal });
    void started.then(() => client.abort(new Error('client went away')));
    const read = await readBody(response);
    // The body either closes with an `abort` chunk or errors: both end, neither hangs.
    if (read.end === 'done') expect(types(read.chunks).at(-1)).toMatch(/abort|error/);
    await expect(within(1000, sawAbort, 'the tool signal')).resolves.toBeDefined();
    expect(await snapshotDb()).toEqual(before);
    await nextRequestWorks();
  });

  it('a model that fails mid-turn (after a tool ran) ends the stream with an error chunk', async () => {
    // The first step calls query_order; the model call that should summarise its result fails.
    const failing: OfflineRule = (input) => {
      if (input.toolResults.length > 0) throw new Error('model backend unavailable');
      return undefined;
    };
    const h = harness([], [failing]);
    const read = await readBody(await h.chat({ id: 'fault-model', messages: [user('/query_order {"order_id":"A-1002"}')] }));
    expect(read.end).toBe('done');
    expect(types(read.chunks)).toContain('tool-output-available');
    expect(types(read.chunks).at(-1)).toBe('error');
    await nextRequestWorks();
  });
});

describe('worker faults: D1 writes', () => {
  it('an approved update_delivery_date whose batch fails writes neither the order nor the event', async () => {
    const h = harness();
    const { approved, callId } = await approvedChange(h, 'fault-batch', 'A-1003', '2026-12-24');
    const before = await snapshotDb();
    const db = dbWithFailingBatch();
    const second = await readTurn(await h.chat({ id: 'fault-batch', messages: approved }, { deps: { db } }), approved.at(-1));
    expect(db.attempts).toBe(1);
    expect(toolPart(second.message, 'update_delivery_date')).toMatchObject({ toolCallId: callId, state: 'output-error' });
    expect(types(second.chunks).at(-1)).toBe('finish');
    const after = await snapshotDb();
    expect(after.orders).toEqual(before.orders); // D1 rolled back the UPDATE...
    expect(after.events).toEqual(before.events); // ...and the audit INSERT that ran before it
    // The ticket is spent and the call marked started (a failed write is not replayable): two rows.
    expect(after.nonces).toHaveLength(before.nonces.length + 2);
    // The Worker keeps working, and a fresh approval for the same change succeeds once.
    await nextRequestWorks();
    const retry = await approvedChange(h, 'fault-batch-retry', 'A-1003', '2026-12-24');
    await readTurn(await h.chat({ id: 'fault-batch-retry', messages: retry.approved }), retry.approved.at(-1));
    expect(await deliveryDate('A-1003')).toBe('2026-12-24');
    expect(await rows('SELECT order_id, kind FROM order_events')).toEqual([{ order_id: 'A-1003', kind: 'delivery_date_changed' }]);
  });

  it('an approved send_email whose batch fails queues nothing and writes no event', async () => {
    const h = harness();
    const question = user('/send_email {"order_id":"A-1002","subject":"Your order","body":"It is late, sorry."}');
    const first = await readTurn(await h.chat({ id: 'fault-mail', messages: [question] }));
    const part = toolPart(first.message, 'send_email');
    expect(part?.state).toBe('approval-requested');
    const approved = respond([question, first.message], part?.toolCallId as string, true);
    const before = await counts();
    const second = await readTurn(await h.chat({ id: 'fault-mail', messages: approved }, { deps: { ...demoDeps(env), db: dbWithFailingBatch() } }), approved.at(-1));
    expect(toolPart(second.message, 'send_email')).toMatchObject({ state: 'output-error', errorText: expect.stringMatching(/^Error \(execution-failed\)/) });
    // The ticket's row, and the call's "started" mark beside it.
    expect(await counts()).toEqual({ ...before, nonces: before.nonces + 2 });
    await nextRequestWorks();
  });

  it('a client that leaves while an approved write is in flight: the body ends with abort, the started transaction commits whole', async () => {
    const h = harness();
    const { approved } = await approvedChange(h, 'fault-leave', 'A-1004', '2026-12-27');
    const client = new AbortController();
    const { db, landed } = dbHeldUntilAbort(client.signal, () => client.abort(new Error('client went away')));
    const response = await h.chat({ id: 'fault-leave', messages: approved }, { signal: client.signal, deps: { db } });
    const read = await readBody(response);
    // The client is told the turn was aborted...
    expect(read.end).toBe('done');
    expect(types(read.chunks).at(-1)).toBe('abort');
    // ...but the transaction it had started still commits after it left, and it commits whole: the order
    // and its audit event together (at-most-once per ticket; the client must re-read the order).
    await within(STREAM_BOUND_MS, landed, 'the in-flight batch');
    expect(await deliveryDate('A-1004')).toBe('2026-12-27');
    expect(await rows('SELECT order_id, kind FROM order_events')).toEqual([{ order_id: 'A-1004', kind: 'delivery_date_changed' }]);
    // The ticket is spent either way: sending the continuation again runs nothing. The call was given up on, so its
    // outcome was not recorded, and the model reads that it is unknown (it did run: the model must re-read the order).
    const snapshot = await snapshotDb();
    const replay = await readTurn(await h.chat({ id: 'fault-leave', messages: approved }), approved.at(-1));
    expect(toolPart(replay.message, 'update_delivery_date')).toMatchObject({ state: 'output-error', errorText: UNKNOWN_OUTCOME_TEXT });
    expect(await snapshotDb()).toEqual(snapshot);
    await nextRequestWorks();
  });
});

describe('worker faults: a client that leaves between an approved call\'s "started" mark and its run (D1 stores)', () => {
  it('the call is recorded in D1 as not started; the Retry writes it once (a second mark), the next reads the record', async () => {
    // The Worker's stores over D1: its nonce store, whose "started" claim takes the mark and then answers only once the
    // client has left (a D1 round trip under load), and its call result store.
    const client = new AbortController();
    const nonces = createD1NonceStore(env.DB);
    const held = {
      ...nonces,
      claim: async (nonce: string, expiresAt: number) => {
        const taken = await nonces.claim(nonce, expiresAt);
        if (nonce.endsWith(' started') && !client.signal.aborted) client.abort(new Error('client went away'));
        return taken;
      },
    };
    const d1Results = createD1CallResultStore(env.DB);
    const recorded = signal();
    const callResults: CallResultStore = {
      get: (key) => d1Results.get(key),
      put: async (key, result, expiresAt) => {
        await d1Results.put(key, result, expiresAt);
        recorded.resolve();
      },
    };
    const h = harness([], [], { tickets: createTicketSigner({ keys: ticketKeys(env), nonceStore: held }), callResults });
    const { approved, callId } = await approvedChange(h, 'fault-mark', 'A-1011', '2026-12-29');
    const date = await deliveryDate('A-1011');
    const before = await counts();
    const read = await readBody(await h.chat({ id: 'fault-mark', messages: approved }, { signal: client.signal }));
    expect(['done', 'error']).toContain(read.end);
    await within(STREAM_BOUND_MS, recorded.promise, 'the not-started record');
    // Nothing ran: the ticket and the mark are taken (two rows), and D1 keeps the record, as any store keeps a result.
    expect(await deliveryDate('A-1011')).toBe(date);
    expect(await rows('SELECT order_id FROM order_events')).toEqual([]);
    expect((await counts()).nonces).toBe(before.nonces + 2);
    expect((await rows<{ result: string }>('SELECT result FROM call_results')).map((row) => JSON.parse(row.result))).toEqual([{ errorText: NOT_STARTED_RECORD_TEXT }]);

    // The Retry: the same answer, and the record says the call never started: it runs once, on its second mark.
    const written = { order_id: 'A-1011', delivery_date: '2026-12-29' };
    const retry = await readTurn(await h.chat({ id: 'fault-mark', messages: approved }), approved.at(-1));
    expect(toolPart(retry.message, 'update_delivery_date')).toMatchObject({ toolCallId: callId, state: 'output-available', output: written });
    expect(await deliveryDate('A-1011')).toBe('2026-12-29');
    expect(await rows('SELECT order_id FROM order_events')).toEqual([{ order_id: 'A-1011' }]);
    expect((await counts()).nonces).toBe(before.nonces + 3);
    // Sent once more, it reads the result the Retry recorded over the first: D1 holds the one write.
    const again = await readTurn(await h.chat({ id: 'fault-mark', messages: approved }), approved.at(-1));
    expect(toolPart(again.message, 'update_delivery_date')).toMatchObject({ state: 'output-available', output: written });
    expect(await rows('SELECT order_id FROM order_events')).toEqual([{ order_id: 'A-1011' }]);
    await nextRequestWorks();
  });
});

describe('worker faults: clients that disconnect (exports.default.fetch)', () => {
  it('aborting the request signal while reading the SSE body ends the read; D1 is untouched; the next request works', async () => {
    const before = await snapshotDb();
    for (const cut of [1, 2, 4, 8]) {
      const client = new AbortController();
      const response = await post({ id: `leave-${cut}`, messages: [user('/list_delayed_orders {"days_threshold":1}')] }, { signal: client.signal });
      const read = await readBody(response, {
        onChunk: (_chunk, all) => {
          if (all.length === cut) client.abort();
        },
      });
      expect(read.chunks.length).toBeGreaterThanOrEqual(Math.min(cut, 1));
      expect(['done', 'error']).toContain(read.end);
    }
    expect(await snapshotDb()).toEqual(before);
    await nextRequestWorks();
  });

  it('cancelling the body reader mid-stream (tab closed) ends the request; the next request works', async () => {
    for (const cut of [1, 3, 6]) {
      const response = await post({ id: `cancel-${cut}`, messages: [user('/query_order {"order_id":"A-1006"}\n/list_delayed_orders {}')] });
      const read = await readBody(response, { onChunk: (_chunk, all) => (all.length === cut ? 'stop' : undefined) });
      expect(read.chunks).toHaveLength(cut);
    }
    await nextRequestWorks();
  });

  it('a client that leaves while a tool reports progress: the read ends, late reports go nowhere, D1 is untouched', async () => {
    const before = await snapshotDb();
    for (const how of ['abort', 'cancel'] as const) {
      const client = new AbortController();
      const response = await post({ id: `leave-progress-${how}`, messages: [user('/audit_orders {}')] }, { signal: client.signal });
      const read = await readBody(response, {
        onChunk: (chunk) => {
          if (chunk.type !== 'data-edgetool-progress') return undefined;
          if (how === 'abort') client.abort();
          return 'stop';
        },
      });
      expect(read.chunks.some((chunk) => chunk.type === 'data-edgetool-progress')).toBe(true);
      expect(read.chunks.some((chunk) => chunk.type === 'tool-output-available')).toBe(false);
    }
    expect(await snapshotDb()).toEqual(before);
    await nextRequestWorks();
  });

  it('a client that leaves at once after sending its approval, before the write started: the same continuation again writes it once', async () => {
    const question = user('/update_delivery_date {"order_id":"A-1012","new_date":"2026-12-31"}');
    const first = await readTurn(await post({ id: 'leave-at-once', messages: [question] }));
    const part = toolPart(first.message, 'update_delivery_date');
    const approved = respond([question, first.message], part?.toolCallId as string, true);
    const before = await counts();
    // The response's headers came (the ticket is claimed), and the client leaves before it reads anything.
    const client = new AbortController();
    const response = await post({ id: 'leave-at-once', messages: approved }, { signal: client.signal });
    client.abort(new Error('client went away'));
    const read = await readBody(response);
    expect(['done', 'error']).toContain(read.end);
    expect(read.chunks.some((chunk) => chunk.type === 'tool-output-available' || chunk.type === 'tool-output-error')).toBe(false);
    expect(await deliveryDate('A-1012')).toBe('2026-12-20');
    expect(await rows('SELECT order_id FROM order_events')).toEqual([]);
    expect((await counts()).nonces).toBe(before.nonces + 1);

    // The Retry: the same answer (its claim kept it), and the write never started: it runs now, once, and is recorded.
    const written = { order_id: 'A-1012', delivery_date: '2026-12-31' };
    const retry = await readTurn(await post({ id: 'leave-at-once', messages: approved }), approved.at(-1));
    expect(toolPart(retry.message, 'update_delivery_date')).toMatchObject({ state: 'output-available', output: written });
    expect(await deliveryDate('A-1012')).toBe('2026-12-31');
    expect(await rows('SELECT order_id FROM order_events')).toEqual([{ order_id: 'A-1012' }]);
    // Sent once more, it reads the record: D1 holds the one write.
    const again = await readTurn(await post({ id: 'leave-at-once', messages: approved }), approved.at(-1));
    expect(toolPart(again.message, 'update_delivery_date')).toMatchObject({ state: 'output-available', output: written });
    expect(await rows('SELECT order_id FROM order_events')).toEqual([{ order_id: 'A-1012' }]);
    await nextRequestWorks();
  });

  it('a client that leaves right after an approved write, before the answer: the change is there once, the replay gets it', async () => {
    const question = user('/update_delivery_date {"order_id":"A-1010","new_date":"2026-12-30"}');
    const first = await readTurn(await post({ id: 'leave-approved', messages: [question] }));
    const part = toolPart(first.message, 'update_delivery_date');
    const approved = respond([question, first.message], part?.toolCallId as string, true);
    const client = new AbortController();
    const response = await post({ id: 'leave-approved', messages: approved }, { signal: client.signal });
    // Leave as soon as the write is reported, while the model is still to answer.
    const read = await readBody(response, {
      onChunk: (chunk) => {
        if (chunk.type === 'tool-output-available' || chunk.type === 'tool-output-error') client.abort();
      },
    });
    expect(['done', 'error']).toContain(read.end);
    const written = async () => {
      expect(await deliveryDate('A-1010')).toBe('2026-12-30');
      expect(await rows('SELECT order_id FROM order_events')).toEqual([{ order_id: 'A-1010' }]);
    };
    await written();
    // Sent again, the continuation gets the recorded result of the write (from D1) and writes nothing more.
    const replay = await readTurn(await post({ id: 'leave-approved', messages: approved }), approved.at(-1));
    expect(toolPart(replay.message, 'update_delivery_date')).toMatchObject({ state: 'output-available', output: { order_id: 'A-1010', delivery_date: '2026-12-30' } });
    // What the client got before leaving still folds into a valid message with the tool's output.
    expect(toolPart(await fold(read.chunks, approved.at(-1)), 'update_delivery_date')?.state).toBe('output-available');
    await nextRequestWorks();
    await written();
  });
});
