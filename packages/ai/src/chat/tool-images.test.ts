import { createExecutor, createRunContext, createTicketSigner, defineTool, imagePart } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { executeToolCalls } from '../execute-tool-calls.ts';
import { createOfflineModel } from '../offline-model/index.ts';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';
import { takesToolImages, toToolOutput } from './tool-output.ts';
import { chartTool as chart, PNG } from '../test-support/files.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'tool-images-test-secret-32-bytes-min!' }] });


const asImages = {
  type: 'content',
  value: [
    { type: 'text', text: 'Sales in May:' },
    { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
  ],
};
const asText = { type: 'text', value: 'Sales in May:\n[image: image/png, 68 B]' };

describe('images in tool results reach the model', () => {
  it('toToolOutput: text as text, parts as content with image files, or as their text', () => {
    expect(toToolOutput('plain', { images: true, documents: true })).toEqual({ type: 'text', value: 'plain' });
    const parts = [{ type: 'text', text: 'Sales in May:' }, imagePart(PNG, 'image/png')] as const;
    expect(toToolOutput(parts, { images: true, documents: false })).toEqual(asImages);
    expect(toToolOutput(parts, { images: false, documents: true })).toEqual(asText);
  });

  it('takesToolImages: the Responses API, Anthropic’s Messages API and the offline model; not Chat Completions, mocks or model ids', () => {
    const model = (provider: string) => ({ ...scriptedModel(), provider }) as unknown as Parameters<typeof takesToolImages>[0];
    expect(takesToolImages(model('openai.responses'))).toBe(true);
    expect(takesToolImages(model('anthropic.messages'))).toBe(true);
    // Only the provider name checked against @ai-sdk/anthropic, not anything else under `anthropic.`.
    expect(takesToolImages(model('anthropic.other'))).toBe(false);
    expect(takesToolImages(createOfflineModel())).toBe(true);
    expect(takesToolImages(model('openai.chat'))).toBe(false);
    expect(takesToolImages(scriptedModel())).toBe(false);
    expect(takesToolImages('openai/gpt-4o')).toBe(false);
  });

  it('the chat loop sends the image as an image file, in this turn and from the history of the next', async () => {
    const model = scriptedModel(callsStep([['c1', 'sales_chart', { month: 'May' }]]), textStep('Sales rose.'), textStep('Yes.'));
    const agent = createChatAgent({ model, tools: [chart], tickets, toolImages: true });
    const run = createRunContext({ conversationId: 'conv-images' });
    const first = await agent.generate({ messages: 'Chart May', run });
    expect(first.toolResults[0]?.parts).toEqual([
      { type: 'text', text: 'Sales in May:' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
    ]);
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: asImages }]);

    // The next turn rebuilds the history from the UI messages: the tool's toModelOutput makes the image again.
    const next = [...first.messages, { id: 'u2', role: 'user' as const, parts: [{ type: 'text' as const, text: 'Did they?' }] }];
    await agent.generate({ messages: next, run });
    const history = model.doStreamCalls[2]?.prompt.find((message) => message.role === 'tool');
    expect(history?.content).toEqual([expect.objectContaining({ toolCallId: 'c1', output: asImages })]);
  });

  it('a model that cannot take them (the default for unknown providers) reads the text that names the image', async () => {
    const model = scriptedModel(callsStep([['c1', 'sales_chart', { month: 'May' }]]), textStep('Sales rose.'));
    await createChatAgent({ model, tools: [chart], tickets }).generate({ messages: 'Chart May', run: createRunContext() });
    expect(lastToolResults(model.doStreamCalls[1])).toEqual([{ toolCallId: 'c1', output: asText }]);
  });

  it('generateTextTurn and executeToolCalls send images too', async () => {
    const model = scriptedModel(callsStep([['c1', 'sales_chart', { month: 'May' }]]), textStep('Sales rose.'));
    const agent = createChatAgent({ model, tools: [chart], tickets, toolImages: true });
    const turn = await generateTextTurn(agent, { messages: 'Chart May', run: createRunContext() });
    expect(turn.text).toBe('Sales rose.');
    expect(lastToolResults(model.doGenerateCalls[1])).toEqual([{ toolCallId: 'c1', output: asImages }]);

    const executor = createExecutor({ registry: [chart] });
    const toolCalls = [{ toolCallId: 'c2', toolName: 'sales_chart', input: { month: 'May' } }];
    const images = await executeToolCalls({ executor, toolCalls });
    expect(images.messages[0]?.content[0]).toMatchObject({ toolCallId: 'c2', output: asImages });
    const text = await executeToolCalls({ executor, toolCalls, images: false });
    expect(text.messages[0]?.content[0]).toMatchObject({ toolCallId: 'c2', output: asText });
  });

  it('bad parts are the call’s invalid-output error, which the model reads; the turn goes on', async () => {
    const broken = defineTool({
      name: 'broken_chart',
      description: 'Draws badly.',
      input: v.object({}),
      execute: () => 'x',
      toModelOutput: () => [{ type: 'image', data: 'data:image/png;base64,AAAA', mediaType: 'image/png' }],
    });
    const model = scriptedModel(callsStep([['c1', 'broken_chart', {}]]), textStep('It failed.'));
    const result = await createChatAgent({ model, tools: [broken], tickets, toolImages: true }).generate({ messages: 'Chart', run: createRunContext() });
    expect(result.text).toBe('It failed.');
    const [seen] = lastToolResults(model.doStreamCalls[1]);
    expect(seen?.output).toMatchObject({ type: 'error-text', value: expect.stringMatching(/^Error \(invalid-output\): .*not base64 text/) });
  });
});
