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

/** The statuses a delay sets aside: `delayed` stands in for them while an open order runs late. */
export type StatusBeforeDelay = 'pending' | 'shipped';

/** Where an open order stands once its delivery date moves (see {@link planMove}). */
export interface OrderMove {
  readonly newDate: string;
  /** Days behind the date first promised, never below 0. */
  readonly delayDays: number;
  readonly status: OrderStatus;
  /** What the delay set aside, kept while `status` is `delayed` (what moving back restores); `null` otherwise. */
  readonly statusBeforeDelay: StatusBeforeDelay | null;
}

/**
 * Where `order` stands once moved to `newDate` (YYYY-MM-DD). The delay counts against the date first promised: the
 * date it had before the first change (its `delivery_date_changed` event keeps that date and delay), less its delay
 * then; not the current date less the current delay, since a delay is never below 0, so an order moved ahead of its
 * promise no longer says by how much. The status follows the delay: late, a pending or shipped order becomes `delayed`
 * (the status it had is kept in `status_before_delay`); back on time, a delayed order gets that status again
 * (`pending` when none is on record). One query.
 */
export async function planMove(db: D1Database, order: Order, newDate: string): Promise<OrderMove> {
  const row = await db
    .prepare(
      `SELECT status_before_delay AS before_delay,
              (SELECT details FROM order_events WHERE order_id = orders.id AND kind = 'delivery_date_changed' ORDER BY id LIMIT 1) AS first_move
       FROM orders WHERE id = ?1`,
    )
    .bind(order.id)
    .first<{ before_delay: string | null; first_move: string | null }>();
  const before = row?.first_move == null ? {} : (JSON.parse(row.first_move) as { from?: unknown; delay_days_before?: unknown });
  const known = typeof before.from === 'string' && typeof before.delay_days_before === 'number';
  const promised = known ? addDays(before.from as string, -(before.delay_days_before as number)) : addDays(order.delivery_date, -order.delay_days);
  const delayDays = Math.max(0, daysBetween(promised, newDate));
  const kept: StatusBeforeDelay = row?.before_delay === 'shipped' ? 'shipped' : 'pending';
  if (delayDays > 0) {
    if (order.status === 'pending' || order.status === 'shipped') return { newDate, delayDays, status: 'delayed', statusBeforeDelay: order.status };
    return { newDate, delayDays, status: order.status, statusBeforeDelay: order.status === 'delayed' ? kept : null };
  }
  return { newDate, delayDays, status: order.status === 'delayed' ? kept : order.status, statusBeforeDelay: null };
}

/** How a move reads on an approval card: the dates, the delay and, when the move changes it, the status. */
export function describeMove(order: Pick<Order, 'id' | 'customer' | 'delivery_date' | 'status'>, move: OrderMove): string {
  const { delayDays, status } = move;
  const late = delayDays === 0 ? 'on time' : `${delayDays} ${delayDays === 1 ? 'day' : 'days'} late`;
  const change =
    status === order.status
      ? ''
      : status === 'delayed'
        ? `, so its status changes from ${order.status} to delayed`
        : `, so its status goes back from ${order.status} to ${status}`;
  return `Order ${order.id} of ${order.customer} moves from ${order.delivery_date} to ${move.newDate}: ${late}${change}.`;
}

/**
 * The two statements of a move, to run in one `db.batch` (one transaction): its `delivery_date_changed` event (the
 * dates, the delays, a change of status, the reason) and the order's update. Both are guarded by the state read
 * (`delivery_date` and `updated_at` act as a version), so after a concurrent change both change nothing.
 */
export function moveStatements(
  db: D1Database,
  options: { readonly order: Order; readonly move: OrderMove; readonly reason?: string | undefined; readonly callId: string; readonly updatedAt: string },
): [D1PreparedStatement, D1PreparedStatement] {
  const { order, move, reason, callId, updatedAt } = options;
  const details = JSON.stringify({
    from: order.delivery_date,
    to: move.newDate,
    delay_days_before: order.delay_days,
    delay_days_after: move.delayDays,
    ...(move.status === order.status ? {} : { status_before: order.status, status_after: move.status }),
    ...(reason ? { reason } : {}),
  });
  return [
    db
      .prepare(
        `INSERT INTO order_events (order_id, kind, details, call_id, created_at)
         SELECT id, 'delivery_date_changed', ?2, ?3, ?4 FROM orders WHERE id = ?1 AND delivery_date = ?5 AND updated_at = ?6`,
      )
      .bind(order.id, details, callId, updatedAt, order.delivery_date, order.updated_at),
    db
      .prepare(
        `UPDATE orders SET delivery_date = ?2, delay_days = ?3, status = ?4, status_before_delay = ?5, updated_at = ?6
         WHERE id = ?1 AND delivery_date = ?7 AND updated_at = ?8`,
      )
      .bind(order.id, move.newDate, move.delayDays, move.status, move.statusBeforeDelay, updatedAt, order.delivery_date, order.updated_at),
  ];
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
