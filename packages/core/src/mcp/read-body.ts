/** A body that grew past the client's `maxResponseBytes`. */
export class BodyTooLargeError extends Error {
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super(`The response is larger than ${maxBytes} bytes.`);
    this.name = 'BodyTooLargeError';
    this.maxBytes = maxBytes;
  }
}

/**
 * A byte limit option: `fallback` when not given; a whole number from 1 or `Infinity`, anything else refused (a NaN
 * compares false with every count, so it would be no limit at all).
 */
export function byteLimit(bytes: number | undefined, fallback: number, option: string): number {
  if (bytes === undefined) return fallback;
  if (!(bytes >= 1) || (bytes !== Infinity && !Number.isInteger(bytes))) {
    throw new TypeError(`${option} must be a whole number from 1 (or Infinity); got ${String(bytes)}.`);
  }
  return bytes;
}

/** Bytes that several bodies share (the pages of one listing): each body read takes what it reads from `left`. */
export interface ByteBudget {
  left: number;
}

/**
 * Reads a body to its end as UTF-8 text, handing each decoded piece to `onText`, and cancels it once more than
 * `maxBytes` arrived (so a server cannot fill the isolate's memory), or more than a shared budget has left. Resolves
 * when the body ends; rejects when it fails, grows too large or `signal` aborts (with the signal's reason).
 */
export async function readBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number | ByteBudget,
  onText: (text: string) => void,
  signal?: AbortSignal | undefined,
): Promise<void> {
  if (body === null) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const budget = typeof maxBytes === 'number' ? { left: maxBytes } : maxBytes;
  const limit = budget.left;
  // A body that does not end when its request is aborted (a `fetch` of your own) is cancelled here, so no read waits forever.
  const stop = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      budget.left -= value.byteLength;
      if (budget.left < 0) throw new BodyTooLargeError(limit);
      onText(decoder.decode(value, { stream: true }));
    }
    onText(decoder.decode());
  } catch (error) {
    reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
    reader.releaseLock();
  }
}

/** What a stream says about resuming it: its last event id as each event ends, and its `retry` delays. */
export interface SseFields {
  /** The last event id (WHATWG's "last event ID string") when an event ends with a new one. */
  readonly id?: ((id: string) => void) | undefined;
  /** A `retry` field's reconnection delay in ms (digits only, as browsers take it). */
  readonly retry?: ((ms: number) => void) | undefined;
}

/**
 * A server-sent events parser (the WHATWG rules): lines end in LF, CR or CRLF, `data:` lines join with LF, a blank
 * line dispatches, `:` starts a comment. Calls `onEvent(data, type)` per event with data; an event cut off by the end
 * of the stream is dropped, as browsers drop it (its `id` too). `fields` hears the `id` and `retry` fields.
 */
export function sseParser(onEvent: (data: string, type: string) => void, fields: SseFields = {}): (text: string) => void {
  let data: string | undefined;
  let type = '';
  // The last event ID buffer, and what `fields.id` was last told: an id counts once its event ends, with or without data.
  let id: string | undefined;
  let told: string | undefined;
  const line = (text: string) => {
    if (text === '') {
      if (id !== undefined && id !== told) {
        told = id;
        fields.id?.(id);
      }
      if (data !== undefined) onEvent(data, type || 'message');
      data = undefined;
      type = '';
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    else if (field === 'event') type = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) fields.retry?.(Number(value));
  };
  // The start of a line whose end has not come yet: each piece is searched for line ends once, so a line that comes
  // in many pieces costs no more than one that comes whole (searching the whole line again for each piece made a long
  // line quadratic: a server could keep the isolate's CPU busy for minutes with one line under the byte limit).
  let partial = '';
  // The last piece ended in a CR: an LF first in the next one is the rest of a CRLF, not another line end.
  let afterCr = false;
  return (text) => {
    if (text === '') return;
    let start = afterCr && text[0] === '\n' ? 1 : 0;
    afterCr = false;
    // Each search runs again only once the line it found is consumed, so a piece of many lines stays linear.
    let lf = text.indexOf('\n', start);
    let cr = text.indexOf('\r', start);
    for (;;) {
      if (lf >= 0 && lf < start) lf = text.indexOf('\n', start);
      if (cr >= 0 && cr < start) cr = text.indexOf('\r', start);
      const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
      if (end < 0) break;
      line(partial + text.slice(start, end));
      partial = '';
      if (end === cr && end === text.length - 1) afterCr = true;
      start = end + (end === cr && text[end + 1] === '\n' ? 2 : 1);
    }
    if (start < text.length) partial += text.slice(start);
  };
}
