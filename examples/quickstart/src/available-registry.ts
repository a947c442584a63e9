import { createExecutor, createRegistry, createRunContext, withDeps } from '@edgetool/core';
import * as v from 'valibot';

interface Deps {
  readonly plan: 'free' | 'pro';
}
const { defineTool } = withDeps<Deps>();

const search = defineTool({ name: 'search', description: 'Search the orders', input: v.object({ q: v.string() }), execute: ({ q }) => `3 orders match ${q}` });
const exportCsv = defineTool({ name: 'export_csv', description: 'Export orders as CSV', input: v.object({ q: v.string() }), execute: ({ q }) => `orders-${q}.csv` });
const forecast = defineTool({ name: 'forecast', description: 'Forecast next month', input: v.object({}), execute: () => '+12 %' });

// The paid module: one check for all its tools (AND-ed with a tool's own `available`), here nested in the app's registry.
const pro = createRegistry({ tools: [exportCsv, forecast], available: (run) => run.deps.plan === 'pro' });
const executor = createExecutor({ registry: createRegistry({ tools: [search], resolvers: [pro] }) });

const on = (plan: Deps['plan']) => ({ run: createRunContext({ deps: { plan } }) });
const call = { id: 'c1', name: 'export_csv', arguments: { q: 'late' } };
console.log((await executor.execute(call, on('pro'))).content); // orders-late.csv
console.log((await executor.execute(call, on('free'))).content); // Error (unknown-tool): Unknown tool "export_csv". Available tools: search.
