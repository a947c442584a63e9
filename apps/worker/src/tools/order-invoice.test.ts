import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, describeOutcome, outputOf } from '../../test/support.ts';
import { INVOICE_MAX_ROWS, invoiceOf, type OrderInvoice, renderInvoicePdf } from './invoice.ts';
import type { Order } from './order-store.ts';

/** A PDF read the way a reader does: from `startxref` to the cross-reference table, from there to each object. */
interface ParsedPdf {
  readonly objects: ReadonlyMap<number, string>;
  /** The page's content stream, exactly `/Length` bytes. */
  readonly content: string;
  /** The strings the content stream shows (`(...) Tj`), unescaped. */
  readonly strings: readonly string[];
  readonly font: string;
  readonly info: string;
}

/** Parses `bytes` structurally, asserting every offset, reference and length on the way. */
function parsePdf(bytes: Uint8Array): ParsedPdf {
  expect(bytes.every((byte) => byte === 10 || (byte >= 32 && byte < 127)), 'ASCII only').toBe(true);
  const file = String.fromCharCode(...bytes);
  expect(file.startsWith('%PDF-1.4\n')).toBe(true);
  const tail = /\nstartxref\n(\d+)\n%%EOF\n$/.exec(file);
  expect(tail, 'startxref at the end').not.toBeNull();
  const xrefAt = Number(tail?.[1]);
  const head = /^xref\n0 (\d+)\n/.exec(file.slice(xrefAt));
  expect(head, 'startxref points at the xref table').not.toBeNull();
  const size = Number(head?.[1]);
  let at = xrefAt + (head?.[0].length ?? 0);
  expect(file.slice(at, at + 20)).toBe('0000000000 65535 f \n');
  const objects = new Map<number, string>();
  for (let n = 1; n < size; n++) {
    at += 20;
    const entry = file.slice(at, at + 20);
    expect(entry, `xref entry ${n}`).toMatch(/^\d{10} 00000 n \n$/);
    const offset = Number(entry.slice(0, 10));
    expect(file.slice(offset, offset + `${n} 0 obj\n`.length), `object ${n} at ${offset}`).toBe(`${n} 0 obj\n`);
    const start = offset + `${n} 0 obj\n`.length;
    objects.set(n, file.slice(start, file.indexOf('\nendobj\n', start)));
  }
  const trailer = file.slice(at + 20, file.lastIndexOf('\nstartxref'));
  expect(trailer).toMatch(new RegExp(`^trailer\\n<< /Size ${size} /Root (\\d+) 0 R /Info (\\d+) 0 R >>$`));
  const ref = (body: string | undefined, pattern: RegExp): string => {
    const match = pattern.exec(body ?? '');
    expect(match, `${pattern} in ${body}`).not.toBeNull();
    const target = objects.get(Number(match?.[1]));
    expect(target).toBeDefined();
    return target as string;
  };
  const catalog = ref(trailer, /\/Root (\d+) 0 R/);
  expect(catalog).toMatch(/\/Type \/Catalog/);
  const pages = ref(catalog, /\/Pages (\d+) 0 R/);
  expect(pages).toMatch(/\/Type \/Pages \/Kids \[\d+ 0 R\] \/Count 1/);
  const page = ref(pages, /\/Kids \[(\d+) 0 R\]/);
  expect(page).toMatch(/\/Type \/Page \/Parent \d+ 0 R \/MediaBox \[0 0 595 842\]/);
  const font = ref(page, /\/Font << \/F1 (\d+) 0 R >>/);
  const stream = ref(page, /\/Contents (\d+) 0 R/);
  const streamHead = /^<< \/Length (\d+) >>\nstream\n/.exec(stream);
  expect(streamHead, 'stream dictionary').not.toBeNull();
  const length = Number(streamHead?.[1]);
  const content = stream.slice(streamHead?.[0].length, (streamHead?.[0].length ?? 0) + length);
  expect(stream.slice((streamHead?.[0].length ?? 0) + length), '/Length ends the data right before endstream').toBe('\nendstream');
  const strings = [...content.matchAll(/\(((?:\\.|[^\\()])*)\) Tj/g)].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'));
  return { objects, content, strings, font, info: ref(trailer, /\/Info (\d+) 0 R/) };
}

const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

