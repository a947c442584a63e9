import type { ToolContext } from '@edgetool/core';
import * as v from 'valibot';
import { LOCAL_CLIENT } from '../http/client-address.ts';
import { type DemoDeps, defineDemoTool, nowFrom, requireDeps } from './deps.ts';
import { type Order, orderIdSchema, requireOrder } from './orders.ts';

const input = v.object({
  order_id: orderIdSchema,
  subject: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'The subject is empty'),
    v.maxLength(200),
    // A line break in a subject would start a new mail header once a real mailer sends the outbox (header injection).
    v.regex(/^[^\r\n\u2028\u2029]*$/, 'The subject is one line: no line breaks'),
    v.description('Subject line'),
  ),
  body: v.pipe(v.string(), v.trim(), v.minLength(1, 'The body is empty'), v.maxLength(5_000), v.description('Plain-text message body')),
});

/** What `send_email` returns. */
export interface SendEmailResult {
  readonly queued: true;
  /** `true` when this call had already queued the message (a retried continuation): nothing new was queued. */
  readonly duplicate: boolean;
  readonly outbox_id: string;
  readonly order_id: string;
  readonly to: string;
  readonly subject: string;
  readonly created_at: string;
}

/**
 * The outbox key of one approved call (`ctx.idempotencyKey`: conversation, call id, approval ticket's nonce): its
 * continuation replayed maps to the same row, and a regenerated call given the id of the call it replaced to a new one.
 */
export function emailIdempotencyKey(ctx: Pick<ToolContext, 'idempotencyKey'>): string {
  return `send_email:${ctx.idempotencyKey}`;
}

const meta = (ctx: ToolContext): { toolName: string; callId: string } => ({ toolName: ctx.tool.name, callId: ctx.call.id });

/** The order each call's context read, so its `check` and its approval card share one D1 read (one per call, never across calls). */
const ordersRead = new WeakMap<object, Promise<Order>>();

/** The order of this call, read once per context (a missing one throws the same model-readable error each time). */
function orderOf(ctx: ToolContext<unknown, DemoDeps>, orderId: string): Promise<Order> {
  let read = ordersRead.get(ctx);
  if (read === undefined) {
    read = requireOrder(requireDeps(ctx.run.deps, ctx.tool.name).db, orderId, meta(ctx));
    ordersRead.set(ctx, read);
  }
  return read;
}

/**
 * Queues an e-mail to an order's customer in the outbox (nothing leaves the Worker). Needs approval, and spends the
 * EMAIL_LIMITER rate limit (10 per client address per minute).
 */
export const sendEmail = defineDemoTool({
  name: 'send_email',
  description:
    "Send an e-mail about an order to that order's customer (the address is taken from the order, not chosen by you). " +
    'Give the order id (A-1001), a subject and a plain-text body. Requires the user to approve; in this demo the ' +
    'message is stored in an outbox and not actually delivered.',
  input,
  policy: {
    effects: 'destructive',
    // The user may reword the mail when approving; the order (and so the recipient) stays the model's.
    editable: ['subject', 'body'],
    // Before the approval, in the executor and in the chat loop alike: no approval for mail to an order that does not exist.
    check: async ({ order_id }, ctx) => {
      await orderOf(ctx, order_id);
    },
    // The recipient is not in the arguments: the card names who the mail goes to, as the order says.
    approvalReason: async ({ order_id }, ctx) => {
      const order = await orderOf(ctx, order_id);
      return `Sends this e-mail to ${order.customer} <${order.email}> about order ${order.id}.`;
    },
    // A deployment without the EMAIL_LIMITER binding never offers the tool: it would refuse every call (no limit, no mail).
    available: (run) => run.deps?.emailLimiter !== undefined,
    // Checked after the approval (a request waiting for the user spends nothing), per client address: the conversation
    // id is the client's to choose, and a new one per request would have a fresh budget every time (docs/tools.md).
    rateLimit: { limiter: (ctx) => ctx.run.deps.emailLimiter, key: (ctx) => `send_email:${ctx.run.deps.client ?? LOCAL_CLIENT}` },
  },
  async execute({ order_id, subject, body }, ctx): Promise<SendEmailResult> {
    const deps = requireDeps(ctx.run.deps, ctx.tool.name);
    const { db } = deps;
    const order = await requireOrder(db, order_id, meta(ctx));
    const key = emailIdempotencyKey(ctx);
    const id = crypto.randomUUID();
    const createdAt = nowFrom(deps).toISOString();
    // One transaction: the outbox row (skipped when this call already queued one) and, only if it was
    // inserted by this attempt, its audit event.
    const [queued] = await db.batch([
      db
        .prepare(
          `INSERT INTO outbox (id, to_address, subject, body, order_id, created_at, idempotency_key)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (idempotency_key) DO NOTHING`,
        )
        .bind(id, order.email, subject, body, order.id, createdAt, key),
      db
        .prepare(
          `INSERT INTO order_events (order_id, kind, details, call_id, created_at)
           SELECT order_id, 'email_queued', json_object('outbox_id', id, 'subject', subject), ?2, created_at FROM outbox WHERE id = ?1`,
        )
        .bind(id, ctx.call.id),
    ]);
    if (queued?.meta.changes === 1) {
      return { queued: true, duplicate: false, outbox_id: id, order_id: order.id, to: order.email, subject, created_at: createdAt };
    }
    const existing = await db
      .prepare('SELECT id, order_id, to_address, subject, created_at FROM outbox WHERE idempotency_key = ?1')
      .bind(key)
      .first<{ id: string; order_id: string; to_address: string; subject: string; created_at: string }>();
    if (existing === null) throw new Error('The outbox refused the message but holds no message for this call.');
    return {
      queued: true,
      duplicate: true,
      outbox_id: existing.id,
      order_id: existing.order_id,
      to: existing.to_address,
      subject: existing.subject,
      created_at: existing.created_at,
    };
  },
});
