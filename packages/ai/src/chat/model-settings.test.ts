import type { LanguageModelV4CallOptions, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { createRunContext, createTicketSigner, defineTool, ToolError, withDeps } from '@edgetool/core';
import { convertArrayToReadableStream } from 'ai/test';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { respondToApproval } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { mergeSettings } from './loop-parts.ts';
import { type EdgetoolUIMessage, shownUsage } from './protocol.ts';
import { generateTextTurn } from './text-turn.ts';
import { addUsage, emptyUsage, messageUsage } from './usage.ts';

interface Deps {
  readonly userName: string;
  readonly role: 'staff' | 'guest';
}
const { defineTool: defineDepsTool } = withDeps<Deps>();
const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'test-secret-test-secret-test-secret-!!' }] });

const tools = [
  defineDepsTool({ name: 'query_order', description: 'Look up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, status: 'shipped' }) }),
  defineDepsTool({
    name: 'refund',
    description: 'Refund an order (staff only)',
    input: v.object({ order_id: v.string() }),
    policy: { available: (run) => run.deps.role === 'staff' },
    execute: ({ order_id }) => `refunded ${order_id}`,
  }),
];
const runAs = (role: Deps['role'], conversationId = 'conv-1') => createRunContext({ conversationId, deps: { userName: 'Ada', role } satisfies Deps });

/** What the model was called with, without the parts that change per call. */
const settingsOf = (call: LanguageModelV4CallOptions | undefined) => ({
  temperature: call?.temperature,
  maxOutputTokens: call?.maxOutputTokens,
  seed: call?.seed,
  providerOptions: call?.providerOptions,
  toolChoice: call?.toolChoice,
});
const systemOf = (call: LanguageModelV4CallOptions | undefined) => call?.prompt.find((message) => message.role === 'system')?.content;

/** A step whose usage the test sets: input, output, cached input and reasoning tokens. */
function usageStep(text: string, counts: { input: number; output: number; cached?: number; reasoning?: number }): LanguageModelV4StreamResult {
  return {
    stream: convertArrayToReadableStream([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: text },
      { type: 'text-end', id: 't' },
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: counts.input, noCache: counts.input - (counts.cached ?? 0), cacheRead: counts.cached, cacheWrite: undefined },
          outputTokens: { total: counts.output, text: counts.output - (counts.reasoning ?? 0), reasoning: counts.reasoning },
        },
      },
    ]),
  };
}

