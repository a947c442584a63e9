import { createExecutor, createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import * as v from 'valibot';

// The user may change the date (not the order) when approving; the ticket stays the one issued for the model's call.
const move = defineTool({
  name: 'update_delivery_date',
  description: 'Move the delivery date of an order',
  input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
  policy: { effects: 'write', editable: ['new_date'] },
  execute: ({ order_id, new_date }) => ({ order_id, delivery_date: new_date }),
});

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'replace-me-with-32+-random-bytes-from-a-secret' }] });
const executor = createExecutor({ registry: [move], tickets });
const run = createRunContext({ conversationId: 'conv-1' });
const call = { id: 'call_5', name: 'update_delivery_date', arguments: { order_id: 'A-1001', new_date: '2026-12-24' } };

const pending = await executor.execute(call, { run });
const ticket = pending.outcome.type === 'approval-required' ? pending.outcome.ticket : undefined;

// Another order is not the user's to pick here: refused, nothing runs, and the ticket is still unused.
const other = await executor.execute(call, { run, approval: { approved: true, ticket, input: { order_id: 'A-2002', new_date: '2026-12-27' } } });
console.log(other.content); // Error (invalid-input): … lets a human edit only "new_date" (changed: "order_id") …
// Another date is: validated and checked again, run once, and the model reads what the user changed.
const moved = await executor.execute(call, { run, approval: { approved: true, ticket, input: { order_id: 'A-1001', new_date: '2026-12-27' } } });
console.log(moved.content); // The user edited your arguments before approving this call: new_date changed from … {"order_id":"A-1001",…}
