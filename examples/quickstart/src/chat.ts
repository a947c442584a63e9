import { createChatAgent, createModelFromEnv } from '@edgetool/ai';
import { respondToApproval } from '@edgetool/ai/testing';
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import * as v from 'valibot';

const orders = new Map([['A-1001', { status: 'shipped', delivery_date: '2026-12-01' }]]);

const queryOrder = defineTool({
  name: 'query_order',
  description: 'Look up an order by its id',
  input: v.object({ order_id: v.pipe(v.string(), v.description('e.g. A-1001')) }),
  execute: ({ order_id }) => ({ order_id, ...orders.get(order_id) }),
});

const updateDeliveryDate = defineTool({
  name: 'update_delivery_date',
  description: 'Change the delivery date of an order',
  input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
  policy: { effects: 'write' }, // needs a human approval
  execute: ({ order_id, new_date }) => {
    const order = orders.get(order_id);
    if (order) order.delivery_date = new_date;
    return { order_id, delivery_date: new_date };
  },
});

// Without OPENAI_API_KEY the offline model answers; set it (and OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API) for a real one.
const { model } = createModelFromEnv(process.env);
const agent = createChatAgent({
  model,
  tools: [queryOrder, updateDeliveryDate],
  tickets: createTicketSigner({ keys: [{ id: 'k1', secret: 'replace-me-with-32+-random-bytes-from-a-secret' }] }),
});
const run = () => createRunContext({ conversationId: 'conv-42' });

// Internal mode: the loop runs the read tool itself and answers.
const lookup = await agent.generate({ messages: 'Where is order A-1001?', run: run() });
console.log(lookup.text);

// A write pauses for approval; the pending call carries its ticket in the message.
const asked = await agent.generate({ messages: 'Change the delivery date of order A-1001 to 2026-12-24', run: run() });
console.log(asked.pending.map((call) => `${call.toolName} waits for ${call.kind}`));

// The browser answers with useChat's addToolApprovalResponse; here the test helper plays it.
const done = await agent.generate({ messages: respondToApproval(asked.messages, asked.pending[0]?.toolCallId ?? '', true), run: run() });
console.log(done.text, orders.get('A-1001')?.delivery_date);
