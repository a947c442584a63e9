import { type ApprovalDecision, contextKey, createRunContext, createTicketSigner, defineInterceptor, defineTool, ToolError, type TraceRecord } from '@edgetool/core';
import { APICallError, type ModelMessage } from 'ai';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { MockLanguageModelV4 } from 'ai/test';
import { callsStep, lastToolResults, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent, DEFAULT_MODEL_TIMEOUT, type PendingToolCall } from './chat-agent.ts';
import { generateTextTurn, type TextTurnRequest, type TextTurnResult } from './text-turn.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'text-turn-secret-text-turn-secret-!!' }] });
const visits = contextKey<string[]>('visits');

function fixture(...steps: Parameters<typeof scriptedModel>) {
  const writes: unknown[] = [];
  const layers: string[] = [];
  const traces: TraceRecord[] = [];
  const model = scriptedModel(...steps);
  const tools = [
    defineTool({
      name: 'query_order',
      description: 'Look up an order',
      input: v.object({ order_id: v.pipe(v.string(), v.minLength(2)) }),
      execute: ({ order_id }, ctx) => {
        ctx.run.set(visits, [...(ctx.run.get(visits) ?? []), order_id]);
        return { order_id, status: 'shipped' };
      },
    }),
    defineTool({
      name: 'update_delivery_date',
      description: 'Change a delivery date',
      input: v.object({ order_id: v.string(), new_date: v.string() }),
      policy: { effects: 'write' },
      execute: ({ order_id, new_date }) => {
        writes.push({ order_id, new_date });
        return { order_id, delivery_date: new_date };
      },
    }),
    defineTool({ name: 'pick_date', description: 'The user picks a date', input: v.object({ question: v.string() }), policy: { runsOn: 'client' } }),
    defineTool({ name: 'answer', description: 'Final answer', input: v.object({ text: v.string() }), policy: { returnDirect: true }, execute: ({ text }) => text }),
    defineTool({
      name: 'boom',
      description: 'Fails',
      input: v.object({}),
      execute: (): string => {
        throw new Error('database unavailable');
      },
    }),
  ];
  const agent = createChatAgent({
    model,
    tools,
    tickets,
    interceptors: [
      defineInterceptor('outer', (ctx, next) => {
        layers.push(`outer:${ctx.tool.name}`);
        return next();
      }),
    ],
    onTrace: (record) => traces.push(record),
  });
  return { agent, model, writes, layers, traces };
}

const run = (conversationId = 'job-1') => createRunContext({ conversationId });

/** Every string in a value, deeply (to show that no seal or ticket is in a text turn's messages). */
const text = (value: unknown): string => JSON.stringify(value);

