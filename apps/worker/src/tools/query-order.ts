import * as v from 'valibot';
import { defineDemoTool, requireDeps } from './deps.ts';
import { findOrder, type Order, orderIdSchema } from './orders.ts';

/** What `query_order` returns: the order, or `found: false` with a hint for the model. */
export type QueryOrderResult = { readonly found: true; readonly order: Order } | { readonly found: false; readonly order_id: string; readonly message: string };

/** Reads one order from D1. */
export const queryOrder = defineDemoTool({
  name: 'query_order',
  description:
    'Look up one customer order by its id (format A-1001). Returns the customer, e-mail, items, status ' +
    '(pending, shipped, delayed or delivered), the delivery date (YYYY-MM-DD) and how many days it is delayed. ' +
    'Use it before changing an order or writing to its customer.',
  input: v.object({ order_id: orderIdSchema }),
  policy: { effects: 'read', timeoutMs: 5_000, maxCallsPerRun: 10 }, // a model looping on lookups is stopped
  async execute({ order_id }, ctx): Promise<QueryOrderResult> {
    const { db } = requireDeps(ctx.run.deps, ctx.tool.name);
    const order = await findOrder(db, order_id);
    if (order === undefined) {
      return { found: false, order_id, message: `No order "${order_id}" exists. Ask the user to check the id.` };
    }
    return { found: true, order };
  },
});
