import { createRunContext, createTicketSigner, defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { base64, compressedPdf, jpeg, pdf, png } from '../test-support/images.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { type ChatAgentOptions, createChatAgent } from './chat-agent.ts';
import { budgetedSteps } from './loop-parts.ts';
import { estimateInputTokens, IMAGE_TOKEN_ESTIMATE, PDF_PAGE_TOKEN_ESTIMATE, type PromptToEstimate, utf8Bytes } from './prompt-estimate.ts';
import { generateTextTurn } from './text-turn.ts';

// The token budget's check before each model call, the first included, through the real AI SDK: a mock model records
// every call, so a refused call is one the model never got. Every scripted step reports 15 tokens.
const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'prompt-budget-test-secret-32-bytes!' }] });
const run = () => createRunContext({ conversationId: 'conv-prompt-budget' });
const lookUp = defineTool({ name: 'query_order', description: 'Look up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, status: 'late' }) });
/**
 * A tool whose result is 200,000 characters: about 50,000 tokens for the next model call to read (unbounded: by default
 * the model would read 100,000 characters of it, `policy.maxContentChars`).
 */
const bigRead = defineTool({
  name: 'read_log',
  description: 'Read the log',
  input: v.object({}),
  policy: { maxContentChars: Number.POSITIVE_INFINITY },
  execute: () => 'x'.repeat(200_000),
});
const agentWith = (model: ReturnType<typeof scriptedModel>, options: Partial<ChatAgentOptions> = {}) =>
  createChatAgent({ model, tools: [lookUp, bigRead], tickets, instructions: 'You help with orders.', ...options });

/** A 416 KB history: one user message of 416,000 characters, about 104,000 tokens by the estimate. */
const longHistory = (): string => `Summarise this: ${'lorem ipsum '.repeat(34_667)}`;

describe('token budget: the check before each model call, the first included', () => {
  it('UI turn: a first call whose prompt is over the budget never reaches the model, and the turn ends on the budget', async () => {
    const model = scriptedModel(textStep('never'));
    const result = await agentWith(model, { tokenBudget: 50_000 }).generate({ messages: longHistory(), run: run() });
    expect(model.doStreamCalls).toHaveLength(0);
    expect(result.limit).toBe('tokens');
    expect(result.text).toBe('');
    expect(result.usage.totalTokens ?? 0).toBe(0);
    // What the between-steps check gives, so a UI shows it as it does that one.
    expect(result.message.metadata).toMatchObject({ limit: 'tokens' });
    expect(result.message.parts.filter((part) => part.type === 'text')).toEqual([]);
  });

  it("UI turn: a turn's own budget refuses the first call the same way; under it the model is called", async () => {
    const refused = scriptedModel(textStep('never'));
    const low = await agentWith(refused).generate({ messages: longHistory(), run: run(), tokenBudget: 50_000 });
    expect(refused.doStreamCalls).toHaveLength(0);
    expect(low.limit).toBe('tokens');

    const model = scriptedModel(textStep('A-1 is late.'));
    const result = await agentWith(model, { tokenBudget: 50_000 }).generate({ messages: 'Is A-1 late?', run: run() });
    expect(model.doStreamCalls).toHaveLength(1);
    expect(result).toMatchObject({ text: 'A-1 is late.', limit: undefined });
    expect(result.message.metadata).not.toHaveProperty('limit');
  });

  it('text turn: the same', async () => {
    const refused = scriptedModel(textStep('never'));
    const over = await generateTextTurn(agentWith(refused, { tokenBudget: 50_000 }), { messages: longHistory(), run: run() });
    expect(refused.doGenerateCalls).toHaveLength(0);
    expect(over).toMatchObject({ limit: 'tokens', text: '', steps: 0 });

    const model = scriptedModel(textStep('A-1 is late.'));
    const under = await generateTextTurn(agentWith(model, { tokenBudget: 50_000 }), { messages: 'Is A-1 late?', run: run() });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(under).toMatchObject({ text: 'A-1 is late.', limit: undefined, steps: 1 });
  });

  it('a later call whose prompt a tool result made too long is refused too: the result stays, for the next turn', async () => {
    for (const kind of ['ui', 'text'] as const) {
      const model = scriptedModel(callsStep([['c1', 'read_log', {}]]), textStep('never'));
      const agent = agentWith(model, { tokenBudget: 30_000 });
      const result = kind === 'ui' ? await agent.generate({ messages: 'Read the log', run: run() }) : await generateTextTurn(agent, { messages: 'Read the log', run: run() });
      expect(model.doStreamCalls.length + model.doGenerateCalls.length, kind).toBe(1);
      expect(result.limit, kind).toBe('tokens');
      expect(result.toolResults.map((r) => r.call.id), kind).toEqual(['c1']);
    }
  });

  it('inputTokenEstimate replaces the estimate, and false turns the check off', async () => {
    const seen: PromptToEstimate[] = [];
    const replaced = scriptedModel(textStep('Done.'));
    const agent = agentWith(replaced, {
      tokenBudget: 50_000,
      inputTokenEstimate: (prompt) => {
        seen.push(prompt);
        return 1;
      },
    });
    expect((await agent.generate({ messages: longHistory(), run: run() })).text).toBe('Done.');
    expect(replaced.doStreamCalls).toHaveLength(1);
    // It reads what the call will send: the instructions, the messages and the tools offered.
    expect(seen).toHaveLength(1);
    expect(seen[0]?.instructions).toBe('You help with orders.');
    expect(seen[0]?.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(seen[0]?.tools.map((tool) => tool.name)).toEqual(['query_order', 'read_log']);
    expect(seen[0]?.tools[0]).toMatchObject({ description: 'Look up an order', inputSchema: { type: 'object' } });

    const unchecked = scriptedModel(textStep('Done.'));
    const off = await generateTextTurn(agentWith(unchecked, { tokenBudget: 50_000, inputTokenEstimate: false }), { messages: longHistory(), run: run() });
    expect(unchecked.doGenerateCalls).toHaveLength(1);
    expect(off.limit).toBeUndefined();
  });

  it("an image counts its pixels: a photo is refused under a budget a flat 2,000 let through, a thumbnail runs under one it refused", async () => {
    // As the browser sends a file (a data: URL in a UI message), and as server code does (the bytes, in the text turn).
    const asked = (bytes: Uint8Array, mediaType: string) => ({
      ui: [{ id: 'u1', role: 'user' as const, parts: [{ type: 'text' as const, text: 'What is in it?' }, { type: 'file' as const, mediaType, url: `data:${mediaType};base64,${base64(bytes)}` }] }],
      text: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'What is in it?' }, { type: 'file' as const, mediaType, data: bytes }] }],
    });
    const photo = asked(jpeg(4000, 3000), 'image/jpeg');
    const thumbnail = asked(await png(64, 48), 'image/png');
    for (const kind of ['ui', 'text'] as const) {
      const turn = async (messages: ReturnType<typeof asked>, tokenBudget: number) => {
        const model = scriptedModel(textStep('A chart.'));
        const agent = createChatAgent({ model, tools: [], tickets, tokenBudget });
        const result = kind === 'ui' ? await agent.generate({ messages: messages.ui, run: run() }) : await generateTextTurn(agent, { messages: messages.text, run: run() });
        return { calls: model.doStreamCalls.length + model.doGenerateCalls.length, limit: result.limit };
      };
      // A 12-megapixel photo: up to 5,000 tokens (Claude Opus 4.7), over a budget of 4,000.
      expect(await turn(photo, 4_000), kind).toEqual({ calls: 0, limit: 'tokens' });
      expect(await turn(photo, 6_000), kind).toEqual({ calls: 1, limit: undefined });
      // A 64×48 thumbnail: 255 tokens at most (OpenAI's one tile), under a budget of 1,000.
      expect(await turn(thumbnail, 1_000), kind).toEqual({ calls: 1, limit: undefined });
    }
  });

  it('a PDF whose pages are in compressed object streams counts them: inflated before the first model call (budget34)', async () => {
    // 12 pages in an object stream (PDF 1.5+ writers): 96,000 tokens, over a budget of 50,000. Uninflated, nothing showed
    // a page and it counted one, 8,000: the turn ran. 3 pages, 24,000, run under it.
    const asked = (bytes: Uint8Array) => ({
      ui: [{ id: 'u1', role: 'user' as const, parts: [{ type: 'text' as const, text: 'Sum it up.' }, { type: 'file' as const, mediaType: 'application/pdf', url: `data:application/pdf;base64,${base64(bytes)}` }] }],
      text: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Sum it up.' }, { type: 'file' as const, mediaType: 'application/pdf', data: bytes }] }],
    });
    const book = asked(await compressedPdf(12));
    const leaflet = asked(await compressedPdf(3));
    for (const kind of ['ui', 'text'] as const) {
      const turn = async (messages: ReturnType<typeof asked>) => {
        const model = scriptedModel(textStep('A report.'));
        const agent = createChatAgent({ model, tools: [], tickets, tokenBudget: 50_000 });
        const result = kind === 'ui' ? await agent.generate({ messages: messages.ui, run: run() }) : await generateTextTurn(agent, { messages: messages.text, run: run() });
        return { calls: model.doStreamCalls.length + model.doGenerateCalls.length, limit: result.limit };
      };
      expect(await turn(book), kind).toEqual({ calls: 0, limit: 'tokens' });
      expect(await turn(leaflet), kind).toEqual({ calls: 1, limit: undefined });
    }
    // The exported estimate inflates nothing (it is synchronous): there, the book still counts one page.
    const messages = [{ role: 'user' as const, content: [{ type: 'file' as const, mediaType: 'application/pdf', data: await compressedPdf(12) }] }];
    expect(estimateInputTokens({ instructions: undefined, messages, tools: [] })).toBeLessThan(2 * PDF_PAGE_TOKEN_ESTIMATE);
  });

  it("the default estimate reads a file once a turn, not at every model call (budget34)", async () => {
    // The part's data is read through a getter that counts: the 10 MB PDF a 10-step turn re-read took 0.3-0.6 s.
    let reads = 0;
    const bytes = pdf(10, 100_000);
    const part = { type: 'file' as const, mediaType: 'application/pdf' };
    Object.defineProperty(part, 'data', {
      enumerable: true,
      get: () => {
        reads += 1;
        return bytes;
      },
    });
    const messages = [{ role: 'user' as const, content: [part] }] as never;
    const meter = { left: () => 100_000 } as never;
    const steps = budgetedSteps({ estimate: undefined, meter, instructions: undefined, tools: [], refuse: () => {}, resumed: {} });
    for (let step = 0; step < 10; step++) expect(await steps.prepareStep?.({ messages, stepNumber: step } as never)).toBeUndefined();
    expect(reads).toBe(1);
    // A user's estimate is called with the prompt as it is, at every call.
    let called = 0;
    const estimate = () => {
      called += 1;
      return 0;
    };
    const own = budgetedSteps({ estimate, meter, instructions: undefined, tools: [], refuse: () => {}, resumed: {} });
    for (let step = 0; step < 3; step++) await own.prepareStep?.({ messages, stepNumber: step } as never);
    expect(called).toBe(3);
    // A turn of its own reads the file again: nothing is kept between turns.
    await budgetedSteps({ estimate: undefined, meter, instructions: undefined, tools: [], refuse: () => {}, resumed: {} }).prepareStep?.({ messages, stepNumber: 0 } as never);
    expect(reads).toBe(2);
  });

  it('no budget, no check: the estimate is not even made', async () => {
    let estimated = 0;
    const model = scriptedModel(textStep('Done.'));
    const estimate = () => {
      estimated += 1;
      return Number.POSITIVE_INFINITY;
    };
    await agentWith(model, { inputTokenEstimate: estimate }).generate({ messages: longHistory(), run: run() });
    expect(model.doStreamCalls).toHaveLength(1);
    expect(estimated).toBe(0);
  });
});