describe('text turn (generateTextTurn): the loop for server code', () => {
  it('runs server tools through the chain and returns model messages, with no UI stream and no proofs', async () => {
    const { agent, model, layers, traces } = fixture(callsStep([['c1', 'query_order', { order_id: 'A-1001' }]]), textStep('It shipped.'));
    const r = run();
    const result = await generateTextTurn(agent, { messages: 'Where is A-1001?', run: r });
    expectTypeOf(result).toEqualTypeOf<TextTurnResult>();
    expect(result).toMatchObject({ text: 'It shipped.', finishReason: 'stop', steps: 2, returnDirect: false, pending: [] });
    expect(result.toolResults.map((t) => [t.call.id, t.outcome])).toEqual([['c1', { type: 'success', output: { order_id: 'A-1001', status: 'shipped' } }]]);
    // The chain ran (global interceptor, onTrace) and the tool saw the run context.
    expect(layers).toEqual(['outer:query_order']);
    expect(traces.map((t) => [t.toolName, t.outcome])).toEqual([['query_order', 'success']]);
    expect(r.get(visits)).toEqual(['A-1001']);
    // The model read edgetool's text for the result; nothing was streamed. It was offered every tool (the run may see all).
    expect(model.doStreamCalls).toHaveLength(0);
    expect(model.doGenerateCalls[0]?.tools?.map((t) => t.name)).toEqual(['query_order', 'update_delivery_date', 'pick_date', 'answer', 'boom']);
    expect(lastToolResults(model.doGenerateCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'text', value: '{"order_id":"A-1001","status":"shipped"}' } }]);
    // The conversation: the prompt, the assistant's call, the tool result, the answer. No seal or ticket in it.
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(text(result.messages)).not.toMatch(/es1\.|et1\./);
  });

  it('continues a conversation from an earlier turn’s messages', async () => {
    const { agent, model } = fixture(textStep('Hello.'), callsStep([['c2', 'query_order', { order_id: 'A-7' }]]), textStep('A-7 shipped.'));
    const first = await generateTextTurn(agent, { messages: 'hi', run: run() });
    const history: ModelMessage[] = [...first.messages, { role: 'user', content: 'and A-7?' }];
    const second = await generateTextTurn(agent, { messages: history, run: run() });
    expect(second.text).toBe('A-7 shipped.');
    expect(model.doGenerateCalls[1]?.prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages.slice(0, 3)).toEqual(history);
  });

  it('ends on an approval request (nothing runs); an approval in the next turn runs the call exactly once', async () => {
    const { agent, model, writes } = fixture(callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Moved.'));
    const first = await generateTextTurn(agent, { messages: 'Move A-1 to Dec 24', run: run() });
    expect(writes).toEqual([]);
    expect(first.finishReason).toBe('tool-calls');
    expect(first.pending).toEqual<PendingToolCall[]>([
      { toolCallId: 'c1', toolName: 'update_delivery_date', input: { order_id: 'A-1', new_date: '2026-12-24' }, kind: 'approval', ticket: undefined, runsOn: 'server' },
    ]);
    const second = await generateTextTurn(agent, { messages: first.messages, approvals: { c1: true }, run: run() });
    expect(writes).toEqual([{ order_id: 'A-1', new_date: '2026-12-24' }]);
    expect(second).toMatchObject({ text: 'Moved.', pending: [] });
    expect(second.toolResults.map((t) => t.call.id)).toEqual(['c1']);
    expect(lastToolResults(model.doGenerateCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'text', value: '{"order_id":"A-1","delivery_date":"2026-12-24"}' } }]);
    // The answer is in the conversation, so the same messages cannot be answered twice.
    await expect(generateTextTurn(agent, { messages: second.messages, approvals: { c1: true }, run: run() })).rejects.toThrow(/No approval request is open for tool call "c1"/);
    expect(writes).toHaveLength(1);
  });

  it('a denial runs nothing and the model reads the reason', async () => {
    const { agent, model, writes } = fixture(callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Understood.'));
    const first = await generateTextTurn(agent, { messages: 'Move A-1', run: run() });
    const second = await generateTextTurn(agent, { messages: first.messages, approvals: { c1: { approved: false, reason: 'wrong order' } }, run: run() });
    expect(writes).toEqual([]);
    expect(second).toMatchObject({ text: 'Understood.', pending: [] });
    expect(lastToolResults(model.doGenerateCalls[1])).toEqual([{ toolCallId: 'c1', output: { type: 'execution-denied', reason: 'wrong order' } }]);
  });

  it('grantApprovals runs calls that would need approval without asking', async () => {
    const { agent, writes } = fixture(callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]), textStep('Moved.'));
    const result = await generateTextTurn(agent, { messages: 'Move A-1', run: run(), grantApprovals: true });
    expect(writes).toHaveLength(1);
    expect(result).toMatchObject({ text: 'Moved.', pending: [] });
  });

  it('ends on a client tool’s call as pending, with where it runs', async () => {
    const { agent } = fixture(callsStep([['c1', 'pick_date', { question: 'Which day?' }]]), textStep('never'));
    const result = await generateTextTurn(agent, { messages: 'book', run: run() });
    expect(result.pending).toEqual([expect.objectContaining({ toolCallId: 'c1', toolName: 'pick_date', kind: 'client', runsOn: 'client' })]);
    expect(result.toolResults).toEqual([]);
  });

  it('stops on a return-direct tool: its output is the answer and the model is not called again', async () => {
    const { agent, model } = fixture(callsStep([['c1', 'answer', { text: 'Final: 42' }]]), textStep('never'));
    const result = await generateTextTurn(agent, { messages: 'answer', run: run() });
    expect(result).toMatchObject({ text: 'Final: 42', returnDirect: true, finishReason: 'stop', steps: 1 });
    expect(model.doGenerateCalls).toHaveLength(1);
    // On the step that also reaches maxSteps (or the token budget), the return-direct tool's output is still the answer.
    // No estimate before each call: a budget of 1 would refuse the first (prompt-budget.test.ts).
    for (const limits of [{ maxSteps: 1 }, { tokenBudget: 1, inputTokenEstimate: false as const }]) {
      const again = fixture(callsStep([['c1', 'answer', { text: 'Final: 42' }]]), textStep('never'));
      const limited = createChatAgent({ model: again.model, tools: await again.agent.registry.tools(), tickets, ...limits });
      expect(await generateTextTurn(limited, { messages: 'answer', run: run() }), JSON.stringify(limits)).toMatchObject({
        text: 'Final: 42',
        returnDirect: true,
        limit: undefined,
      });
    }
  });

  it('stops on a return-direct tool that needed an approval: once approved, its output is the answer', async () => {
    const book = defineTool({
      name: 'book_slot',
      description: 'Books a delivery slot; its confirmation is the answer',
      input: v.object({ slot: v.string() }),
      policy: { effects: 'write', returnDirect: true },
      execute: ({ slot }) => `Booked ${slot}.`,
    });
    const model = scriptedModel(callsStep([['c1', 'book_slot', { slot: 'Friday 9-12' }]]), textStep('the model spoke again'));
    const agent = createChatAgent({ model, tools: [book], tickets });
    const first = await generateTextTurn(agent, { messages: 'book Friday morning', run: run() });
    expect(first.pending.map((p) => p.kind)).toEqual(['approval']);
    const done = await generateTextTurn(agent, { messages: first.messages, approvals: { c1: true }, run: run() });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(done).toMatchObject({ text: 'Booked Friday 9-12.', returnDirect: true, finishReason: 'stop', steps: 0, limit: undefined });
    // Its messages go on as any turn's: the next turn's model reads the call and its result.
    const next = await generateTextTurn(createChatAgent({ model: scriptedModel(textStep('ok')), tools: [book], tickets }), { messages: [...done.messages, { role: 'user', content: 'thanks' }], run: run() });
    expect(next.text).toBe('ok');
  });

  it('failures reach the model as typed text: a throwing tool, invalid arguments, an unknown tool', async () => {
    const { agent, model } = fixture(
      callsStep([
        ['c1', 'boom', {}],
        ['c2', 'query_order', { order_id: 'A' }],
      ]),
      textStep('Sorry.'),
    );
    const result = await generateTextTurn(agent, { messages: 'go', run: run() });
    expect(result.text).toBe('Sorry.');
    expect(result.toolResults.map((t) => [t.call.id, t.isError, t.outcome.type === 'error' ? t.outcome.error.code : 'ok'])).toEqual([
      ['c1', true, 'execution-failed'],
      ['c2', true, 'invalid-input'],
    ]);
    const seen = lastToolResults(model.doGenerateCalls[1]);
    expect(seen.map((s) => s.toolCallId)).toEqual(['c1', 'c2']);
    expect(text(seen[0]?.output)).toContain('database unavailable');
    expect(text(seen[1]?.output)).toContain('order_id');
  });

  it('an answer for a call that is not waiting is refused before the model runs', async () => {
    const { agent, model } = fixture(textStep('never'));
    await expect(generateTextTurn(agent, { messages: 'hi', approvals: { nope: true }, run: run() })).rejects.toThrow(TypeError);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('types: approvals answer by call id with a boolean or a decision; the result is typed', () => {
    const { agent } = fixture(textStep('never'));
    expectTypeOf<TextTurnRequest['approvals']>().toEqualTypeOf<Readonly<Record<string, boolean | Pick<ApprovalDecision, 'approved' | 'reason' | 'input'>>> | undefined>();
    expectTypeOf(generateTextTurn<unknown>).returns.resolves.toEqualTypeOf<TextTurnResult>();
    expectTypeOf<TextTurnResult['messages']>().toEqualTypeOf<ModelMessage[]>();
    // @ts-expect-error an answer is a boolean or { approved, reason }, not a string
    const wrong: TextTurnRequest = { messages: 'x', run: run(), approvals: { c1: 'yes' } };
    expect(wrong.approvals).toBeDefined();
    expect(typeof agent.options).toBe('object');
  });

  it('an aborted signal stops the turn before any tool runs', async () => {
    const { agent, writes } = fixture(callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: 'x' }]]), textStep('never'));
    const controller = new AbortController();
    controller.abort();
    await expect(generateTextTurn(agent, { messages: 'go', run: run(), signal: controller.signal, grantApprovals: true })).rejects.toThrow();
    expect(writes).toEqual([]);
  });

  it('passes only the model time limits generateText applies: the default chunk limits make the AI SDK warn on nothing', async () => {
    const warned: unknown[] = [];
    const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
    const before = global.AI_SDK_LOG_WARNINGS;
    global.AI_SDK_LOG_WARNINGS = (options: { warnings: unknown[] }) => warned.push(...options.warnings);
    try {
      const { agent } = fixture(callsStep([['c1', 'query_order', { order_id: 'A-1' }]]), textStep('Shipped.'));
      expect((await generateTextTurn(agent, { messages: 'go', run: run() })).text).toBe('Shipped.');
    } finally {
      global.AI_SDK_LOG_WARNINGS = before;
    }
    expect(warned).toEqual([]);
  });

  it('by default a model call that never answers ends the text turn with a timeout ToolError (responseMs), and tools are not counted', async () => {
    const hung = () =>
      new MockLanguageModelV4({
        doGenerate: ({ abortSignal }) =>
          new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true })),
      });
    expect(DEFAULT_MODEL_TIMEOUT.responseMs).toBe(120_000);
    vi.useFakeTimers();
    try {
      const agent = createChatAgent({ model: hung(), tools: [], tickets, maxRetries: 0 });
      const turn = generateTextTurn(agent, { messages: 'go', run: run() });
      const settled = turn.then(
        () => 'answered',
        (error: unknown) => error,
      );
      await vi.advanceTimersByTimeAsync(119_000);
      expect(await Promise.race([settled, Promise.resolve('pending')])).toBe('pending');
      await vi.advanceTimersByTimeAsync(1_000);
      const error = await settled;
      expect(ToolError.isInstance(error) && [error.code, error.message]).toEqual(['timeout', 'The model did not answer in time (no answer within 120000 ms).']);
    } finally {
      vi.useRealTimers();
    }
    // A slow tool between two quick model calls does not count against the model's clock.
    const slow = defineTool({
      name: 'slow',
      description: 'Slow',
      input: v.object({}),
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), 80)),
    });
    const quick = createChatAgent({ model: scriptedModel(callsStep([['c1', 'slow', {}]]), textStep('Done.')), tools: [slow], tickets, modelTimeout: { responseMs: 40 } });
    expect((await generateTextTurn(quick, { messages: 'go', run: run() })).text).toBe('Done.');
    // The caller's abort still reaches the model call.
    const stopping = new AbortController();
    const waiting = hung();
    const aborted = generateTextTurn(createChatAgent({ model: waiting, tools: [], tickets, maxRetries: 0 }), { messages: 'go', run: run(), signal: stopping.signal });
    await vi.waitFor(() => expect(waiting.doGenerateCalls).toHaveLength(1));
    stopping.abort(new Error('user left'));
    await expect(aborted).rejects.toThrow('user left');
    // Turned off: false, or an object without it.
    const none = createChatAgent({ model: hung(), tools: [], tickets, maxRetries: 0, modelTimeout: { stepMs: 20 } });
    await expect(generateTextTurn(none, { messages: 'go', run: run() })).rejects.not.toBeInstanceOf(ToolError);
  });

  it('a model call that times out after a retried error still ends the turn with the timeout ToolError, not the AI SDK RetryError', async () => {
    let calls = 0;
    const flaky = new MockLanguageModelV4({
      doGenerate: ({ abortSignal }) => {
        calls++;
        if (calls === 1) {
          const headers = { 'retry-after-ms': '1' };
          return Promise.reject(new APICallError({ message: 'busy', url: 'http://127.0.0.1/', requestBodyValues: {}, statusCode: 503, responseHeaders: headers, isRetryable: true }));
        }
        return new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true }));
      },
    });
    const agent = createChatAgent({ model: flaky, tools: [], tickets, maxRetries: 1, modelTimeout: { responseMs: 30 } });
    const error = await generateTextTurn(agent, { messages: 'go', run: run() }).catch((e: unknown) => e);
    expect(calls).toBe(2);
    expect(ToolError.isInstance(error) && [error.code, error.message]).toEqual(['timeout', 'The model did not answer in time (no answer within 30 ms).']);
  });

  it('a model call past responseMs that the provider reports as an error of its own still ends the turn with the timeout ToolError', async () => {
    // What @ai-sdk/openai does when the limit aborts a call whose response headers had come: the body's read fails, and
    // it throws an APICallError ("Failed to process successful response") that carries the abort only as its cause.
    const wrapping = new MockLanguageModelV4({
      doGenerate: ({ abortSignal }) =>
        new Promise((_resolve, reject) =>
          abortSignal?.addEventListener(
            'abort',
            () => reject(new APICallError({ message: 'Failed to process successful response', url: 'http://127.0.0.1/', requestBodyValues: {}, statusCode: 200, cause: abortSignal.reason, isRetryable: false })),
            { once: true },
          ),
        ),
    });
    const agent = createChatAgent({ model: wrapping, tools: [], tickets, maxRetries: 2, modelTimeout: { responseMs: 30 } });
    const error = await generateTextTurn(agent, { messages: 'go', run: run() }).catch((e: unknown) => e);
    expect(ToolError.isInstance(error) && [error.code, error.message]).toEqual(['timeout', 'The model did not answer in time (no answer within 30 ms).']);
    // The caller's own abort is still the caller's.
    const stopping = new AbortController();
    const aborted = generateTextTurn(createChatAgent({ model: wrapping, tools: [], tickets, maxRetries: 0, modelTimeout: { responseMs: 60_000 } }), { messages: 'go', run: run(), signal: stopping.signal });
    await vi.waitFor(() => expect(wrapping.doGenerateCalls).toHaveLength(2));
    stopping.abort(new Error('user left'));
    await expect(aborted).rejects.toBeInstanceOf(APICallError);
  });

  it('a gateway model id (a string) is timed too, by a clock beside the turn', async () => {
    const hung = new MockLanguageModelV4({
      doGenerate: ({ abortSignal }) =>
        new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true })),
    });
    const scripted = scriptedModel(textStep('Done.'));
    const provider = { languageModel: (id: string) => (id === 'test/hung' ? hung : scripted) };
    const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
    const before = global.AI_SDK_DEFAULT_PROVIDER;
    global.AI_SDK_DEFAULT_PROVIDER = provider;
    try {
      const quick = createChatAgent({ model: 'test/scripted', tools: [], tickets, modelTimeout: { responseMs: 40 } });
      expect((await generateTextTurn(quick, { messages: 'go', run: run() })).text).toBe('Done.');
      const stuck = createChatAgent({ model: 'test/hung', tools: [], tickets, maxRetries: 0, modelTimeout: { responseMs: 30 } });
      const error = await generateTextTurn(stuck, { messages: 'go', run: run() }).catch((e: unknown) => e);
      expect(ToolError.isInstance(error) && [error.code, error.message]).toEqual(['timeout', 'The model did not answer in time (no answer within 30 ms).']);
    } finally {
      global.AI_SDK_DEFAULT_PROVIDER = before;
    }
  });

  it('a responseMs that is not a number of milliseconds fails when the agent is made', () => {
    for (const responseMs of [0, -1, Number.NaN, 2 ** 31, '5' as unknown as number]) {
      expect(() => createChatAgent({ model: scriptedModel(textStep('x')), tools: [], tickets, modelTimeout: { responseMs } })).toThrow(RangeError);
    }
    expect(() => createChatAgent({ model: scriptedModel(textStep('x')), tools: [], tickets, modelTimeout: { responseMs: Number.POSITIVE_INFINITY } })).not.toThrow();
  });

  it.each([
    ['with the model time limit (default)', undefined],
    ['without one (modelTimeout: false)', false],
    ['with responseMs: Infinity', { responseMs: Number.POSITIVE_INFINITY }],
  ] as const)('renames a call id the model repeats, %s: each call runs once under its own id', async (_label, modelTimeout) => {
    const model = scriptedModel(
      callsStep([['call_0', 'query_order', { order_id: 'A-1' }]]),
      callsStep([['call_0', 'query_order', { order_id: 'A-2' }], ['call_0', 'query_order', { order_id: 'A-3' }]]),
      textStep('Done.'),
    );
    const { agent: base } = fixture();
    const agent = createChatAgent({ model, tools: await base.registry.tools(), tickets, ...(modelTimeout === undefined ? {} : { modelTimeout }) });
    const history: ModelMessage[] = [
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_0', toolName: 'query_order', input: { order_id: 'A-0' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_0', toolName: 'query_order', output: { type: 'text', value: 'shipped' } }] },
      { role: 'user', content: 'and these?' },
    ];
    const result = await generateTextTurn(agent, { messages: history, run: run() });
    const ids = result.toolResults.map((r) => r.call.id);
    expect(result.toolResults.map((r) => r.input)).toEqual([{ order_id: 'A-1' }, { order_id: 'A-2' }, { order_id: 'A-3' }]);
    for (const id of ids) expect(id).toMatch(/^call_0_[0-9a-f]{12}$/);
    expect(new Set(['call_0', ...ids]).size).toBe(4);
    // The model read each result under the id its call got.
    expect(lastToolResults(model.doGenerateCalls[2]).map((r) => r.toolCallId)).toEqual(ids.slice(1));
  });

  it('lists the results in the order the model made the calls, over steps, whatever order they finished in; an approved call of the previous turn first', async () => {
    const delays: Record<string, number> = { slow: 30, mid: 10, fast: 0 };
    const wait = defineTool({
      name: 'wait',
      description: 'Waits',
      input: v.object({ name: v.string() }),
      execute: ({ name }) => new Promise<string>((resolve) => setTimeout(() => resolve(name), delays[name] ?? 0)),
    });
    const { agent: base } = fixture();
    const model = scriptedModel(
      callsStep([['c1', 'update_delivery_date', { order_id: 'A-1', new_date: '2026-12-24' }]]),
      callsStep([['s1', 'wait', { name: 'slow' }], ['s2', 'wait', { name: 'fast' }], ['s3', 'wait', { name: 'mid' }]]),
      callsStep([['t1', 'wait', { name: 'mid' }], ['t2', 'wait', { name: 'fast' }]]),
      textStep('Done.'),
    );
    const agent = createChatAgent({ model, tools: [...(await base.registry.tools()), wait], tickets });
    const first = await generateTextTurn(agent, { messages: 'Move A-1, then wait', run: run() });
    const second = await generateTextTurn(agent, { messages: first.messages, approvals: { c1: true }, run: run() });
    expect(second.toolResults.map((r) => r.call.id)).toEqual(['c1', 's1', 's2', 's3', 't1', 't2']);
  });

  it('a step limit stops a model that never answers', async () => {
    const hung = new MockLanguageModelV4({
      doGenerate: ({ abortSignal }) =>
        new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true })),
    });
    const agent = createChatAgent({ model: hung, tools: [], tickets, maxRetries: 0, modelTimeout: { stepMs: 20 } });
    await expect(generateTextTurn(agent, { messages: 'go', run: run() })).rejects.toThrow(/timed out|timeout/i);
  });
});
