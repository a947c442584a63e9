import { createRegistry, createRunContext, createTicketSigner, defineTool, lazyResolver, ToolError } from '@edgetool/core';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { agentTool } from '../agent-tool.ts';
import { toAISDKTools } from './ai-tools.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'lazy-tools-test-secret-32-bytes-long!!' }] });
const offered = (call: LanguageModelV4CallOptions | undefined) => (call?.tools ?? []).map((tool) => tool.name);

const queryOrder = defineTool({
  name: 'query_order',
  description: 'Look up an order',
  input: v.object({ order_id: v.string() }),
  execute: ({ order_id }) => ({ order_id, status: 'shipped' }),
});

function fixture() {
  const refunds: string[] = [];
  const failures: string[] = [];
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order',
    input: v.object({ order_id: v.string() }),
    policy: { effects: 'destructive' },
    execute: ({ order_id }) => {
      refunds.push(order_id);
      return 'refunded';
    },
  });
  const state = { fail: true };
  const lazy = lazyResolver({ refund: () => (state.fail ? Promise.reject(new Error('chunk load failed')) : Promise.resolve(refund)) });
  const registry = createRegistry({ tools: [queryOrder], resolvers: [lazy], onLoadError: (_error, name) => failures.push(name) });
  return { registry, refunds, failures, state };
}

describe('chat loop: a lazy tool that fails to load', () => {
  it('a load that never settles holds the turn only until the run is aborted (a closed tab no longer leaves it hanging)', async () => {
    const failures: string[] = [];
    const lazy = lazyResolver({ refund: () => new Promise<never>(() => {}) });
    const registry = createRegistry({ tools: [queryOrder], resolvers: [lazy], onLoadError: (error, name) => failures.push(`${name}: ${ToolError.isInstance(error) ? error.code : 'untyped'}`) });
    const controller = new AbortController();
    const model = scriptedModel(textStep('Hello.'));
    const turn = createChatAgent({ model, tools: registry, tickets }).generate({ messages: 'Hi', run: createRunContext({ signal: controller.signal }) });
    const settled = turn.then(
      () => 'resolved',
      () => 'rejected',
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(['resolved', 'rejected']).toContain(await settled);
    expect(failures).toEqual(['refund: aborted']);
  });

  it('leaves the turn standing, in both loops: the model is given the tools that loaded (the turn failed before it began)', async () => {
    const f = fixture();
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1001' }]]), textStep('It has shipped.'));
    const result = await createChatAgent({ model, tools: f.registry, tickets }).generate({ messages: 'Where is A-1001?', run: createRunContext() });
    expect(result.text).toBe('It has shipped.');
    expect(offered(model.doStreamCalls[0])).toEqual(['query_order']);
    expect(f.failures).toEqual(['refund']); // once per turn: the loop lists the tools once

    const textModel = scriptedModel(textStep('Hello.'));
    const turn = await generateTextTurn(createChatAgent({ model: textModel, tools: f.registry, tickets }), { messages: 'Hi', run: createRunContext() });
    expect(turn.text).toBe('Hello.');
    expect(offered(textModel.doGenerateCalls[0])).toEqual(['query_order']);
    expect(f.failures).toEqual(['refund', 'refund']);
  });

  it('a call of it (from an earlier listing) runs nothing, and the model reads why; once it loads, it is offered again', async () => {
    const f = fixture();
    const model = scriptedModel(callsStep([['c1', 'refund', { order_id: 'A-1001' }]]), textStep('I could not refund it.'));
    const result = await createChatAgent({ model, tools: f.registry, tickets }).generate({ messages: 'Refund A-1001', run: createRunContext() });
    expect(f.refunds).toEqual([]);
    expect(result.toolResults.map((r) => (r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type))).toEqual(['execution-failed']);
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'error-text', value: 'Error (execution-failed): chunk load failed' } }]);
    f.state.fail = false;
    const later = scriptedModel(textStep('Hello again.'));
    await createChatAgent({ model: later, tools: f.registry, tickets }).generate({ messages: 'Hi', run: createRunContext() });
    expect(offered(later.doStreamCalls[0])).toEqual(['query_order', 'refund']);
  });

  it('agentTool refuses an agent whose tools do not all load: one left out would escape the approval the agent needs', async () => {
    const f = fixture();
    const inner = createChatAgent({ model: scriptedModel(textStep('done')), tools: f.registry, tickets });
    await expect(agentTool({ name: 'support', description: 'Support', agent: inner })).rejects.toThrow('chunk load failed');
    f.state.fail = false;
    const support = await agentTool({ name: 'support', description: 'Support', agent: inner });
    expect(support.policy.needsApproval).toBe(true);
    expect(support.policy.effects).toBe('destructive');
  });

  it('agentTool refuses an agent whose registry lists a tool it gives none for yet: it could run later without an approval', async () => {
    const closed: string[] = [];
    const closeAccount = defineTool({
      name: 'close_account',
      description: 'Close an account',
      input: v.object({}),
      policy: { effects: 'destructive' },
      execute: () => {
        closed.push('closed');
        return 'closed';
      },
    });
    // A resolver that lists the tool and hands it out once something it waits for is there (a config, a flag).
    let ready = false;
    const late = { kind: 'edgetool.resolver' as const, names: () => ['close_account'], resolve: (name: string) => (ready && name === 'close_account' ? closeAccount : undefined) };
    const model = scriptedModel(callsStep([['i1', 'close_account', {}]]), textStep('Closed.'));
    const inner = createChatAgent({ model, tools: createRegistry({ resolvers: [late] }), tickets });
    // It made an agent tool that needs no approval; once the resolver gave the tool, the inner turn offered it, and the
    // granted turn closed the account with nobody asked.
    await expect(agentTool({ name: 'ops', description: 'Operations', agent: inner })).rejects.toThrow(
      'agentTool "ops": the agent lists the tool "close_account", but its registry gave none for that name',
    );
    ready = true;
    const ops = await agentTool({ name: 'ops', description: 'Operations', agent: inner });
    expect(ops.policy).toMatchObject({ effects: 'destructive', needsApproval: true });
    expect(closed).toEqual([]);
  });

  it('toAISDKTools loads every tool of the registry but one that fails, or offers the tools it is given', async () => {
    const f = fixture();
    expect(Object.keys(await toAISDKTools(f.registry, { run: createRunContext() }))).toEqual(['query_order']);
    expect(f.failures).toEqual(['refund']);
    f.state.fail = false;
    expect(Object.keys(await toAISDKTools(f.registry, { run: createRunContext() }))).toEqual(['query_order', 'refund']);
    expect(Object.keys(await toAISDKTools(f.registry, { run: createRunContext(), tools: [queryOrder] }))).toEqual(['query_order']);
  });
});
