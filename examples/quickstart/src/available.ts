import { createExecutor, createRunContext, withDeps } from '@edgetool/core';
import * as v from 'valibot';

interface Deps {
  readonly role: 'staff' | 'customer';
}
const { defineTool } = withDeps<Deps>();

const lookup = defineTool({ name: 'lookup_order', description: 'Look up an order', input: v.object({ id: v.string() }), execute: ({ id }) => `${id}: shipped` });

// Staff only: customers' models are never given the tool, and a call of it is an unknown tool.
const refund = defineTool({
  name: 'refund_order',
  description: 'Refund an order',
  input: v.object({ id: v.string() }),
  policy: { effects: 'write', needsApproval: false, available: (run) => run.deps.role === 'staff' },
  execute: ({ id }) => `Refunded ${id}`,
});

const executor = createExecutor({ registry: [lookup, refund] });
const as = (role: Deps['role']) => ({ run: createRunContext({ deps: { role } }) });
const call = { id: 'c1', name: 'refund_order', arguments: { id: 'A-1001' } };
console.log((await executor.execute(call, as('staff'))).content); // Refunded A-1001
console.log((await executor.execute(call, as('customer'))).content); // Error (unknown-tool): Unknown tool "refund_order". Available tools: lookup_order.
