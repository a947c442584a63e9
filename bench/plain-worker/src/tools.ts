// The demo Worker's tools (apps/worker/src/tools) written with the plain AI SDK: `tool()`, zod input
// schemas, `execute` closures over D1. Same names, descriptions, SQL and results; no tickets, seals,
// chain or policy. Approval goes through `streamText`'s `toolApproval`. The SQL, date rules and clock are the demo's
// own schema-free modules (order-store.ts, clock.ts), as the calculator is; the chart and the invoice PDF are drawn by the
// demo's own chart.ts and invoice.ts.
import { generateText, isStepCount, type LanguageModel, type ToolSet, tool, zodSchema } from 'ai';
import { z } from 'zod';
import { CALCULATOR_CONSTANTS, CALCULATOR_FUNCTIONS, evaluate, MAX_EXPRESSION_LENGTH } from '../../../apps/worker/src/tools/calculator/index.ts';
import { CHART_BARS, chartCaption, countOrdersByStatus, renderOrdersChart, toBase64 } from '../../../apps/worker/src/tools/chart.ts';
import { clockIn, isTimeZone } from '../../../apps/worker/src/tools/clock.ts';
import { invoiceFileName, invoiceOf, invoiceSummary, renderInvoicePdf } from '../../../apps/worker/src/tools/invoice.ts';
import {
  auditOpenOrders,
  findDelayedOrders,
  findOrder,
  type FlaggedOrder,
  isCalendarDay,
  isoDay,
  moveStatements,
  type Order,
  planMove,
} from '../../../apps/worker/src/tools/order-store.ts';

async function requireOrder(db: D1Database, id: string): Promise<Order> {
  const order = await findOrder(db, id);
  if (order === undefined) throw new Error(`No order "${id}" exists. Check the id (it looks like A-1001).`);
  return order;
}

const orderId = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^A-\d{4}$/, 'Order ids look like A-1001')
  .describe('The order id, e.g. A-1001');

// Input schemas at module scope, wrapped once with `zodSchema()`: the AI SDK then converts each to JSON Schema
// once per isolate (a raw zod schema is converted again on every step).
const queryOrderInput = zodSchema(z.object({ order_id: orderId }));
const listDelayedInput = zodSchema(z.object({
  days_threshold: z.coerce.number().int('Use a whole number of days').min(1).max(365).default(1).describe('Minimum delay in days (default 1)'),
}));
const auditOrdersInput = zodSchema(z.object({}));
const orderInvoiceInput = zodSchema(z.object({ order_id: orderId }));
const updateDeliveryInput = zodSchema(z.object({
  order_id: orderId,
  new_date: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD')
    .refine(isCalendarDay, 'That day does not exist in the calendar')
    .describe('The new delivery date, YYYY-MM-DD; today or later'),
  reason: z.string().trim().max(500).optional().describe('Why the date changes (kept in the audit trail)'),
}));
const sendEmailInput = zodSchema(z.object({
  order_id: orderId,
  subject: z.string().trim().min(1, 'The subject is empty').max(200).describe('Subject line'),
  body: z.string().trim().min(1, 'The body is empty').max(5_000).describe('Plain-text message body'),
}));
const worldClockInput = zodSchema(z.object({
  time_zone: z
    .string()
    .trim()
    .min(1, 'Give a time zone such as Europe/Berlin')
    .max(64)
    .refine(isTimeZone, 'Unknown time zone: use an IANA name such as Europe/Berlin, America/New_York or UTC')
    .describe('IANA time zone, e.g. Europe/Berlin'),
}));
const calculateInput = zodSchema(z.object({
  expression: z
    .string()
    .min(1, 'The expression is empty')
    .max(MAX_EXPRESSION_LENGTH, `At most ${MAX_EXPRESSION_LENGTH} characters`)
    .describe('The expression, e.g. (17.5 * 4 + 3) / 2 or sqrt(2)^2'),
}));
const browserTimeZoneInput = zodSchema(z.object({}));
const pickDateInput = zodSchema(z.object({
  question: z.string().min(1).describe('What the date is for, shown to the user'),
  min: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe('Earliest allowed date, YYYY-MM-DD'),
}));
const cartAddInput = zodSchema(z.object({
  sku: z.string().min(1).max(64).describe('Product code, e.g. SKU-42'),
  quantity: z.number().int().min(1).max(99).default(1),
}));
const cartListInput = zodSchema(z.object({}));
const cartClearInput = zodSchema(z.object({}));
const delayAnalystInput = zodSchema(z.object({ task: z.string().min(1).describe('What the agent should do, in plain words') }));

