// An order's invoice as a one-page PDF, with no edgetool import: the demo's order_invoice tool and the bench's plain
// AI SDK Worker (bench/plain-worker) both use it.
import type { Order, OrderStatus } from './order-store.ts';
import { A4, fitText, type PdfRule, type PdfText, writePdf } from './pdf.ts';

/** The demo shop's prices are in euros. */
export const INVOICE_CURRENCY = 'EUR';

/** Table rows on the page; an order with more lines shows the first ones and one row for the rest. */
export const INVOICE_MAX_ROWS = 24;

/** One line of an invoice; amounts in euros. */
export interface InvoiceLine {
  readonly sku: string;
  readonly name: string;
  readonly qty: number;
  readonly unit_price: number;
  /** `qty × unit_price`, computed in cents. */
  readonly amount: number;
}

/** An order's invoice: what the PDF shows. */
export interface Invoice {
  /** `INV-` and the order id. */
  readonly invoice_number: string;
  readonly order_id: string;
  readonly customer: string;
  readonly email: string;
  /** The day it was made, YYYY-MM-DD (UTC). */
  readonly issued: string;
  readonly status: OrderStatus;
  /** YYYY-MM-DD */
  readonly delivery_date: string;
  readonly lines: readonly InvoiceLine[];
  /** The sum of the lines, in euros (computed in cents). */
  readonly total: number;
  readonly currency: typeof INVOICE_CURRENCY;
}

/** What `order_invoice` returns: the invoice's key figures, a summary for the model, and the PDF as a document part. */
export interface OrderInvoice {
  readonly invoice_number: string;
  readonly order_id: string;
  readonly customer: string;
  readonly issued: string;
  readonly total: number;
  readonly currency: typeof INVOICE_CURRENCY;
  /** One paragraph that says what the invoice holds (what a model that takes no documents reads). */
  readonly summary: string;
  /** The PDF: `{ type: 'document', data: <base64 PDF>, mediaType: 'application/pdf', filename: 'invoice-A-1001.pdf' }`. */
  readonly document: { readonly type: 'document'; readonly data: string; readonly mediaType: 'application/pdf'; readonly filename: string };
}

/** Cents of an amount in euros (prices have at most two decimals; rounding drops float noise). */
function cents(euros: number): number {
  return Math.round(euros * 100);
}

/** The invoice of `order`, made on `issued` (YYYY-MM-DD). */
export function invoiceOf(order: Order, issued: string): Invoice {
  const lines = order.items.map(({ sku, name, qty, unit_price }) => ({ sku, name, qty, unit_price, amount: (cents(unit_price) * qty) / 100 }));
  const { id, customer, email, status, delivery_date } = order;
  const total = lines.reduce((sum, line) => sum + cents(line.amount), 0) / 100;
  return { invoice_number: `INV-${id}`, order_id: id, customer, email, issued, status, delivery_date, lines, total, currency: INVOICE_CURRENCY };
}

/** The invoice's file name: `invoice-A-1001.pdf`. */
export function invoiceFileName(orderId: string): string {
  return `invoice-${orderId}.pdf`;
}

