// Orders in D1, with no schema library and no edgetool import: the demo's tools (orders.ts) and the bench's
// plain AI SDK Worker (bench/plain-worker) both use it, so their SQL and date rules are the same code.

/** Where an order is in its life. */
export type OrderStatus = 'pending' | 'shipped' | 'delayed' | 'delivered';

/** One line of an order. */
export interface OrderItem {
  readonly sku: string;
  readonly name: string;
  readonly qty: number;
  readonly unit_price: number;
}

/** An order as the tools return it (items parsed from their JSON column). */
export interface Order {
  readonly id: string;
  readonly customer: string;
  readonly email: string;
  readonly items: readonly OrderItem[];
  readonly status: OrderStatus;
  /** YYYY-MM-DD */
  readonly delivery_date: string;
  /** Days behind the date first promised (0 = on time). */
  readonly delay_days: number;
  readonly updated_at: string;
}

/** The row as D1 returns it. */
export interface OrderRow extends Omit<Order, 'items'> {
  readonly items: string;
}

/** Whether `value` (YYYY-MM-DD) names a day that exists (rejects 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** Today's date in UTC as YYYY-MM-DD. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The day `days` after `day` (both YYYY-MM-DD; negative `days` go back). */
export function addDays(day: string, days: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
}

/**
 * How many days late `order` runs once moved to `newDate` (YYYY-MM-DD), against the date first promised: the date it
 * had before the first change (its `delivery_date_changed` event keeps that date and delay), less its delay then. Not
 * the current date less the current delay: a delay is never below 0, so an order moved ahead of its promise no longer
 * says by how much, and moving it back used to count those days as late.
 */
export async function delayDaysAfterMove(db: D1Database, order: Order, newDate: string): Promise<number> {
  const first = await db
    .prepare("SELECT details FROM order_events WHERE order_id = ?1 AND kind = 'delivery_date_changed' ORDER BY id LIMIT 1")
    .bind(order.id)
    .first<{ details: string }>();
  const before = first === null ? {} : (JSON.parse(first.details) as { from?: unknown; delay_days_before?: unknown });
  const known = typeof before.from === 'string' && typeof before.delay_days_before === 'number';
  const promised = known ? addDays(before.from as string, -(before.delay_days_before as number)) : addDays(order.delivery_date, -order.delay_days);
  return Math.max(0, daysBetween(promised, newDate));
}

/** Parses a row's items JSON. */
export function toOrder(row: OrderRow): Order {
  return { ...row, items: JSON.parse(row.items) as OrderItem[] };
}

const SELECT_ORDER = 'SELECT id, customer, email, items, status, delivery_date, delay_days, updated_at FROM orders';

/** Loads one order, or `undefined`. */
export async function findOrder(db: D1Database, id: string): Promise<Order | undefined> {
  const row = await db.prepare(`${SELECT_ORDER} WHERE id = ?1`).bind(id).first<OrderRow>();
  return row === null ? undefined : toOrder(row);
}

/** Open (not delivered) orders at least `minDelayDays` late, most delayed first. */
export async function findDelayedOrders(db: D1Database, minDelayDays: number): Promise<Order[]> {
  const { results } = await db
    .prepare(`${SELECT_ORDER} WHERE status <> 'delivered' AND delay_days >= ?1 AND delay_days > 0 ORDER BY delay_days DESC, id`)
    .bind(minDelayDays)
    .all<OrderRow>();
  return results.map(toOrder);
}

/** How many open orders the audit reads per query: small pages, so a long walk reports progress as it goes. */
export const AUDIT_PAGE_SIZE = 3;

/** An open order the audit flags, with every reason found. */
export interface FlaggedOrder {
  readonly id: string;
  readonly customer: string;
  readonly reasons: readonly string[];
}

/** Where an audit walk stands after a page: open orders checked so far of all of them, and the flags so far. */
export interface AuditPage {
  readonly checked: number;
  readonly total: number;
  readonly flagged: readonly FlaggedOrder[];
}

/** How many orders are open (not delivered). */
export async function countOpenOrders(db: D1Database): Promise<number> {
  const row = await db.prepare("SELECT COUNT(*) AS open FROM orders WHERE status <> 'delivered'").first<{ open: number }>();
  return row?.open ?? 0;
}

/** Up to `limit` open orders with ids after `afterId`, by id (keyset paging: no order is read twice or skipped). */
export async function findOpenOrdersAfter(db: D1Database, afterId: string, limit: number): Promise<Order[]> {
  const { results } = await db
    .prepare(`${SELECT_ORDER} WHERE status <> 'delivered' AND id > ?1 ORDER BY id LIMIT ?2`)
    .bind(afterId, limit)
    .all<OrderRow>();
  return results.map(toOrder);
}

/** Why an open order needs attention on `today` (YYYY-MM-DD); empty when it does not. */
export function auditReasons(order: Order, today: string): string[] {
  const reasons: string[] = [];
  if (order.status === 'delayed') reasons.push('status is delayed');
  if (order.delay_days > 0) reasons.push(`running ${order.delay_days} ${order.delay_days === 1 ? 'day' : 'days'} late`);
  if (order.delivery_date < today) reasons.push(`delivery date ${order.delivery_date} has passed`);
  return reasons;
}

/**
 * Walks every open order, {@link AUDIT_PAGE_SIZE} per query, and yields the state of the audit after each page.
 * Counts the open orders first; `total` never drops below `checked` (an order opened during the walk).
 * Checks `signal` before each query, so an aborted call stops reading.
 */
export async function* auditOpenOrders(
  db: D1Database,
  options: { readonly today: string; readonly signal?: AbortSignal | undefined },
): AsyncGenerator<AuditPage> {
  const total = await countOpenOrders(db);
  const flagged: FlaggedOrder[] = [];
  let checked = 0;
  let afterId = '';
  for (;;) {
    options.signal?.throwIfAborted();
    const page = await findOpenOrdersAfter(db, afterId, AUDIT_PAGE_SIZE);
    if (page.length === 0) return;
    for (const order of page) {
      const reasons = auditReasons(order, options.today);
      if (reasons.length > 0) flagged.push({ id: order.id, customer: order.customer, reasons });
    }
    checked += page.length;
    afterId = page.at(-1)?.id ?? afterId;
    yield { checked, total: Math.max(total, checked), flagged: [...flagged] };
    if (page.length < AUDIT_PAGE_SIZE) return;
  }
}
