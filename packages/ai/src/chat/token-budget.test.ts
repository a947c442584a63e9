import { createRunContext, createTicketSigner, defineTool, ToolError } from '@edgetool/core';
import * as v from 'valibot';
import type { LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { agentTool } from '../agent-tool.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { type ChatAgentOptions, createChatAgent } from './chat-agent.ts';
import { returnDirectStop, turnLimits } from './loop-parts.ts';
import { generateTextTurn } from './text-turn.ts';

// Every scripted step uses 10 input and 5 output tokens: 15 a step.
const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'token-budget-test-secret-32-bytes!!' }] });
const lookUp = defineTool({ name: 'query_order', description: 'Look up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, status: 'shipped' }) });
const answer = defineTool({ name: 'answer', description: 'Final answer', input: v.object({ text: v.string() }), policy: { returnDirect: true }, execute: ({ text }) => text });
const run = () => createRunContext({ conversationId: 'conv-budget' });
// These tests count the budget between steps as the mock reports usage (15 a step). The check before each model call
// estimates from the prompt's size, which a mock's reported usage does not follow: it is off here, and
// prompt-budget.test.ts tests it.
const unestimated = { inputTokenEstimate: false } as const;

/** Three steps of calls, then the answer: 4 model calls and 60 tokens when nothing stops it. */
const script = () =>
  scriptedModel(
    callsStep([['c1', 'query_order', { order_id: 'A-1' }]]),
    callsStep([['c2', 'query_order', { order_id: 'A-2' }]]),
    callsStep([['c3', 'query_order', { order_id: 'A-3' }]]),
    textStep('All three shipped.'),
  );
const agentWith = (model: ReturnType<typeof scriptedModel>, options: Partial<ChatAgentOptions> = {}) => createChatAgent({ ...unestimated, model, tools: [lookUp, answer], tickets, ...options });

describe('token budget: the UI turn', () => {
  it('without a budget the turn runs to its answer', async () => {
    const model = script();
    const result = await agentWith(model).generate({ messages: 'Check A-1, A-2, A-3', run: run() });
    expect(model.doStreamCalls).toHaveLength(4);
    expect(result.text).toBe('All three shipped.');
    expect(result.limit).toBeUndefined();
    expect(result.message.metadata).not.toHaveProperty('limit');
  });

  it('starts no step once the budget is used: the step that crosses it finishes, and the turn says why it stopped', async () => {
    const model = script();
    const result = await agentWith(model, { tokenBudget: 40 }).generate({ messages: 'Check A-1, A-2, A-3', run: run() });
    // 15 after the first step, 30 after the second, 45 after the third: no fourth step.
    expect(model.doStreamCalls).toHaveLength(3);
    expect(result.limit).toBe('tokens');
    expect(result.text).toBe('');
    expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 15, totalTokens: 45 });
    // The third step's call ran and was sealed: the result is in the message, for the next turn to build on.
    expect(result.toolResults.map((r) => r.call.id)).toEqual(['c1', 'c2', 'c3']);
    expect(result.message.metadata).toMatchObject({ limit: 'tokens', usage: { totalTokens: 45 } });
  });

  it("a turn's budget lowers the agent's and never raises it", async () => {
    const lowered = script();
    const low = await agentWith(lowered, { tokenBudget: 100 }).generate({ messages: 'Check', run: run(), tokenBudget: 20 });
    expect(lowered.doStreamCalls).toHaveLength(2);
    expect(low.limit).toBe('tokens');

    const capped = script();
    const high = await agentWith(capped, { tokenBudget: 20 }).generate({ messages: 'Check', run: run(), tokenBudget: 1_000_000 });
    expect(capped.doStreamCalls).toHaveLength(2);
    expect(high.limit).toBe('tokens');

    const turnOnly = script();
    const own = await agentWith(turnOnly).generate({ messages: 'Check', run: run(), tokenBudget: 31 });
    expect(turnOnly.doStreamCalls).toHaveLength(3);
    expect(own.limit).toBe('tokens');
  });

  it('maxSteps reports its limit the same way', async () => {
    const model = script();
    const result = await agentWith(model, { maxSteps: 2 }).generate({ messages: 'Check', run: run() });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(result.limit).toBe('steps');
    expect(result.message.metadata).toMatchObject({ limit: 'steps' });
  });

  it('refuses a maxSteps that is not a whole number of steps, at creation (0, -1 and NaN ran one step, 2.5 ran three)', () => {
    for (const maxSteps of [0, -1, Number.NaN, 2.5, '3' as unknown as number]) {
      expect(() => agentWith(script(), { maxSteps }), String(maxSteps)).toThrow(RangeError);
    }
    expect(() => agentWith(script(), { maxSteps: 1 })).not.toThrow();
    expect(() => agentWith(script(), { maxSteps: Number.POSITIVE_INFINITY, tokenBudget: 1_000 })).not.toThrow();
  });

  it('a turn that ends on return-direct tools has no limit, even when the budget is used up', async () => {
    const model = scriptedModel(callsStep([['c1', 'answer', { text: 'Shipped.' }]]));
    const result = await agentWith(model, { tokenBudget: 10 }).generate({ messages: 'Check', run: run() });
    expect(result.text).toBe('Shipped.');
    expect(result.returnDirect).toBe(true);
    expect(result.limit).toBeUndefined();
    expect(result.message.metadata).not.toHaveProperty('limit');
  });

  it('the tokens of agents run as tools count against the budget', async () => {
    const inner = createChatAgent({ ...unestimated, model: scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }]]), textStep('A-7 shipped.')), tools: [lookUp], tickets });
    const helper = await agentTool({ name: 'helper', description: 'Answers order questions', agent: inner });
    // Outer step 1 (15) plus the agent's two steps (30) is 45: over 40, so the outer turn stops there.
    const outerModel = scriptedModel(callsStep([['o1', 'helper', { task: 'Check A-7' }]]), textStep('A-7 shipped.'));
    const result = await createChatAgent({ ...unestimated, model: outerModel, tools: [helper], tickets, tokenBudget: 40 }).generate({ messages: 'Is A-7 late?', run: run() });
    expect(outerModel.doStreamCalls).toHaveLength(1);
    expect(result.limit).toBe('tokens');
    expect(result.usage).toMatchObject({ totalTokens: 45 });
  });

  it('a model that reports a negative count (a broken OpenAI-compatible server) neither lowers the count nor the meter', async () => {
    // 20 input tokens a step, and an output count of -1000: the AI SDK's total for the step is -980.
    const lying = (step: LanguageModelV4StreamResult): LanguageModelV4StreamResult => ({
      stream: step.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform: (part, controller) =>
            controller.enqueue(
              part.type === 'finish'
                ? { ...part, usage: { inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: -1000, text: undefined, reasoning: undefined } } }
                : part,
            ),
        }),
      ),
    });
    const model = scriptedModel(
      lying(callsStep([['c1', 'query_order', { order_id: 'A-1' }]])),
      lying(callsStep([['c2', 'query_order', { order_id: 'A-2' }]])),
      lying(callsStep([['c3', 'query_order', { order_id: 'A-3' }]])),
      lying(textStep('All three shipped.')),
    );
    const result = await agentWith(model, { tokenBudget: 40 }).generate({ messages: 'Check A-1, A-2, A-3', run: run() });
    // 20 after the first step, 40 after the second: no third step.
    expect(model.doStreamCalls).toHaveLength(2);
    expect(result.limit).toBe('tokens');
    expect(result.usage).toMatchObject({ inputTokens: 40, outputTokens: undefined, totalTokens: undefined });
    expect(result.message.metadata?.usage).toEqual({ inputTokens: 40 });
  });

  it('refuses a budget that is not a positive number, at creation and per turn', async () => {
    for (const tokenBudget of [0, -5, Number.NaN, '100' as unknown as number]) {
      expect(() => agentWith(script(), { tokenBudget })).toThrow(ToolError);
      const error = await agentWith(script())
        .stream({ messages: 'Check', run: run(), tokenBudget })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(ToolError.isInstance(error) && error.code).toBe('invalid-input');
    }
  });
});

