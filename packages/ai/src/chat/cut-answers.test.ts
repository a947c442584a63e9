import { createRunContext, createTicketSigner, defineTool, ToolError } from '@edgetool/core';
import type { LanguageModelV4FinishReason, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { UIMessageChunk } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { callsStep, scriptedModel } from '../testing/mock-model.ts';
import { createChatAgent, MODEL_CUT_TEXT } from './chat-agent.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'cut-answers-test-secret-32-bytes!!!!' }] });
const tools = [defineTool({ name: 'lookup', description: 'Look up', input: v.object({}), execute: () => 'found' })];
const run = () => createRunContext({ conversationId: 'conv-cut' });
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A step that streams some text, then ends as `finish` says (`undefined`: the stream just ends, no finish part). */
function textThen(finish: LanguageModelV4FinishReason | undefined) {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'The refund for A-1 is' },
  ];
  if (finish !== undefined) parts.push({ type: 'text-end', id: 't' }, { type: 'finish', finishReason: finish, usage });
  return { stream: convertArrayToReadableStream(parts) };
}

async function turnOf(model: MockLanguageModelV4) {
  const errors: unknown[] = [];
  const turn = await createChatAgent({ model, tools, tickets, onError: ({ error }) => errors.push(error) }).stream({ messages: 'refund?', run: run() });
  const result = turn.result;
  const chunks: UIMessageChunk[] = [];
  const reader = turn.stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return { chunks, result: await result, errors };
}

describe('a model answer cut off before the model finished', () => {
  it.each([
    ['the model’s stream just ends (no finish part)', undefined],
    ['the provider reports it interrupted (OpenAI’s provider, no finish_reason)', { unified: 'interrupted', raw: undefined }],
    ['a finish with no reason at all (Anthropic’s provider, no stop_reason)', { unified: 'other', raw: undefined }],
  ] as const)('%s: the UI stream ends with an error after the text, not a finish', async (_, finish) => {
    const model = new MockLanguageModelV4({ doStream: async () => textThen(finish) });
    const { chunks, result, errors } = await turnOf(model);
    expect(chunks.some((c) => c.type === 'finish')).toBe(false);
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: MODEL_CUT_TEXT });
    expect(result).toMatchObject({ finishReason: 'interrupted', text: 'The refund for A-1 is' });
    // onError hears of it once, as the ToolError (not again as the fold's Error of the chunk's text).
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'execution-failed', message: MODEL_CUT_TEXT });
    expect(ToolError.isInstance(errors[0])).toBe(true);
  });

  it('a step cut after its tool call still runs the call; the turn’s last step decides', async () => {
    const model = scriptedModel(callsStep([['c1', 'lookup', {}]]), textThen(undefined));
    const { chunks, result } = await turnOf(model);
    expect(result.toolResults.map((r) => r.outcome.type)).toEqual(['success']);
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: MODEL_CUT_TEXT });
    expect(result.finishReason).toBe('interrupted');
  });

  it.each([
    ['stop', { unified: 'stop', raw: 'stop' }],
    ['other, with the provider’s own reason', { unified: 'other', raw: 'pause_turn' }],
  ] as const)('a finish the model sent (%s) is a finished answer', async (_, finish) => {
    const model = new MockLanguageModelV4({ doStream: async () => textThen(finish) });
    const { chunks, result, errors } = await turnOf(model);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: finish.unified });
    expect(chunks.some((c) => c.type === 'error')).toBe(false);
    expect(result.finishReason).toBe(finish.unified);
    expect(errors).toEqual([]);
  });
});
