import * as v from 'valibot';
import { defineTool } from '../tool/define-tool.ts';

/** The three tools of the JVM order examples, shared by the core's tests. */
export const queryOrder = defineTool({
  name: 'query_order',
  description: 'Look up an order by its id: status, items and delivery date.',
  input: v.object({ order_id: v.pipe(v.string(), v.minLength(1), v.description('The order id, e.g. A-1001')) }),
  execute: ({ order_id }) => ({ order_id, status: 'shipped', delivery_date: '2026-12-01' }),
});

export const updateDeliveryDate = defineTool({
  name: 'update_delivery_date',
  description: 'Change the delivery date of an order.',
  input: v.object({
    order_id: v.pipe(v.string(), v.description('The order id')),
    new_date: v.pipe(v.string(), v.isoDate('Expected a date as YYYY-MM-DD'), v.description('The new date, YYYY-MM-DD')),
    reason: v.optional(v.pipe(v.string(), v.description('Why the date changes'))),
  }),
  policy: { effects: 'write' },
  execute: ({ order_id, new_date }) => ({ order_id, delivery_date: new_date, updated: true }),
});

export const listDelayedOrders = defineTool({
  name: 'list_delayed_orders',
  description: 'List orders delayed by at least the given number of days.',
  input: v.object({
    days_threshold: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Minimum delay in days')), 1),
    status: v.optional(v.picklist(['pending', 'shipped', 'delayed'])),
  }),
  execute: ({ days_threshold, status }) => ({ days_threshold, status: status ?? 'any', orders: [] as string[] }),
});
