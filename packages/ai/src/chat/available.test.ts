import { createRegistry, createRunContext, createTicketSigner, defineTool, type ToolError, withDeps } from '@edgetool/core';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { respondToApproval } from '../testing/client.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { agentTool } from '../agent-tool.ts';
import { toAISDKTools } from './ai-tools.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

interface Deps {
  readonly role: 'staff' | 'guest';
}
const { defineTool: defineRoleTool } = withDeps<Deps>();
const keys = [{ id: 'k1', secret: 'test-secret-test-secret-test-secret-!!' }];

function fixture() {
  const refunds: unknown[] = [];
  const tools = [
    defineRoleTool({ name: 'query_order', description: 'Look up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, status: 'shipped' }) }),
    defineRoleTool({
      name: 'refund',
      description: 'Refund an order (staff only)',
      input: v.object({ order_id: v.string() }),
      policy: { available: (run) => run.deps.role === 'staff' },
      execute: ({ order_id }) => {
        refunds.push(order_id);
        return `refunded ${order_id}`;
      },
    }),
    defineRoleTool({
      name: 'close_account',
      description: 'Close an account (staff only, approved)',
      input: v.object({ account: v.string() }),
      policy: { effects: 'destructive', available: (run) => run.deps.role === 'staff' },
      execute: ({ account }) => {
        refunds.push(`closed ${account}`);
        return `closed ${account}`;
      },
    }),
    defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({}), policy: { runsOn: 'client', available: () => false } }),
  ];
  return { tools, refunds, tickets: createTicketSigner({ keys }) };
}

const runAs = (role: Deps['role']) => createRunContext({ conversationId: 'conv-1', deps: { role } satisfies Deps });
const offered = (call: LanguageModelV4CallOptions | undefined) => (call?.tools ?? []).map((tool) => tool.name);

