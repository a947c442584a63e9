import { createExecutor, defineTool } from '@edgetool/core';
import * as v from 'valibot';

// A search that may match every line of a big log: the UI gets all of it, the model reads 2,000 characters.
const searchLog = defineTool({
  name: 'search_log',
  description: 'The lines of the access log that mention an order',
  input: v.object({ order_id: v.string() }),
  policy: { maxContentChars: 2_000 },
  execute: ({ order_id }) => Array.from({ length: 5_000 }, (_, i) => `${i}: GET /orders/${order_id} 200`).join('\n'),
});

const result = await createExecutor({ registry: [searchLog] }).execute({ id: 'c1', name: 'search_log', arguments: { order_id: 'A-1001' } });
if (result.outcome.type === 'success') console.log(String(result.outcome.output).length); // 143889: the whole output
console.log(result.content.length); // at most 2000: the start and the end of the output around a note
console.log(/\[….*\]/.exec(result.content)?.[0]); // [… 142,116 of 143,889 characters left out here: …]