describe('model settings', () => {
  const agentSettings = { temperature: 0.2, maxOutputTokens: 300, seed: 7, providerOptions: { openai: { store: false, user: 'agent' } } };
  const turnSettings = { temperature: 0.9, providerOptions: { openai: { user: 'turn' }, other: { mode: 'fast' } } };
  const merged = {
    temperature: 0.9,
    maxOutputTokens: 300,
    seed: 7,
    providerOptions: { openai: { store: false, user: 'turn' }, other: { mode: 'fast' } },
    toolChoice: { type: 'auto' },
  };

  it("reach the model on every step, the turn's over the agent's (provider options merged per provider)", async () => {
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), textStep('Shipped.'));
    const agent = createChatAgent({ model, tools, tickets, settings: agentSettings });
    const result = await agent.generate({ messages: 'Where is A-1?', run: runAs('guest'), settings: turnSettings });
    expect(result.text).toBe('Shipped.');
    expect(model.doStreamCalls.map(settingsOf)).toEqual([merged, merged]);
  });

  it('reach the model in a text turn too', async () => {
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), textStep('Shipped.'));
    const agent = createChatAgent({ model, tools, tickets, settings: agentSettings });
    await generateTextTurn(agent, { messages: 'Where is A-1?', run: runAs('guest'), settings: turnSettings });
    expect(model.doGenerateCalls.map(settingsOf)).toEqual([merged, merged]);
  });

  it('headers reach the provider call', async () => {
    const model = scriptedModel(textStep('Hi.'));
    await createChatAgent({ model, tools, tickets, settings: { headers: { 'x-tenant': 't-1' } } }).generate({ messages: 'Hi', run: runAs('guest') });
    expect(model.doStreamCalls[0]?.headers).toMatchObject({ 'x-tenant': 't-1' });
  });

  it('mergeSettings: no settings on either side is an empty object; one side alone is used as is', () => {
    expect(mergeSettings(undefined, undefined)).toEqual({});
    expect(mergeSettings({ temperature: 1 }, undefined)).toEqual({ temperature: 1 });
    expect(mergeSettings(undefined, { seed: 3 })).toEqual({ seed: 3 });
    expect(mergeSettings({ providerOptions: { a: { x: 1 } } }, { temperature: 0 })).toEqual({ providerOptions: { a: { x: 1 } }, temperature: 0 });
  });

  it('toolChoice names a tool the run may see: the model is told to call it', async () => {
    // The choice holds for every step: one step here (a loop would add a return-direct tool or a step limit).
    const model = scriptedModel(callsStep([['c1', 'refund', { order_id: 'A-1' }]]));
    const agent = createChatAgent({ model, tools, tickets, maxSteps: 1, settings: { toolChoice: { type: 'tool', toolName: 'refund' } } });
    const result = await agent.generate({ messages: 'Refund A-1', run: runAs('staff') });
    expect(model.doStreamCalls[0]?.toolChoice).toEqual({ type: 'tool', toolName: 'refund' });
    expect(result.toolResults.map((r) => r.content)).toEqual(['refunded A-1']);
  });

  it('toolChoice names a tool the run may not see: refused before the model is called, without naming it', async () => {
    for (const turn of ['ui', 'text'] as const) {
      const model = scriptedModel(textStep('Refunding.'));
      const agent = createChatAgent({ model, tools, tickets, settings: { toolChoice: { type: 'tool', toolName: 'refund' } } });
      const running = turn === 'ui' ? agent.generate({ messages: 'Refund A-1', run: runAs('guest') }) : generateTextTurn(agent, { messages: 'Refund A-1', run: runAs('guest') });
      const error = await running.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(ToolError.isInstance(error), turn).toBe(true);
      expect((error as ToolError).code).toBe('invalid-input');
      expect((error as ToolError).message).not.toContain('refund');
      expect(model.doStreamCalls.length + model.doGenerateCalls.length, turn).toBe(0);
    }
  });
});

describe('toolChoice required with no tool to call', () => {
  it('is refused before the model is called, in both loops: the AI SDK failed the turn after the model had answered', async () => {
    // Only a staff member may refund: a guest's run may use no tool at all.
    const staffOnly = tools.filter((tool) => tool.name === 'refund');
    for (const turn of ['ui', 'text'] as const) {
      const model = scriptedModel(textStep('Nothing to call.'));
      const agent = createChatAgent({ model, tools: staffOnly, tickets, settings: { toolChoice: 'required' } });
      const running = turn === 'ui' ? agent.generate({ messages: 'Refund A-1', run: runAs('guest') }) : generateTextTurn(agent, { messages: 'Refund A-1', run: runAs('guest') });
      const error = await running.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, turn).toMatchObject({ name: 'ToolError', code: 'invalid-input', message: "The model settings require a tool call (toolChoice 'required'), but this turn offers the model no tool." });
      expect(model.doStreamCalls.length + model.doGenerateCalls.length, turn).toBe(0);
    }
    // A staff member's run may: the choice goes to the model.
    const model = scriptedModel(callsStep([['c1', 'refund', { order_id: 'A-1' }]]));
    const agent = createChatAgent({ model, tools: staffOnly, tickets, maxSteps: 1, settings: { toolChoice: 'required' } });
    expect((await generateTextTurn(agent, { messages: 'Refund A-1', run: runAs('staff') })).toolResults.map((r) => r.content)).toEqual(['refunded A-1']);
  });
});

