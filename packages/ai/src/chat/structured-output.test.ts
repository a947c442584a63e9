import { createRunContext, createTicketSigner, defineTool, jsonSchema, ToolError } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { createOfflineModel } from '../offline-model/index.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'structured-output-secret-32-bytes!!' }] });
const run = () => createRunContext({ conversationId: 'job-1' });

const Verdict = v.object({
  order_id: v.string(),
  late: v.boolean(),
  days: v.pipe(v.number(), v.integer(), v.minValue(0)),
  note: v.optional(v.string()),
});

const queryOrder = defineTool({
  name: 'query_order',
  description: 'Look up an order',
  input: v.object({ order_id: v.string() }),
  execute: ({ order_id }) => ({ order_id, status: 'delayed', days: 3 }),
});

const approveRefund = defineTool({
  name: 'refund',
  description: 'Refund an order',
  input: v.object({ order_id: v.string() }),
  policy: { effects: 'write', needsApproval: true },
  execute: () => 'refunded',
});

const mockUsage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };

function agentWith(...steps: Parameters<typeof scriptedModel>) {
  const model = scriptedModel(...steps);
  return { model, agent: createChatAgent({ model, tools: [queryOrder, approveRefund], tickets }) };
}

/** The error a promise rejects with (the test fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolError.isInstance(error)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}

describe('structured output of a text turn (generateTextTurn output)', () => {
  it('asks the model for the schema (strict: every property required, optional ones nullable) and types the answer', async () => {
    const { agent, model } = agentWith(textStep('{"order_id":"A-7","late":true,"days":3,"note":null}'));
    const result = await generateTextTurn(agent, { messages: 'Is A-7 late?', run: run(), output: Verdict });
    // The strict form's null for an optional property reads as absent, and the value is the schema's.
    expect(result.output).toEqual({ order_id: 'A-7', late: true, days: 3 });
    expect(result.text).toBe('{"order_id":"A-7","late":true,"days":3,"note":null}');
    expect(result.steps).toBe(1);
    const format = model.doGenerateCalls[0]?.responseFormat;
    expect(format).toMatchObject({ type: 'json', schema: { type: 'object', additionalProperties: false, required: ['order_id', 'late', 'days', 'note'] } });
    expect(JSON.stringify(format)).toContain('"null"');
    // Strict, so OpenAI's own default (strictJsonSchema: true) stays.
    expect(model.doGenerateCalls[0]?.providerOptions?.openai).toBeUndefined();
  });

  it('runs tools first, with the format on every step, then reads the final answer', async () => {
    const { agent, model } = agentWith(callsStep([['c1', 'query_order', { order_id: 'A-7' }]]), textStep('{"order_id":"A-7","late":true,"days":3}'));
    const result = await generateTextTurn(agent, { messages: 'Is A-7 late?', run: run(), output: Verdict });
    expect(result.output).toEqual({ order_id: 'A-7', late: true, days: 3 });
    expect(result.toolResults.map((r) => r.outcome.type)).toEqual(['success']);
    expect(result.steps).toBe(2);
    expect(model.doGenerateCalls.map((call) => [call.responseFormat?.type, call.tools?.map((t) => t.name)])).toEqual([
      ['json', ['query_order', 'refund']],
      ['json', ['query_order', 'refund']],
    ]);
  });

  it('an answer that is not JSON gets one repair round: the model reads why, and its new answer counts', async () => {
    const { agent, model } = agentWith(textStep('A-7 is three days late.'), textStep('{"order_id":"A-7","late":true,"days":3}'));
    const result = await generateTextTurn(agent, { messages: 'Is A-7 late?', run: run(), output: Verdict });
    expect(result.output).toEqual({ order_id: 'A-7', late: true, days: 3 });
    expect(result.steps).toBe(2);
    // Both rounds' tokens (two mock steps of 10 in, 5 out).
    expect(result.usage).toMatchObject({ inputTokens: 20, outputTokens: 10, totalTokens: 30 });
    const repair = model.doGenerateCalls[1]?.prompt.at(-1);
    expect(repair?.role).toBe('user');
    const words = JSON.stringify(repair?.content);
    expect(words).toContain('The answer was not valid JSON.');
    expect(words).toContain('order_id');
    // The conversation keeps the repair, so a next turn reads what the model read.
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('an answer in one code fence (a model without JSON mode) is read inside the fence, with no repair round', async () => {
    const { agent, model } = agentWith(textStep('```json\n{"order_id":"A-7","late":true,"days":3}\n```'), textStep('```\n["x"]\n```'));
    const result = await generateTextTurn(agent, { messages: 'Is A-7 late?', run: run(), output: Verdict });
    expect(result.output).toEqual({ order_id: 'A-7', late: true, days: 3 });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect((await generateTextTurn(agent, { messages: 'x', run: run(), output: v.array(v.string()) })).output).toEqual(['x']);
  });

  it('an answer that fails the schema twice rejects with invalid-output and the issues, never a wrong value', async () => {
    const wrong = '{"order_id":"A-7","late":"yes","days":-1}';
    const { agent, model } = agentWith(textStep(wrong), textStep(wrong));
    const error = await rejection(generateTextTurn(agent, { messages: 'Is A-7 late?', run: run(), output: Verdict }));
    expect(error.code).toBe('invalid-output');
    expect(error.message).toBe('The answer does not match the output schema.');
    expect(error.issues?.map((issue) => issue.path)).toEqual(['late', 'days']);
    expect(model.doGenerateCalls).toHaveLength(2);
    // The first round's issues went back to the model.
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt.at(-1))).toContain('- late:');
  });

  it('invalid JSON twice rejects with invalid-output that says so', async () => {
    const { agent } = agentWith(textStep('{"order_id": "A-7",'), textStep(''));
    const error = await rejection(generateTextTurn(agent, { messages: 'Is A-7 late?', run: run(), output: Verdict }));
    expect(error.code).toBe('invalid-output');
    expect(error.message).toBe('The answer was empty, not JSON.');
    expect(error.issues?.[0]?.path).toBe('(root)');
  });

  it('an answer cut off at the output token limit says so, to the model and to the caller', async () => {
    const cut = (text: string) => ({
      content: [{ type: 'text' as const, text }],
      finishReason: { unified: 'length' as const, raw: 'length' },
      usage: mockUsage,
      warnings: [],
    });
    const answers = [cut('{"order_id":"A-7","la'), cut('{"order_id":"A-7","late":tr')];
    const model = new MockLanguageModelV4({ doGenerate: async () => answers[model.doGenerateCalls.length - 1] ?? cut('') });
    const agent = createChatAgent({ model, tools: [], tickets });
    const error = await rejection(generateTextTurn(agent, { messages: 'x', run: run(), output: Verdict }));
    expect(error.message).toBe('The answer was cut off at the output token limit before its JSON was complete.');
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt.at(-1))).toContain('cut off at the output token limit');
  });

  it('a key that could change an object’s prototype is refused as in tool arguments', async () => {
    const bad = '{"order_id":"A-7","late":true,"days":3,"__proto__":{"admin":true}}';
    const { agent } = agentWith(textStep(bad), textStep(bad));
    const error = await rejection(generateTextTurn(agent, { messages: 'x', run: run(), output: Verdict }));
    expect(error.issues?.map((issue) => issue.path)).toEqual(['__proto__']);
  });

  it('no repair round once the token budget is spent', async () => {
    const model = scriptedModel(textStep('not json'), textStep('{"order_id":"A-7","late":true,"days":3}'));
    // The budget counted between steps as the mock reports usage: no estimate before each call (prompt-budget.test.ts).
    const agent = createChatAgent({ model, tools: [queryOrder], tickets, tokenBudget: 15, inputTokenEstimate: false });
    const error = await rejection(generateTextTurn(agent, { messages: 'x', run: run(), output: Verdict }));
    expect(error.code).toBe('invalid-output');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('the repair round gets what the first round left of modelTimeout.totalMs (none left: no repair)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const model = new MockLanguageModelV4({
        doGenerate: async () => {
          // The first answer comes as the turn's whole time runs out.
          vi.setSystemTime(Date.now() + 60_000);
          return { content: [{ type: 'text', text: 'not json' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: mockUsage, warnings: [] };
        },
      });
      const agent = createChatAgent({ model, tools: [], tickets, modelTimeout: { totalMs: 60_000 } });
      const error = await rejection(generateTextTurn(agent, { messages: 'x', run: run(), output: Verdict }));
      expect(error.message).toBe('The answer was not valid JSON.');
      expect(model.doGenerateCalls).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a turn that ends without an answer (an approval, a step limit) has no output and does not fail', async () => {
    const { agent } = agentWith(callsStep([['c1', 'refund', { order_id: 'A-7' }]]));
    const waiting = await generateTextTurn(agent, { messages: 'Refund A-7', run: run(), output: Verdict });
    expect(waiting.pending.map((p) => [p.toolName, p.kind])).toEqual([['refund', 'approval']]);
    expect(waiting.output).toBeUndefined();
    const model = scriptedModel(callsStep([['c1', 'query_order', { order_id: 'A-7' }]]));
    const limited = createChatAgent({ model, tools: [queryOrder], tickets, maxSteps: 1 });
    const stopped = await generateTextTurn(limited, { messages: 'x', run: run(), output: Verdict });
    expect(stopped.limit).toBe('steps');
    expect(stopped.output).toBeUndefined();
  });

  it('the approved turn that follows gives the output', async () => {
    const { agent } = agentWith(callsStep([['c1', 'refund', { order_id: 'A-7' }]]), textStep('{"order_id":"A-7","late":false,"days":0}'));
    const first = await generateTextTurn(agent, { messages: 'Refund A-7', run: run(), output: Verdict });
    const second = await generateTextTurn(agent, { messages: first.messages, approvals: { c1: true }, run: run(), output: Verdict });
    expect(second.toolResults.map((r) => r.outcome)).toEqual([{ type: 'success', output: 'refunded' }]);
    expect(second.output).toEqual({ order_id: 'A-7', late: false, days: 0 });
  });

  it('a return-direct tool’s output is the answer, checked as the model’s would be', async () => {
    const answer = defineTool({
      name: 'answer',
      description: 'Final answer',
      input: v.object({ order_id: v.string() }),
      policy: { returnDirect: true },
      execute: ({ order_id }) => ({ order_id, late: true, days: 3 }),
    });
    const model = scriptedModel(callsStep([['c1', 'answer', { order_id: 'A-7' }]]));
    const agent = createChatAgent({ model, tools: [answer], tickets });
    const result = await generateTextTurn(agent, { messages: 'x', run: run(), output: Verdict });
    expect(result.returnDirect).toBe(true);
    expect(result.output).toEqual({ order_id: 'A-7', late: true, days: 3 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('a schema with no strict form goes out as it is, with OpenAI told not to be strict (the settings’ own options win)', async () => {
    const open = jsonSchema<Record<string, number>>({ type: 'object', additionalProperties: { type: 'number' } });
    const { agent, model } = agentWith(textStep('{"a":1}'), textStep('{"b":2}'));
    const result = await generateTextTurn(agent, { messages: 'x', run: run(), output: open, settings: { providerOptions: { openai: { user: 'u1' } } } });
    expect(result.output).toEqual({ a: 1 });
    expect(model.doGenerateCalls[0]?.responseFormat).toEqual({ type: 'json', schema: { type: 'object', additionalProperties: { type: 'number' } } });
    expect(model.doGenerateCalls[0]?.providerOptions).toEqual({ openai: { strictJsonSchema: false, user: 'u1' } });
    const forced = await generateTextTurn(agent, { messages: 'x', run: run(), output: open, settings: { providerOptions: { openai: { strictJsonSchema: true } } } });
    expect(forced.output).toEqual({ b: 2 });
    expect(model.doGenerateCalls[1]?.providerOptions).toEqual({ openai: { strictJsonSchema: true } });
  });

  it('a schema whose root is not an object (array, enum, union) is asked for under `value`, strict, and read back bare', async () => {
    // OpenAI refuses a response format whose root is not an object, strict or not: the root goes in a one-property object.
    const Lines = v.array(v.object({ sku: v.string(), qty: v.number(), note: v.optional(v.string()) }));
    const { agent, model } = agentWith(textStep('{"value":[{"sku":"A","qty":2,"note":null}]}'), textStep('"refund"'));
    const lines = await generateTextTurn(agent, { messages: 'x', run: run(), output: Lines });
    expect(lines.output).toEqual([{ sku: 'A', qty: 2 }]);
    expect(model.doGenerateCalls[0]?.responseFormat).toMatchObject({
      type: 'json',
      schema: { type: 'object', properties: { value: { type: 'array' } }, required: ['value'], additionalProperties: false },
    });
    expect(model.doGenerateCalls[0]?.providerOptions?.openai).toBeUndefined();
    // A model not held to the format may answer the bare value: it is checked as it is.
    const choice = await generateTextTurn(agent, { messages: 'x', run: run(), output: v.picklist(['refund', 'replace']) });
    expect(choice.output).toBe('refund');
    expect(model.doGenerateCalls[1]?.responseFormat).toMatchObject({ schema: { properties: { value: { enum: ['refund', 'replace'] } } } });
  });

  it('a recursive schema whose root is not an object keeps its references (zod 4 `#`, valibot `$defs`)', async () => {
    type Item = string | Item[];
    const Nested: z.ZodType<Item[]> = z.array(z.union([z.string(), z.lazy(() => Nested)]));
    type Node = { name: string; children: Node[] };
    const NodeSchema: v.GenericSchema<Node> = v.object({ name: v.string(), children: v.array(v.lazy(() => NodeSchema)) });
    const { agent, model } = agentWith(textStep('{"value":["a",["b"]]}'), textStep('{"value":[{"name":"r","children":[]}]}'));
    expect((await generateTextTurn(agent, { messages: 'x', run: run(), output: Nested })).output).toEqual(['a', ['b']]);
    expect(model.doGenerateCalls[0]?.responseFormat).toMatchObject({
      schema: { properties: { value: { $ref: '#/$defs/root' } }, $defs: { root: { type: 'array', items: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/root' }] } } } },
    });
    expect((await generateTextTurn(agent, { messages: 'x', run: run(), output: v.array(NodeSchema) })).output).toEqual([{ name: 'r', children: [] }]);
    expect(model.doGenerateCalls[1]?.responseFormat).toMatchObject({ schema: { properties: { value: { type: 'array' } }, $defs: { 0: { type: 'object' } } } });
    // A root `$ref` is read through: to an array, wrapped; to an object, as it is.
    const list = jsonSchema<number[]>({ $ref: '#/$defs/List', $defs: { List: { type: 'array', items: { type: 'number' } } } });
    const { agent: again, model: second } = agentWith(textStep('{"value":[1,2]}'), textStep('{"n":1}'));
    expect((await generateTextTurn(again, { messages: 'x', run: run(), output: list })).output).toEqual([1, 2]);
    expect(second.doGenerateCalls[0]?.responseFormat).toMatchObject({ schema: { properties: { value: { $ref: '#/$defs/List' } }, $defs: { List: { type: 'array' } } } });
    const one = jsonSchema<{ n: number }>({ $ref: '#/$defs/One', $defs: { One: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } } });
    expect((await generateTextTurn(again, { messages: 'x', run: run(), output: one })).output).toEqual({ n: 1 });
    expect(second.doGenerateCalls[1]?.responseFormat).toMatchObject({ schema: { type: 'object', properties: { n: { type: 'number' } } } });
    // All went out strict.
    expect([...model.doGenerateCalls, ...second.doGenerateCalls].map((call) => call.providerOptions?.openai)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('takes any Standard Schema with a JSON Schema (zod 4)', async () => {
    const { agent, model } = agentWith(textStep('{"city":"Paris","temp":21}'));
    const result = await generateTextTurn(agent, { messages: 'x', run: run(), output: z.object({ city: z.string(), temp: z.number() }) });
    expect(result.output).toEqual({ city: 'Paris', temp: 21 });
    expect(model.doGenerateCalls[0]?.responseFormat).toMatchObject({ type: 'json', schema: { required: ['city', 'temp'] } });
  });

  it('a schema with no JSON Schema is refused before the model is called', async () => {
    const { agent, model } = agentWith(textStep('{}'));
    const opaque = { '~standard': { version: 1 as const, vendor: 'opaque', validate: (value: unknown) => ({ value }) } };
    await expect(generateTextTurn(agent, { messages: 'x', run: run(), output: opaque })).rejects.toThrow(/Cannot derive a JSON Schema from a "opaque" schema/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("a zod schema JSON cannot carry (z.date()) is refused with a TypeError before the model is called, not zod's Error", async () => {
    const { agent, model } = agentWith(textStep('{}'));
    const request = { messages: 'x', run: run(), output: z.object({ when: z.date() }) };
    await expect(generateTextTurn(agent, request)).rejects.toThrow(TypeError);
    await expect(generateTextTurn(agent, request)).rejects.toThrow(/^Cannot derive a JSON Schema from a "zod" schema \(Date cannot be represented/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('the offline model cannot answer in JSON: a clear invalid-output at once, with no repair round', async () => {
    const model = createOfflineModel({ deterministicIds: true });
    const agent = createChatAgent({ model, tools: [queryOrder], tickets });
    const error = await rejection(generateTextTurn(agent, { messages: 'hello', run: run(), output: Verdict }));
    expect(error.code).toBe('invalid-output');
    expect(error.message).toBe('The answer was not valid JSON. This model cannot give structured output: The offline model answers in plain text.');
  });

  it('a model in JSON mode without the schema (it warns so) that answers JSON gets the repair round, which shows the schema', async () => {
    // What @ai-sdk/openai-compatible does without `supportsStructuredOutputs`: `json_object` mode, the schema left out.
    const warnings = [{ type: 'unsupported' as const, feature: 'responseFormat', details: 'JSON response format schema is only supported with structuredOutputs' }];
    const answers = ['{"orderId":"A-7","isLate":true}', '{"order_id":"A-7","late":true,"days":3}'];
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: 'text', text: answers[model.doGenerateCalls.length - 1] ?? '' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: mockUsage,
        warnings,
      }),
    });
    const agent = createChatAgent({ model, tools: [], tickets });
    const result = await generateTextTurn(agent, { messages: 'Is A-7 late?', run: run(), output: Verdict });
    expect(result.output).toEqual({ order_id: 'A-7', late: true, days: 3 });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt.at(-1))).toContain('order_id');
  });

  it('the offline model with a rule that answers in JSON gives structured output', async () => {
    const model = createOfflineModel({ rules: [({ userText }) => (userText.includes('A-7') ? '{"order_id":"A-7","late":true,"days":3}' : undefined)] });
    const agent = createChatAgent({ model, tools: [queryOrder], tickets });
    const result = await generateTextTurn(agent, { messages: 'Is A-7 late?', run: run(), output: Verdict });
    expect(result.output).toEqual({ order_id: 'A-7', late: true, days: 3 });
  });
});
