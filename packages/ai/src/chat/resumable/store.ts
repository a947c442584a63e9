/**
 * The most one {@link ResumableStore.append} holds: 256 KiB of UTF-8 in its chunks together. One row of D1 (or a value
 * of most key-value stores) may be at most 2,000,000 bytes, and even escaped as JSON (up to 6 bytes per byte) a batch
 * this size fits one; a few round trips per megabyte keep a large tool result (a PDF in base64) from costing many.
 */
export const MAX_RESUMABLE_APPEND_BYTES: number = 256 * 1024;

/**
 * Where a detached turn records its chunks, for a reload to read them back: the app's database (D1, Redis, a table), or
 * {@link createMemoryResumableStore} in one process. The chunks of a recording, concatenated, are the SSE text exactly
 * as the POST sent it: a chunk is one event, or a piece of an event larger than an append may hold.
 * `key` names one owner's chat (see `resumableKey`); a key has one recording at most, and a cancel mark.
 */
export interface ResumableStore {
  /**
   * Appends `chunks` at `position` of the turn's recording (position 0 starts it, replacing the key's older one) and
   * renews its expiry; resolves `true`, and writes nothing, when the key has a cancel mark made at or after `startedAt`.
   * An empty `chunks` adds nothing but still renews the expiry: the detached turn is alive (see `expiresAt`). The chunks
   * of one append hold at most {@link MAX_RESUMABLE_APPEND_BYTES} bytes of UTF-8 together (the writer splits a larger
   * flush into several appends, in order), so a store may keep each append as one row.
   */
  append(batch: ResumableBatch): Promise<boolean>;
  /**
   * The turn ended (`'done'`) or was cancelled (`'cancelled'`, also a recording given up after a store failure): a
   * reader stops once it has read every chunk, and a cancelled recording is not replayed.
   */
  finish(key: string, turnId: string, end: ResumableEnd): Promise<void>;
  /** The key's recording from chunk `from` on, or `undefined` when there is none (or it expired). */
  read(key: string, from: number): Promise<ResumableRecording | undefined>;
  /** Marks the key cancelled at `at` (ms): a turn started before then stops at its next write, and is not replayed. */
  cancel(key: string, at: number, expiresAt: number): Promise<void>;
}

/** How a recorded turn ended. */
export type ResumableEnd = 'done' | 'cancelled';

/** One write of a detached turn (see {@link ResumableStore.append}). */
export interface ResumableBatch {
  readonly key: string;
  /** The turn's own id: a read tells one recording from the next. */
  readonly turnId: string;
  /** The index of the first chunk of `chunks` in the recording. */
  readonly position: number;
  /** SSE text in order: whole events, or pieces of one; at most {@link MAX_RESUMABLE_APPEND_BYTES} bytes together. */
  readonly chunks: readonly string[];
  /** When the turn started (ms): a cancel mark older than this is an earlier turn's. */
  readonly startedAt: number;
  /** When the recording may be dropped (ms). */
  readonly expiresAt: number;
}

/** A recording as {@link ResumableStore.read} returns it. */
export interface ResumableRecording {
  readonly turnId: string;
  /** The chunks from the position asked for. */
  readonly chunks: readonly string[];
  /** How the turn ended; `undefined` while it still runs. */
  readonly end: ResumableEnd | undefined;
  readonly startedAt: number;
  /** The newest cancel mark of the key (ms), if any: one at or after `startedAt` cancelled this turn. */
  readonly cancelledAt: number | undefined;
  /**
   * When the recording expires (ms). Every write of the detached turn renews it, so an expiry that stops moving tells a
   * resume that the turn's writer is gone (a Worker's `waitUntil` ran out): it stops waiting. Optional for older stores.
   */
  readonly expiresAt?: number | undefined;
}

const MARKER = Symbol.for('edgetool.ResumableStoreError');

/** A {@link ResumableStore} call failed (or the store returned what it should not): the turn goes on, unrecorded. */
export class ResumableStoreError extends Error {
  readonly code = 'resumable-store-failed';
  /** The store method that failed. */
  readonly operation: 'append' | 'finish' | 'read' | 'cancel';

  constructor(operation: ResumableStoreError['operation'], cause: unknown) {
    super(`The resumable store's ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ResumableStoreError';
    this.operation = operation;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for a `ResumableStoreError`, even one from another copy of the package. */
  static isInstance(value: unknown): value is ResumableStoreError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** The store key of one owner's chat: both parts, unambiguously (an owner cannot name another's chat). */
export function resumableKey(owner: string, chatId: string): string {
  return JSON.stringify([owner, chatId]);
}
