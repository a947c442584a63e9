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

  it('tells the last event id as each event ends (with data or not), never a cut-off event’s, and each retry made of digits', () => {
    const seen: string[] = [];
    const parse = sseParser((data) => seen.push(`data ${data}`), { id: (id) => seen.push(`id ${id}`), retry: (ms) => seen.push(`retry ${ms}`) });
    const stream = [
      'id: 1\nretry: 3000\ndata: \n\n', // a priming event: its id, its delay, empty data
      'id: 2\n\n', // an id without data still counts
      'data: a\n\n', // the id stays: not told again
      'id: 3\u0000\nretry: 2s\nretry: -1\nretry: 10\ndata: b\n\n', // an id with NUL and a retry that is not digits are ignored
      'id\ndata: c\n\n', // an empty id clears it
      'id: 9\ndata: cut off',
    ];
    for (const piece of stream) parse(piece);
    expect(seen).toEqual(['retry 3000', 'id 1', 'data ', 'id 2', 'data a', 'retry 10', 'data b', 'id ', 'data c']);
  });
});
