import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'turn-result-test-secret-32-bytes-long!!' }] });
const queryOrder = defineTool({
  name: 'query_order',
  description: 'Look up an order',
  input: v.object({ order_id: v.string() }),
  execute: ({ order_id }) => ({ order_id, status: 'shipped' }),
});
const script = () => scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-1001' }]]), textStep('It has shipped.'));
const ask = (text: string) => ({ messages: text, run: createRunContext({ conversationId: 'conv-1' }) });
const types = async (response: Response) =>
  (await response.text())
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => (JSON.parse(line.slice(6)) as { type: string }).type);

describe('turn.result read before anything has the stream', () => {
  it('runs the turn to its end by itself (await turn.result alone waited forever)', async () => {
    const model = script();
    const turn = await createChatAgent({ model, tools: [queryOrder], tickets }).stream(ask('Where is A-1001?'));
    const result = await turn.result;
    expect(result.text).toBe('It has shipped.');
    expect(result.finishReason).toBe('stop');
    expect(result.toolResults.map((r) => r.outcome.type)).toEqual(['success']);
    expect(model.doStreamCalls).toHaveLength(2);
    // Its chunks waited: the response sent afterwards carries the whole turn, as one sent while it ran.
    const late = await types(turn.toResponse());
    const live = await createChatAgent({ model: script(), tools: [queryOrder], tickets }).stream(ask('Where is A-1001?'));
    expect(late).toEqual(await types(live.toResponse()));
    expect(late.at(-1)).toBe('finish');
  });

  it('the reader that comes later can still cancel the turn: the result holds what arrived', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Let me look' });
            // The model hangs until the turn is cancelled.
            await Promise.race([held, new Promise((resolve) => abortSignal?.addEventListener('abort', resolve))]);
          },
        }),
      }),
    });
    const turn = await createChatAgent({ model, tools: [queryOrder], tickets }).stream(ask('Where is A-1001?'));
    const result = turn.result;
    const reader = turn.stream.getReader();
    expect((await reader.read()).value).toMatchObject({ type: 'start' });
    await reader.cancel('tab closed');
    const partial = await result;
    expect(partial.finishReason).toBe('aborted');
    expect(partial.message.role).toBe('assistant');
    release();
  });
});
