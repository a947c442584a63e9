// Node-only: strict tools through the real @ai-sdk/openai provider against the local fake OpenAI server, which refuses
// a strict tool's schema as OpenAI does.
import { createRunContext, createTicketSigner, defineTool, toStrictJsonSchema } from '@edgetool/core';
import { type FakeOpenAI, startFakeOpenAI } from '@edgetool/fake-openai';
import { generateText, jsonSchema, type JSONSchema7, tool } from 'ai';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createModelFromEnv } from '../provider.ts';
import { createChatAgent } from './chat-agent.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-fake' });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  vi.restoreAllMocks();
});

const tickets = createTicketSigner({ keys: [{ id: 'k', secret: 'strict-tools-test-secret-32-bytes-min!' }] });

const input = v.object({
  city: v.pipe(v.string(), v.minLength(1)),
  days: v.optional(v.pipe(v.number(), v.integer())),
  note: v.nullish(v.string()),
  stops: v.optional(v.array(v.object({ name: v.string(), at: v.optional(v.string()) }))),
});

describe.each([
  ['Responses API', 'responses'],
  ['Chat Completions', 'chat'],
] as const)('strict tools on the real OpenAI provider (%s)', (_label, api) => {
  const modelFor = () => createModelFromEnv({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, OPENAI_API: api, OPENAI_MODEL: 'gpt-4o' }).model;
  const wireTools = (index: number) =>
    ((fake.requests[index]?.body.tools ?? []) as Record<string, unknown>[]).map((t) => {
      const fn = (api === 'chat' ? t.function : t) as { name: string; parameters: unknown; strict?: boolean };
      return { name: fn.name, parameters: fn.parameters, strict: fn.strict };
    });

  it("the plain AI SDK's strict: true with an optional argument is refused with OpenAI's 400 (what edgetool spares its users)", async () => {
    const plan = defineTool({ name: 'plan', description: 'Plan a trip', input, execute: () => 'ok' });
    const tools = { plan: tool({ description: 'Plan a trip', inputSchema: jsonSchema(plan.jsonSchema as JSONSchema7), strict: true, execute: async () => 'ok' }) };
    await expect(generateText({ model: modelFor(), tools, prompt: 'Plan', maxRetries: 0 })).rejects.toThrow(/Invalid schema for function 'plan'/);
  });

  it('strict tools go out rewritten and accepted; a null for an optional argument reaches execute as absent; a tool with no strict form goes out non-strict', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const seen: unknown[] = [];
    const tools = [
      defineTool({ name: 'plan', description: 'Plan a trip', input, policy: { strict: true }, execute: (args) => seen.push(args) }),
      defineTool({ name: 'tag', description: 'Tag a trip', input: v.object({ tags: v.record(v.string(), v.string()) }), policy: { strict: true }, execute: () => 'tagged' }),
      defineTool({ name: 'look', description: 'Look up a city', input: v.object({ city: v.optional(v.string()) }), execute: () => 'looked' }),
    ];
    fake.enqueue(
      { toolCalls: [{ id: 'call_p', name: 'plan', args: { city: 'Paris', days: null, note: null, stops: [{ name: 'Lyon', at: null }] } }] },
      { text: 'Planned.' },
    );
    const agent = createChatAgent({ model: modelFor(), tools, tickets, maxRetries: 0 });
    const result = await agent.generate({ messages: 'Plan a trip to Paris', run: createRunContext({ conversationId: `strict-${api}` }) });
    expect(result.text).toBe('Planned.');
    expect(seen).toEqual([{ city: 'Paris', note: null, stops: [{ name: 'Lyon' }] }]);
    expect(Object.hasOwn(seen[0] as object, 'days')).toBe(false);
    const strict = toStrictJsonSchema(tools[0]?.jsonSchema ?? {});
    if (!strict.strict) throw new Error(strict.reason);
    const sent = wireTools(0);
    expect(sent[0]).toEqual({ name: 'plan', parameters: strict.schema, strict: true });
    expect(strict.schema).toMatchObject({
      required: ['city', 'days', 'note', 'stops'],
      properties: { city: { description: '(minLength: 1)' }, days: { type: ['integer', 'null'] } },
    });
    // Both tools that are not strict go out with their own schema (the provider drops the record's propertyNames, which
    // OpenAI does not take); the Responses API says strict: false. The request was accepted: the tool ran.
    const notStrict = api === 'responses' ? false : undefined;
    expect(sent[1]).toMatchObject({ name: 'tag', parameters: { type: 'object', required: ['tags'], properties: { tags: { additionalProperties: { type: 'string' } } } }, strict: notStrict });
    expect(sent[2]).toEqual({ name: 'look', parameters: tools[2]?.jsonSchema, strict: notStrict });
    expect(warn.mock.calls).toEqual([[expect.stringMatching(/^edgetool: tool "tag" asks for strict mode, but its input schema has no strict form \(tags: /)]]);
  });
});
