import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, outputOf } from '../../test/support.ts';
import { CHART_BARS, CHART_HEIGHT, CHART_WIDTH, type OrdersChart } from './chart.ts';

/** A decoded PNG: its header, palette and pixel indices, after checking every chunk's CRC. */
async function decodePng(bytes: Uint8Array) {
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const chunks = new Map<string, Uint8Array>();
  for (let at = 8; at < bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = bytes.subarray(at + 4, at + 8 + length);
    expect(view.getUint32(at + 8 + length), `CRC of ${type}`).toBe(crc32(body));
    chunks.set(type, bytes.slice(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const header = new DataView((chunks.get('IHDR') as Uint8Array).buffer);
  const inflated = new Blob([chunks.get('IDAT') as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  const rows = new Uint8Array(await new Response(inflated).arrayBuffer());
  const width = header.getUint32(0);
  const pixel = (x: number, y: number) => rows[y * (width + 1) + 1 + x] as number;
  return { width, height: header.getUint32(4), depthAndType: [header.getUint8(8), header.getUint8(9)], palette: chunks.get('PLTE'), rows, pixel, ended: chunks.has('IEND') };
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe('orders_chart', () => {
  it('counts the orders by status in D1 and draws one bar per status, as tall as its share of the largest', async () => {
    const result = await call('orders_chart', {});
    const chart = outputOf<OrdersChart>(result);
    const { results } = await env.DB.prepare('SELECT status, COUNT(*) AS n FROM orders GROUP BY status').all<{ status: string; n: number }>();
    expect(chart.counts).toEqual({ pending: 0, shipped: 0, delayed: 0, delivered: 0, ...Object.fromEntries(results.map((r) => [r.status, r.n])) });
    expect(chart.total).toBe(results.reduce((sum, r) => sum + r.n, 0));

    const png = await decodePng(Uint8Array.from(atob(chart.image.data), (c) => c.charCodeAt(0)));
    expect([png.width, png.height, ...png.depthAndType, png.ended]).toEqual([CHART_WIDTH, CHART_HEIGHT, 8, 3, true]);
    expect(png.rows.length).toBe(CHART_HEIGHT * (CHART_WIDTH + 1));
    // Measure each bar in the middle of its slot: the number of pixels of its colour.
    const slot = (CHART_WIDTH - 40) / CHART_BARS.length;
    const heights = CHART_BARS.map((_, i) => {
      const x = Math.round(20 + i * slot + slot / 2);
      let height = 0;
      for (let y = 0; y < CHART_HEIGHT; y++) if (png.pixel(x, y) === 2 + i) height++;
      return height;
    });
    const max = Math.max(...CHART_BARS.map((bar) => chart.counts[bar.status]));
    const plot = CHART_HEIGHT - 16 - 24;
    CHART_BARS.forEach((bar, i) => {
      const count = chart.counts[bar.status];
      expect(heights[i], bar.status).toBe(count === 0 ? 0 : Math.max(2, Math.round((count / max) * plot)));
    });
    expect(heights.some((h) => h === plot)).toBe(true);
    // The palette holds the bar colours at their indices.
    expect([...(png.palette as Uint8Array).subarray(6, 9)]).toEqual([...(CHART_BARS[0]?.rgb ?? [])]);
  });

  it('the model reads the counts and sees the chart as an image', async () => {
    const result = await call('orders_chart', {});
    const chart = outputOf<OrdersChart>(result);
    expect(result.parts).toEqual([
      { type: 'text', text: expect.stringMatching(/^Bar chart of the \d+ orders by status, left to right: pending \d+ \(amber\), shipped \d+ \(blue\), delayed \d+ \(red\), delivered \d+ \(green\)\.$/) },
      { type: 'image', data: chart.image.data, mediaType: 'image/png' },
    ]);
    expect(result.content).toMatch(/\n\[image: image\/png, \d+(\.\d)? (B|KB)\]$/);
  });
});
