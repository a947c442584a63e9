import { ToolError } from '@edgetool/core';
import * as v from 'valibot';
import { findOrder, isCalendarDay, type Order } from './order-store.ts';

export * from './order-store.ts';

/** Order ids as the model may write them: trimmed and upper-cased before the format check. */
export const orderIdSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^A-\d{4}$/, 'Order ids look like A-1001'),
  v.description('The order id, e.g. A-1001'),
);

/** A real calendar day written as YYYY-MM-DD. */
export const isoDaySchema = v.pipe(
  v.string(),
  v.trim(),
  v.isoDate('Expected a date as YYYY-MM-DD'),
  // Only a YYYY-MM-DD text can name a day that does not exist: any other has the format's issue alone.
  v.check((day) => !/^\d{4}-\d{2}-\d{2}$/.test(day) || isCalendarDay(day), 'That day does not exist in the calendar'),
);

/** An `invalid-input` error pointing at one argument, so the model can correct it. */
export function argumentError(path: string, message: string, meta: { toolName: string; callId: string }): ToolError {
  return new ToolError('invalid-input', message, { ...meta, issues: [{ path, message }] });
}

/** Loads an order or fails with an `invalid-input` error on `order_id`. */
export async function requireOrder(db: D1Database, id: string, meta: { toolName: string; callId: string }): Promise<Order> {
  const order = await findOrder(db, id);
  if (order === undefined) throw argumentError('order_id', `No order "${id}" exists. Check the id (it looks like A-1001).`, meta);
  return order;
}
