import { readTurnId, SSE_DONE, sseHeaders, storeCall } from './internal.ts';
import { DEFAULT_RESUMABLE_INTERVAL_MS, DEFAULT_RESUMABLE_TTL_MS } from './record.ts';
import { type ResumableRecording, type ResumableStore, ResumableStoreError, resumableKey } from './store.ts';

/**
 * Default time a resume waits on a running recording whose expiry no write renews (its detached turn was cut off, as
 * a Worker's `waitUntil` does after 30 seconds): 10 seconds, twenty default write intervals.
 */
export const DEFAULT_RESUMABLE_STALE_MS: number = 10_000;

/**
 * Default time a resume that names its turn waits for that turn's recording to start: 1 second. A reload's GET can
 * reach the server before it noticed the old connection go (the detached turn's first write).
 */
export const DEFAULT_RESUMABLE_GRACE_MS: number = 1_000;

/** Options for {@link resumeResponse}: the chat to resume, as the GET names it, and who asks. */
export interface ResumeOptions {
  readonly store: ResumableStore;
  readonly chatId: string;
  /** Who asks: the recording's owner, or nothing is found (204). */
  readonly owner: string;
  /** The turn the client asks for (its {@link RESUMABLE_TURN_HEADER}): another turn's recording is not sent. */
  readonly turnId?: string | null | undefined;
  /**
   * How often the store is read for the rest of a turn still running (default {@link DEFAULT_RESUMABLE_INTERVAL_MS}):
   * the interval after new chunks came, doubled after each read that found none, up to `maxPollMs`.
   */
  readonly pollMs?: number;
  /**
   * The longest interval between two reads of the tail while nothing new comes (default four times `pollMs`: 2 s). A
   * turn that waits on a slow tool or model costs a read every 2 s, not every 500 ms; its next chunks come late by at
   * most this much, once.
   */
  readonly maxPollMs?: number;
  /**
   * How long a resume that names its turn (`turnId`) waits for a recording of that turn to appear, read every `pollMs`
   * (default {@link DEFAULT_RESUMABLE_GRACE_MS}); then 204. `0`: answer at once.
   */
  readonly graceMs?: number;
  /**
   * How long a running recording's expiry may stay the same before the resume ends (default
   * {@link DEFAULT_RESUMABLE_STALE_MS}): its writer is gone. Keep it well above the writer's `intervalMs`.
   */
  readonly staleMs?: number;
  /** Clock in epoch ms (default `Date.now`). */
  readonly now?: () => number;
  /** Stops the polling (the GET's `request.signal`); the response body's own cancel stops it too. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Hears of a store failure while the tail is polled (the response ends there), and of a recording that is not well
   * formed (a 204, or the end of the tail); default `console.error`.
   */
  readonly onError?: (error: ResumableStoreError) => void;
}

/** The store's answer, if it has the shape of a recording (another version's row, or a tampered one, may not). */
function wellFormed(value: unknown): value is ResumableRecording | undefined {
  if (value === undefined) return true;
  if (typeof value !== 'object' || value === null) return false;
  const { chunks, end, startedAt, cancelledAt, expiresAt } = value as Record<keyof ResumableRecording, unknown>;
  const time = (at: unknown) => typeof at === 'number' && Number.isFinite(at);
  return (
    Array.isArray(chunks) &&
    chunks.every((chunk) => typeof chunk === 'string') &&
    (end === undefined || end === 'done' || end === 'cancelled') &&
    time(startedAt) &&
    (cancelledAt === undefined || time(cancelledAt)) &&
    (expiresAt === undefined || time(expiresAt))
  );
}

/**
 * Reads the recording from `from`. A store that fails rejects (a {@link ResumableStoreError}); a recording that is not
 * well formed is returned as one, for `onError`: the store answered, there is just nothing it is safe to replay.
 */
async function readRecording(store: ResumableStore, key: string, from: number): Promise<ResumableRecording | undefined | ResumableStoreError> {
  const recording: unknown = await storeCall('read', () => store.read(key, from));
  return wellFormed(recording) ? recording : new ResumableStoreError('read', new TypeError('The store returned a recording that is not well formed.'));
}

/**
 * A recording that may be sent: not cancelled (a stop made after it started), and of the turn asked for. Its turn id
 * must be one a client could send: a row another version wrote, or one tampered with, is not replayed as any turn.
 */
function replayable(recording: ResumableRecording | undefined, turnId: string | undefined): recording is ResumableRecording {
  if (recording === undefined || recording.end === 'cancelled') return false;
  if (recording.cancelledAt !== undefined && recording.cancelledAt >= recording.startedAt) return false;
  if (readTurnId(recording.turnId) === undefined) return false;
  return turnId === undefined || recording.turnId === turnId;
}

/**
 * `GET {api}/{chatId}/stream`, as `useChat({ resume: true })` asks on mount: 204 when the owner's chat has no recording
 * to resume (none, expired, cancelled, another turn's); otherwise the recording from the turn's start, byte for byte
 * what the POST sent (so `useChat` replaces the message with it), then the rest as it is written, until the turn ends
 * (or its writer is gone: no write for `staleMs`).
 * A store that fails on the first read rejects with a {@link ResumableStoreError}; a recording that is not well formed
 * (another version's, tampered with) is a 204, and the error goes to `onError`.
 */