/** An amount as the invoice writes it: `1,299.00`. */
export function formatAmount(euros: number): string {
  const value = cents(euros);
  const whole = String(Math.trunc(Math.abs(value) / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${whole}.${String(Math.abs(value) % 100).padStart(2, '0')}`;
}

/**
 * The model's paragraph: who, when, what (the first three lines) and the total. The file's name reaches the model with
 * the PDF (or, for a model that takes no documents, in the line that stands for it).
 */
export function invoiceSummary(invoice: Invoice): string {
  const shown = invoice.lines.slice(0, 3).map((line) => `${line.qty} x ${line.name} (${line.sku})`);
  const more = invoice.lines.length > 3 ? ` and ${invoice.lines.length - 3} more` : '';
  return (
    `Invoice ${invoice.invoice_number} of order ${invoice.order_id} for ${invoice.customer}, dated ${invoice.issued}: ` +
    `${shown.join(', ') || 'no items'}${more}; total ${formatAmount(invoice.total)} ${invoice.currency}.`
  );
}

const LEFT = 56;
const RIGHT = A4.width - 56;
const COLUMNS = { sku: LEFT, item: 130, qty: 360, unitPrice: 450, amount: RIGHT };

/** The invoice on one A4 page: header, order details, the bill-to address, a table of the lines, the total. */
export function renderInvoicePdf(invoice: Invoice): Uint8Array {
  const texts: PdfText[] = [
    { x: LEFT, y: 770, size: 24, text: 'Invoice' },
    { x: RIGHT, y: 776, size: 11, text: 'edgetool demo shop', align: 'right' },
    { x: RIGHT, y: 762, size: 8, text: 'Demo data: no payment is due', align: 'right' },
  ];
  const details: [string, string][] = [
    ['Invoice number', invoice.invoice_number],
    ['Invoice date', invoice.issued],
    ['Order', `${invoice.order_id} (${invoice.status})`],
    ['Delivery date', invoice.delivery_date],
  ];
  details.forEach(([label, value], i) => {
    texts.push({ x: LEFT, y: 720 - 16 * i, size: 10, text: label }, { x: 150, y: 720 - 16 * i, size: 10, text: fitText(value, 10, 180) });
  });
  texts.push(
    { x: 340, y: 720, size: 10, text: 'Bill to' },
    { x: 340, y: 704, size: 12, text: fitText(invoice.customer, 12, RIGHT - 340) },
    { x: 340, y: 688, size: 10, text: fitText(invoice.email, 10, RIGHT - 340) },
  );

  const header = 630;
  texts.push(
    { x: COLUMNS.sku, y: header, size: 10, text: 'SKU' },
    { x: COLUMNS.item, y: header, size: 10, text: 'Item' },
    { x: COLUMNS.qty, y: header, size: 10, text: 'Qty', align: 'right' },
    { x: COLUMNS.unitPrice, y: header, size: 10, text: `Unit price (${invoice.currency})`, align: 'right' },
    { x: COLUMNS.amount, y: header, size: 10, text: `Amount (${invoice.currency})`, align: 'right' },
  );
  const rules: PdfRule[] = [{ x1: LEFT, y1: header - 8, x2: RIGHT, y2: header - 8 }];
  const fits = invoice.lines.length <= INVOICE_MAX_ROWS;
  const shown = fits ? invoice.lines : invoice.lines.slice(0, INVOICE_MAX_ROWS - 1);
  let y = header - 24;
  for (const line of shown) {
    texts.push(
      { x: COLUMNS.sku, y, size: 10, text: fitText(line.sku, 10, COLUMNS.item - COLUMNS.sku - 8) },
      { x: COLUMNS.item, y, size: 10, text: fitText(line.name, 10, COLUMNS.qty - COLUMNS.item - 45) },
      { x: COLUMNS.qty, y, size: 10, text: String(line.qty), align: 'right' },
      { x: COLUMNS.unitPrice, y, size: 10, text: formatAmount(line.unit_price), align: 'right' },
      { x: COLUMNS.amount, y, size: 10, text: formatAmount(line.amount), align: 'right' },
    );
    y -= 18;
  }
  if (!fits) {
    const rest = invoice.lines.slice(shown.length);
    const amount = rest.reduce((sum, line) => sum + cents(line.amount), 0) / 100;
    texts.push(
      { x: COLUMNS.item, y, size: 10, text: `and ${rest.length} more items` },
      { x: COLUMNS.amount, y, size: 10, text: formatAmount(amount), align: 'right' },
    );
    y -= 18;
  }
  rules.push({ x1: LEFT, y1: y + 8, x2: RIGHT, y2: y + 8 });
  texts.push(
    { x: COLUMNS.unitPrice, y: y - 10, size: 11, text: 'Total', align: 'right' },
    { x: COLUMNS.amount, y: y - 10, size: 11, text: `${formatAmount(invoice.total)} ${invoice.currency}`, align: 'right' },
    { x: LEFT, y: 56, size: 8, text: `Made by the edgetool demo Worker from order ${invoice.order_id} in D1.` },
  );
  return writePdf({ ...A4, texts, rules, title: `Invoice ${invoice.invoice_number}` });
}
