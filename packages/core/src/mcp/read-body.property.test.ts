// The SSE parser and the bounded body reader under random input: 500 streams of random events, each written with
// random line ends and comments, then cut into random pieces (a multi-byte character may be cut in half).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBody, sseParser } from './read-body.ts';

/** Data without CR or LF in a line (those end lines); may hold `:`, spaces and any other character. */
const line = fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => text.replace(/[\r\n]/g, ''));
const event = fc.record({ type: fc.constantFrom('', 'message', 'other'), lines: fc.array(line, { minLength: 1, maxLength: 3 }) });
const eol = fc.constantFrom('\n', '\r', '\r\n');

function bodyOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** Cuts `bytes` at the given positions. */
function cut(bytes: Uint8Array, at: readonly number[]): Uint8Array[] {
  const points = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.slice(from, point));
    from = point;
  }
  return pieces;
}

describe('sseParser and readBody', () => {
  it('give back every event, whatever the line ends, comments and cuts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(event, eol, fc.boolean()), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 12 }), async (events, at) => {
        let text = '';
        for (const [{ type, lines }, end, comment] of events) {
          if (comment) text += `: keep-alive${end}`;
          if (type !== '') text += `event: ${type}${end}`;
          for (const data of lines) text += `data: ${data}${end}`;
          text += end;
        }
        const seen: [string, string][] = [];
        const parse = sseParser((data, type) => seen.push([data, type]));
        await readBody(bodyOf(cut(new TextEncoder().encode(text), at)), Number.POSITIVE_INFINITY, parse);
        // A CR ends its line at once (an LF right after it, in this piece or the next, is the rest of a CRLF): an event
        // whose blank line is a CR last in the stream is there too.
        expect(seen).toEqual(events.map(([{ type, lines }]): [string, string] => [lines.join('\n'), type || 'message']));
      }),
      { numRuns: 500 },
    );
  });

  it('readBody stops past its limit, however the body is cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }), fc.array(fc.nat(), { maxLength: 6 }), async (size, limit, at) => {
        let text = '';
        const reading = readBody(bodyOf(cut(new Uint8Array(size).fill(97), at)), limit, (piece) => {
          text += piece;
        });
        if (size > limit) {
          await expect(reading).rejects.toBeInstanceOf(BodyTooLargeError);
          expect(text.length).toBeLessThanOrEqual(limit);
        } else {
          await reading;
          expect(text).toBe('a'.repeat(size));
        }
      }),
      { numRuns: 300 },
    );
  });
});
