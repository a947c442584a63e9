// A small client for POST /api/chat in the reliability tests: posts a turn, reads the SSE body into UI
// chunks (incrementally, with a bound, so a stuck stream fails the test instead of hanging it), folds
// them into the assistant message as useChat does, answers approvals, and snapshots D1.
import { dataByCallId, type EdgetoolUIMessage, TICKET_PART, type TicketPartData } from '@edgetool/ai';
import { idempotencyKeyOf, peekTicket } from '@edgetool/core';
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { env, exports } from 'cloudflare:workers';

/** A tool part of a UI message, loosely typed. */
export type Part = {
  type: string;
  toolCallId?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
  data?: unknown;
};

/** Longest time any response body may take to finish or fail in these tests (a bound, not a measurement). */
export const STREAM_BOUND_MS = 5_000;

/**
 * The outbox key `send_email` writes a call under once approved: its `ctx.idempotencyKey` (conversation, call id, the
 * nonce of the approval ticket `message` carries for it).
 */
export function emailKey(conversationId: string, callId: string, message: EdgetoolUIMessage): string {
  const ticket = dataByCallId<TicketPartData>(message, TICKET_PART).get(callId)?.ticket;
  return `send_email:${idempotencyKeyOf({ conversationId, callId, nonce: peekTicket(ticket)?.nonce })}`;
}

/** A POST /api/chat request; `init.headers` go beside the JSON content type (and may replace it). */
export function chatRequest(body: unknown, init: RequestInit = {}): Request {
  const headers = new Headers({ 'content-type': 'application/json' });
  for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
  return new Request('http://localhost/api/chat', {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
    headers,
  });
}

/**
 * The UI message streams {@link post} has answered since the last {@link drainUnreadStreams}. A turn runs its tool calls
 * while its body is read, so a stream nobody reads can write to D1 after its test has ended, into the next test's rows.
 */
const answered: { readonly response: Response; readonly what: string }[] = [];

/** Posts through the Worker's own fetch handler (`exports.default.fetch`), as the runtime routes a request. */
export async function post(body: unknown, init: RequestInit = {}): Promise<Response> {
  const response = await exports.default.fetch(chatRequest(body, init));
  if (response.headers.get('x-vercel-ai-ui-message-stream') === 'v1') {
    const id = typeof body === 'object' && body !== null && 'id' in body ? String(body.id) : 'a raw body';
    answered.push({ response, what: `the turn of conversation ${JSON.stringify(id)}` });
  }
  return response;
}

/**
 * Reads to its end every stream {@link post} answered that its test never started to read, so that turn's writes land
 * now, in the test that made it, and names them (the setup file fails that test). Streams read in part (a client that
 * left) count as read.
 */
export async function drainUnreadStreams(): Promise<string[]> {
  const unread = answered.splice(0).filter(({ response }) => !response.bodyUsed);
  await Promise.all(unread.map(({ response, what }) => within(STREAM_BOUND_MS, response.text(), `draining ${what}`)));
  return unread.map(({ what }) => what);
}

/** A user message. */
export function user(text: string): EdgetoolUIMessage {
  return { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] };
}

/** Rejects when `promise` does not settle within `ms` (a stuck request fails the test with a clear message). */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** How a body read ended. */
export interface BodyRead {
  readonly chunks: UIMessageChunk[];
  /** `done`: the stream closed; `error`: reading it failed (for example after a disconnect). */
  readonly end: 'done' | 'error';
  readonly error?: unknown;
}

/**
 * Reads an SSE body chunk by chunk. `onChunk` may return `'stop'` to cancel the read (a client that goes
 * away). Resolves when the body closes or errors; rejects only when it does neither within the bound.
 */
