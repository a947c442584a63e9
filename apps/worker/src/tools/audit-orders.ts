import * as v from 'valibot';
import { defineDemoTool, nowFrom, requireDeps } from './deps.ts';
import { auditOpenOrders, type FlaggedOrder, isoDay } from './orders.ts';

/** What `audit_orders` returns: how many open orders it checked, and those that need attention. */
export interface AuditOrdersResult {
  readonly checked: number;
  readonly flagged: readonly FlaggedOrder[];
}

/** Walks every open order page by page and flags the late ones, reporting its progress after each page. */
export const auditOrders = defineDemoTool({
  name: 'audit_orders',
  description:
    'Audit every open (not yet delivered) order, a few at a time, and flag those that need attention: running late, ' +
    'marked as delayed, or past their delivery date. Returns how many orders were checked and the flagged ones ' +
    'with customer and reasons. Takes no arguments; reports its progress while it runs.',
  input: v.object({}),
  policy: { effects: 'read', timeoutMs: 10_000 },
  async execute(_input, ctx): Promise<AuditOrdersResult> {
    const { db } = requireDeps(ctx.run.deps, ctx.tool.name);
    let result: AuditOrdersResult = { checked: 0, flagged: [] };
    for await (const { checked, total, flagged } of auditOpenOrders(db, { today: isoDay(nowFrom(ctx.run.deps)), signal: ctx.signal })) {
      ctx.progress({ message: `Checked ${checked} of ${total} open orders`, completed: checked, total });
      result = { checked, flagged };
    }
    return result;
  },
});
