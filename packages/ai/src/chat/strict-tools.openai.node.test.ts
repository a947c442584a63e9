// Node-only: strict tools through the real @ai-sdk/openai provider against the local fake OpenAI server, which refuses
// a strict tool's schema as OpenAI does.
import { createRunContext, createTicketSigner, defineTool, toStrictJsonSchema } from '@edgetool/core';
import { type FakeOpenAI, startFakeOpenAI } from '@edgetool/fake-openai';
import { generateText, jsonSchema, type JSONSchema7, tool } from 'ai';
import * as v from 'valibot';
import * as z from 'zod';
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

  it('recursive and shared schemas (valibot v.lazy, zod definitions) go out strict with their $defs, and nulls deep in them reach execute as absent', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    type Step = { title: string; note?: string | undefined; substeps?: Step[] | undefined };
    const step: v.GenericSchema<Step> = v.object({ title: v.string(), note: v.optional(v.string()), substeps: v.optional(v.array(v.lazy(() => step))) });
    const address = z.object({ city: z.string(), zip: z.string().optional() }).meta({ id: 'Address' });
    const seen: unknown[] = [];
    const tools = [
      defineTool({ name: 'plan', description: 'Plan steps', input: v.object({ steps: v.array(step) }), policy: { strict: true }, execute: (args) => seen.push(args) }),
      defineTool({
        name: 'ship',
        description: 'Ship a parcel',
        input: z.object({ to: address, from: address.optional().describe('Where it leaves from') }),
        policy: { strict: true },
        execute: (args) => seen.push(args),
      }),
    ];
    fake.enqueue(
      {
        toolCalls: [
          { id: 'call_p', name: 'plan', args: { steps: [{ title: 'a', note: null, substeps: [{ title: 'b', note: 'x', substeps: [{ title: 'c', note: null, substeps: null }] }] }] } },
          { id: 'call_s', name: 'ship', args: { to: { city: 'Lyon', zip: null }, from: null } },
        ],
      },
      { text: 'Done.' },
    );
    const agent = createChatAgent({ model: modelFor(), tools, tickets, maxRetries: 0 });
    const result = await agent.generate({ messages: 'Plan and ship', run: createRunContext({ conversationId: `strict-refs-${api}` }) });
    expect(result.text).toBe('Done.');
    expect(seen).toEqual([{ steps: [{ title: 'a', substeps: [{ title: 'b', note: 'x', substeps: [{ title: 'c' }] }] }] }, { to: { city: 'Lyon' } }]);
    const sent = wireTools(0);
    for (const [i, t] of tools.entries()) {
      const strict = toStrictJsonSchema(t.jsonSchema);
      if (!strict.strict) throw new Error(strict.reason);
      expect(sent[i]).toEqual({ name: t.name, parameters: strict.schema, strict: true });
    }
    expect(sent[0]?.parameters).toMatchObject({ $defs: { 0: { additionalProperties: false, required: ['title', 'note', 'substeps'] } } });
    expect(sent[1]?.parameters).toMatchObject({
      properties: { to: { $ref: '#/$defs/Address' }, from: { anyOf: [{ description: 'Where it leaves from', required: ['city', 'zip'] }, { type: 'null' }] } },
      $defs: { Address: { required: ['city', 'zip'], additionalProperties: false } },
    });
    expect(warn).not.toHaveBeenCalled();
  });

  it("a schema over OpenAI's size limits: the plain AI SDK's strict tool gets the 400, edgetool's goes out non-strict with a warning naming the limit", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const airports = Array.from({ length: 1200 }, (_, i) => `A${String(i).padStart(3, '0')}`);
    const fly = defineTool({ name: 'fly', description: 'Book a flight', input: v.object({ to: v.picklist(airports) }), policy: { strict: true }, execute: () => 'booked' });
    const plain = { fly: tool({ description: 'Book a flight', inputSchema: jsonSchema(toStrictShape(fly.jsonSchema)), strict: true, execute: async () => 'booked' }) };
    await expect(generateText({ model: modelFor(), tools: plain, prompt: 'Fly', maxRetries: 0 })).rejects.toThrow(
      /Invalid schema for function 'fly': Expected at most 1000 enum values in total within a single schema when using structured outputs, but received 1200/,
    );
    fake.enqueue({ toolCalls: [{ id: 'call_f', name: 'fly', args: { to: 'A007' } }] }, { text: 'Booked.' });
    const agent = createChatAgent({ model: modelFor(), tools: [fly], tickets, maxRetries: 0 });
    const result = await agent.generate({ messages: 'Fly to A007', run: createRunContext({ conversationId: `strict-limit-${api}` }) });
    expect(result.text).toBe('Booked.');
    expect(wireTools(1)[0]).toEqual({ name: 'fly', parameters: fly.jsonSchema, strict: api === 'responses' ? false : undefined });
    expect(warn.mock.calls).toEqual([
      ['edgetool: tool "fly" asks for strict mode, but its input schema has no strict form ((root): 1200 enum values in all, over OpenAI\'s limit of 1000): it goes out non-strict.'],
    ]);
  });
});

/** The tool's schema closed and every property required, as a developer would write it for the plain AI SDK's strict tool. */
function toStrictShape(schema: Record<string, unknown>): JSONSchema7 {
  return { ...schema, additionalProperties: false, required: Object.keys(schema.properties as object) } as JSONSchema7;
}
