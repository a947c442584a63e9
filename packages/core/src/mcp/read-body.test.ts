// The SSE parser on a hostile stream: one long line in many small pieces (the random cuts of read-body.property.test.ts
// are too few to show what a long line costs).
import { describe, expect, it } from 'vitest';
import { sseParser } from './read-body.ts';

describe('sseParser', () => {
  it('reads a line that comes in many small pieces in one pass: 4 MiB in 64-character pieces', async () => {
    // Searching the whole line again for each piece took about five minutes on Node for this stream (quadratic), and
    // this test ran into vitest's time limit; in one pass it takes milliseconds. The pauses let that limit fire.
    const events: string[] = [];
    const parse = sseParser((data) => events.push(data));
    const piece = 'x'.repeat(64);
    const pieces = (4 * 1024 * 1024) / piece.length;
    parse('data: ');
    for (let i = 0; i < pieces; i++) {
      parse(piece);
      if (i % 4096 === 4095) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    parse('\r');
    parse('\n\r\n');
    expect(events.map((data) => data.length)).toEqual([4 * 1024 * 1024]);
    expect(events[0]?.startsWith('xxx')).toBe(true);
  });

  it('a CR at the end of one piece and an LF at the start of the next are one line end', () => {
    const events: [string, string][] = [];
    const parse = sseParser((data, type) => events.push([data, type]));
    for (const piece of ['event: a\r', '\ndata: 1\r', '\n', '\r', '\n', 'data: 2\r', '', '\r', 'data: 3\n\n']) parse(piece);
    expect(events).toEqual([
      ['1', 'a'],
      ['2', 'message'],
      ['3', 'message'],
    ]);
  });
});
