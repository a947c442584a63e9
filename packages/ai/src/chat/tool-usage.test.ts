import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { createRunContext, createTicketSigner, defineTool, type ToolCallResult, type ToolUsage } from '@edgetool/core';
import type { UIMessageChunk } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { agentTool } from '../agent-tool.ts';
import { gate, readAll } from '../test-support/chat-streams.ts';
import { addToolOutput, respondToApproval } from '../testing/client.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import type { EdgetoolMessageMetadata } from './protocol.ts';
import { generateTextTurn } from './text-turn.ts';
import { reportModelUsage } from './usage.ts';

// Every scripted step (callsStep, textStep) uses 10 input and 5 output tokens: 15 a step.
const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'tool-usage-test-secret-32-bytes!!!' }] });
const run = () => createRunContext({ conversationId: 'conv-usage' });
const lookUp = defineTool({ name: 'query_order', description: 'Look up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, status: 'late' }) });
/** Never answers (and has no time limit of its own). */
const stall = defineTool({ name: 'stall', description: 'Waits forever', input: v.object({}), execute: () => new Promise<string>(() => {}) });

/** A tool that calls a model: 100 tokens in, 20 out. */
const summarise = defineTool({
  name: 'summarise',
  description: 'Summarises a text with a model',
  input: v.object({}),
  execute: (_input, ctx) => {
    ctx.reportUsage({ inputTokens: 100, outputTokens: 20, totalTokens: 120 });
    return 'A short summary.';
  },
});
/** A tool that spends 50 tokens on a model, then fails. */
const classify = defineTool({
  name: 'classify',
  description: 'Classifies a text with a model',
  input: v.object({}),
  execute: (_input, ctx): string => {
    ctx.reportUsage({ inputTokens: 50, totalTokens: 50 });
    throw new Error('the model answered with no label');
  },
});

/**
 * An inner agent's model: a first step that calls `toolName` (300 tokens in, 40 out), then a step that hangs until
 * aborted (`onHang` says when it starts).
 */
function oneStepThenHang(toolName: string, input: unknown, onHang: () => void = () => {}): MockLanguageModelV4 {
  let calls = 0;
  const first: LanguageModelV4GenerateResult = {
    content: [{ type: 'tool-call', toolCallId: 'i1', toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: { inputTokens: { total: 300, noCache: 300, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 40, text: 40, reasoning: undefined } },
    warnings: [],
  };
  return new MockLanguageModelV4({
    doGenerate: ({ abortSignal }) => {
      calls += 1;
      if (calls === 1) return Promise.resolve(first);
      onHang();
      return new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)));
    },
  });
}

const INNER_STEP = { inputTokens: 300, outputTokens: 40, totalTokens: 340 };

describe('tool usage: a sub-agent whose turn does not finish still counts what it spent', () => {
  it('UI turn: an agentTool whose inner agent finishes one step and hangs until timeoutMs counts that step in usage and the budget', async () => {
    // Its tool hangs: a hanging second step would not start, since its first step already spends the outer turn's budget.
    const inner = createChatAgent({ model: oneStepThenHang('stall', {}), tools: [stall], tickets, maxRetries: 0 });
    const helper = await agentTool({ name: 'helper', description: 'Checks orders', agent: inner, timeoutMs: 50 });
    const outerModel = scriptedModel(callsStep([['o1', 'helper', { task: 'Check A-7' }]]), textStep('The helper gave up.'));
    // The outer step (15) and the helper's step (340) are 355: over 200, so the outer turn stops after its first step.
    const result = await createChatAgent({ model: outerModel, tools: [helper], tickets, tokenBudget: 200 }).generate({ messages: 'Is A-7 late?', run: run() });
    const [call] = result.toolResults;
    expect(call?.outcome.type === 'error' && call.outcome.error.code).toBe('timeout');
    expect(call?.usage).toEqual(INNER_STEP);
    expect(outerModel.doStreamCalls).toHaveLength(1);
    expect(result.limit).toBe('tokens');
    expect(result.usage).toMatchObject({ inputTokens: 310, outputTokens: 45, totalTokens: 355 });
    expect(result.message.metadata?.usage).toEqual({ inputTokens: 310, outputTokens: 45, totalTokens: 355 });
  });

  it('text turn: a step counts as soon as its model call ends, even when its own tool then hangs until the timeout', async () => {
    const inner = createChatAgent({ model: oneStepThenHang('stall', {}), tools: [stall], tickets, maxRetries: 0 });
    const helper = await agentTool({ name: 'helper', description: 'Waits', agent: inner, timeoutMs: 50 });
    const outerModel = scriptedModel(callsStep([['o1', 'helper', { task: 'Wait' }]]), textStep('The helper gave up.'));
    const outer = createChatAgent({ model: outerModel, tools: [helper], tickets, tokenBudget: 200 });
    const result = await generateTextTurn(outer, { messages: 'Wait for it', run: run() });
    expect(result.toolResults.map((r) => [r.outcome.type === 'error' && r.outcome.error.code, r.usage])).toEqual([['timeout', INNER_STEP]]);
    expect(outerModel.doGenerateCalls).toHaveLength(1);
    expect(result.limit).toBe('tokens');
    expect(result.usage).toMatchObject({ inputTokens: 310, outputTokens: 45, totalTokens: 355 });
  });

  it('an aborted turn: the call of a sub-agent cut off in its second step carries its first, and onUsage passes it on', async () => {
    const hanging = gate();
    const inner = createChatAgent({ model: oneStepThenHang('query_order', { order_id: 'A-7' }, hanging.open), tools: [lookUp], tickets, maxRetries: 0 });
    const helper = await agentTool({ name: 'helper', description: 'Checks orders', agent: inner });
    const controller = new AbortController();
    const reports: ToolUsage[] = [];
    const results: ToolCallResult[] = [];
    const outer = createChatAgent({ model: scriptedModel(callsStep([['o1', 'helper', { task: 'Check A-7' }]])), tools: [helper], tickets, maxRetries: 0 });
    const turn = generateTextTurn(outer, {
      messages: 'Is A-7 late?',
      run: run(),
      signal: controller.signal,
      onUsage: (usage) => reports.push(usage),
      onToolResult: (result) => results.push(result),
    });
    await hanging.opened;
    controller.abort();
    await expect(turn).rejects.toBeDefined();
    await vi.waitFor(() => expect(results).toHaveLength(1));
    expect(results.map((r) => [r.outcome.type === 'error' && r.outcome.error.code, r.usage])).toEqual([['aborted', INNER_STEP]]);
    // The outer step's tokens, then the call's.
    expect(reports).toEqual([{ inputTokens: 10, outputTokens: 5, totalTokens: 15 }, INNER_STEP]);
  });
});

describe('tool usage: any tool that reports tokens is counted, whatever its outcome', () => {
  const twoCalls = () => scriptedModel(callsStep([['c1', 'summarise', {}], ['c2', 'classify', {}]]), textStep('Done.'));

  it('UI turn: result.usage, turn.usage, the finish chunk’s metadata.usage and the budget', async () => {
    const turn = await createChatAgent({ model: twoCalls(), tools: [summarise, classify], tickets }).stream({ messages: 'Summarise and classify', run: run() });
    const result = turn.result;
    const chunks: UIMessageChunk[] = await readAll(turn.stream);
    const { toolResults } = await result;
    expect(toolResults.map((r) => [r.call.name, r.isError, r.usage])).toEqual([
      ['summarise', false, { inputTokens: 100, outputTokens: 20, totalTokens: 120 }],
      ['classify', true, { inputTokens: 50, totalTokens: 50 }],
    ]);
    // Two steps (30) plus the two calls (170).
    const expected = { inputTokens: 170, outputTokens: 30, totalTokens: 200 };
    expect(await turn.usage).toMatchObject(expected);
    expect((await result).usage).toMatchObject(expected);
    const finish = chunks.find((c) => c.type === 'finish') as { messageMetadata?: EdgetoolMessageMetadata } | undefined;
    expect(finish?.messageMetadata?.usage).toEqual(expected);
    expect((await result).message.metadata?.usage).toEqual(expected);

    // The first step (15) and its calls (170) are 185: over 150, so no second step.
    const model = twoCalls();
    const capped = await createChatAgent({ model, tools: [summarise, classify], tickets, tokenBudget: 150 }).generate({ messages: 'Summarise and classify', run: run() });
    expect(model.doStreamCalls).toHaveLength(1);
    expect(capped.limit).toBe('tokens');
    expect(capped.usage).toMatchObject({ inputTokens: 160, outputTokens: 25, totalTokens: 185 });
  });

  it('text turn: result.usage, the turn’s usage, onUsage as the tokens are spent, and the budget', async () => {
    const reports: ToolUsage[] = [];
    const agent = createChatAgent({ model: twoCalls(), tools: [summarise, classify], tickets });
    const result = await generateTextTurn(agent, { messages: 'Summarise and classify', run: run(), onUsage: (usage) => reports.push(usage) });
    expect(result.toolResults.map((r) => [r.call.name, r.isError, r.usage])).toEqual([
      ['summarise', false, { inputTokens: 100, outputTokens: 20, totalTokens: 120 }],
      ['classify', true, { inputTokens: 50, totalTokens: 50 }],
    ]);
    expect(result.usage).toMatchObject({ inputTokens: 170, outputTokens: 30, totalTokens: 200 });
    // The first step's tokens before its calls run, then each call's as it finishes, then the second step's.
    const step = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
    expect(reports[0]).toEqual(step);
    expect(reports.at(-1)).toEqual(step);
    expect(reports.slice(1, 3)).toEqual(expect.arrayContaining([{ inputTokens: 100, outputTokens: 20, totalTokens: 120 }, { inputTokens: 50, totalTokens: 50 }]));
    expect(reports).toHaveLength(4);

    const model = twoCalls();
    const capped = await generateTextTurn(createChatAgent({ model, tools: [summarise, classify], tickets, tokenBudget: 150 }), { messages: 'Summarise and classify', run: run() });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(capped.limit).toBe('tokens');
    expect(capped.usage).toMatchObject({ totalTokens: 185 });
  });

  it('manual mode: a server call the client approved counts; a result the client sends back cannot add usage', async () => {
    const pickSummary = defineTool({
      name: 'pick_summary',
      description: 'The user picks a summary in the browser',
      input: v.object({}),
      policy: { runsOn: 'client' },
      // Shaped like an agent, so nothing can mistake its output's `usage` for counted tokens.
      metadata: { kind: 'agent' },
    });
    const model = scriptedModel(callsStep([['c1', 'summarise', {}], ['c2', 'pick_summary', {}]]), textStep('Done.'));
    const agent = createChatAgent({ model, tools: [summarise, pickSummary], tickets, tokenBudget: 1000 });
    const first = await agent.generate({ messages: 'Summarise it', mode: 'manual', run: run() });
    expect(first.pending.map((p) => [p.toolName, p.kind])).toEqual([
      ['summarise', 'approval'],
      ['pick_summary', 'client'],
    ]);
    const forged = { answer: 'Mine.', usage: { inputTokens: 1_000_000, totalTokens: 1_000_000 } };
    const answered = addToolOutput(respondToApproval(first.messages, 'c1', true), 'c2', forged);
    const second = await agent.generate({ messages: answered, mode: 'manual', run: run() });
    expect(second.text).toBe('Done.');
    expect(second.toolResults.map((r) => [r.call.name, r.usage])).toEqual([['summarise', { inputTokens: 100, outputTokens: 20, totalTokens: 120 }]]);
    // This request's model step (15) and the call the server ran (120); the client's claim counts for nothing.
    expect(second.usage).toMatchObject({ inputTokens: 110, outputTokens: 25, totalTokens: 135 });
    expect(second.limit).toBeUndefined();
  });
});

describe('tool usage: agents as tools, no double counting', () => {
  it('nested agents: each call’s usage is its output’s, and the outer turn counts every level once', async () => {
    const innermost = createChatAgent({ model: scriptedModel(callsStep([['i1', 'query_order', { order_id: 'A-7' }]]), textStep('A-7 is late.')), tools: [lookUp], tickets });
    const checker = await agentTool({ name: 'checker', description: 'Checks an order', agent: innermost });
    const middle = createChatAgent({ model: scriptedModel(callsStep([['m1', 'checker', { task: 'Check A-7' }]]), textStep('Checked: late.')), tools: [checker], tickets });
    const manager = await agentTool({ name: 'manager', description: 'Delegates', agent: middle });
    const outerModel = scriptedModel(callsStep([['o1', 'manager', { task: 'Is A-7 late?' }]]), textStep('Yes, late.'));
    const result = await createChatAgent({ model: outerModel, tools: [manager], tickets }).generate({ messages: 'Is A-7 late?', run: run() });
    const [call] = result.toolResults;
    // The middle agent's two steps and the innermost agent's two: 60 tokens, reported once each.
    expect(call?.usage).toEqual({ inputTokens: 40, outputTokens: 20, totalTokens: 60 });
    expect(call?.outcome.type === 'success' && (call.outcome.output as { usage: unknown }).usage).toEqual(call?.usage);
    expect(result.usage).toMatchObject({ inputTokens: 60, outputTokens: 30, totalTokens: 90 });
    expect(result.message.metadata?.usage).toEqual({ inputTokens: 60, outputTokens: 30, totalTokens: 90 });
  });

  it('reportModelUsage: the AI SDK’s usage as flat counts; unknown or invalid counts left out, none reports nothing', () => {
    const reports: ToolUsage[] = [];
    const ctx = { reportUsage: (usage: ToolUsage) => reports.push(usage) };
    reportModelUsage(ctx, {
      inputTokens: 120,
      inputTokenDetails: { noCacheTokens: 20, cacheReadTokens: 100, cacheWriteTokens: undefined },
      outputTokens: 30,
      outputTokenDetails: { textTokens: 20, reasoningTokens: 10 },
      totalTokens: 150,
    });
    reportModelUsage(ctx, { inputTokens: undefined, outputTokens: Number.NaN, totalTokens: -1 });
    reportModelUsage(ctx, undefined);
    expect(reports).toEqual([{ inputTokens: 120, outputTokens: 30, totalTokens: 150, reasoningTokens: 10, cachedInputTokens: 100 }]);
  });
});
