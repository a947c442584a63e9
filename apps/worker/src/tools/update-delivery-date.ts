import { ToolError, type ToolContext } from '@edgetool/core';
import * as v from 'valibot';
import { type DemoDeps, defineDemoTool, nowFrom, requireDeps } from './deps.ts';
import {
  argumentError,
  describeMove,
  isoDay,
  isoDaySchema,
  moveStatements,
  type Order,
  type OrderMove,
  type OrderStatus,
  orderIdSchema,
  planMove,
  requireOrder,
} from './orders.ts';

const input = v.object({
  order_id: orderIdSchema,
  new_date: v.pipe(isoDaySchema, v.description('The new delivery date, YYYY-MM-DD; today or later')),
  reason: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500), v.description('Why the date changes (kept in the audit trail)'))),
});

type UpdateInput = v.InferOutput<typeof input>;

/** What `update_delivery_date` returns. */
export interface UpdateDeliveryDateResult {
  readonly order_id: string;
  readonly previous_date: string;
  readonly delivery_date: string;
  readonly delay_days: number;
  /** After the move: `delayed` once late, the status the delay set aside once on time again. */
  readonly status: OrderStatus;
  readonly previous_status: OrderStatus;
  readonly event_id: number;
}

interface CheckedUpdate {
  readonly order: Order;
  readonly move: OrderMove;
  readonly now: Date;
}

/** The business rules, checked before the approval request and again right before the write. */
async function checkUpdate(deps: DemoDeps, args: UpdateInput, meta: { toolName: string; callId: string }): Promise<CheckedUpdate> {
  const order = await requireOrder(deps.db, args.order_id, meta);
  if (order.status === 'delivered') {
    throw argumentError('order_id', `Order ${order.id} was already delivered (${order.delivery_date}); its delivery date cannot change.`, meta);
  }
  const now = nowFrom(deps);
  const today = isoDay(now);
  if (args.new_date < today) {
    throw argumentError('new_date', `${args.new_date} is in the past (today is ${today} UTC). Choose today or a later day.`, meta);
  }
  if (args.new_date === order.delivery_date) {
    throw argumentError('new_date', `Order ${order.id} is already scheduled for ${args.new_date}; nothing to change.`, meta);
  }
  // The delay is measured against the date first promised, so moving the date moves the delay (and the status) with it.
  const move = await planMove(deps.db, order, args.new_date);
  return { order, move, now };
}

const meta = (ctx: ToolContext): { toolName: string; callId: string } => ({ toolName: ctx.tool.name, callId: ctx.call.id });

/** Moves an order's delivery date; writes the order and its audit event in one transaction. Needs approval. */
export const updateDeliveryDate = defineDemoTool({
  name: 'update_delivery_date',
  description:
    'Change the delivery date of an open order (format A-1001) to a new date (YYYY-MM-DD, today or later), ' +
    'optionally with a reason for the audit trail. Recomputes how many days the order is delayed: a late order becomes ' +
    'delayed, and one back on time gets the status it had before. ' +
    'Requires the user to approve before anything is written; delivered orders cannot be changed.',
  input,
  policy: {
    effects: 'write',
    // The user may pick another date (or give the reason) when approving; the order stays the model's.
    editable: ['new_date', 'reason'],
    // Before the approval, in the executor and in the chat loop alike: a call that would fail never asks the user.
    check: async (args, ctx) => {
      await checkUpdate(requireDeps(ctx.run.deps, ctx.tool.name), args, meta(ctx));
    },
    // What the move does (the delay, a change of status), worked out from the order, not taken from the model's words.
    approvalReason: async (args, ctx) => {
      const { order, move } = await checkUpdate(requireDeps(ctx.run.deps, ctx.tool.name), args, meta(ctx));
      return describeMove(order, move);
    },
  },
  async execute(args, ctx): Promise<UpdateDeliveryDateResult> {
    const deps = requireDeps(ctx.run.deps, ctx.tool.name);
    const { db } = deps;
    const { order, move, now } = await checkUpdate(deps, args, meta(ctx));
    // One batch = one transaction, guarded by the state read above: a concurrent change makes both statements no-ops
    // instead of a lost update.
    const [event, update] = await db.batch(moveStatements(db, { order, move, reason: args.reason, callId: ctx.call.id, updatedAt: now.toISOString() }));
    if (update?.meta.changes !== 1 || event?.meta.changes !== 1) {
      throw new ToolError('execution-failed', `Order ${order.id} changed while this call ran; nothing was written. Query it again.`, {
        ...meta(ctx),
        retryable: true,
      });
    }
    return {
      order_id: order.id,
      previous_date: order.delivery_date,
      delivery_date: args.new_date,
      delay_days: move.delayDays,
      status: move.status,
      previous_status: order.status,
      event_id: event.meta.last_row_id,
    };
  },
});
