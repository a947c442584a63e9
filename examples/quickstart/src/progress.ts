import { createExecutor, defineTool } from '@edgetool/core';
import * as v from 'valibot';

const importOrders = defineTool({
  name: 'import_orders',
  description: 'Import orders from CSV lines (id,quantity)',
  input: v.object({ csv: v.string() }),
  execute: async ({ csv }, ctx) => {
    const rows = csv.trim().split('\n');
    for (let done = 0; done < rows.length; ) {
      done = Math.min(done + 2, rows.length); // …write a batch of two rows to your database here…
      ctx.progress({ message: `Imported ${done} of ${rows.length} rows`, completed: done, total: rows.length });
    }
    return { imported: rows.length };
  },
});

const executor = createExecutor({ registry: [importOrders] });
const result = await executor.execute(
  { id: 'call_1', name: 'import_orders', arguments: { csv: 'A-1001,2\nA-1002,1\nA-1003,5' } },
  { onProgress: ({ progress }) => console.log(progress.message) }, // the chat loop streams these to the UI
);
console.log(result.content);
