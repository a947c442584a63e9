import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { createTicketSigner } from '../tickets/ticket-signer.ts';
import { defineTool } from './define-tool.ts';
import { checkModelContent, type DocumentPart, documentPart, type ImagePart, imagePart, partsText } from './model-content.ts';

/** A real 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const pngBytes = () => Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));
/** A one-page PDF, as small as it gets (readers rebuild the missing cross-reference table). */
const PDF_TEXT =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 3 3]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
const PDF_BASE64 = btoa(PDF_TEXT);
const pdfBytes = () => new TextEncoder().encode(PDF_TEXT);

describe('imagePart', () => {
  it('encodes bytes as standard padded base64, from a Uint8Array or an ArrayBuffer', () => {
    expect(imagePart(pngBytes(), 'image/png')).toEqual({ type: 'image', data: PNG_BASE64, mediaType: 'image/png' });
    expect(imagePart(pngBytes().buffer, 'image/png').data).toBe(PNG_BASE64);
    // Every remainder of 3, and bytes that base64url would write differently (+ and /).
    for (const bytes of [[0xfb], [0xfb, 0xff], [0xfb, 0xff, 0xbf], [0, 1, 2, 3]]) {
      const data = imagePart(Uint8Array.from(bytes), 'image/gif').data;
      expect(Array.from(atob(data), (c) => c.charCodeAt(0))).toEqual(bytes);
    }
  });

  it('encodes an image larger than one chunk of the encoder', () => {
    const bytes = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 7) & 255);
    const decoded = atob(imagePart(bytes, 'image/webp').data);
    expect(decoded.length).toBe(bytes.length);
    expect(decoded.charCodeAt(99_999)).toBe(bytes[99_999]);
  });

  it('checks an image of some megabytes (providers take up to 20 MB)', () => {
    const data = 'A'.repeat(8 * 1024 * 1024); // 6 MB
    expect(imagePart(data, 'image/png').data).toBe(data);
    expect(checkModelContent([{ type: 'image', data, mediaType: 'image/png' }])).toHaveLength(1);
  });

  it('takes base64 text as it is, and refuses what models cannot take', () => {
    expect(imagePart(PNG_BASE64, 'image/png').data).toBe(PNG_BASE64);
    expect(() => imagePart(PNG_BASE64, 'image/svg+xml')).toThrow(/media type "image\/svg\+xml"; models take image\/png/);
    expect(() => imagePart(`data:image/png;base64,${PNG_BASE64}`, 'image/png')).toThrow(/not base64 text/);
    expect(() => imagePart('abc', 'image/png')).toThrow(/not base64 text/);
    for (const bad of ['AAAAA', 'AAA==', 'A===', '====', 'AA=A', 'AAAA=AAA', 'AA-_', 'AA A']) expect(() => imagePart(bad, 'image/png')).toThrow(/not base64 text/);
    for (const good of ['AAAA', 'AAA=', 'AA==', 'AAAAAA==', '+/+/']) expect(imagePart(good, 'image/png').data).toBe(good);
    expect(() => imagePart('', 'image/png')).toThrow(/not base64 text/);
  });

  it('names the helper that makes a part for a PDF', () => {
    expect(() => imagePart(PDF_BASE64, 'application/pdf')).toThrow(
      'part 0 of toModelOutput has media type "application/pdf"; models take image/png, image/jpeg, image/gif, image/webp (documentPart makes a part for it)',
    );
  });
});

describe('documentPart', () => {
  it('encodes a PDF as base64, from a Uint8Array or an ArrayBuffer, with its file name when given', () => {
    expect(documentPart(pdfBytes(), 'application/pdf', 'report.pdf')).toEqual({ type: 'document', data: PDF_BASE64, mediaType: 'application/pdf', filename: 'report.pdf' });
    expect(documentPart(pdfBytes().buffer, 'application/pdf').data).toBe(PDF_BASE64);
    // No file name: no `filename` key at all (the part is JSON a UI or a store keeps as it is).
    expect(Object.keys(documentPart(PDF_BASE64, 'application/pdf'))).toEqual(['type', 'data', 'mediaType']);
  });

  it('refuses another media type, and names imagePart for an image type', () => {
    expect(() => documentPart(PDF_BASE64, 'application/msword')).toThrow('part 0 of toModelOutput has media type "application/msword"; models take application/pdf documents');
    expect(() => documentPart(PNG_BASE64, 'image/png')).toThrow('has media type "image/png"; models take application/pdf documents (imagePart makes a part for it)');
  });

  it('refuses data that is not base64, or not a PDF', () => {
    expect(() => documentPart(`data:application/pdf;base64,${PDF_BASE64}`, 'application/pdf')).toThrow(/`data` that is not base64 text/);
    expect(() => documentPart('', 'application/pdf')).toThrow(/`data` that is not base64 text/);
    expect(() => documentPart(PNG_BASE64, 'application/pdf')).toThrow('part 0 of toModelOutput has `data` that is not a PDF (no "%PDF-" header in its first 1,024 bytes)');
    expect(() => documentPart(new TextEncoder().encode('%PDF'), 'application/pdf')).toThrow(/not a PDF/);
  });

  it('finds the header where PDF readers look for it: anywhere in the first 1,024 bytes', () => {
    const junkThenPdf = (junk: number) => new TextEncoder().encode(`${'x'.repeat(junk)}${PDF_TEXT}`);
    expect(documentPart(junkThenPdf(1019), 'application/pdf').type).toBe('document');
    expect(() => documentPart(junkThenPdf(1020), 'application/pdf')).toThrow(/not a PDF/);
  });

  it('takes a plain file name only', () => {
    for (const name of ['report.pdf', 'Q3 report (final).pdf', 'übersicht.pdf', '..pdf', 'a'.repeat(255)]) {
      expect(documentPart(PDF_BASE64, 'application/pdf', name).filename).toBe(name);
    }
    for (const name of ['', '.', '..', '../secret.pdf', 'a/b.pdf', 'C:\\temp\\b.pdf', 'two\nlines.pdf', 'nul\0.pdf', 'a'.repeat(256)]) {
      expect(() => documentPart(PDF_BASE64, 'application/pdf', name)).toThrow(
        `part 0 of toModelOutput has filename ${JSON.stringify(name)}, not a plain file name (1-255 characters, no "/", "\\" or control characters, not "." or "..")`,
      );
    }
  });
});

