import { documentPart } from '@edgetool/core';
import * as v from 'valibot';
import { defineDemoTool, nowFrom, requireDeps } from './deps.ts';
import { invoiceFileName, invoiceOf, invoiceSummary, type OrderInvoice, renderInvoicePdf } from './invoice.ts';
import { argumentError, isoDay, orderIdSchema, requireOrder } from './orders.ts';

/** Makes an order's invoice as a PDF in the Worker: the model reads the PDF itself, the UI offers it to open. */
export const orderInvoice = defineDemoTool({
  name: 'order_invoice',
  description:
    'Make the invoice of one order (format A-1001) as a PDF document: its items, quantities, prices and total in EUR, ' +
    'billed to the customer. Use it when the user asks for an invoice or a bill; it also returns a short summary.',
  input: v.object({ order_id: orderIdSchema }),
  policy: { effects: 'read', timeoutMs: 5_000 },
  async execute({ order_id }, ctx): Promise<OrderInvoice> {
    const deps = requireDeps(ctx.run.deps, ctx.tool.name);
    const meta = { toolName: ctx.tool.name, callId: ctx.call.id };
    const order = await requireOrder(deps.db, order_id, meta);
    if (order.items.length === 0) throw argumentError('order_id', `Order ${order.id} has no items, so it has no invoice.`, meta);
    const invoice = invoiceOf(order, isoDay(nowFrom(deps)));
    const { invoice_number, customer, issued, total, currency } = invoice;
    const filename = invoiceFileName(order.id);
    const document = documentPart(renderInvoicePdf(invoice), 'application/pdf', filename);
    return {
      invoice_number,
      order_id: order.id,
      customer,
      issued,
      total,
      currency,
      summary: invoiceSummary(invoice),
      document: { ...document, mediaType: 'application/pdf', filename },
    };
  },
  // The model reads the summary and the PDF itself, under its file name.
  toModelOutput: ({ summary, document }) => [{ type: 'text', text: summary }, document],
});
