import { agentTool, createChatAgent, createModelFromEnv, generateTextTurn } from '@edgetool/ai';
import { createExecutor, createRunContext, createTicketSigner, defineTool, ToolError } from '@edgetool/core';
import * as v from 'valibot';

const queryOrder = defineTool({
  name: 'query_order',
  description: 'Look up an order by its id',
  input: v.object({ order_id: v.string() }),
  execute: ({ order_id }) => ({ order_id, status: 'delayed', days_late: 3 }),
});

// What the job needs back: data, not prose.
const Delay = v.object({ order_id: v.string(), late: v.boolean(), days_late: v.pipe(v.number(), v.integer()) });

const { model } = createModelFromEnv(process.env);
const agent = createChatAgent({
  model,
  tools: [queryOrder],
  tickets: createTicketSigner({ keys: [{ id: 'k1', secret: 'replace-me-with-32+-random-bytes-from-a-secret' }] }),
});

try {
  const result = await generateTextTurn(agent, { messages: 'Is order A-1001 late?', run: createRunContext(), output: Delay });
  console.log(result.output?.days_late); // typed: { order_id: string; late: boolean; days_late: number } | undefined
} catch (error) {
  // Not JSON, or no Delay even after one repair round: a typed error with the issues, never a wrong value.
  if (!ToolError.isInstance(error) || error.code !== 'invalid-output') throw error;
  console.log(error.message);
}

// The same agent as a tool: its answer is a Delay, and the calling model reads it as JSON.
const checker = await agentTool({ name: 'delay_checker', description: 'Checks how late an order is', agent, output: Delay });
const checked = await createExecutor({ registry: [checker] }).execute({ id: 'call_1', name: 'delay_checker', arguments: { task: 'How late is A-1001?' } });
console.log(checked.content);
