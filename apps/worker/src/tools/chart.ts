// The orders-by-status bar chart, with no edgetool import: the demo's orders_chart tool and the bench's plain AI SDK
// Worker (bench/plain-worker) both use it.
import type { OrderStatus } from './order-store.ts';
import { encodePng } from './png.ts';

/** The bars, left to right, with their colours. */
export const CHART_BARS: readonly { readonly status: OrderStatus; readonly colour: string; readonly rgb: readonly [number, number, number] }[] = [
  { status: 'pending', colour: 'amber', rgb: [245, 158, 11] },
  { status: 'shipped', colour: 'blue', rgb: [59, 130, 246] },
  { status: 'delayed', colour: 'red', rgb: [239, 68, 68] },
  { status: 'delivered', colour: 'green', rgb: [34, 197, 94] },
];

export const CHART_WIDTH = 320;
export const CHART_HEIGHT = 180;
const MARGIN = { top: 16, right: 20, bottom: 24, left: 20 };
const BAR_WIDTH = 46;
const WHITE = 0;
const AXIS = 1;

/** What `orders_chart` returns: the counts, and the chart as base64 PNG. */
export interface OrdersChart {
  readonly counts: Readonly<Record<OrderStatus, number>>;
  readonly total: number;
  /** The chart as an image part: `{ type: 'image', data: <base64 PNG>, mediaType: 'image/png' }`. */
  readonly image: { readonly type: 'image'; readonly data: string; readonly mediaType: 'image/png' };
}

/** Counts the orders by status. */
export async function countOrdersByStatus(db: D1Database): Promise<Record<OrderStatus, number>> {
  const { results } = await db.prepare('SELECT status, COUNT(*) AS n FROM orders GROUP BY status').all<{ status: OrderStatus; n: number }>();
  const counts: Record<OrderStatus, number> = { pending: 0, shipped: 0, delayed: 0, delivered: 0 };
  for (const row of results) counts[row.status] = row.n;
  return counts;
}

/** The height in pixels of each bar: proportional to its count, the largest filling the plot, any order at least 2 px. */
export function barHeights(counts: Readonly<Record<OrderStatus, number>>): number[] {
  const plot = CHART_HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = Math.max(1, ...CHART_BARS.map((bar) => counts[bar.status]));
  return CHART_BARS.map((bar) => (counts[bar.status] === 0 ? 0 : Math.max(2, Math.round((counts[bar.status] / max) * plot))));
}

/** Draws the chart: a bar per status on a baseline, as PNG bytes. */
export async function renderOrdersChart(counts: Readonly<Record<OrderStatus, number>>): Promise<Uint8Array> {
  const pixels = new Uint8Array(CHART_WIDTH * CHART_HEIGHT).fill(WHITE);
  const baseline = CHART_HEIGHT - MARGIN.bottom;
  const slot = (CHART_WIDTH - MARGIN.left - MARGIN.right) / CHART_BARS.length;
  const fill = (x0: number, y0: number, x1: number, y1: number, colour: number) => {
    for (let y = y0; y < y1; y++) pixels.fill(colour, y * CHART_WIDTH + x0, y * CHART_WIDTH + x1);
  };
  barHeights(counts).forEach((height, i) => {
    const x = Math.round(MARGIN.left + i * slot + (slot - BAR_WIDTH) / 2);
    fill(x, baseline - height, x + BAR_WIDTH, baseline, 2 + i);
  });
  fill(MARGIN.left - 4, baseline, CHART_WIDTH - MARGIN.right + 4, baseline + 2, AXIS);
  return encodePng({ width: CHART_WIDTH, height: CHART_HEIGHT, palette: [[255, 255, 255], [148, 163, 184], ...CHART_BARS.map((bar) => bar.rgb)], pixels });
}

/** The chart's text for the model: the counts, with the colour of each bar. */
export function chartCaption(counts: Readonly<Record<OrderStatus, number>>): string {
  const total = CHART_BARS.reduce((sum, bar) => sum + counts[bar.status], 0);
  const bars = CHART_BARS.map((bar) => `${bar.status} ${counts[bar.status]} (${bar.colour})`).join(', ');
  return `Bar chart of the ${total} orders by status, left to right: ${bars}.`;
}

/** Base64 of bytes (`btoa` exists in Workers, browsers and Node). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
