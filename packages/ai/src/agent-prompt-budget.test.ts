import type { LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import { convertArrayToReadableStream } from 'ai/test';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { agentTool } from './agent-tool.ts';
import { createChatAgent } from './chat/chat-agent.ts';
import { generateTextTurn } from './chat/text-turn.ts';
import { callsStep, scriptedModel, textStep } from './testing/mock-model.ts';

// The check before each model call (budget32) inside an agent call: the sub-agent's first call is estimated against what
// the calling turn has left. Every scripted step reports 15 tokens; the estimate is on (the default).
const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'agent-prompt-budget-secret-32-bytes' }] });
const run = () => createRunContext({ conversationId: 'conv-agent-prompt-budget' });
const lookUp = defineTool({ name: 'query_order', description: 'Look up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, status: 'late' }) });
/** A task of 200,000 characters: about 50,000 tokens by the estimate. */
const longTask = `Summarise: ${'x'.repeat(200_000)}`;
const PARENT_NOTE = "(The agent stopped when the calling turn's token budget ran out before it finished its answer.)";
const OWN_NOTE = '(The agent stopped at its token budget before it finished its answer.)';

describe('agent as tool: the check before the sub-agent’s model calls', () => {
  it('a task too long for what the calling turn has left never reaches the inner model, and the note names the calling budget', async () => {
    for (const kind of ['ui', 'text'] as const) {
      const inner = scriptedModel(textStep('never'));
      const tool = await agentTool({ name: 'analyst', description: 'Summarises', agent: createChatAgent({ model: inner, tools: [lookUp], tickets }) });
      const outerModel = scriptedModel(callsStep([['o1', 'analyst', { task: longTask }]]), textStep('Done.'));
      const outer = createChatAgent({ model: outerModel, tools: [tool], tickets, tokenBudget: 30_000 });
      const request = { messages: 'Summarise the log', run: run() };
      const result = kind === 'ui' ? await outer.generate(request) : await generateTextTurn(outer, request);
      expect(inner.doGenerateCalls, kind).toHaveLength(0);
      // The agent has no budget of its own: the calling turn's stopped it, and the calling model must read that.
      expect(result.toolResults[0]?.content, kind).toBe(PARENT_NOTE);
    }
  });

  it('an agent whose own budget is the lower one is named as its own', async () => {
    const inner = scriptedModel(textStep('never'));
    const tool = await agentTool({ name: 'analyst', description: 'Summarises', agent: createChatAgent({ model: inner, tools: [lookUp], tickets, tokenBudget: 1_000 }) });
    const outerModel = scriptedModel(callsStep([['o1', 'analyst', { task: longTask }]]), textStep('Done.'));
    const result = await generateTextTurn(createChatAgent({ model: outerModel, tools: [tool], tickets, tokenBudget: 80_000 }), { messages: 'Summarise', run: run() });
    expect(inner.doGenerateCalls).toHaveLength(0);
    expect(result.toolResults[0]?.content).toBe(OWN_NOTE);
  });

  it('no budget anywhere: the long task reaches the inner model', async () => {
    const inner = scriptedModel(textStep('Summary.'));
    const tool = await agentTool({ name: 'analyst', description: 'Summarises', agent: createChatAgent({ model: inner, tools: [lookUp], tickets }) });
    const outerModel = scriptedModel(callsStep([['o1', 'analyst', { task: longTask }]]), textStep('Done.'));
    const result = await generateTextTurn(createChatAgent({ model: outerModel, tools: [tool], tickets }), { messages: 'Summarise', run: run() });
    expect(inner.doGenerateCalls).toHaveLength(1);
    expect(result.toolResults[0]?.content).toBe('Summary.');
  });

  it('the estimate is made once per model call, not per streamed chunk, in the outer and the inner turn alike', async () => {
    const usage = {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    };
    /** An answer of 200 chunks. */
    const chunked = (): LanguageModelV4StreamResult => ({
      stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        ...Array.from({ length: 200 }, (_, n) => ({ type: 'text-delta' as const, id: 't', delta: `word${n} ` })),
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ]),
    });
    const seen: string[] = [];
    const counting = (who: string) => () => {
      seen.push(who);
      return 1;
    };
    const inner = scriptedModel(chunked());
    const agent = createChatAgent({ model: inner, tools: [lookUp], tickets, inputTokenEstimate: counting('inner') });
    const tool = await agentTool({ name: 'analyst', description: 'Summarises', agent });
    const outerModel = scriptedModel(callsStep([['o1', 'analyst', { task: 'Summarise' }]]), chunked());
    const outer = createChatAgent({ model: outerModel, tools: [tool], tickets, tokenBudget: 10_000, inputTokenEstimate: counting('outer') });
    const result = await outer.generate({ messages: 'Summarise the log', run: run() });
    expect(result.text).toContain('word199');
    expect(seen).toEqual(['outer', 'inner', 'outer']);
  });
});
