import type { UIMessageChunk } from 'ai';
import { appendBatches, readTurnId, SSE_DONE, sseEvent, sseHeaders, storeCall } from './internal.ts';
import { MAX_RESUMABLE_APPEND_BYTES, type ResumableStore, ResumableStoreError, resumableKey } from './store.ts';

/** Default time a recording (and a cancel mark) is kept: 10 minutes. */
export const DEFAULT_RESUMABLE_TTL_MS: number = 10 * 60_000;
/** Default interval of a detached turn's writes and cancel checks, and of a resume's reads: 500 ms. */
export const DEFAULT_RESUMABLE_INTERVAL_MS: number = 500;
/**
 * The header `useEdgeChat({ resume: true })` sends its turn id in, on the POST and on the resume's GET: a reload asks for
 * the turn it sent, never an older recording of the chat.
 */
export const RESUMABLE_TURN_HEADER = 'x-edgetool-turn';

/** The `resumable` option of `turn.toResponse()`: a turn whose client goes away goes on, recorded for a reload. */
export interface ResumableOptions {
  readonly store: ResumableStore;
  /** The chat id (`useChat`'s `id`, what `GET {api}/{chatId}/stream` names). */
  readonly chatId: string;
  /** Whose chat this is (a user id; the demo's per-browser id): only a resume that presents it reads the recording. */
  readonly owner: string;
  /** Keeps the detached turn alive after the response is gone: a Worker's `ctx.waitUntil`; in Node, any function. */
  readonly waitUntil: (promise: Promise<unknown>) => void;
  /** The client's id of this turn (the {@link RESUMABLE_TURN_HEADER} header; at most 100 characters): default random. */
  readonly turnId?: string | null | undefined;
  /** How long the recording is kept after its last write (default {@link DEFAULT_RESUMABLE_TTL_MS}). */
  readonly ttlMs?: number;
  /** Interval of the detached turn's writes and cancel checks (default {@link DEFAULT_RESUMABLE_INTERVAL_MS}). */
  readonly intervalMs?: number;
  /**
   * The client's connection, if the server has one: `request.signal` (a Worker with the `enable_request_signal`
   * compatibility flag, Node's `req.signal`). It detaches the turn as soon as the client goes: without it the turn
   * detaches when the response's stream is cancelled, which a runtime may only do on its next write to the dead
   * connection, and a turn whose last events went out to it ends as if read, with nothing recorded for a reload.
   */
  readonly signal?: AbortSignal | undefined;
  /** Clock in epoch ms (default `Date.now`). */
  readonly now?: () => number;
  /** Hears of a store failure (the recording stops; the turn goes on); default `console.error`. */
  readonly onError?: (error: ResumableStoreError) => void;
}

/**
 * The response of a resumable turn: the bytes `createUIMessageStreamResponse` would send. While the client reads,
 * nothing is written anywhere (the events sent are kept in memory). If the client's stream is cancelled before the turn
 * ends, the turn is not: it goes on under `waitUntil`, writes what was sent and the rest in batches (each at most
 * {@link MAX_RESUMABLE_APPEND_BYTES}), and stops as a client's stop does if the chat is cancelled (a mark made before or
 * during it).
 */
export function resumableResponse(stream: ReadableStream<UIMessageChunk>, options: ResumableOptions, init: ResponseInit = {}): Response {
  const { store, waitUntil } = options;
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? DEFAULT_RESUMABLE_TTL_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_RESUMABLE_INTERVAL_MS;
  const onError = options.onError ?? ((error: ResumableStoreError) => console.error('edgetool: a detached turn could not be recorded:', error));
  const key = resumableKey(options.owner, options.chatId);
  const turnId = readTurnId(options.turnId) ?? crypto.randomUUID();
  const startedAt = now();
  const reader = stream.getReader();
  const encoder = new TextEncoder();

  /** Events read but not yet written: while the client reads, everything it was sent (nothing is written then). */
  let pending: string[] = [];
  let detached = false;

  /** The client went away: reads the turn to its end, recording it, unless the chat is cancelled. */
  const detach = async (): Promise<void> => {
    let position = 0;
    let ended = false;
    let stopped = false;
    // The reads go on without waiting for writes: the turn is paced by its model and tools, not by the store.
    const reading = (async () => {
      for (;;) {
        const read = await reader.read();
        if (read.done) return;
        pending.push(sseEvent(read.value));
      }
    })()
      .catch(() => {})
      .then(() => {
        ended = true;
      });
    const write = async (): Promise<void> => {
      // What came since the last write, in appends of a bounded size (one large event is cut into several); an empty
      // write still renews the recording's expiry.
      const batches = appendBatches(pending, MAX_RESUMABLE_APPEND_BYTES);
      pending = [];
      for (const chunks of batches.length === 0 ? [[]] : batches) {
        const cancelled = await storeCall('append', () => store.append({ key, turnId, position, chunks, startedAt, expiresAt: now() + ttlMs }));
        if (cancelled) {
          stopped = true;
          return;
        }
        position += chunks.length;
      }
    };
    try {
      // The first write reads the cancel mark before anything is recorded: a stop that came before the disconnect wins.
      await write();
      // Until the turn has ended and all it sent is written: it may end while a write is under way, and the events read
      // meanwhile are still to write.
      while (!stopped && !(ended && pending.length === 0)) {
        if (!ended) await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, intervalMs))]);
        await write();
      }
      if (stopped) {
        // As a client's stop: the turn's calls and model request abort; the events not yet written are dropped.
        await reader.cancel('The chat was cancelled.').catch(() => {});
        await reading;
      }
      await storeCall('finish', () => store.finish(key, turnId, stopped ? 'cancelled' : 'done'));
    } catch (error) {
      onError(ResumableStoreError.isInstance(error) ? error : new ResumableStoreError('append', error));
      // The recording is given up (ended as a cancelled one, if the store still answers): a reload then finds nothing,
      // and a resume reading it ends, instead of polling a recording that never grows until it expires.
      await store.finish(key, turnId, 'cancelled').catch(() => {});
      // A store that fails stops the recording, not the turn: it runs to its end (its usage and result settle).
      await reading;
    }
  };

  // Set once the client was sent the whole turn: a disconnect after that detaches nothing.
  let sent = false;
  let body$: ReadableStreamDefaultController<Uint8Array> | undefined;
  const goneAway = (): void => {
    if (detached || sent) return;
    detached = true;
    options.signal?.removeEventListener('abort', onAbort);
    waitUntil(detach());
  };
  /** The connection closed: the turn detaches now, and the response ends (nobody reads it any more). */
  function onAbort(): void {
    goneAway();
    try {
      body$?.close();
    } catch {}
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      body$ = controller;
    },
    async pull(controller) {
      const read = await reader.read();
      // The client went away while this read waited: its event goes to the recording, first.
      if (detached) {
        if (!read.done) pending.push(sseEvent(read.value));
        return;
      }
      if (read.done) {
        pending = [];
        sent = true;
        options.signal?.removeEventListener('abort', onAbort);
        controller.enqueue(encoder.encode(SSE_DONE));
        controller.close();
        return;
      }
      const event = sseEvent(read.value);
      pending.push(event);
      controller.enqueue(encoder.encode(event));
    },
    cancel: goneAway,
  });
  if (options.signal?.aborted === true) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  return new Response(body, {
    ...(init.status === undefined ? {} : { status: init.status }),
    ...(init.statusText === undefined ? {} : { statusText: init.statusText }),
    headers: sseHeaders(init.headers),
  });
}
