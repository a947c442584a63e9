import { createExecutor, createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import * as v from 'valibot';

// A write tool needs a human approval; the pending call carries a signed, single-use ticket.
const refund = defineTool({
  name: 'refund_order',
  description: 'Refund an order',
  input: v.object({ order_id: v.string(), amount: v.number() }),
  // What the human reads beside the arguments: words from the tool, never from the model.
  policy: { effects: 'write', approvalReason: ({ order_id, amount }) => `Refunds ${amount.toFixed(2)} EUR on order ${order_id}.` },
  execute: ({ order_id, amount }) => `Refunded ${amount} on ${order_id}`,
});

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'replace-me-with-32+-random-bytes-from-a-secret' }] });
const executor = createExecutor({ registry: [refund], tickets });
const run = createRunContext({ conversationId: 'conv-1' });
const call = { id: 'call_9', name: 'refund_order', arguments: { order_id: 'A-1001', amount: 25 } };

const pending = await executor.execute(call, { run });
if (pending.outcome.type !== 'approval-required') throw new Error('expected an approval request');
console.log(pending.outcome.reason); // Refunds 25.00 EUR on order A-1001. (nothing ran)
const { ticket } = pending.outcome;

// A forged approval (another amount, same ticket) is refused; the genuine one runs once.
const forged = await executor.execute({ ...call, arguments: { order_id: 'A-1001', amount: 9999 } }, { run, approval: { approved: true, ticket } });
console.log(forged.content); // Error (ticket-invalid): …
const approved = await executor.execute(call, { run, approval: { approved: true, ticket } });
console.log(approved.content); // Refunded 25 on A-1001
const replayed = await executor.execute(call, { run, approval: { approved: true, ticket } });
console.log(replayed.content); // Error (ticket-invalid): … already used
