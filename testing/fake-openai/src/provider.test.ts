import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, isStepCount, jsonSchema, type LanguageModel, streamText, tool } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from './server';
import type { FakeOpenAI, NormalisedMessage } from './types';

let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

const variants = [
  { api: 'responses', model: (): LanguageModel => createOpenAI({ baseURL: fake.baseURL, apiKey: 'test' })('gpt-4o') },
  {
    api: 'chat',
    model: (): LanguageModel => createOpenAI({ baseURL: fake.baseURL, apiKey: 'test' }).chat('gpt-4o'),
  },
] as const;

const weatherTool = tool({
  description: 'Weather for a city',
  inputSchema: jsonSchema<{ city: string }>({
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  }),
  execute: async ({ city }) => ({ city, forecast: 'sunny', celsius: 21 }),
});

function toolMessages(messages: readonly NormalisedMessage[]): Extract<NormalisedMessage, { role: 'tool' }>[] {
  return messages.filter((message): message is Extract<NormalisedMessage, { role: 'tool' }> => message.role === 'tool');
}

describe.each(variants)('$api API through @ai-sdk/openai', ({ api, model }) => {
  const endpoint = api === 'chat' ? '/v1/chat/completions' : '/v1/responses';

  it('answers generateText (non-streamed) with text and usage', async () => {
    fake.enqueue({ text: 'Sunny in Paris.', usage: { inputTokens: 12, outputTokens: 4 } });
    const result = await generateText({ model: model(), prompt: 'Weather in Paris?' });

    expect(result.text).toBe('Sunny in Paris.');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBe(12);
    expect(result.usage.outputTokens).toBe(4);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ path: endpoint, stream: false, model: 'gpt-4o' });
    expect(fake.requests[0]?.messages).toEqual([{ role: 'user', content: 'Weather in Paris?' }]);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer test');
  });

  it('streams text in several deltas', async () => {
    fake.enqueue({ text: 'Sunny in Paris today.' });
    const result = streamText({ model: model(), prompt: 'Weather?' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);

    expect(deltas).toEqual(['Sunny ', 'in ', 'Paris ', 'today.']);
    expect(await result.text).toBe('Sunny in Paris today.');
    expect((await result.usage).totalTokens).toBeGreaterThan(0);
    expect(fake.requests[0]?.stream).toBe(true);
  });

  it('sends exactly the given deltas when text is an array', async () => {
    fake.enqueue({ text: ['Hel', 'lo', '!'] });
    const result = streamText({ model: model(), prompt: 'Hi' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas).toEqual(['Hel', 'lo', '!']);
  });

  for (const streamed of [false, true]) {
    it(`runs a tool round trip (${streamed ? 'streamed' : 'non-streamed'}); the second request carries the result`, async () => {
      fake.enqueue({ toolCalls: [{ name: 'getWeather', args: { city: 'Paris' } }] }, { text: 'It is sunny, 21°C.' });
      const options = {
        model: model(),
        prompt: 'Weather in Paris?',
        tools: { getWeather: weatherTool },
        stopWhen: isStepCount(3),
      };
      const result = streamed ? streamText(options) : await generateText(options);
      const text = await result.text;
      const steps = await result.steps;

      expect(text).toBe('It is sunny, 21°C.');
      expect(steps).toHaveLength(2);
      expect(steps[0]?.toolCalls[0]?.input).toEqual({ city: 'Paris' });
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[0]?.toolNames).toEqual(['getWeather']);

      const callId = steps[0]?.toolCalls[0]?.toolCallId;
      expect(callId).toMatch(/^call_\d+$/);
      const second = fake.requests[1]!;
      const assistant = second.messages.find((message) => message.role === 'assistant');
      expect(assistant).toMatchObject({ toolCalls: [{ id: callId, name: 'getWeather' }] });
      const [toolResult] = toolMessages(second.messages);
      expect(toolResult?.toolCallId).toBe(callId);
      expect(JSON.parse(toolResult?.content ?? '')).toEqual({ city: 'Paris', forecast: 'sunny', celsius: 21 });

      // The raw wire form, as documented in openai-wire.md.
      if (api === 'chat') {
        expect(second.body.messages).toContainEqual(
          expect.objectContaining({ role: 'tool', tool_call_id: callId, content: expect.any(String) }),
        );
      } else {
        expect(second.body.input).toContainEqual(
          expect.objectContaining({ type: 'function_call_output', call_id: callId, output: expect.any(String) }),
        );
      }
    });
  }

  it('makes parallel tool calls in one step', async () => {
    fake.enqueue(
      {
        toolCalls: [
          { name: 'getWeather', args: { city: 'Paris' } },
          { name: 'getWeather', args: { city: 'Oslo' }, id: 'call_oslo' },
        ],
      },
      { text: 'Paris and Oslo are sunny.' },
    );
    const result = streamText({
      model: model(),
      prompt: 'Weather in Paris and Oslo?',
      tools: { getWeather: weatherTool },
      stopWhen: isStepCount(3),
    });
    const steps = await result.steps;

    expect(steps[0]?.toolCalls.map((call) => call.input)).toEqual([{ city: 'Paris' }, { city: 'Oslo' }]);
    expect(steps[0]?.toolResults).toHaveLength(2);
    expect(steps[0]?.toolCalls[1]?.toolCallId).toBe('call_oslo');
    const results = toolMessages(fake.requests[1]?.messages ?? []);
    expect(results.map((message) => message.toolCallId)).toEqual([steps[0]?.toolCalls[0]?.toolCallId, 'call_oslo']);
    expect(await result.text).toBe('Paris and Oslo are sunny.');
  });

  it('turns malformed tool arguments into a tool error the model sees', async () => {
    fake.enqueue({ toolCalls: [{ name: 'getWeather', args: '{"city":' }] }, { text: 'Sorry.' });
    const result = await generateText({
      model: model(),
      prompt: 'Weather?',
      tools: { getWeather: weatherTool },
      stopWhen: isStepCount(3),
    });

    expect(result.steps[0]?.content.some((part) => part.type === 'tool-error')).toBe(true);
    expect(result.text).toBe('Sorry.');
    const [toolResult] = toolMessages(fake.requests[1]?.messages ?? []);
    expect(toolResult?.content).toMatch(/invalid|parse|JSON/i);
  });

  it('surfaces an HTTP error status as an APICallError', async () => {
    fake.enqueue({ error: { status: 400, message: 'Bad things happened.', code: 'bad_thing' } });
    const error = await generateText({ model: model(), prompt: 'Hi' }).catch((caught: unknown) => caught);

    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 400, message: 'Bad things happened.', isRetryable: false });
  });

  it('surfaces an HTTP error in streamText as an error part', async () => {
    fake.enqueue({ error: { status: 500, message: 'Server exploded.' } });
    const result = streamText({ model: model(), prompt: 'Hi', maxRetries: 0, onError: () => {} });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);

    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ statusCode: 500, message: 'Server exploded.' });
  });

  it('lets the AI SDK retry a 5xx when retry-after-ms is short', async () => {
    fake.enqueue({ error: { status: 503, message: 'Overloaded.', headers: { 'retry-after-ms': '1' } } }, { text: 'OK now.' });
    const result = await generateText({ model: model(), prompt: 'Hi' });

    expect(result.text).toBe('OK now.');
    expect(fake.requests).toHaveLength(2);
  });

  it('reports an error that arrives mid-stream after some text', async () => {
    fake.enqueue({ text: 'Partial answer', streamError: { message: 'Stream broke.' } });
    const result = streamText({ model: model(), prompt: 'Hi', onError: () => {} });
    const parts: { type: string; error?: unknown }[] = [];
    for await (const part of result.fullStream) parts.push(part);

    expect(parts.filter((part) => part.type === 'text-delta')).toHaveLength(2);
    expect(parts.find((part) => part.type === 'error')?.error).toMatchObject({ message: 'Stream broke.' });
  });

  it('ends cleanly when a hanging stream is aborted', async () => {
    fake.enqueue({ text: 'Thinking about it', hang: true });
    const controller = new AbortController();
    let aborted = false;
    const result = streamText({
      model: model(),
      prompt: 'Hi',
      abortSignal: controller.signal,
      onAbort: () => {
        aborted = true;
      },
    });
    const seen: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        seen.push(part.text);
        if (seen.length === 3) controller.abort();
      }
    }

    expect(seen.join('')).toBe('Thinking about it');
    expect(aborted).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('ends cleanly when a stream that never sent a byte of content is aborted', async () => {
    fake.enqueue({ hang: true });
    const result = streamText({ model: model(), prompt: 'Hi', abortSignal: AbortSignal.timeout(150) });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);

    expect(types.at(-1)).toBe('abort');
    expect(types).not.toContain('text-delta');
  });

  it('rejects a hanging non-streamed call with the abort reason', async () => {
    fake.enqueue({ text: 'never sent', hang: true });
    const started = Date.now();
    const error = await generateText({
      model: model(),
      prompt: 'Hi',
      abortSignal: AbortSignal.timeout(150),
    }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toMatch(/Abort|Timeout/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('aborts a slow stream between chunks', async () => {
    fake.enqueue({ text: 'one two three four five six seven eight', chunkDelayMs: 40 });
    const controller = new AbortController();
    const result = streamText({ model: model(), prompt: 'Count', abortSignal: controller.signal });
    const deltas: string[] = [];
    let last = '';
    for await (const part of result.fullStream) {
      last = part.type;
      if (part.type !== 'text-delta') continue;
      deltas.push(part.text);
      if (deltas.length === 2) controller.abort();
    }

    expect(deltas).toEqual(['one ', 'two ']);
    expect(last).toBe('abort');
    // ai 7: after an abort the stream ends with an `abort` part, but the result promises reject.
    await expect(result.text).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('API key check', () => {
  let guarded: FakeOpenAI;
  beforeAll(async () => {
    guarded = await startFakeOpenAI({ apiKey: 'sk-right-key-123456' });
  });
  afterAll(() => guarded.close());

  it('rejects a wrong bearer token with 401 and records nothing', async () => {
    guarded.enqueue({ text: 'should not be used' });
    const openai = createOpenAI({ baseURL: guarded.baseURL, apiKey: 'sk-wrong-key-000000' });
    const error = await generateText({ model: openai.chat('gpt-4o'), prompt: 'Hi' }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ statusCode: 401, isRetryable: false });
    expect((error as Error).message).toMatch(/Incorrect API key provided: sk-\*\*\*0000/);
    expect(guarded.requests).toHaveLength(0);
    expect(guarded.pendingTurns()).toBe(1);
  });

  it('accepts the right key', async () => {
    const openai = createOpenAI({ baseURL: guarded.baseURL, apiKey: 'sk-right-key-123456' });
    const result = await generateText({ model: openai('gpt-4o'), prompt: 'Hi' });
    expect(result.text).toBe('should not be used');
  });
});

describe('Responses API conversation state', () => {
  it('resolves item_reference inputs to the items the fake produced earlier', async () => {
    const openai = createOpenAI({ baseURL: fake.baseURL, apiKey: 'test' });
    fake.enqueue({ text: 'Hello, Ada.' }, { text: 'You are Ada.' });
    const first = await generateText({ model: openai('gpt-4o'), prompt: 'I am Ada.' });
    await generateText({
      model: openai('gpt-4o'),
      messages: [{ role: 'user', content: 'I am Ada.' }, ...first.response.messages, { role: 'user', content: 'Who am I?' }],
    });

    const input = fake.requests[1]?.body.input as unknown[];
    expect(input).toContainEqual(expect.objectContaining({ type: 'item_reference' }));
    expect(fake.requests[1]?.messages).toEqual([
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: 'Hello, Ada.', toolCalls: [] },
      { role: 'user', content: 'Who am I?' },
    ]);
  });
});

describe('a reasoning item (Responses API)', () => {
  it('reaches the provider as reasoning with its encrypted content, and comes back as sent', async () => {
    fake.enqueue({ reasoning: { summary: 'Checking the forecast.', encryptedContent: 'enc-1' }, text: 'Sunny.' }, { text: 'You are welcome.' });
    const model = createOpenAI({ baseURL: fake.baseURL, apiKey: 'test' })('gpt-5-mini');
    const providerOptions = { openai: { store: false } };
    const first = await generateText({ model, prompt: 'Weather?', providerOptions });
    expect(first.reasoningText).toBe('Checking the forecast.');
    expect(first.reasoning[0]?.providerMetadata).toEqual({ openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc-1' } });
    await generateText({ model, messages: [{ role: 'user', content: 'Weather?' }, ...first.response.messages, { role: 'user', content: 'Thanks' }], providerOptions });
    expect(fake.requests[1]?.body.input).toContainEqual(expect.objectContaining({ type: 'reasoning', id: 'rs_1', encrypted_content: 'enc-1' }));
  });
});

describe('a compaction item (Responses API)', () => {
  it('reaches the provider as an openai.compaction custom part, and comes back as sent with store: false', async () => {
    fake.enqueue({ compaction: { encryptedContent: 'enc-cmp' }, text: 'Sunny.' }, { text: 'You are welcome.' });
    const model = createOpenAI({ baseURL: fake.baseURL, apiKey: 'test' })('gpt-5-mini');
    const providerOptions = { openai: { store: false } };
    const first = streamText({ model, prompt: 'Weather?', providerOptions });
    const content = await first.content;
    const providerMetadata = { openai: { type: 'compaction', itemId: 'cmp_1', encryptedContent: 'enc-cmp' } };
    expect(content).toContainEqual({ type: 'custom', kind: 'openai.compaction', providerMetadata });
    const messages = [{ role: 'user' as const, content: 'Weather?' }, ...(await first.response).messages, { role: 'user' as const, content: 'Thanks' }];
    await generateText({ model, messages, providerOptions });
    expect(fake.requests[1]?.body.input).toContainEqual({ type: 'compaction', id: 'cmp_1', encrypted_content: 'enc-cmp' });
  });
});
