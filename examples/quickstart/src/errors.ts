import { createExecutor, defineTool, ToolError } from '@edgetool/core';
import * as v from 'valibot';

const getInvoice = defineTool({
  name: 'get_invoice',
  description: 'Find an invoice by its number',
  input: v.object({ number: v.string() }),
  execute: async ({ number }) => {
    if (!number.startsWith('INV-')) throw new ToolError('invalid-input', 'Invoice numbers look like INV-7.');
    // Stands in for a database driver that fails with its connection details.
    throw new Error('connect ECONNREFUSED 10.0.3.7:5432 (user billing)');
  },
});

const executor = createExecutor({ registry: [getInvoice], toolErrorMessage: 'hide-unexpected' });
const wrong = await executor.execute({ id: 'call_1', name: 'get_invoice', arguments: { number: '7' } });
const down = await executor.execute({ id: 'call_2', name: 'get_invoice', arguments: { number: 'INV-7' } });
console.log(wrong.content); // a ToolError's words were written for the model: kept
console.log(down.content); // anything else thrown: hidden, with a reference
if (down.outcome.type === 'error') console.log(down.outcome.error.message); // the server keeps the original