/** A preliminary output of `audit_orders`: how far the walk is (edgetool's `ctx.progress` report). */
interface AuditProgress {
  readonly progress: { readonly message: string; readonly completed: number; readonly total: number };
}

/** The final output of `audit_orders`. */
interface AuditResult {
  readonly checked: number;
  readonly flagged: readonly FlaggedOrder[];
}

/** The D1 tools of one request. */
function serverTools(db: D1Database) {
  const queryOrder = tool({
    description:
      'Look up one customer order by its id (format A-1001). Returns the customer, e-mail, items, status ' +
      '(pending, shipped, delayed or delivered), the delivery date (YYYY-MM-DD) and how many days it is delayed. ' +
      'Use it before changing an order or writing to its customer.',
    inputSchema: queryOrderInput,
    execute: async ({ order_id }) => {
      const order = await findOrder(db, order_id);
      if (order === undefined) return { found: false, order_id, message: `No order "${order_id}" exists. Ask the user to check the id.` };
      return { found: true, order };
    },
  });

  const listDelayedOrders = tool({
    description:
      'List the open (not yet delivered) orders that are running late by at least `days_threshold` days ' +
      '(default 1), most delayed first, with customer, status, delivery date and delay in days.',
    inputSchema: listDelayedInput,
    execute: async ({ days_threshold }) => {
      const orders = await findDelayedOrders(db, days_threshold);
      return {
        days_threshold,
        count: orders.length,
        orders: orders.map(({ id, customer, status, delivery_date, delay_days }) => ({ id, customer, status, delivery_date, delay_days })),
      };
    },
  });

  const auditOrders = tool({
    description:
      'Audit every open (not yet delivered) order, a few at a time, and flag those that need attention: running late, ' +
      'marked as delayed, or past their delivery date. Returns how many orders were checked and the flagged ones ' +
      'with customer and reasons. Takes no arguments; reports its progress while it runs.',
    inputSchema: auditOrdersInput,
    // The AI SDK's own progress: every value yielded is a preliminary output, the last one is the result.
    execute: async function* (_input, { abortSignal }): AsyncGenerator<AuditProgress | AuditResult> {
      let result: AuditResult = { checked: 0, flagged: [] };
      for await (const { checked, total, flagged } of auditOpenOrders(db, { today: isoDay(new Date()), signal: abortSignal })) {
        yield { progress: { message: `Checked ${checked} of ${total} open orders`, completed: checked, total } };
        result = { checked, flagged };
      }
      yield result;
    },
  });

  const updateDeliveryDate = tool({
    description:
      'Change the delivery date of an open order (format A-1001) to a new date (YYYY-MM-DD, today or later), ' +
      'optionally with a reason for the audit trail. Recomputes how many days the order is delayed: a late order becomes ' +
      'delayed, and one back on time gets the status it had before. ' +
      'Requires the user to approve before anything is written; delivered orders cannot be changed.',
    inputSchema: updateDeliveryInput,
    execute: async ({ order_id, new_date, reason }, { toolCallId }) => {
      const order = await requireOrder(db, order_id);
      if (order.status === 'delivered') throw new Error(`Order ${order.id} was already delivered (${order.delivery_date}); its delivery date cannot change.`);
      const now = new Date();
      if (new_date < isoDay(now)) throw new Error(`${new_date} is in the past (today is ${isoDay(now)} UTC). Choose today or a later day.`);
      if (new_date === order.delivery_date) throw new Error(`Order ${order.id} is already scheduled for ${new_date}; nothing to change.`);
      const move = await planMove(db, order, new_date);
      const [event, update] = await db.batch(moveStatements(db, { order, move, reason, callId: toolCallId, updatedAt: now.toISOString() }));
      if (update?.meta.changes !== 1 || event?.meta.changes !== 1) throw new Error(`Order ${order.id} changed while this call ran; nothing was written. Query it again.`);
      return {
        order_id: order.id,
        previous_date: order.delivery_date,
        delivery_date: new_date,
        delay_days: move.delayDays,
        status: move.status,
        previous_status: order.status,
        event_id: event.meta.last_row_id,
      };
    },
  });

  const sendEmail = tool({
    description:
      "Send an e-mail about an order to that order's customer (the address is taken from the order, not chosen by you). " +
      'Give the order id (A-1001), a subject and a plain-text body. Requires the user to approve; in this demo the ' +
      'message is stored in an outbox and not actually delivered.',
    inputSchema: sendEmailInput,
    execute: async ({ order_id, subject, body }, { toolCallId }) => {
      const order = await requireOrder(db, order_id);
      const id = crypto.randomUUID();
      const createdAt = new Date().toISOString();
      const [queued] = await db.batch([
        db
          .prepare(
            `INSERT INTO outbox (id, to_address, subject, body, order_id, created_at, idempotency_key)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (idempotency_key) DO NOTHING`,
          )
          .bind(id, order.email, subject, body, order.id, createdAt, `send_email:${toolCallId}`),
        db
          .prepare(
            `INSERT INTO order_events (order_id, kind, details, call_id, created_at)
             SELECT order_id, 'email_queued', json_object('outbox_id', id, 'subject', subject), ?2, created_at FROM outbox WHERE id = ?1`,
          )
          .bind(id, toolCallId),
      ]);
      return { queued: true, duplicate: queued?.meta.changes !== 1, outbox_id: id, order_id: order.id, to: order.email, subject, created_at: createdAt };
    },
  });

  const ordersChart = tool({
    description:
      'Draw a bar chart (PNG image) of all orders by status: pending, shipped, delayed, delivered. ' +
      'Use it when the user wants a chart, graph or picture of the orders; it also returns the counts.',
    inputSchema: zodSchema(z.object({})),
    execute: async () => {
      const counts = await countOrdersByStatus(db);
      const image = { type: 'image' as const, data: toBase64(await renderOrdersChart(counts)), mediaType: 'image/png' as const };
      return { counts, total: CHART_BARS.reduce((sum, bar) => sum + counts[bar.status], 0), image };
    },
    // The model reads the counts and sees the chart (the AI SDK's content output with an image file).
    toModelOutput: ({ output }) => ({
      type: 'content',
      value: [
        { type: 'text', text: chartCaption(output.counts) },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: output.image.data } },
      ],
    }),
  });

  const orderInvoice = tool({
    description:
      'Make the invoice of one order (format A-1001) as a PDF document: its items, quantities, prices and total in EUR, ' +
      'billed to the customer. Use it when the user asks for an invoice or a bill; it also returns a short summary.',
    inputSchema: orderInvoiceInput,
    execute: async ({ order_id }) => {
      const order = await requireOrder(db, order_id);
      if (order.items.length === 0) throw new Error(`Order ${order.id} has no items, so it has no invoice.`);
      const invoice = invoiceOf(order, isoDay(new Date()));
      const { invoice_number, customer, issued, total, currency } = invoice;
      const document = { type: 'document' as const, data: toBase64(renderInvoicePdf(invoice)), mediaType: 'application/pdf' as const, filename: invoiceFileName(order.id) };
      return { invoice_number, order_id: order.id, customer, issued, total, currency, summary: invoiceSummary(invoice), document };
    },
    // The model reads the summary and the PDF (the AI SDK's content output with a file that has a file name).
    toModelOutput: ({ output }) => ({
      type: 'content',
      value: [
        { type: 'text', text: output.summary },
        { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: output.document.data }, filename: output.document.filename },
      ],
    }),
  });

  const worldClock = tool({
    description:
      'Get the current local date, time, weekday and UTC offset in a time zone. Use IANA names such as ' +
      '"Europe/Berlin", "America/New_York", "Asia/Kolkata" or "UTC" (not abbreviations like CET or PST).',
    inputSchema: worldClockInput,
    execute: async ({ time_zone }) => clockIn(time_zone, new Date()),
  });

  const calculate = tool({
    description:
      'Evaluate an arithmetic expression exactly instead of doing mental math. Supports numbers (decimals, 1e3), ' +
      '+ - * / % (modulo) ^ (power), parentheses, unary minus, the functions ' +
      `${CALCULATOR_FUNCTIONS.join(', ')} (round(x, digits) takes optional digits) and the constants ${CALCULATOR_CONSTANTS.join(', ')}. ` +
      'Write multiplication explicitly (2*(3+4)). No variables, units or percent signs. Results have 15 significant digits.',
    inputSchema: calculateInput,
    execute: async ({ expression }) => ({ expression, result: evaluate(expression) }),
  });

  return {
    query_order: queryOrder,
    list_delayed_orders: listDelayedOrders,
    audit_orders: auditOrders,
    orders_chart: ordersChart,
    order_invoice: orderInvoice,
    update_delivery_date: updateDeliveryDate,
    send_email: sendEmail,
    world_clock: worldClock,
    calculate,
  };
}

