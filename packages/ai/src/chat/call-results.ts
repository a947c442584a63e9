import { idempotencyKeyOf, type TicketSigner } from '@edgetool/core';

/**
 * What an approved call produced, as the model reads it: its output, or its error text. `input`: the arguments it ran
 * with, when a human edited them before approving (the same continuation sent again is sealed with those, whatever
 * edit it carries this time).
 */
export type RecordedCallResult = ({ readonly output: unknown } | { readonly errorText: string }) & { readonly input?: unknown };

/**
 * The recorded text of an approved call whose request gave up on it before it started (see {@link NOT_STARTED_RECORD}).
 * No call's own failure reads so: theirs start with `Error (` or with the note of a human's edit.
 */
export const NOT_STARTED_RECORD_TEXT =
  'Not started: this approved call was not run, since the request that approved it ended before the call started. Nothing was changed by it; check the current state before calling it again.';

/**
 * What the chat loop records for an approved call it marked started and then gave up on before its chain started (the
 * turn was aborted during the mark's round trip or the executor's checks): the same continuation sent again runs it,
 * once, on a second mark (`rerun`), and records its result over this one. A failure's text, so every store that keeps
 * results keeps it as it is (the demo's D1 table needs no new column), and a version from before reads the failure it
 * says and runs nothing.
 */
export const NOT_STARTED_RECORD: RecordedCallResult = Object.freeze({ errorText: NOT_STARTED_RECORD_TEXT });

/** Whether a record is {@link NOT_STARTED_RECORD}: a call given up on before it started, which a retry may run once. */
export function isNotStartedRecord(record: RecordedCallResult | undefined): boolean {
  return record !== undefined && 'errorText' in record && record.errorText === NOT_STARTED_RECORD_TEXT && !('output' in record);
}

/**
 * Where the chat loop keeps the results of approved calls, so that a client that lost the answer and sends the same
 * continuation again gets the same result instead of a refused ticket, and the call does not run twice.
 * Keys name one call of one conversation. Values are JSON data.
 */
export interface CallResultStore {
  get(key: string): Promise<RecordedCallResult | undefined> | RecordedCallResult | undefined;
  /**
   * Keeps `result` until `expiresAt` (epoch ms) at least, in place of what the key held (a call recorded as not started,
   * then run by a retry: its result replaces that record).
   */
  put(key: string, result: RecordedCallResult, expiresAt: number): Promise<void> | void;
}

/** Options for {@link createMemoryCallResultStore}. */
export interface MemoryCallResultStoreOptions {
  /** The most results kept (default 1,000): the oldest go first. */
  readonly maxEntries?: number | undefined;
  /** Milliseconds now (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

/**
 * A {@link CallResultStore} in memory: one process or one Worker isolate. Across isolates, keep results where your
 * nonces are (the demo Worker uses D1).
 */
export function createMemoryCallResultStore(options: MemoryCallResultStoreOptions = {}): CallResultStore {
  const { maxEntries = 1_000, now = Date.now } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError('createMemoryCallResultStore: maxEntries must be a positive integer.');
  const entries = new Map<string, { result: RecordedCallResult; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (now() < entry.expiresAt) return entry.result;
      entries.delete(key);
      return undefined;
    },
    put(key, result, expiresAt) {
      entries.delete(key);
      entries.set(key, { result, expiresAt });
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
    },
  };
}

/** Options for {@link callResultKey}: one approved call of one conversation, and the ticket its approval came with. */
export interface CallResultKeyOptions {
  /** The signer that issued the ticket (its `peek` reads the nonce). */
  readonly tickets: Pick<TicketSigner, 'peek'>;
  readonly conversationId: string;
  readonly toolCallId: string;
  /** The call's approval ticket. */
  readonly ticket: string;
}

/**
 * The store key of one approved call: its conversation, its id and its approval ticket's nonce (the ticket itself when
 * `peek` reads none). The ticket keeps a regenerated answer's call that got the id of the call it replaced (a model
 * that sends `call_0` every time) from reading that call's result: only a request with the very same ticket does.
 * It is the call's `ctx.idempotencyKey` too (`idempotencyKeyOf`).
 */
export function callResultKey(options: CallResultKeyOptions): string {
  const { tickets, conversationId, toolCallId, ticket } = options;
  return idempotencyKeyOf({ conversationId, callId: toolCallId, nonce: tickets.peek(ticket)?.nonce ?? ticket });
}