describe('instructions made per run', () => {
  it("get the turn's run with its deps, once per turn, in both loops", async () => {
    const seen: string[] = [];
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), textStep('Shipped.'), textStep('Hello.'));
    const agent = createChatAgent({
      model,
      tools,
      tickets,
      instructions: async (run) => {
        seen.push(run.conversationId);
        return `You help ${run.deps.userName}, a ${run.deps.role}.`;
      },
    });
    await agent.generate({ messages: 'Where is A-1?', run: runAs('staff', 'ui-turn') });
    expect(seen).toEqual(['ui-turn']);
    expect(model.doStreamCalls.map(systemOf)).toEqual(['You help Ada, a staff.', 'You help Ada, a staff.']);
    await generateTextTurn(agent, { messages: 'Hi', run: runAs('guest', 'text-turn') });
    expect(seen).toEqual(['ui-turn', 'text-turn']);
    expect(systemOf(model.doGenerateCalls[0])).toBe('You help Ada, a guest.');
  });

  it('a function that returns no string fails the turn before the model is called', async () => {
    const model = scriptedModel(textStep('Hi.'));
    const agent = createChatAgent({ model, tools: [defineTool({ name: 't', description: 't', input: v.object({}), execute: () => 1 })], tickets, instructions: () => undefined as unknown as string });
    await expect(agent.generate({ messages: 'Hi', run: createRunContext() })).rejects.toThrow(/instructions function returned undefined/);
    expect(model.doStreamCalls).toHaveLength(0);
  });
});

