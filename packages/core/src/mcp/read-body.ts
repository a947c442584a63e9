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
 * Reads a body to its end as UTF-8 text, handing each decoded piece to `onText`, and cancels it once more than
 * `maxBytes` arrived (so a server cannot fill the isolate's memory). Resolves when the body ends; rejects when it
 * fails, grows too large or `signal` aborts (with the signal's reason).
 */
export async function readBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  onText: (text: string) => void,
  signal?: AbortSignal | undefined,
): Promise<void> {
  if (body === null) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
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
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new BodyTooLargeError(maxBytes);
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

/**
 * A server-sent events parser (the WHATWG rules): lines end in LF, CR or CRLF, `data:` lines join with LF, a blank
 * line dispatches, `:` starts a comment. Calls `onEvent(data, type)` per event with data; an event cut off by the end
 * of the stream is dropped, as browsers drop it.
 */
export function sseParser(onEvent: (data: string, type: string) => void): (text: string) => void {
  let buffer = '';
  let data: string | undefined;
  let type = '';
  const line = (text: string) => {
    if (text === '') {
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
  };
  return (text) => {
    buffer += text;
    let start = 0;
    // Each search runs again only once the line it found is consumed, so a piece of many lines stays linear.
    let lf = buffer.indexOf('\n');
    let cr = buffer.indexOf('\r');
    for (;;) {
      if (lf >= 0 && lf < start) lf = buffer.indexOf('\n', start);
      if (cr >= 0 && cr < start) cr = buffer.indexOf('\r', start);
      const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
      // A CR last in the buffer may be the first half of a CRLF: wait for the next piece.
      if (end < 0 || (end === cr && end === buffer.length - 1)) break;
      line(buffer.slice(start, end));
      start = end + (end === cr && buffer[end + 1] === '\n' ? 2 : 1);
    }
    buffer = buffer.slice(start);
  };
}
