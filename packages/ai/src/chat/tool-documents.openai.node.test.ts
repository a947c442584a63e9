// Node-only: PDF documents in tool results on the real @ai-sdk/openai provider, against the local fake OpenAI server
// (127.0.0.1). Azure's provider is not installed: its Responses models are this package's OpenAIResponsesLanguageModel
// (from `@ai-sdk/openai/internal`) named `azure.responses`, so that class under that name stands in for it.
import { OpenAIResponsesLanguageModel } from '@ai-sdk/openai/internal';
import { createRunContext, createTicketSigner, } from '@edgetool/core';
import { type FakeOpenAI, startFakeOpenAI } from '@edgetool/fake-openai';
import type { LanguageModel } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelFromEnv } from '../provider.ts';
import { createChatAgent } from './chat-agent.ts';
import { invoiceTool as invoice, PDF, PNG } from '../test-support/files.ts';


let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'openai-documents-test-secret-32-bytes' }] });

async function invoiceTurn(model: LanguageModel) {
  fake.enqueue({ toolCalls: [{ id: 'call_i', name: 'invoice', args: { id: 'INV-7' } }] }, { text: 'It is due in May.' });
  const result = await createChatAgent({ model, tools: [invoice], tickets, maxRetries: 0 }).generate({ messages: 'Show INV-7', run: createRunContext() });
  expect(result.text).toBe('It is due in May.');
  return fake.requests[1]?.body as Record<string, unknown>;
}

const openai = (api: 'responses' | 'chat') =>
  createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, OPENAI_API: api, OPENAI_MODEL: 'gpt-4o' }).model;

/** The function call output the provider sent for the invoice call. */
const functionCallOutput = (body: Record<string, unknown>) => (body.input as Record<string, unknown>[]).find((item) => item.type === 'function_call_output');

describe('documents in tool results on the real OpenAI provider', () => {
  it('Responses API: the function call output carries the PDF as input_file with a data URL and the file name', async () => {
    const body = await invoiceTurn(openai('responses'));
    expect(functionCallOutput(body)).toEqual({
      type: 'function_call_output',
      call_id: 'call_i',
      output: [
        { type: 'input_text', text: 'Invoice INV-7:' },
        { type: 'input_text', text: '[document: INV-7.pdf, application/pdf, 189 B]' },
        { type: 'input_file', filename: 'INV-7.pdf', file_data: `data:application/pdf;base64,${PDF}` },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
      ],
    });
  });

  it('Azure’s Responses model (the same class, named azure.responses) sends the same input_file', async () => {
    const model = new OpenAIResponsesLanguageModel('gpt-4o', {
      provider: 'azure.responses',
      url: ({ path }) => `${fake.baseURL}${path}`,
      headers: () => ({ authorization: 'Bearer sk-fake' }),
      fileIdPrefixes: ['assistant-'],
    });
    const body = await invoiceTurn(model);
    expect(functionCallOutput(body)).toMatchObject({
      call_id: 'call_i',
      output: [{ type: 'input_text' }, { type: 'input_text' }, { type: 'input_file', filename: 'INV-7.pdf', file_data: `data:application/pdf;base64,${PDF}` }, { type: 'input_image' }],
    });
  });

  it('Chat Completions (tool messages take text only): the tool message is the text that names the document and the image', async () => {
    const body = await invoiceTurn(openai('chat'));
    const tool = (body.messages as Record<string, unknown>[]).find((message) => message.role === 'tool');
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_i', content: 'Invoice INV-7:\n[document: INV-7.pdf, application/pdf, 189 B]\n[image: image/png, 68 B]' });
  });
});
