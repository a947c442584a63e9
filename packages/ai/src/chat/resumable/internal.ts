import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import { ResumableStoreError } from './store.ts';

/** Longest turn id taken from a client. */
const MAX_TURN_ID_LENGTH = 100;

/** The turn id a client sent, if it is one (a short printable string); otherwise `undefined`. */
export function readTurnId(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TURN_ID_LENGTH && /^[\x21-\x7e]+$/.test(value) ? value : undefined;
}

/** One SSE event of the UI message stream, as `createUIMessageStreamResponse` writes it. */
export const sseEvent = (chunk: UIMessageChunk): string => `data: ${JSON.stringify(chunk)}\n\n`;
/** The SSE stream's last event. */
export const SSE_DONE = 'data: [DONE]\n\n';

/** The response headers of a UI message stream, over `init`'s. */
export function sseHeaders(headers?: HeadersInit): Headers {
  const merged = new Headers(headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) if (!merged.has(name)) merged.set(name, value);
  return merged;
}

/** Calls a store method; a throw or rejection becomes a {@link ResumableStoreError}. */
export async function storeCall<T>(operation: ResumableStoreError['operation'], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw ResumableStoreError.isInstance(error) ? error : new ResumableStoreError(operation, error);
  }
}

/** UTF-8 bytes of the code point that starts at `text[i]`, and how many code units it takes. */
function codePointAt(text: string, i: number): [bytes: number, units: number] {
  const unit = text.charCodeAt(i);
  if (unit < 0x80) return [1, 1];
  if (unit < 0x800) return [2, 1];
  // A surrogate pair is one 4-byte code point: it is never cut in two (a lone half would not survive UTF-8).
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return [4, 2];
  }
  return [3, 1];
}

/** Where a piece of `text` from `start` of at most `maxBytes` bytes of UTF-8 ends (at least one code point), and its size. */
function cut(text: string, start: number, maxBytes: number): [end: number, bytes: number] {
  let end = start;
  let bytes = 0;
  while (end < text.length) {
    const [size, units] = codePointAt(text, end);
    if (bytes + size > maxBytes && end > start) break;
    bytes += size;
    end += units;
  }
  return [end, bytes];
}

/**
 * `events` as appends of at most `maxBytes` bytes of UTF-8 each, in order: an event that fits the current append joins
 * it, one that does not starts the next, and one larger than `maxBytes` is cut into pieces (between code points) that
 * each fill an append. The appends' chunks, concatenated, are `events` concatenated, byte for byte.
 */
export function appendBatches(events: readonly string[], maxBytes: number): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let size = 0;
  const close = () => {
    if (batch.length > 0) batches.push(batch);
    batch = [];
    size = 0;
  };
  for (const event of events) {
    let [end, bytes] = cut(event, 0, maxBytes);
    if (end === event.length) {
      // Whole: in this append if it fits, else in the next.
      if (size + bytes > maxBytes) close();
      batch.push(event);
      size += bytes;
      continue;
    }
    // Larger than an append: its pieces go alone, each as large as an append may be; the last may share with what follows.
    close();
    for (let start = 0; ; ) {
      batch.push(event.slice(start, end));
      size = bytes;
      if (end === event.length) break;
      close();
      start = end;
      [end, bytes] = cut(event, start, maxBytes);
    }
  }
  close();
  return batches;
}