export async function resumeResponse(options: ResumeOptions): Promise<Response> {
  const { store } = options;
  const key = resumableKey(options.owner, options.chatId);
  const turnId = readTurnId(options.turnId);
  if (options.turnId != null && turnId === undefined) return new Response(null, { status: 204 });
  const pollMs = options.pollMs ?? DEFAULT_RESUMABLE_INTERVAL_MS;
  const onError = options.onError ?? ((error: ResumableStoreError) => console.error('edgetool: a resumed turn could not be read:', error));
  let first = await readRecording(store, key, 0);
  // The reload may have come before the server saw its connection go: the turn asked for is waited for a moment.
  for (let polls = Math.ceil((options.graceMs ?? DEFAULT_RESUMABLE_GRACE_MS) / pollMs); polls > 0 && turnId !== undefined && (ResumableStoreError.isInstance(first) || first?.turnId !== turnId); polls--) {
    if (options.signal?.aborted === true) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    first = await readRecording(store, key, 0);
  }
  if (ResumableStoreError.isInstance(first)) {
    onError(first);
    return new Response(null, { status: 204 });
  }
  if (!replayable(first, turnId)) return new Response(null, { status: 204 });
  const staleMs = options.staleMs ?? DEFAULT_RESUMABLE_STALE_MS;
  const now = options.now ?? Date.now;
  const encoder = new TextEncoder();
  let position = first.chunks.length;
  // The recording's expiry as last seen, and when it last moved: one that stops moving has lost its writer.
  let expiresAt = first.expiresAt;
  let movedAt = now();
  let sentFirst = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  const stopped = new AbortController();
  const stop = () => {
    stopped.abort();
    if (timer !== undefined) clearTimeout(timer);
    wake?.();
  };
  // The GET's client may have gone while the first read (or the grace) was awaited: its abort event has fired then.
  if (options.signal?.aborted === true) stop();
  else options.signal?.addEventListener('abort', stop, { once: true });
  // The interval of the tail's reads: pollMs after new chunks, doubled while none come, up to maxPollMs.
  const maxPollMs = Math.max(pollMs, options.maxPollMs ?? 4 * pollMs);
  let interval = pollMs;
  const sleep = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, interval);
    });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentFirst) {
        sentFirst = true;
        if (first.chunks.length > 0) controller.enqueue(encoder.encode(first.chunks.join('')));
        if (first.end === 'done') {
          controller.enqueue(encoder.encode(SSE_DONE));
          controller.close();
        }
        return;
      }
      for (;;) {
        if (stopped.signal.aborted) return controller.close();
        await sleep();
        if (stopped.signal.aborted) return controller.close();
        let next: ResumableRecording | undefined | ResumableStoreError;
        try {
          next = await readRecording(store, key, position);
        } catch (error) {
          next = ResumableStoreError.isInstance(error) ? error : new ResumableStoreError('read', error);
        }
        if (ResumableStoreError.isInstance(next)) {
          onError(next);
          return controller.close();
        }
        if (stopped.signal.aborted) return controller.close();
        // Gone (expired), cancelled, or replaced by a newer turn's: what came is all there is.
        if (!replayable(next, first.turnId) || next.turnId !== first.turnId) return controller.close();
        position += next.chunks.length;
        if (next.chunks.length > 0) controller.enqueue(encoder.encode(next.chunks.join('')));
        if (next.end === 'done') {
          controller.enqueue(encoder.encode(SSE_DONE));
          return controller.close();
        }
        if (next.expiresAt !== expiresAt) {
          expiresAt = next.expiresAt;
          movedAt = now();
        } else if (expiresAt !== undefined && now() - movedAt > staleMs) return controller.close();
        if (next.chunks.length > 0) {
          interval = pollMs;
          return;
        }
        interval = Math.min(interval * 2, maxPollMs);
      }
    },
    cancel: stop,
  });
  return new Response(body, { status: 200, headers: sseHeaders() });
}

/** Options for {@link cancelResumable}. */
export interface CancelResumableOptions {
  readonly store: ResumableStore;
  readonly chatId: string;
  readonly owner: string;
  /** How long the mark is kept (default {@link DEFAULT_RESUMABLE_TTL_MS}): as long as a turn may run detached. */
  readonly ttlMs?: number;
  /** Clock in epoch ms (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * `DELETE {api}/{chatId}/stream`, what `useEdgeChat`'s `stop()` sends: marks the owner's chat cancelled, so a turn that
 * goes on detached stops at its next write (or before its first, when the stop came first), and a reload resumes
 * nothing. Rejects with a {@link ResumableStoreError} when the store fails.
 */
export async function cancelResumable(options: CancelResumableOptions): Promise<void> {
  const now = options.now ?? Date.now;
  const at = now();
  await storeCall('cancel', () => options.store.cancel(resumableKey(options.owner, options.chatId), at, at + (options.ttlMs ?? DEFAULT_RESUMABLE_TTL_MS)));
}