describe('checkModelContent', () => {
  it('takes a string, or text and image parts, copied', () => {
    expect(checkModelContent('hi')).toBe('hi');
    const image = { type: 'image', data: PNG_BASE64, mediaType: 'image/png', extra: 1 };
    const checked = checkModelContent([{ type: 'text', text: 'A chart' }, image]);
    expect(checked).toEqual([
      { type: 'text', text: 'A chart' },
      { type: 'image', data: PNG_BASE64, mediaType: 'image/png' },
    ]);
    image.data = 'changed';
    expect((checked[1] as ImagePart).data).toBe(PNG_BASE64);
  });

  it('takes document parts, copied, with a file name only when there is one', () => {
    const document = { type: 'document', data: PDF_BASE64, mediaType: 'application/pdf', filename: 'report.pdf', extra: 1 };
    const checked = checkModelContent([document, { type: 'document', data: PDF_BASE64, mediaType: 'application/pdf', filename: undefined }]);
    expect(checked).toEqual([
      { type: 'document', data: PDF_BASE64, mediaType: 'application/pdf', filename: 'report.pdf' },
      { type: 'document', data: PDF_BASE64, mediaType: 'application/pdf' },
    ]);
    expect(Object.keys(checked[1] as DocumentPart)).toEqual(['type', 'data', 'mediaType']);
    document.filename = 'changed.pdf';
    expect((checked[0] as DocumentPart).filename).toBe('report.pdf');
  });

  it('names what is wrong', () => {
    expect(() => checkModelContent(42)).toThrow('toModelOutput returned number, not a string or a list of parts');
    expect(() => checkModelContent(null)).toThrow('toModelOutput returned null');
    expect(() => checkModelContent([])).toThrow('no parts');
    expect(() => checkModelContent([{ type: 'text' }])).toThrow('part 0 of toModelOutput is a text part without a string `text`');
    expect(() => checkModelContent(['text'])).toThrow(/part 0 .* not \{ type: 'text', text \}/);
    expect(() => checkModelContent([{ type: 'text', text: '' }, { type: 'image', data: PNG_BASE64 }])).toThrow(/part 1 .* media type undefined/);
    expect(() => checkModelContent([{ type: 'file', data: PDF_BASE64, mediaType: 'application/pdf' }])).toThrow(
      "part 0 of toModelOutput is not { type: 'text', text }, { type: 'image', data, mediaType } or { type: 'document', data, mediaType, filename? }",
    );
    expect(() => checkModelContent([{ type: 'text', text: '' }, { type: 'document', data: PDF_BASE64 }])).toThrow(/part 1 .* media type undefined; models take application\/pdf documents/);
    expect(() => checkModelContent([{ type: 'document', data: 'JVBERi0', mediaType: 'application/pdf' }])).toThrow(/part 0 .* not base64 text/);
    expect(() => checkModelContent([{ type: 'text', text: '' }, { type: 'document', data: PDF_BASE64, mediaType: 'application/pdf', filename: null }])).toThrow(
      /part 1 of toModelOutput has filename null, not a plain file name/,
    );
  });

  it('partsText names each image and document with its type and size, and a document by its file name', () => {
    expect(partsText([{ type: 'text', text: 'A chart:' }, imagePart(pngBytes(), 'image/png')])).toBe(`A chart:\n[image: image/png, ${pngBytes().length} B]`);
    expect(partsText([imagePart(new Uint8Array(2048), 'image/jpeg')])).toBe('[image: image/jpeg, 2.0 KB]');
    const invoice = [{ type: 'text', text: 'The invoice:' }, documentPart(pdfBytes(), 'application/pdf', 'invoice.pdf'), documentPart(pdfBytes(), 'application/pdf')] as const;
    expect(partsText(invoice)).toBe(
      `The invoice:\n[document: invoice.pdf, application/pdf, ${PDF_TEXT.length} B]\n[document: application/pdf, ${PDF_TEXT.length} B]`,
    );
    // 189 + 3 × 1,223,338 bytes: 3.5 MB.
    expect(partsText([documentPart(PDF_BASE64 + 'AAAA'.repeat(1_223_338), 'application/pdf', 'scan.pdf')])).toBe('[document: scan.pdf, application/pdf, 3.5 MB]');
  });
});

