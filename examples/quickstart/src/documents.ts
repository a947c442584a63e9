import { createExecutor, defineTool, documentPart } from '@edgetool/core';
import * as v from 'valibot';

// A one-page PDF stands in for the bytes your invoicing or reporting service returns.
const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

const getInvoice = defineTool({
  name: 'get_invoice',
  description: 'Fetch an invoice as a PDF',
  input: v.object({ id: v.string() }),
  execute: ({ id }) => ({ id, pdf: documentPart(pdf, 'application/pdf', `${id}.pdf`) }),
  // The model reads the PDF itself (its text and its pages), under its file name.
  toModelOutput: ({ id, pdf }) => [{ type: 'text', text: `Invoice ${id}, attached:` }, pdf],
});

const result = await createExecutor({ registry: [getInvoice] }).execute({ id: 'c1', name: 'get_invoice', arguments: '{"id":"INV-7"}' });
console.log(result.parts?.map((part) => part.type).join(', ')); // text, document
console.log(result.content); // what a model that takes no documents reads: the text, and a line naming the document