describe('estimateInputTokens', () => {
  const none = { instructions: undefined, tools: [] };

  it('counts UTF-8 bytes / 4 of what is sent, and 8 tokens a message and a tool', () => {
    expect(estimateInputTokens({ ...none, messages: [] })).toBe(0);
    expect(estimateInputTokens({ instructions: 'a'.repeat(400), messages: [], tools: [] })).toBe(100);
    // "role", "user", "content" and the text: 4 + 4 + 7 + 400 bytes.
    expect(estimateInputTokens({ ...none, messages: [{ role: 'user', content: 'a'.repeat(400) }] })).toBe(8 + Math.ceil(415 / 4));
    // Each character of CJK text takes 3 bytes, so it counts three times as much as a letter.
    const cjk = estimateInputTokens({ instructions: '注文'.repeat(200), messages: [], tools: [] });
    expect(cjk).toBe(300);
    const tool = { name: 'query_order', description: 'Look up an order', inputSchema: { type: 'object' } };
    expect(estimateInputTokens({ ...none, messages: [], tools: [tool] })).toBe(8 + Math.ceil((11 + 16 + 4 + 6) / 4));
  });

  it('an image counts by its size (file-tokens.test.ts has the rules); provider options count nothing', async () => {
    const image = (data: Uint8Array) => ({ role: 'user' as const, content: [{ type: 'file' as const, mediaType: 'image/png', data }] });
    expect(estimateInputTokens({ ...none, messages: [image(await png(4000, 3000))] })).toBeGreaterThan(estimateInputTokens({ ...none, messages: [image(await png(64, 48))] }));
    // Bytes whose size cannot be read count the most an image is billed.
    expect(estimateInputTokens({ ...none, messages: [image(new Uint8Array(10))] })).toBeGreaterThanOrEqual(IMAGE_TOKEN_ESTIMATE);
    const withOptions = estimateInputTokens({ ...none, messages: [{ role: 'user', content: 'hi', providerOptions: { openai: { note: 'x'.repeat(4_000) } } }] });
    expect(withOptions).toBe(estimateInputTokens({ ...none, messages: [{ role: 'user', content: 'hi' }] }));
  });

  it('utf8Bytes is the encoded length', () => {
    for (const text of ['', 'abc', 'é', '注文', '😀', 'a😀é注']) expect(utf8Bytes(text), text).toBe(new TextEncoder().encode(text).length);
  });
});