describe('the executor with parts', () => {
  const chart = defineTool({
    name: 'chart',
    description: 'Draws a chart.',
    input: v.object({ title: v.string() }),
    execute: ({ title }) => ({ title, png: pngBytes() }),
    toModelOutput: (output) => [{ type: 'text', text: `Chart "${output.title}":` }, imagePart(output.png, 'image/png')],
  });

  it('keeps the parts, and their text in content', async () => {
    const result = await createExecutor({ registry: [chart] }).execute({ id: 'c1', name: 'chart', arguments: '{"title":"Sales"}' });
    expect(result.isError).toBe(false);
    expect(result.parts).toEqual([
      { type: 'text', text: 'Chart "Sales":' },
      { type: 'image', data: PNG_BASE64, mediaType: 'image/png' },
    ]);
    expect(result.content).toBe(`Chart "Sales":\n[image: image/png, ${pngBytes().length} B]`);
  });

  it('keeps document parts, and names them in content', async () => {
    const invoice = defineTool({
      name: 'invoice',
      description: 'Fetches an invoice as a PDF.',
      input: v.object({ id: v.string() }),
      execute: ({ id }) => ({ id, pdf: pdfBytes() }),
      toModelOutput: ({ id, pdf }) => [{ type: 'text', text: `Invoice ${id}:` }, documentPart(pdf, 'application/pdf', `${id}.pdf`)],
    });
    const result = await createExecutor({ registry: [invoice] }).execute({ id: 'c1', name: 'invoice', arguments: '{"id":"INV-7"}' });
    expect(result.parts).toEqual([
      { type: 'text', text: 'Invoice INV-7:' },
      { type: 'document', data: PDF_BASE64, mediaType: 'application/pdf', filename: 'INV-7.pdf' },
    ]);
    expect(result.content).toBe(`Invoice INV-7:\n[document: INV-7.pdf, application/pdf, ${PDF_TEXT.length} B]`);
  });

  it('text results have no parts', async () => {
    const plain = defineTool({ name: 'plain', description: '', input: v.object({}), execute: () => ({ a: 1 }) });
    const result = await createExecutor({ registry: [plain] }).execute({ id: 'c1', name: 'plain', arguments: '{}' });
    expect(result.parts).toBeUndefined();
    expect(result.content).toBe('{"a":1}');
  });

  it('bad parts are an invalid-output error the model can read, with no parts', async () => {
    const bad = defineTool({
      name: 'bad',
      description: '',
      input: v.object({}),
      execute: () => 'x',
      toModelOutput: () => [{ type: 'image', data: PNG_BASE64, mediaType: 'application/pdf' }],
    });
    const result = await createExecutor({ registry: [bad] }).execute({ id: 'c1', name: 'bad', arguments: '{}' });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('invalid-output');
    expect(result.parts).toBeUndefined();
    expect(result.content).toMatch(/^Error \(invalid-output\): .*part 0 of toModelOutput has media type "application\/pdf"/);
  });

  it('a bad document part is the call’s invalid-output error that names it', async () => {
    const bad = defineTool({
      name: 'bad',
      description: '',
      input: v.object({}),
      execute: () => 'x',
      toModelOutput: () => [{ type: 'text', text: 'Here:' }, { type: 'document', data: PDF_BASE64, mediaType: 'application/pdf', filename: '/etc/passwd' }],
    });
    const result = await createExecutor({ registry: [bad] }).execute({ id: 'c1', name: 'bad', arguments: '{}' });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('invalid-output');
    expect(result.parts).toBeUndefined();
    expect(result.content).toMatch(/^Error \(invalid-output\): .*part 1 of toModelOutput has filename "\/etc\/passwd", not a plain file name/);
  });

  it('a client tool result becomes parts too', async () => {
    const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'a-test-secret-that-is-at-least-32-bytes-long' }] });
    const camera = defineTool({
      name: 'camera',
      description: 'Takes a photo in the browser.',
      input: v.object({}),
      policy: { runsOn: 'client' },
      toModelOutput: (output: { jpeg: string }) => [imagePart(output.jpeg, 'image/jpeg')],
    });
    const executor = createExecutor({ registry: [camera], tickets });
    const run = createRunContext({ conversationId: 'conv-1' });
    const call = { id: 'c1', name: 'camera', arguments: '{}' };
    const pending = await executor.execute(call, { run });
    expect(pending.outcome.type).toBe('client-pending');
    const ticket = pending.outcome.type === 'client-pending' ? pending.outcome.ticket : undefined;
    const result = await executor.acceptClientResult({ call, output: { jpeg: PNG_BASE64 }, ticket, run });
    expect(result.parts).toEqual([{ type: 'image', data: PNG_BASE64, mediaType: 'image/jpeg' }]);
  });
});
