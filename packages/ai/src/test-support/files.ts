// Image and document fixtures shared by the tests of images and documents in tool results (test-only code).
import { defineTool, documentPart, imagePart } from '@edgetool/core';
import * as v from 'valibot';

/** A real 1×1 PNG, as base64. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A one-page PDF as small as it gets (189 bytes), as base64. */
export const PDF = btoa(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 3 3]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A tool whose result is text, a PDF named after the invoice and a PNG. */
export const invoiceTool = defineTool({
  name: 'invoice',
  description: 'Fetches an invoice as a PDF, with a chart of its lines.',
  input: v.object({ id: v.string() }),
  execute: ({ id }) => ({ id }),
  toModelOutput: ({ id }) => [{ type: 'text', text: `Invoice ${id}:` }, documentPart(PDF, 'application/pdf', `${id}.pdf`), imagePart(PNG, 'image/png')],
});

/** A tool whose result is a line of text and a PNG chart of the month's sales. */
export const chartTool = defineTool({
  name: 'sales_chart',
  description: 'Draws the sales of a month as a chart.',
  input: v.object({ month: v.string() }),
  execute: ({ month }) => ({ month, png: PNG }),
  toModelOutput: ({ month, png }) => [{ type: 'text', text: `Sales in ${month}:` }, imagePart(png, 'image/png')],
});