async function insertOrder(order: { id: string; customer: string; items: unknown[] }): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO orders (id, customer, email, items, status, delivery_date, delay_days, updated_at)
     VALUES (?1, ?2, 'someone@example.com', ?3, 'pending', '2026-12-24', 0, '2026-11-20T09:00:00.000Z')`,
  )
    .bind(order.id, order.customer, JSON.stringify(order.items))
    .run();
}

describe('order_invoice', () => {
  it("makes a one-page PDF of the order in D1: every xref offset, the stream's /Length and startxref are right", async () => {
    const invoice = outputOf<OrderInvoice>(await call('order_invoice', { order_id: 'A-1001' }));
    expect(invoice).toMatchObject({ invoice_number: 'INV-A-1001', order_id: 'A-1001', customer: 'Ada Lovelace', issued: '2026-11-20', total: 89, currency: 'EUR' });
    expect(invoice.document).toMatchObject({ type: 'document', mediaType: 'application/pdf', filename: 'invoice-A-1001.pdf' });
    const pdf = parsePdf(bytesOf(invoice.document.data));
    expect(pdf.objects.size).toBe(6);
    expect(pdf.font).toBe('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
    expect(pdf.info).toContain('/Title (Invoice INV-A-1001)');
    // The order's own fields, as D1 has them (seed: one mechanical keyboard at 89.00, shipped, due 2026-11-28).
    for (const text of ['INV-A-1001', 'A-1001 (shipped)', '2026-11-28', '2026-11-20', 'Ada Lovelace', 'ada.lovelace@example.com', 'KB-87', 'Mechanical keyboard', '1', '89.00', '89.00 EUR']) {
      expect(pdf.strings, text).toContain(text);
    }
    // Every piece of text sits on the page.
    for (const [, x, y] of pdf.content.matchAll(/Tf (-?[\d.]+) (-?[\d.]+) Td/g)) {
      expect(Number(x)).toBeGreaterThanOrEqual(56);
      expect(Number(y)).toBeGreaterThanOrEqual(56);
      expect(Number(y)).toBeLessThan(842);
    }
  });

  it('lists every line of an order with several, with amounts computed in cents and the total', async () => {
    const invoice = outputOf<OrderInvoice>(await call('order_invoice', { order_id: 'a-1007' }));
    expect(invoice.total).toBe(221.5);
    const { strings } = parsePdf(bytesOf(invoice.document.data));
    for (const text of ['Tim Berners-Lee', 'RT-6E', 'Wi-Fi 6E router', '199.00', 'CB-C6', 'Cat6 cable 5 m', '3', '7.50', '22.50', '221.50 EUR']) {
      expect(strings, text).toContain(text);
    }
    const big = invoiceOf(
      { id: 'A-1012', customer: 'Frances Allen', email: 'f@example.com', status: 'delayed', delivery_date: '2026-12-20', delay_days: 14, updated_at: '', items: [{ sku: 'SV-1U', name: '1U rack server', qty: 1, unit_price: 2890 }] },
      '2026-11-20',
    );
    expect(parsePdf(renderInvoicePdf(big)).strings).toContain('2,890.00 EUR');
  });

  it('escapes \\, ( and ) and keeps the text ASCII, so the stream stays parseable', async () => {
    await insertOrder({ id: 'A-2001', customer: 'Kurt Gödel (Logic) \\ Ltd', items: [{ sku: 'X(1)', name: 'Cable (2 m) \\ black – “new”', qty: 2, unit_price: 0.1 }] });
    const result = await call('order_invoice', { order_id: 'A-2001' });
    const invoice = outputOf<OrderInvoice>(result);
    expect(invoice.total).toBe(0.2);
    const pdf = parsePdf(bytesOf(invoice.document.data));
    expect(pdf.content).toContain('(Kurt Godel \\(Logic\\) \\\\ Ltd) Tj');
    expect(pdf.strings).toEqual(expect.arrayContaining(['Kurt Godel (Logic) \\ Ltd', 'X(1)', 'Cable (2 m) \\ black - "new"', '0.10', '0.20', '0.20 EUR']));
    // The model's summary keeps the name as D1 has it.
    expect(invoice.summary).toContain('for Kurt Gödel (Logic) \\ Ltd');
  });

  it('shows the first lines of a long order and one row for the rest; the total counts all of them', () => {
    const items = Array.from({ length: INVOICE_MAX_ROWS + 6 }, (_, i) => ({ sku: `SKU-${i + 1}`, name: `Part ${i + 1}`, qty: 1, unit_price: 10 }));
    const order: Order = { id: 'A-3000', customer: 'C', email: 'c@example.com', status: 'pending', delivery_date: '2026-12-24', delay_days: 0, updated_at: '', items };
    const { strings } = parsePdf(renderInvoicePdf(invoiceOf(order, '2026-11-20')));
    expect(strings).toContain(`SKU-${INVOICE_MAX_ROWS - 1}`);
    expect(strings).not.toContain(`SKU-${INVOICE_MAX_ROWS}`);
    expect(strings).toEqual(expect.arrayContaining(['and 7 more items', '70.00', '300.00 EUR']));
  });

  it('the model reads the summary and the PDF itself, as a document part named invoice-A-1001.pdf', async () => {
    const result = await call('order_invoice', { order_id: 'A-1001' });
    const invoice = outputOf<OrderInvoice>(result);
    expect(invoice.summary).toBe(
      'Invoice INV-A-1001 of order A-1001 for Ada Lovelace, dated 2026-11-20: 1 x Mechanical keyboard (KB-87); total 89.00 EUR.',
    );
    expect(result.parts).toEqual([
      { type: 'text', text: invoice.summary },
      { type: 'document', data: invoice.document.data, mediaType: 'application/pdf', filename: 'invoice-A-1001.pdf' },
    ]);
    expect(result.content).toMatch(/\n\[document: invoice-A-1001\.pdf, application\/pdf, \d\.\d KB\]$/);
  });

  it('an unknown order, or one without items, is an invalid-input error on order_id the model can correct', async () => {
    const unknown = await call('order_invoice', { order_id: 'A-9999' });
    expect(describeOutcome(unknown.outcome)).toBe('invalid-input');
    expect(unknown.content).toContain('No order "A-9999" exists');
    await insertOrder({ id: 'A-2002', customer: 'Nobody', items: [] });
    const empty = await call('order_invoice', { order_id: 'A-2002' });
    expect(describeOutcome(empty.outcome)).toBe('invalid-input');
    expect(empty.content).toContain('- order_id: Order A-2002 has no items, so it has no invoice.');
  });
});
