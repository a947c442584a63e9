// The README's example of the demo tools without the chat: the code between the markers is shown verbatim in
// README.md (checked below), compiled with the Worker's tests and run here against the local D1.
import { env as workerEnv } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import readme from '../README.md?raw';
import source from './readme.test.ts?raw';
// README: begin
import { createExecutor, createRunContext, type ToolCall } from '@edgetool/core';
import { createTickets } from './agent.ts';
import type { Env } from './env.ts';
import { createDemoRegistry, demoDeps } from './tools/index.ts';

// The demo's tools without the chat (a queue consumer, a cron job): the same registry and tickets, deps per request.
async function runDemoTool(env: Env, call: ToolCall, conversationId: string) {
  const executor = createExecutor({ registry: createDemoRegistry(), tickets: createTickets(env), toolErrorMessage: 'hide-unexpected' });
  return executor.execute(call, { run: createRunContext({ conversationId, deps: demoDeps(env) }) });
}
// README: end

describe("the README's example", () => {
  it('is shown verbatim in README.md', () => {
    const shown = /\/\/ README: begin\n([\s\S]*?)\/\/ README: end\n/.exec(source)?.[1];
    expect(shown).toContain('async function runDemoTool');
    expect(readme).toContain(`\`\`\`ts\n${shown}\`\`\``);
  });

  it('reads an order from D1, and a write waits for its approval with a ticket', async () => {
    const read = await runDemoTool(workerEnv, { id: 'call_1', name: 'query_order', arguments: { order_id: 'A-1001' } }, 'conv-readme');
    expect(read.outcome.type).toBe('success');
    expect(read.content).toContain('"customer":"Ada Lovelace"');
    const write = await runDemoTool(workerEnv, { id: 'call_2', name: 'update_delivery_date', arguments: { order_id: 'A-1001', new_date: '2099-12-24' } }, 'conv-readme');
    expect(write.outcome).toMatchObject({ type: 'approval-required', ticket: expect.stringMatching(/^et1\./) });
  });
});
