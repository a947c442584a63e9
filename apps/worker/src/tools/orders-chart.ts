import { imagePart } from '@edgetool/core';
import * as v from 'valibot';
import { CHART_BARS, chartCaption, countOrdersByStatus, type OrdersChart, renderOrdersChart } from './chart.ts';
import { defineDemoTool, requireDeps } from './deps.ts';

/** Draws the orders by status as a bar chart: the model sees the image, the UI shows it. */
export const ordersChart = defineDemoTool({
  name: 'orders_chart',
  description:
    'Draw a bar chart (PNG image) of all orders by status: pending, shipped, delayed, delivered. ' +
    'Use it when the user wants a chart, graph or picture of the orders; it also returns the counts.',
  input: v.object({}),
  policy: { effects: 'read', timeoutMs: 5_000 },
  async execute(_input, ctx): Promise<OrdersChart> {
    const { db } = requireDeps(ctx.run.deps, ctx.tool.name);
    const counts = await countOrdersByStatus(db);
    const png = await renderOrdersChart(counts);
    return { counts, total: CHART_BARS.reduce((sum, bar) => sum + counts[bar.status], 0), image: { ...imagePart(png, 'image/png'), mediaType: 'image/png' } };
  },
  // The model reads the counts and sees the chart itself.
  toModelOutput: ({ counts, image }) => [{ type: 'text', text: chartCaption(counts) }, image],
});