describe('usage', () => {
  it('sums the steps of a turn: result.usage, and the finish chunk puts it in the message metadata', async () => {
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), usageStep('Shipped.', { input: 100, output: 40, cached: 64, reasoning: 12 }));
    const result = await createChatAgent({ model, tools, tickets }).generate({ messages: 'Where is A-1?', run: runAs('guest') });
    // callsStep reports 10 in, 5 out, and nothing about the cache or reasoning.
    expect(result.usage).toEqual({
      inputTokens: 110,
      inputTokenDetails: { noCacheTokens: 46, cacheReadTokens: 64, cacheWriteTokens: undefined },
      outputTokens: 45,
      outputTokenDetails: { textTokens: 33, reasoningTokens: 12 },
      totalTokens: 155,
    });
    expect(result.message.metadata?.usage).toEqual({ inputTokens: 110, outputTokens: 45, totalTokens: 155, reasoningTokens: 12, cachedInputTokens: 64 });
  });

  it('turn.usage resolves without a fold, for a Worker that only sends toResponse()', async () => {
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), textStep('Shipped.'));
    const turn = await createChatAgent({ model, tools, tickets }).stream({ messages: 'Where is A-1?', run: runAs('guest') });
    const body = await turn.toResponse().text();
    expect(body).toContain('"usage":{"inputTokens":20,"outputTokens":10,"totalTokens":30}');
    expect(await turn.usage).toMatchObject({ inputTokens: 20, outputTokens: 10, totalTokens: 30 });
  });

  it('a reader that stops early: turn.usage resolves with the steps that finished', async () => {
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), textStep('Shipped.'));
    const turn = await createChatAgent({ model, tools, tickets }).stream({ messages: 'Where is A-1?', run: runAs('guest') });
    const reader = turn.stream.getReader();
    // Read until the first step's result is out (its step has finished by then), then stop.
    for (;;) {
      const { value, done } = await reader.read();
      if (done || value.type === 'finish-step') break;
    }
    await reader.cancel('user stopped');
    expect(await turn.usage).toMatchObject({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    expect((await turn.result).usage).toMatchObject({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  });

  it('a continued message shows the tokens of all its requests; each request reports its own', async () => {
    const refund = defineTool({
      name: 'refund_order',
      description: 'Refund an order',
      input: v.object({ order_id: v.string() }),
      policy: { effects: 'write' },
      execute: ({ order_id }) => `refunded ${order_id}`,
    });
    const model = scriptedModel(callsStep([['c1', 'refund_order', { order_id: 'A-1' }]]), usageStep('Refunded.', { input: 100, output: 40, reasoning: 3 }));
    const agent = createChatAgent({ model, tools: [refund], tickets });
    const first = await agent.generate({ messages: 'Refund A-1', run: runAs('staff') });
    expect(first.message.metadata?.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });

    const second = await agent.generate({ messages: respondToApproval(first.messages, 'c1', true), run: runAs('staff') });
    expect(second.message.id).toBe(first.message.id);
    expect(second.usage).toMatchObject({ inputTokens: 100, outputTokens: 40, totalTokens: 140 });
    expect(second.message.metadata?.usage).toEqual({ inputTokens: 110, outputTokens: 45, totalTokens: 155, reasoningTokens: 3 });
  });

  it('what a continued message says it cost is read as counts only: anything else is dropped', async () => {
    const refund = defineTool({ name: 'refund_order', description: 'Refund', input: v.object({}), policy: { effects: 'write' }, execute: () => 'refunded' });
    const model = scriptedModel(callsStep([['c1', 'refund_order', {}]]), textStep('Hi.'));
    const agent = createChatAgent({ model, tools: [refund], tickets });
    const first = await agent.generate({ messages: 'Refund', run: runAs('guest') });
    // The message continued (an approval answered) says what it cost, with values no count has.
    const answered = respondToApproval(first.messages, 'c1', true);
    const earlier = answered.at(-1) as EdgetoolUIMessage;
    const junk = { usage: { inputTokens: -5, outputTokens: '9', totalTokens: 7, reasoningTokens: Number.NaN, __proto__: { x: 1 } } as never };
    const turn = await agent.stream({ messages: [...answered.slice(0, -1), { ...earlier, metadata: junk }], run: runAs('guest') });
    const body = await turn.toResponse().text();
    // The finish chunk sends the sum of the counts; the client's other values stay its own (the AI SDK merges metadata).
    expect(body).toContain('"messageMetadata":{"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":22}}');
    expect(shownUsage({ id: 'u', role: 'user', metadata: { usage: { totalTokens: 3 } }, parts: [] })).toBeUndefined();
    expect(shownUsage(undefined)).toBeUndefined();
  });

  it('the text turn reports the same sum', async () => {
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), usageStep('Shipped.', { input: 100, output: 40 }));
    const result = await generateTextTurn(createChatAgent({ model, tools, tickets }), { messages: 'Where is A-1?', run: runAs('guest') });
    expect(result.usage).toMatchObject({ inputTokens: 110, outputTokens: 45, totalTokens: 155 });
  });

  it('addUsage: a count is unknown only while no side knows it; non-numbers count as unknown', () => {
    const one = addUsage(emptyUsage(), { inputTokens: 3, outputTokens: undefined, totalTokens: 3 });
    expect(one).toMatchObject({ inputTokens: 3, outputTokens: undefined, totalTokens: 3 });
    const two = addUsage(one, { inputTokens: 2, outputTokens: 4, reasoningTokens: 1, cachedInputTokens: 2 });
    expect(two).toMatchObject({ inputTokens: 5, outputTokens: 4, totalTokens: 3, outputTokenDetails: { reasoningTokens: 1 }, inputTokenDetails: { cacheReadTokens: 2 } });
    const junk = addUsage(two, { inputTokens: Number.NaN, outputTokens: '7' as unknown as number, totalTokens: Number.POSITIVE_INFINITY });
    expect(junk).toEqual(two);
    expect(messageUsage(emptyUsage())).toEqual({});
    expect(messageUsage(two)).toEqual({ inputTokens: 5, outputTokens: 4, totalTokens: 3, reasoningTokens: 1, cachedInputTokens: 2 });
  });
});