describe('token budget: the text turn', () => {
  it('stops the same way and reports the limit', async () => {
    const model = script();
    const result = await generateTextTurn(agentWith(model, { tokenBudget: 40 }), { messages: 'Check A-1, A-2, A-3', run: run() });
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(result.steps).toBe(3);
    expect(result.limit).toBe('tokens');
    expect(result.usage).toMatchObject({ totalTokens: 45 });
  });

  it("takes the turn's budget and maxSteps, and answers without a limit when none is hit", async () => {
    const lowered = script();
    expect((await generateTextTurn(agentWith(lowered), { messages: 'Check', run: run(), tokenBudget: 15 })).limit).toBe('tokens');
    expect(lowered.doGenerateCalls).toHaveLength(1);
    expect((await generateTextTurn(agentWith(script(), { maxSteps: 3 }), { messages: 'Check', run: run() })).limit).toBe('steps');
    const full = await generateTextTurn(agentWith(script(), { tokenBudget: 1000 }), { messages: 'Check', run: run() });
    expect(full.text).toBe('All three shipped.');
    expect(full.limit).toBeUndefined();
  });
});

describe('turnLimits', () => {
  const steps = (...usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number }[]) => ({ steps: usage.map((u) => ({ usage: u })) }) as never;
  // The one stop condition: 99 steps and no return-direct call stay below their limits, so it answers as the budget does.
  const tokens = (budget: number) => turnLimits(99, budget, new Map(), returnDirectStop(new Map())).stop[0] as unknown as (options: unknown) => boolean;

  it('counts a step by its total, else by its input and output; a step with no counts costs nothing', () => {
    expect(tokens(20)(steps({ totalTokens: 19 }))).toBe(false);
    // A negative count is no count: it takes nothing off the others.
    expect(tokens(20)(steps({ totalTokens: 12 }, { inputTokens: 8, outputTokens: -100, totalTokens: -92 }))).toBe(true);
    expect(tokens(20)(steps({ totalTokens: 20 }, { totalTokens: -5 }))).toBe(true);
    expect(tokens(20)(steps({ totalTokens: 12 }, { totalTokens: 8 }))).toBe(true);
    expect(tokens(20)(steps({ inputTokens: 12, outputTokens: 8 }))).toBe(true);
    expect(tokens(20)(steps({ inputTokens: 12 }))).toBe(false);
    expect(tokens(1)(steps({}))).toBe(false);
  });
});
