// Node-only: images in tool results on the real @ai-sdk/openai provider, against the local fake OpenAI server (127.0.0.1).
import { createRunContext, createTicketSigner } from '@edgetool/core';
import { type FakeOpenAI, startFakeOpenAI } from '@edgetool/fake-openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelFromEnv } from '../provider.ts';
import { createChatAgent } from './chat-agent.ts';
import { chartTool as chart, PNG } from '../test-support/files.ts';


let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'openai-images-test-secret-32-bytes!!' }] });

async function chartTurn(api: 'responses' | 'chat') {
  const { model } = createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, OPENAI_API: api, OPENAI_MODEL: 'gpt-4o' });
  fake.enqueue({ toolCalls: [{ id: 'call_c', name: 'sales_chart', args: { month: 'May' } }] }, { text: 'Sales rose in May.' });
  const result = await createChatAgent({ model, tools: [chart], tickets, maxRetries: 0 }).generate({ messages: 'Chart May', run: createRunContext() });
  expect(result.text).toBe('Sales rose in May.');
  return fake.requests[1]?.body as Record<string, unknown>;
}

describe('images in tool results on the real OpenAI provider', () => {
  it('Responses API: the function call output carries the image as input_image with a data URL', async () => {
    const body = await chartTurn('responses');
    const output = (body.input as Record<string, unknown>[]).find((item) => item.type === 'function_call_output');
    expect(output).toMatchObject({
      call_id: 'call_c',
      output: [
        { type: 'input_text', text: 'Sales in May:' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
      ],
    });
  });

  it('Chat Completions (tool messages take no images): the tool message is the text that names the image', async () => {
    const body = await chartTurn('chat');
    const tool = (body.messages as Record<string, unknown>[]).find((message) => message.role === 'tool');
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_c', content: 'Sales in May:\n[image: image/png, 68 B]' });
  });
});
