// Node-only: the real @ai-sdk/openai provider against the local fake OpenAI server (127.0.0.1).
import { createExecutor, createRunContext, createTicketSigner, defineTool, ToolError, type TraceRecord } from '@edgetool/core';
import { type FakeOpenAI, startFakeOpenAI } from '@edgetool/fake-openai';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../offline-model/index.ts';
import { createModelFromEnv } from '../provider.ts';
import { addToolOutput, mapToolPart, respondToApproval } from '../testing/client.ts';
import { type ChatAgentOptions, createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';
import { ContinuationError } from './verify-continuation.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'openai-wire-test-secret-32-bytes-min!' }] });

function tools(writes: unknown[]) {
  return [
    defineTool({
      name: 'query_order',
      description: 'Look up an order by id',
      input: v.object({ order_id: v.string() }),
      execute: ({ order_id }) => ({ order_id, status: 'shipped' }),
    }),
    defineTool({
      name: 'update_delivery_date',
      description: 'Change the delivery date',
      input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()) }),
      policy: { effects: 'write' },
      execute: (input) => {
        writes.push(input);
        return { ...input, updated: true };
      },
    }),
    defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({ question: v.string() }), policy: { runsOn: 'client' } }),
  ];
}

describe.each([
  ['Responses API', 'responses', 'responses'],
  ['Chat Completions', 'chat', 'chat'],
] as const)('the chat loop on the real OpenAI provider (%s)', (_label, api, endpoint) => {
  const agentFor = (extra: Partial<ChatAgentOptions> = {}, writes: unknown[] = [], server: FakeOpenAI = fake) => {
    const { model } = createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: server.baseURL, OPENAI_API: api, OPENAI_MODEL: 'gpt-4o' });
    return createChatAgent({ model, tools: tools(writes), tickets, maxRetries: 0, ...extra });
  };

  it('internal mode: streams a tool call, runs it through the chain, sends the result back, answers', async () => {
    fake.enqueue({ toolCalls: [{ id: 'call_a', name: 'query_order', args: { order_id: 'A-1001' } }] }, { text: 'Order A-1001 has shipped.' });
    const result = await agentFor().generate({ messages: 'Where is A-1001?', run: createRunContext({ conversationId: 'c1' }) });
    expect(result.text).toBe('Order A-1001 has shipped.');
    expect(fake.requests.map((r) => [r.endpoint, r.stream])).toEqual([
      [endpoint, true],
      [endpoint, true],
    ]);
    expect(fake.requests[0]?.toolNames).toEqual(['query_order', 'update_delivery_date', 'pick_date']);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-fake');
    const lastMessage = fake.requests[1]?.messages.at(-1);
    expect(lastMessage).toEqual({ role: 'tool', toolCallId: 'call_a', content: '{"order_id":"A-1001","status":"shipped"}' });
  });

  it("model settings go on the wire; the turn reports the provider's token counts, summed over its steps", async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'call_u', name: 'query_order', args: { order_id: 'A-1001' } }], usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100, reasoningTokens: 8 } },
      { text: 'Shipped.', usage: { inputTokens: 200, outputTokens: 20, cachedInputTokens: 150 } },
    );
    const agent = agentFor({ settings: { temperature: 0.25, maxOutputTokens: 400, providerOptions: { openai: { safetyIdentifier: 'agent' } } } });
    const result = await agent.generate({
      messages: 'Where is A-1001?',
      run: createRunContext({ conversationId: 'c-usage' }),
      settings: { providerOptions: { openai: { safetyIdentifier: 'user-42' } } },
    });
    expect(result.text).toBe('Shipped.');
    const maxTokens = api === 'responses' ? 'max_output_tokens' : 'max_tokens';
    for (const request of fake.requests) {
      expect(request.body).toMatchObject({ temperature: 0.25, [maxTokens]: 400, safety_identifier: 'user-42' });
    }
    expect(result.usage).toMatchObject({
      inputTokens: 320,
      outputTokens: 50,
      totalTokens: 370,
      inputTokenDetails: { cacheReadTokens: 250 },
      outputTokenDetails: { reasoningTokens: 8 },
    });
    expect(result.message.metadata?.usage).toEqual({ inputTokens: 320, outputTokens: 50, totalTokens: 370, reasoningTokens: 8, cachedInputTokens: 250 });
  });

  it("a token budget stops the loop on the provider's counts: no request after the step that reached it", async () => {
    const step = (id: string) => ({ toolCalls: [{ id, name: 'query_order', args: { order_id: id } }], usage: { inputTokens: 300, outputTokens: 20 } });
    fake.enqueue(step('call_1'), step('call_2'), { text: 'Both shipped.', usage: { inputTokens: 400, outputTokens: 10 } });
    const result = await agentFor({ tokenBudget: 600 }).generate({ messages: 'Where are call_1 and call_2?', run: createRunContext({ conversationId: 'c-budget' }) });
    // 320 after the first request, 640 after the second: no third.
    expect(fake.requests).toHaveLength(2);
    expect(result.limit).toBe('tokens');
    expect(result.toolResults.map((r) => r.call.id)).toEqual(['call_1', 'call_2']);
    expect(result.message.metadata).toMatchObject({ limit: 'tokens', usage: { totalTokens: 640 } });
  });

  it('parallel calls and malformed arguments: every call gets a typed result the model reads', async () => {
    fake.enqueue(
      {
        toolCalls: [
          { id: 'call_1', name: 'query_order', args: { order_id: 'A-1' } },
          { id: 'call_2', name: 'query_order', args: '{"order_id": ' },
        ],
      },
      { text: 'One worked, one failed.' },
    );
    const result = await agentFor().generate({ messages: 'two orders', run: createRunContext({ conversationId: 'c2' }) });
    expect(result.text).toBe('One worked, one failed.');
    const toolMessages = fake.requests[1]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(toolMessages).toHaveLength(2);
    expect(toolMessages[0]).toMatchObject({ toolCallId: 'call_1', content: '{"order_id":"A-1","status":"shipped"}' });
    const executor = createExecutor({ registry: tools([]) });
    // The provider sends every failure's text as {"error": text}.
    const text = (await executor.execute({ id: 'call_2', name: 'query_order', arguments: '{"order_id": ' })).content;
    expect(toolMessages[1]).toEqual({ role: 'tool', toolCallId: 'call_2', content: JSON.stringify({ error: text }) });
    expect(result.toolResults.map((r) => [r.call.id, r.outcome.type === 'error' ? r.outcome.error.code : r.outcome.type])).toEqual([
      ['call_2', 'invalid-json'],
      ['call_1', 'success'],
    ]);
  });

  describe('calls the AI SDK refuses (not JSON, no such tool, a __proto__ key) get edgetool’s typed errors on the wire', () => {
    const bad = [
      { id: 'call_json', name: 'query_order', args: '{"order_id": ' },
      { id: 'call_unknown', name: 'cancel_order', args: { order_id: 'A-1' } },
      { id: 'call_protoname', name: '__proto__', args: {} },
      { id: 'call_protokey', name: 'update_delivery_date', args: '{"order_id":"A-1","new_date":"2026-12-24","__proto__":{"isAdmin":true}}' },
    ] as const;
    const codes = [
      ['call_json', 'invalid-json'],
      ['call_unknown', 'unknown-tool'],
      ['call_protoname', 'unknown-tool'],
      ['call_protokey', 'invalid-json'],
    ];
    /** The executor's text for each call (it refuses a __proto__ key too, as the AI SDK does). */
    async function expected(): Promise<Map<string, string>> {
      const executor = createExecutor({ registry: tools([]) });
      const texts = new Map<string, string>();
      for (const call of bad) {
        const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
        texts.set(call.id, (await executor.execute({ id: call.id, name: call.name, arguments: args })).content);
      }
      expect(texts.get('call_protokey')).toBe(
        [
          'Error (invalid-json): The arguments for "update_delivery_date" have a key that could change an object’s prototype: __proto__.',
          '- __proto__: A key that could change an object’s prototype is not accepted: leave it out.',
          'Fix these arguments and call the tool again.',
        ].join('\n'),
      );
      return texts;
    }
    const enqueue = () => fake.enqueue({ toolCalls: bad.map((c) => ({ ...c })) }, { text: 'Sorry, let me try again.' });
    /** What the model read for each call: the provider sends a failure's text as {"error": text}. */
    const modelRead = (index: number) =>
      new Map(
        (fake.requests[index]?.messages ?? []).flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, (JSON.parse(m.content) as { error: unknown }).error] as const] : [])),
      );
    const codesOf = (results: readonly { call: { id: string }; outcome: { type: string; error?: { code: string } } }[]) =>
      results.map((r) => [r.call.id, r.outcome.error?.code]);

    it.each(['internal', 'manual'] as const)('generate() in %s mode: the model reads them, results and traces have them, the turn goes on', async (mode) => {
      const writes: unknown[] = [];
      const traces: TraceRecord[] = [];
      enqueue();
      const agent = agentFor({ onTrace: (t) => traces.push(t) }, writes);
      const result = await agent.generate({ messages: 'move A-1', mode, run: createRunContext({ conversationId: `bad-${mode}` }) });
      expect(result).toMatchObject({ text: 'Sorry, let me try again.', finishReason: 'stop', pending: [] });
      expect(fake.requests).toHaveLength(2);
      expect(modelRead(1)).toEqual(await expected());
      expect(codesOf(result.toolResults)).toEqual(codes);
      expect(traces.map((t) => [t.callId, t.errorCode])).toEqual(codes);
      const texts = await expected();
      for (const call of bad) {
        const part = result.message.parts.find((p) => (p as { toolCallId?: string }).toolCallId === call.id && p.type.startsWith('tool-'));
        expect(part).toMatchObject({ state: 'output-error', errorText: texts.get(call.id) });
      }
      expect(writes).toEqual([]);
    });

    it('stream(): the SSE response carries each as a tool-input-error with edgetool’s text, then the answer', async () => {
      enqueue();
      const turn = await agentFor().stream({ messages: 'move A-1', run: createRunContext({ conversationId: 'bad-sse' }) });
      const chunks = (await turn.toResponse().text())
        .split('\n\n')
        .filter((event) => event.startsWith('data: {'))
        .map((event) => JSON.parse(event.slice('data: '.length)) as { type: string; toolCallId?: string; errorText?: string; delta?: string });
      const texts = await expected();
      expect(new Map(chunks.filter((c) => c.type === 'tool-input-error').map((c) => [c.toolCallId, c.errorText]))).toEqual(texts);
      expect(chunks.some((c) => c.type === 'tool-input-available' || c.type === 'tool-output-error' || c.type === 'data-edgetool-ticket')).toBe(false);
      expect(chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('')).toBe('Sorry, let me try again.');
      // The turn's tokens (the fake server's counts, summed over both steps) ride on `finish`.
      expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', messageMetadata: { usage: expect.objectContaining({ totalTokens: expect.any(Number) }) } });
      expect(modelRead(1)).toEqual(texts);
    });

    it('generateTextTurn: the model reads them (not streamed), and the turn’s results and messages have them', async () => {
      enqueue();
      const result = await generateTextTurn(agentFor(), { messages: 'move A-1', run: createRunContext({ conversationId: 'bad-text' }) });
      expect(result).toMatchObject({ text: 'Sorry, let me try again.', steps: 2 });
      expect(fake.requests.map((r) => r.stream)).toEqual([false, false]);
      expect(modelRead(1)).toEqual(await expected());
      expect(codesOf(result.toolResults)).toEqual(codes);
    });
  });

  it('progress: a running call’s reports reach the SSE response as transient parts, never the model', async () => {
    const scan = defineTool({
      name: 'scan_orders',
      description: 'Scan every order',
      input: v.object({}),
      execute: async (_input, ctx) => {
        for (let i = 1; i <= 3; i++) {
          ctx.progress({ message: `Scanned ${i} of 3`, completed: i, total: 3 });
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        return { scanned: 3 };
      },
    });
    const { model } = createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, OPENAI_API: api, OPENAI_MODEL: 'gpt-4o' });
    const agent = createChatAgent({ model, tools: [scan], tickets, maxRetries: 0 });
    fake.enqueue({ toolCalls: [{ id: 'call_s', name: 'scan_orders', args: {} }] }, { text: 'All 3 scanned.' });
    const turn = await agent.stream({ messages: 'Scan the orders', run: createRunContext({ conversationId: 'c-progress' }) });
    const body = await turn.toResponse().text();
    const chunks = body
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice('data: '.length)) as { type: string; id?: string; data?: { message?: string }; transient?: boolean });
    const types = chunks.map((c) => c.type);
    const reports = chunks.filter((c) => c.type === 'data-edgetool-progress');
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.every((c) => c.id === 'call_s' && c.transient === true)).toBe(true);
    expect(reports.at(-1)?.data).toMatchObject({ toolCallId: 'call_s', toolName: 'scan_orders', message: 'Scanned 3 of 3', completed: 3, total: 3 });
    expect(types.indexOf('data-edgetool-progress')).toBeGreaterThan(types.indexOf('tool-input-available'));
    expect(types.lastIndexOf('data-edgetool-progress')).toBeLessThan(types.indexOf('tool-output-available'));
    // The model reads the result only.
    expect(fake.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_s', content: '{"scanned":3}' });
    expect(JSON.stringify(fake.requests[1]?.body)).not.toContain('Scanned');
  });

  it('approval round trip: pauses, then executes once with the ticket and continues on the wire', async () => {
    const writes: unknown[] = [];
    const agent = agentFor({}, writes);
    fake.enqueue({ toolCalls: [{ id: 'call_w', name: 'update_delivery_date', args: { order_id: 'A-1001', new_date: '2026-12-24' } }] }, { text: 'Moved.' });
    const run = () => createRunContext({ conversationId: 'c3' });
    const first = await agent.generate({ messages: 'move A-1001 to 2026-12-24', run: run() });
    expect(first.pending.map((p) => p.kind)).toEqual(['approval']);
    expect(fake.requests).toHaveLength(1);
    const approved = respondToApproval(first.messages, 'call_w', true);
    const second = await agent.generate({ messages: approved, run: run() });
    expect(writes).toEqual([{ order_id: 'A-1001', new_date: '2026-12-24' }]);
    expect(second.text).toBe('Moved.');
    expect(fake.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_w', content: '{"order_id":"A-1001","new_date":"2026-12-24","updated":true}' });
    // The same continuation again (its answer was lost): the recorded result goes to the model; nothing runs twice.
    fake.enqueue({ text: 'Moved, as I said.' });
    const again = await agent.generate({ messages: approved, run: run() });
    expect(again.text).toBe('Moved, as I said.');
    expect(writes).toHaveLength(1);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[2]?.messages.at(-1)).toEqual(fake.requests[1]?.messages.at(-1));
    // A tampered one is still refused before anything runs.
    const tampered = mapToolPart(approved, 'call_w', (p) => ({ ...p, input: { order_id: 'A-1001', new_date: '2027-01-01' } }));
    await expect(agent.generate({ messages: tampered, run: run() })).rejects.toBeInstanceOf(ContinuationError);
    expect(fake.requests).toHaveLength(3);
  });

  it('client tool: handed back with a ticket, resumed with the browser’s answer', async () => {
    const agent = agentFor();
    fake.enqueue({ toolCalls: [{ id: 'call_d', name: 'pick_date', args: { question: 'Which day?' } }] }, { text: 'Booked for 2026-12-24.' });
    const first = await agent.generate({ messages: 'book a delivery', run: createRunContext({ conversationId: 'c4' }) });
    expect(first.pending).toEqual([expect.objectContaining({ toolCallId: 'call_d', kind: 'client', runsOn: 'client' })]);
    const second = await agent.generate({ messages: addToolOutput(first.messages, 'call_d', '2026-12-24'), run: createRunContext({ conversationId: 'c4' }) });
    expect(second.text).toBe('Booked for 2026-12-24.');
    expect(fake.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_d', content: '2026-12-24' });
  });

  it('a caller abort mid-stream stops the request', async () => {
    // A server of its own, closed after it: an aborted request may reach its server late (see the responseMs test).
    const own = await startFakeOpenAI({ apiKey: 'sk-fake' });
    try {
      own.enqueue({ text: 'This answer streams very slowly word by word', chunkDelayMs: 50 });
      const controller = new AbortController();
      const turn = await agentFor({}, [], own).stream({ messages: 'talk', run: createRunContext({ conversationId: 'c5' }), signal: controller.signal });
      setTimeout(() => controller.abort(), 80);
      const types: string[] = [];
      const reader = turn.stream.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) types.push(next.value.type);
      expect(types.at(-1)).toBe('abort');
      expect(types).not.toContain('finish');
    } finally {
      await own.close();
    }
  });

  it('a connection the provider drops mid-answer ends the SSE response with an error chunk; onError gets why', async () => {
    const dropping = await startFakeOpenAI({ apiKey: 'sk-fake' });
    try {
      dropping.enqueue({ text: 'Order A-1001 has', hang: true });
      const { model } = createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: dropping.baseURL, OPENAI_API: api, OPENAI_MODEL: 'gpt-4o' });
      const errors: unknown[] = [];
      const agent = createChatAgent({ model, tools: tools([]), tickets, maxRetries: 0, onError: ({ error }) => errors.push(error) });
      const turn = await agent.stream({ messages: 'Where is A-1001?', run: createRunContext({ conversationId: 'c-drop' }) });
      const body = turn.toResponse().text();
      // The answer has started; then the server goes away (close() drops the open connection).
      while (dropping.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await dropping.close();
      const chunks = (await body)
        .split('\n\n')
        .filter((event) => event.startsWith('data: {'))
        .map((event) => JSON.parse(event.slice('data: '.length)) as { type: string; errorText?: string });
      expect(chunks.at(-1)).toEqual({ type: 'error', errorText: expect.stringMatching(/^The model call failed \(/) });
      expect(errors).toHaveLength(1);
    } finally {
      await dropping.close();
    }
  });

  it('a text turn whose model call outlives responseMs ends with the timeout ToolError, also when the headers had come', async () => {
    // `hang` sends the response headers and then nothing: the provider's read of the body is what the limit aborts.
    // Each on a server of its own, closed after it: on a busy machine the limit can abort a request before its server
    // has read it, which it then did after the next test had queued its turn, and took that turn (that test's own
    // request found none: "no turn queued").
    for (const turn of [{ text: 'never sent', hang: true }, { text: 'too late', chunkDelayMs: 5_000 }]) {
      const own = await startFakeOpenAI({ apiKey: 'sk-fake' });
      try {
        own.enqueue(turn);
        const agent = agentFor({ modelTimeout: { responseMs: 100 } }, [], own);
        const error = await generateTextTurn(agent, { messages: 'hi', run: createRunContext({ conversationId: 'c-slow' }) }).catch((e: unknown) => e);
        expect(ToolError.isInstance(error) && [error.code, error.message]).toEqual(['timeout', 'The model did not answer in time (no answer within 100 ms).']);
      } finally {
        await own.close();
      }
    }
  });

  it('a provider error becomes an error chunk, not a crash: the client reads its name, onError gets its message', async () => {
    fake.enqueue({ error: { status: 400, message: 'This model does not support tools.' } });
    const errors: unknown[] = [];
    const turn = await agentFor({ onError: ({ error }) => errors.push(error) }).stream({ messages: 'hi', run: createRunContext({ conversationId: 'c6' }) });
    const body = await turn.toResponse().text();
    expect(body).toContain('"type":"error"');
    expect(body).toContain('The model call failed (AI_APICallError).');
    expect(body).not.toContain('does not support tools');
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('This model does not support tools.');
  });

  it('errorMessage decides what the client reads', async () => {
    fake.enqueue({ error: { status: 400, message: 'This model does not support tools.' } });
    const turn = await agentFor({ errorMessage: (error) => String(error), onError: () => {} }).stream({ messages: 'hi', run: createRunContext({ conversationId: 'c7' }) });
    expect(await turn.toResponse().text()).toContain('This model does not support tools.');
  });
});

describe('the offline model drives the same loop with no API key', () => {
  it('maps a plain request to a tool call, runs it, and summarises the result', async () => {
    const agent = createChatAgent({ model: createOfflineModel(), tools: tools([]), tickets });
    const result = await agent.generate({ messages: 'Where is order A-1001?', run: createRunContext({ conversationId: 'off' }) });
    expect(result.toolResults.map((r) => [r.call.name, r.input])).toEqual([['query_order', { order_id: 'A-1001' }]]);
    expect(result.text).toMatch(/A-1001/);
    expect(result.text).toMatch(/shipped/);
    expect(result.message.metadata?.model).toEqual({ provider: 'edgetool.offline', modelId: 'edgetool-offline', offline: true });
  });
});