describe('chat loop: tools a run may not see (policy.available)', () => {
  it('the model is given only the tools the run may see, in both modes', async () => {
    const f = fixture();
    for (const mode of ['internal', 'manual'] as const) {
      for (const [role, expected] of [['staff', ['query_order', 'refund', 'close_account']], ['guest', ['query_order']]] as const) {
        const model = scriptedModel(textStep('Hello.'));
        await createChatAgent({ model, tools: f.tools, tickets: f.tickets }).generate({ messages: 'Hi', run: runAs(role), mode });
        expect(offered(model.doStreamCalls[0]), `${mode} ${role}`).toEqual(expected);
      }
    }
  });

  it('a hidden tool the model calls anyway is an unknown tool: nothing runs, and the model reads only the tools it may use', async () => {
    const f = fixture();
    const model = scriptedModel(callsStep([['c1', 'refund', { order_id: 'A-1001' }]]), textStep('I cannot do that.'));
    const result = await createChatAgent({ model, tools: f.tools, tickets: f.tickets }).generate({ messages: 'Refund A-1001', run: runAs('guest') });
    expect(f.refunds).toEqual([]);
    expect(result.toolResults.map((r) => (r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type))).toEqual(['unknown-tool']);
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([
      { toolCallId: 'c1', output: { type: 'error-text', value: 'Error (unknown-tool): Unknown tool "refund". Available tools: query_order.' } },
    ]);
    expect(JSON.stringify(model.doStreamCalls[1]?.prompt)).not.toContain('pick_date');
  });

  it('the text turn gives the model the same tools, and runs a hidden one for a run that may see it', async () => {
    const f = fixture();
    const guestModel = scriptedModel(textStep('Hello.'));
    await generateTextTurn(createChatAgent({ model: guestModel, tools: f.tools, tickets: f.tickets }), { messages: 'Hi', run: runAs('guest') });
    expect(offered(guestModel.doStreamCalls[0] ?? guestModel.doGenerateCalls[0])).toEqual(['query_order']);
    const staffModel = scriptedModel(callsStep([['c1', 'refund', { order_id: 'A-1001' }]]), textStep('Refunded.'));
    const turn = await generateTextTurn(createChatAgent({ model: staffModel, tools: f.tools, tickets: f.tickets }), { messages: 'Refund A-1001', run: runAs('staff') });
    expect(turn.text).toBe('Refunded.');
    expect(f.refunds).toEqual(['A-1001']);
  });

  it('an approval that arrives after the run lost the tool (a role revoked meanwhile) runs nothing', async () => {
    const f = fixture();
    const model = scriptedModel(callsStep([['c1', 'close_account', { account: 'acme' }]]), textStep('It is no longer possible.'));
    const agent = createChatAgent({ model, tools: f.tools, tickets: f.tickets });
    const first = await agent.generate({ messages: 'Close acme', run: runAs('staff') });
    expect(first.pending.map((p) => p.toolName)).toEqual(['close_account']);
    const second = await agent.generate({ messages: respondToApproval(first.messages, 'c1', true), run: runAs('guest') });
    expect(f.refunds).toEqual([]);
    expect(second.toolResults.map((r) => (r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type))).toEqual(['unknown-tool']);
    expect(second.text).toBe('It is no longer possible.');
  });

  it('toAISDKTools leaves hidden tools out for your own loop, or keeps them with hidden: keep (their calls are unknown tools)', async () => {
    const f = fixture();
    expect(Object.keys(await toAISDKTools(f.tools, { run: runAs('guest') }))).toEqual(['query_order']);
    const kept = await toAISDKTools(f.tools, { run: runAs('guest'), hidden: 'keep' });
    expect(Object.keys(kept)).toEqual(['query_order', 'refund', 'close_account', 'pick_date']);
    const execute = kept.refund?.execute as unknown as (input: unknown, options: { toolCallId: string; messages: [] }) => Promise<unknown>;
    await expect(execute({ order_id: 'A-1' }, { toolCallId: 'c1', messages: [] })).rejects.toThrow('Error (unknown-tool): Unknown tool "refund". Available tools: query_order.');
    expect(f.refunds).toEqual([]);
  });

  it('a check that never answers leaves its tool out after 10 s (logged) instead of holding the turn forever', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const f = fixture();
      const hung = defineTool({ name: 'hung', description: 'Its check never answers', input: v.object({}), policy: { available: () => new Promise<boolean>(() => {}) }, execute: () => 'ran' });
      const tools = [...f.tools, hung];
      const model = scriptedModel(textStep('Hello.'));
      const turn = createChatAgent({ model, tools, tickets: f.tickets }).generate({ messages: 'Hi', run: runAs('guest') });
      const listed = toAISDKTools(tools, { run: runAs('guest') });
      await vi.advanceTimersByTimeAsync(10_000);
      expect((await turn).text).toBe('Hello.');
      expect(offered(model.doStreamCalls[0])).toEqual(['query_order']);
      expect(Object.keys(await listed)).toEqual(['query_order']);
      expect(log).toHaveBeenCalledWith('edgetool: the tool "hung" is left out of the tools the model is shown:', expect.objectContaining({ code: 'timeout' }));
    } finally {
      log.mockRestore();
      vi.useRealTimers();
    }
  });

  it('onLateCheck: the agent, toAISDKTools and agentTool send late checks there instead of console.error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const f = fixture();
      const hung = defineTool({ name: 'hung', description: 'Its check never answers', input: v.object({}), policy: { available: () => new Promise<boolean>(() => {}) }, execute: () => 'ran' });
      const tools = [...f.tools, hung];
      const late: string[] = [];
      const onLateCheck = (error: ToolError, name: string) => late.push(`${name}: ${error.code}`);
      // A UI turn whose model calls a tool that does not exist: its list, and the error's list of the tools it may call.
      const model = scriptedModel(callsStep([['c1', 'nope', {}]]), textStep('Sorry.'));
      const agent = createChatAgent({ model, tools, tickets: f.tickets, onLateCheck });
      const turn = agent.generate({ messages: 'Hi', run: runAs('guest') });
      await vi.advanceTimersByTimeAsync(10_000);
      await vi.advanceTimersByTimeAsync(10_000);
      const result = await turn;
      expect(result.toolResults.map((r) => r.content)).toEqual(['Error (unknown-tool): Unknown tool "nope". Available tools: query_order.']);
      expect(late).toEqual(['hung: timeout', 'hung: timeout']);
      // The text turn (its own executor), toAISDKTools, and an agent tool's per-run approval rule.
      late.length = 0;
      const text = generateTextTurn(createChatAgent({ model: scriptedModel(textStep('Hello.')), tools, tickets: f.tickets, onLateCheck }), { messages: 'Hi', run: runAs('guest') });
      const listed = toAISDKTools(tools, { run: runAs('guest'), onLateCheck });
      const gatedHung = defineTool({ ...hung, name: 'gated_hung', policy: { effects: 'write', available: () => new Promise<boolean>(() => {}) } });
      const inner = createChatAgent({ model: scriptedModel(), tools: [gatedHung], tickets: f.tickets, onLateCheck });
      const asks = (await agentTool({ name: 'helper', description: 'Helps', agent: inner })).policy.needsApproval;
      const asked = typeof asks === 'function' ? asks({ task: 'x' }, { run: runAs('guest') } as never) : asks;
      await vi.advanceTimersByTimeAsync(10_000);
      expect((await text).text).toBe('Hello.');
      expect(Object.keys(await listed)).toEqual(['query_order']);
      expect(await asked).toBe(false);
      expect(late.sort()).toEqual(['gated_hung: timeout', 'hung: timeout', 'hung: timeout']);
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
      vi.useRealTimers();
    }
  });

  it('a registry’s available (createRegistry({ available })) hides all its tools the same way, also nested in another registry', async () => {
    const f = fixture();
    const purged: string[] = [];
    const purge = defineRoleTool({
      name: 'purge_cache',
      description: 'Purge the cache (admin tools)',
      input: v.object({ region: v.string() }),
      execute: ({ region }) => {
        purged.push(region);
        return `purged ${region}`;
      },
    });
    const admin = createRegistry({ tools: [purge], available: (run) => run.deps.role === 'staff' });
    const registry = createRegistry({ tools: [f.tools[0] as (typeof f.tools)[0]], resolvers: [admin] });
    const guessed = scriptedModel(callsStep([['c1', 'purge_cache', { region: 'eu' }]]), textStep('I cannot do that.'));
    const result = await createChatAgent({ model: guessed, tools: registry, tickets: f.tickets }).generate({ messages: 'Purge eu', run: runAs('guest') });
    expect(offered(guessed.doStreamCalls[0])).toEqual(['query_order']);
    expect(result.toolResults.map((r) => (r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type))).toEqual(['unknown-tool']);
    expect(lastToolResults(guessed.doStreamCalls[1])).toEqual([
      { toolCallId: 'c1', output: { type: 'error-text', value: 'Error (unknown-tool): Unknown tool "purge_cache". Available tools: query_order.' } },
    ]);
    expect(purged).toEqual([]);
    expect(Object.keys(await toAISDKTools(registry, { run: runAs('guest') }))).toEqual(['query_order']);
    // For a run it says yes to, the tool is offered and runs.
    const staffModel = scriptedModel(callsStep([['c2', 'purge_cache', { region: 'eu' }]]), textStep('Purged.'));
    await createChatAgent({ model: staffModel, tools: registry, tickets: f.tickets }).generate({ messages: 'Purge eu', run: runAs('staff') });
    expect(offered(staffModel.doStreamCalls[0])).toEqual(['query_order', 'purge_cache']);
    expect(purged).toEqual(['eu']);
  });
});
