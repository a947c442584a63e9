// Node-only: structured output of text turns and agent tools through the real @ai-sdk/openai provider against the local
// fake OpenAI server, which refuses a strict response format's schema as OpenAI does.
import { createExecutor, createRunContext, createTicketSigner, defineTool, toStrictJsonSchema, ToolError } from '@edgetool/core';
import { type FakeOpenAI, startFakeOpenAI } from '@edgetool/fake-openai';
import { generateText, jsonSchema, type JSONSchema7, Output } from 'ai';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentTool } from '../agent-tool.ts';
import { createModelFromEnv } from '../provider.ts';
import { createChatAgent } from './chat-agent.ts';
import { generateTextTurn } from './text-turn.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'structured-output-openai-secret-32b!' }] });
const Verdict = v.object({ order_id: v.pipe(v.string(), v.minLength(1)), late: v.boolean(), note: v.optional(v.string()) });
const queryOrder = defineTool({ name: 'query_order', description: 'Look up an order', input: v.object({ order_id: v.string() }), execute: ({ order_id }) => ({ order_id, days_late: 3 }) });

describe.each([
  ['Responses API', 'responses'],
  ['Chat Completions', 'chat'],
] as const)('structured output on the real OpenAI provider (%s)', (_label, api) => {
  const modelFor = () => createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, OPENAI_API: api, OPENAI_MODEL: 'gpt-4o' }).model;
  /** The response format a request carried: `{ type, name, schema, strict }`, whichever endpoint. */
  const formatOf = (index: number) => {
    const body = fake.requests[index]?.body as { response_format?: { type: string; json_schema?: Record<string, unknown> }; text?: { format?: Record<string, unknown> } };
    if (api === 'responses') return body.text?.format;
    return body.response_format === undefined ? undefined : { type: body.response_format.type, ...body.response_format.json_schema };
  };

  it("the plain AI SDK's Output.object with an optional property is refused with OpenAI's 400 (what edgetool spares its users)", async () => {
    const schema = jsonSchema(defineTool({ name: 'x', description: '', input: Verdict }).jsonSchema as JSONSchema7);
    fake.enqueue({ text: 'never sent' });
    await expect(generateText({ model: modelFor(), prompt: 'Is A-7 late?', output: Output.object({ schema }), maxRetries: 0 })).rejects.toThrow(
      /Invalid schema for response_format 'response'/,
    );
  });

  it('tools, then a strict json schema answer: the format goes out on every step, the null reads as absent, the output is typed', async () => {
    fake.enqueue({ toolCalls: [{ id: 'call_q', name: 'query_order', args: { order_id: 'A-7' } }] }, { text: '{"order_id":"A-7","late":true,"note":null}' });
    const agent = createChatAgent({ model: modelFor(), tools: [queryOrder], tickets, maxRetries: 0 });
    const result = await generateTextTurn(agent, { messages: 'Is A-7 late?', run: createRunContext({ conversationId: `so-${api}` }), output: Verdict });
    expect(result.output).toEqual({ order_id: 'A-7', late: true });
    expect(result.toolResults.map((r) => r.outcome.type)).toEqual(['success']);
    const strict = toStrictJsonSchema(defineTool({ name: 'x', description: '', input: Verdict }).jsonSchema);
    if (!strict.strict) throw new Error(strict.reason);
    for (const index of [0, 1]) {
      expect(formatOf(index)).toMatchObject({ type: 'json_schema', name: 'response', strict: true, schema: strict.schema });
      expect(fake.requests[index]?.toolNames).toEqual(['query_order']);
    }
    expect(strict.schema).toMatchObject({ required: ['order_id', 'late', 'note'], additionalProperties: false });
  });

  it('an answer that fails twice: one repair request that says why, then invalid-output with the issues', async () => {
    fake.enqueue({ text: 'It is late.' }, { text: '{"order_id":"","late":"yes","note":null}' });
    const agent = createChatAgent({ model: modelFor(), tools: [], tickets, maxRetries: 0 });
    const error = await generateTextTurn(agent, { messages: 'Is A-7 late?', run: createRunContext(), output: Verdict }).catch((e: unknown) => e);
    expect(ToolError.isInstance(error) && [error.code, error.message, error.issues?.map((i) => i.path)]).toEqual([
      'invalid-output',
      'The answer does not match the output schema.',
      ['order_id', 'late'],
    ]);
    expect(fake.requests).toHaveLength(2);
    const repair = fake.requests[1]?.messages.at(-1);
    expect(repair?.role).toBe('user');
    expect(repair?.content).toContain('Your last answer cannot be used: The answer was not valid JSON.');
  });

  it('an array schema goes out as a strict object holding it, which OpenAI takes, and the output is the array', async () => {
    fake.enqueue({ text: '{"value":[{"order_id":"A-7","late":true,"note":null},{"order_id":"A-8","late":false,"note":"on time"}]}' });
    const agent = createChatAgent({ model: modelFor(), tools: [], tickets, maxRetries: 0 });
    const result = await generateTextTurn(agent, { messages: 'Which orders are late?', run: createRunContext(), output: v.array(Verdict) });
    expect(result.output).toEqual([
      { order_id: 'A-7', late: true },
      { order_id: 'A-8', late: false, note: 'on time' },
    ]);
    expect(formatOf(0)).toMatchObject({ type: 'json_schema', strict: true, schema: { type: 'object', required: ['value'], properties: { value: { type: 'array' } } } });
  });

  it('an agent tool with output: the inner requests ask for the format, the outer model reads the JSON', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'call_o', name: 'analyst', args: { task: 'Is A-7 late?' } }] },
      { text: '{"order_id":"A-7","late":true,"note":"three days"}' },
      { text: 'Yes, three days.' },
    );
    const inner = createChatAgent({ model: modelFor(), tools: [], tickets, maxRetries: 0 });
    const analyst = await agentTool({ name: 'analyst', description: 'Checks orders', agent: inner, output: Verdict });
    const outer = createChatAgent({ model: modelFor(), tools: [analyst], tickets, maxRetries: 0 });
    const result = await generateTextTurn(outer, { messages: 'Is A-7 late?', run: createRunContext({ conversationId: `outer-${api}` }) });
    expect(result.text).toBe('Yes, three days.');
    expect(formatOf(0)).toBeUndefined();
    expect(formatOf(1)).toMatchObject({ type: 'json_schema', strict: true });
    expect(fake.requests[2]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_o', content: '{"order_id":"A-7","late":true,"note":"three days"}' });
    // The same tool runs alone too, its answer typed.
    fake.enqueue({ text: '{"order_id":"A-8","late":false,"note":null}' });
    const alone = await createExecutor({ registry: [analyst] }).execute({ id: 'a1', name: 'analyst', arguments: { task: 'A-8?' } });
    expect(alone.outcome).toMatchObject({ type: 'success', output: { answer: { order_id: 'A-8', late: false } } });
  });
});
