import { createChatAgent, createModelFromEnv, generateTextTurn } from '@edgetool/ai';
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import * as v from 'valibot';

const orders = new Map([['A-1001', { status: 'shipped', delivery_date: '2026-12-01' }]]);

const updateDeliveryDate = defineTool({
  name: 'update_delivery_date',
  description: 'Change the delivery date of an order',
  input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
  policy: { effects: 'write' }, // needs an approval, in a job too
  execute: ({ order_id, new_date }) => {
    const order = orders.get(order_id);
    if (order) order.delivery_date = new_date;
    return { order_id, delivery_date: new_date };
  },
});

const { model } = createModelFromEnv(process.env);
const agent = createChatAgent({
  model,
  tools: [updateDeliveryDate],
  tickets: createTicketSigner({ keys: [{ id: 'k1', secret: 'replace-me-with-32+-random-bytes-from-a-secret' }] }),
});
const run = () => createRunContext({ conversationId: 'nightly-job' });

// Server code, no client: a text turn on generateText. Model messages in and out, no UI stream, no seals.
const asked = await generateTextTurn(agent, { messages: 'Change the delivery date of order A-1001 to 2026-12-24', run: run() });
const call = asked.pending[0];
console.log(`${call?.toolName} waits for ${call?.kind}`, orders.get('A-1001')?.delivery_date);

// This trusted code answers by call id; the loop runs the call once and the model answers.
const done = await generateTextTurn(agent, { messages: asked.messages, approvals: { [call?.toolCallId ?? '']: true }, run: run() });
console.log(done.text, orders.get('A-1001')?.delivery_date);
