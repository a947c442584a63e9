import { createExecutor, defineTool } from '@edgetool/core';
import { connectMcp, createMcpHandler } from '@edgetool/core/mcp';
import * as v from 'valibot';

// A server to talk to. In your app it is a URL; here it is an edgetool MCP handler in the same process.
const server = createMcpHandler({
  name: 'orders',
  version: '1.0.0',
  approvals: 'client', // lists the destructive tool: the client asks its human
  tools: [
    defineTool({ name: 'get_order', description: 'Look up an order', input: v.object({ id: v.string() }), execute: ({ id }) => ({ id, status: 'shipped' }) }),
    defineTool({ name: 'cancel_order', description: 'Cancel an order', input: v.object({ id: v.string() }), policy: { effects: 'destructive' }, execute: ({ id }) => `Cancelled ${id}` }),
  ],
});

// In your app: connectMcp({ url: 'https://mcp.example.com/mcp', headers: { authorization: `Bearer ${token}` } })
const orders = await connectMcp({ url: 'https://orders.example/mcp', fetch: server });
const executor = createExecutor({ registry: await orders.tools({ prefix: 'orders_' }) });

const found = await executor.execute({ id: 'c1', name: 'orders_get_order', arguments: '{"id":"A-1001"}' });
console.log(found.content); // the server's answer, as the model reads it
const cancel = { id: 'c2', name: 'orders_cancel_order', arguments: '{"id":"A-1001"}' };
console.log((await executor.execute(cancel)).outcome.type); // approval-required: nothing was sent
console.log((await executor.execute(cancel, { approval: { approved: true } })).content);
const wrong = await executor.execute({ id: 'c3', name: 'orders_get_order', arguments: '{"id":42}' });
console.log(wrong.content); // checked against the server's JSON Schema before anything is sent
await orders.close();
