import { createChatAgent, createModelFromEnv } from '@edgetool/ai';
import { createRunContext, createTicketSigner, withDeps } from '@edgetool/core';
import * as v from 'valibot';

interface Deps {
  readonly user: { readonly name: string; readonly plan: 'free' | 'pro' };
}
const { defineTool } = withDeps<Deps>();

const queryOrder = defineTool({
  name: 'query_order',
  description: 'Look up an order by its id',
  input: v.object({ order_id: v.string() }),
  execute: ({ order_id }) => ({ order_id, status: 'shipped' }),
});

const { model } = createModelFromEnv(process.env);
const agent = createChatAgent({
  model,
  tools: [queryOrder],
  tickets: createTicketSigner({ keys: [{ id: 'k1', secret: 'replace-me-with-32+-random-bytes-from-a-secret' }] }),
  // Made per turn from the run, typed by the tools' deps.
  instructions: (run) => `You help ${run.deps.user.name}. Be brief.`,
  // Every model step gets these; a turn's own settings override them field by field.
  settings: { temperature: 0.2, maxOutputTokens: 500 },
  // The most tokens one turn may use, agents it runs as tools included; a turn's own budget can only lower it.
  tokenBudget: 20_000,
});

const run = createRunContext({ conversationId: 'conv-7', deps: { user: { name: 'Ada', plan: 'pro' } } satisfies Deps });
const result = await agent.generate({
  messages: 'Where is order A-1001?',
  run,
  settings: run.deps.user.plan === 'pro' ? { maxOutputTokens: 2000 } : {},
  // What is left of this user's quota for the day, say.
  tokenBudget: 5_000,
});
console.log(result.text);
// The turn's tokens: every model step, plus what its tools reported (agents run as tools included).
console.log(`${result.usage.inputTokens} in, ${result.usage.outputTokens} out, ${result.usage.totalTokens} in all`);
// Set when the turn stopped at `maxSteps` ('steps') or at its budget ('tokens') before the model answered.
if (result.limit !== undefined) console.log(`Stopped at the ${result.limit} limit.`);