export async function readBody(response: Response, options: { onChunk?: (chunk: UIMessageChunk, all: UIMessageChunk[]) => unknown; boundMs?: number } = {}): Promise<BodyRead> {
  const body = response.body;
  if (!body) return { chunks: [], end: 'done' };
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const chunks: UIMessageChunk[] = [];
  let buffer = '';
  const run = async (): Promise<BodyRead> => {
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) return { chunks, end: 'done' };
        buffer += next.value;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const event = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
          if (!event.startsWith('data: {')) continue;
          const chunk = JSON.parse(event.slice(6)) as UIMessageChunk;
          chunks.push(chunk);
          if (options.onChunk?.(chunk, chunks) === 'stop') {
            await reader.cancel('client went away');
            return { chunks, end: 'done' };
          }
        }
      }
    } catch (error) {
      return { chunks, end: 'error', error };
    }
  };
  return within(options.boundMs ?? STREAM_BOUND_MS, run(), 'reading the response body');
}

/** Folds UI chunks into the assistant message, as useChat does (continuing `continued` when given). */
export async function fold(chunks: readonly UIMessageChunk[], continued?: EdgetoolUIMessage): Promise<EdgetoolUIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: EdgetoolUIMessage | undefined = continued ? structuredClone(continued) : undefined;
  for await (const snapshot of readUIMessageStream<EdgetoolUIMessage>({ stream, ...(message ? { message } : {}) })) message = snapshot;
  if (!message) throw new Error('the stream produced no assistant message');
  return message;
}

/** One complete turn: a 200 UI message stream read to its end, folded into the assistant message. */
export async function readTurn(response: Response, continued?: EdgetoolUIMessage): Promise<{ chunks: UIMessageChunk[]; message: EdgetoolUIMessage }> {
  if (response.status !== 200) throw new Error(`expected a 200 stream, got ${response.status}: ${await response.text()}`);
  if (response.headers.get('x-vercel-ai-ui-message-stream') !== 'v1') throw new Error('not a UI message stream');
  const read = await readBody(response);
  if (read.end !== 'done') throw new Error(`the stream failed: ${String(read.error)}`);
  return { chunks: read.chunks, message: await fold(read.chunks, continued) };
}

/** The tool parts of a message (static and dynamic). */
export function toolParts(message: EdgetoolUIMessage): Part[] {
  return (message.parts as Part[]).filter((p) => p.type.startsWith('tool-') || p.type === 'dynamic-tool');
}

/** The first part of tool `name`. */
export function toolPart(message: EdgetoolUIMessage, name: string): Part | undefined {
  return toolParts(message).find((p) => p.type === `tool-${name}`);
}

/** The history with the approval of `toolCallId` in the last message answered (as addToolApprovalResponse does). */
export function respond(history: readonly EdgetoolUIMessage[], toolCallId: string, approved: boolean): EdgetoolUIMessage[] {
  const copy = structuredClone(history) as EdgetoolUIMessage[];
  const last = copy.at(-1) as EdgetoolUIMessage;
  last.parts = last.parts.map((p) => {
    const part = p as Part;
    return part.toolCallId === toolCallId ? ({ ...part, state: 'approval-responded', approval: { ...(part.approval as { id: string }), approved } } as never) : p;
  });
  return copy;
}

/** Rows of a query on the test D1. */
export async function rows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]> {
  return (await env.DB.prepare(sql).bind(...params).all<T>()).results;
}

/** Every row of every table the tools and tickets write, in a stable order: compare two snapshots with toEqual. */
export async function snapshotDb(): Promise<{ orders: unknown[]; events: unknown[]; outbox: unknown[]; nonces: unknown[] }> {
  const [orders, events, outbox, nonces] = await Promise.all([
    rows('SELECT * FROM orders ORDER BY id'),
    rows('SELECT * FROM order_events ORDER BY id'),
    rows('SELECT * FROM outbox ORDER BY idempotency_key'),
    rows('SELECT nonce FROM ticket_nonces ORDER BY nonce'),
  ]);
  return { orders, events, outbox, nonces };
}

/** Counts of the written tables. */
export async function counts(): Promise<{ events: number; outbox: number; nonces: number }> {
  const [row] = await rows<{ events: number; outbox: number; nonces: number }>(
    'SELECT (SELECT COUNT(*) FROM order_events) AS events, (SELECT COUNT(*) FROM outbox) AS outbox, (SELECT COUNT(*) FROM ticket_nonces) AS nonces',
  );
  return row as { events: number; outbox: number; nonces: number };
}