/** Browser tools: declared for the model, no `execute` (the client runs them, as with `useChat`'s `onToolCall`). */
const browserTools = {
  browser_time_zone: tool({
    description: "The user's own time zone and locale, read from their browser. Use it before talking about local times or dates.",
    inputSchema: browserTimeZoneInput,
  }),
  pick_date: tool({
    description: 'Ask the user to pick a date in their browser (an interactive date picker). Returns the date as YYYY-MM-DD.',
    inputSchema: pickDateInput,
  }),
  cart_add: tool({
    description: "Add an item to the user's shopping cart, kept in their browser.",
    inputSchema: cartAddInput,
  }),
  cart_list: tool({ description: "List the items in the user's shopping cart, kept in their browser.", inputSchema: cartListInput }),
  cart_clear: tool({ description: "Empty the user's shopping cart, kept in their browser.", inputSchema: cartClearInput }),
} satisfies ToolSet;

/** Tools that need a human approval (edgetool: `effects: 'write' | 'destructive'`). */
export const APPROVAL = { update_delivery_date: 'user-approval', send_email: 'user-approval' } as const;

/** Every tool the model sees, in the demo's order; `manual` leaves server tools without `execute` (the caller runs them). */
export function createPlainTools(db: D1Database, model: LanguageModel, mode: 'internal' | 'manual'): ToolSet {
  const server = serverTools(db);
  const delayAnalyst = tool({
    description: 'A sub-agent that reviews delayed orders and writes a short report. Give it the task in plain words.',
    inputSchema: delayAnalystInput,
    execute: async ({ task }, { abortSignal }) => {
      // generateText, as edgetool's agent-as-tool does (a text turn: no client reads the inner conversation).
      const result = await generateText({
        model,
        instructions: 'You analyse delivery delays. List the delayed orders and summarise them in two sentences.',
        prompt: task,
        tools: { list_delayed_orders: server.list_delayed_orders, query_order: server.query_order },
        stopWhen: isStepCount(4),
        ...(abortSignal ? { abortSignal } : {}),
      });
      return result.text;
    },
  });
  const all: ToolSet = { ...server, delay_analyst: delayAnalyst };
  if (mode === 'manual') {
    for (const [name, t] of Object.entries(all)) all[name] = { ...t, execute: undefined } as ToolSet[string];
  }
  return { ...all, ...browserTools };
}
