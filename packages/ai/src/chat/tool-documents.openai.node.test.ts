// Node-only: PDF documents in tool results on the real @ai-sdk/openai provider, against the local fake OpenAI server
// (127.0.0.1). Azure's provider is not installed: its Responses models are this package's OpenAIResponsesLanguageModel
// (from `@ai-sdk/openai/internal`) named `azure.responses`, so that class under that name stands in for it.
import { OpenAIResponsesLanguageModel } from '@ai-sdk/openai/internal';
import { createRunContext, createTicketSigner, defineTool, documentPart, imagePart } from '@edgetool/core';
import { type FakeOpenAI, startFakeOpenAI } from '@edgetool/fake-openai';
import type { LanguageModel } from 'ai';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelFromEnv } from '../provider.ts';
import { createChatAgent } from './chat-agent.ts';

/** A real 1×1 PNG, and a one-page PDF as small as it gets (189 bytes). */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const PDF = btoa(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 3 3]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'openai-documents-test-secret-32-bytes' }] });
const invoice = defineTool({
  name: 'invoice',
  description: 'Fetches an invoice as a PDF, with a chart of its lines.',
  input: v.object({ id: v.string() }),
  execute: ({ id }) => ({ id }),
  toModelOutput: ({ id }) => [{ type: 'text', text: `Invoice ${id}:` }, documentPart(PDF, 'application/pdf', `${id}.pdf`), imagePart(PNG, 'image/png')],
});

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
      output: [{ type: 'input_text' }, { type: 'input_file', filename: 'INV-7.pdf', file_data: `data:application/pdf;base64,${PDF}` }, { type: 'input_image' }],
    });
  });

  it('Chat Completions (tool messages take text only): the tool message is the text that names the document and the image', async () => {
    const body = await invoiceTurn(openai('chat'));
    const tool = (body.messages as Record<string, unknown>[]).find((message) => message.role === 'tool');
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_i', content: 'Invoice INV-7:\n[document: INV-7.pdf, application/pdf, 189 B]\n[image: image/png, 68 B]' });
  });
});
