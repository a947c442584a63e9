import * as v from 'valibot';
import { defineDemoTool, requireDeps } from './deps.ts';
import { findDelayedOrders } from './orders.ts';

/** Lists open orders running late. */
export const listDelayedOrders = defineDemoTool({
  name: 'list_delayed_orders',
  description:
    'List the open (not yet delivered) orders that are running late by at least `days_threshold` days ' +
    '(default 1), most delayed first, with customer, status, delivery date and delay in days; `limit` keeps the first ' +
    'so many ("the three most delayed": 3).',
  input: v.object({
    days_threshold: v.optional(
      v.pipe(v.number(), v.integer('Use a whole number of days'), v.minValue(1), v.maxValue(365), v.description('Minimum delay in days (default 1)')),
      1,
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer('Use a whole number of orders'), v.minValue(1), v.maxValue(100), v.description('How many of the most delayed orders to list (default all)')),
    ),
  }),
  policy: { effects: 'read', timeoutMs: 5_000, coerce: true },
  async execute({ days_threshold, limit }, ctx) {
    const { db } = requireDeps(ctx.run.deps, ctx.tool.name);
    const found = await findDelayedOrders(db, days_threshold);
    const orders = limit === undefined ? found : found.slice(0, limit);
    return {
      days_threshold,
      count: orders.length,
      // How many are that late in all, when `limit` left some out.
      ...(orders.length < found.length ? { total: found.length } : {}),
      orders: orders.map(({ id, customer, status, delivery_date, delay_days }) => ({ id, customer, status, delivery_date, delay_days })),
    };
  },
});
