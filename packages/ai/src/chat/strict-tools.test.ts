import { createRegistry, createRunContext, createTicketSigner, defineTool, toStrictJsonSchema } from '@edgetool/core';
import { isStepCount, streamText } from 'ai';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOfflineModel } from '../offline-model/index.ts';
import { callsStep, scriptedModel, textStep } from '../testing/mock-model.ts';
import { respondToApproval } from '../testing/index.ts';
import { approvalStatus, toAISDKTools } from './ai-tools.ts';
import { createChatAgent } from './chat-agent.ts';

afterEach(() => vi.restoreAllMocks());

const input = v.object({ city: v.string(), days: v.optional(v.number()), stops: v.optional(v.array(v.object({ at: v.optional(v.string()) }))) });

describe('strict tools (policy.strict) in toAISDKTools', () => {
  it('a strict tool goes out with the strict rewrite of its schema and strict: true; the others as they are', async () => {
    const seen: unknown[] = [];
    const plan = defineTool({ name: 'plan', description: 'Plan', input, policy: { strict: true }, execute: (args) => seen.push(args) });
    const loose = defineTool({ name: 'loose', description: 'Loose', input, execute: () => 'ok' });
    const model = scriptedModel(callsStep([['c1', 'plan', { city: 'Paris', days: null, stops: [{ at: null }] }]]), textStep('done'));
    const tools = await toAISDKTools([plan, loose], { run: createRunContext() });
    await streamText({ model, tools, stopWhen: isStepCount(2), prompt: 'go' }).consumeStream();
    const offered = model.doStreamCalls[0]?.tools as { name: string; inputSchema: unknown; strict?: boolean }[];
    const strict = toStrictJsonSchema(plan.jsonSchema);
    expect(strict.strict && strict.schema).toMatchObject({ required: ['city', 'days', 'stops'], additionalProperties: false });
    expect(offered.map(({ name, inputSchema, strict }) => ({ name, inputSchema, strict }))).toEqual([
      { name: 'plan', inputSchema: strict.strict && strict.schema, strict: true },
      { name: 'loose', inputSchema: loose.jsonSchema, strict: undefined },
    ]);
    // The model's nulls for the optional arguments reach execute as absent.
    expect(seen).toEqual([{ city: 'Paris', stops: [{}] }]);
  });

  it('a strict tool whose schema has no strict form goes out non-strict, with one warning naming the tool and why', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const open = defineTool({ name: 'open', description: 'Open', input: v.object({ tags: v.record(v.string(), v.string()) }), policy: { strict: true }, execute: () => 'ok' });
    for (let i = 0; i < 2; i++) {
      const tools = await toAISDKTools([open], { run: createRunContext() });
      expect((tools.open as { strict?: boolean }).strict).toBeUndefined();
      expect((tools.open as { inputSchema: { jsonSchema: unknown } }).inputSchema.jsonSchema).toEqual(open.jsonSchema);
    }
    expect(warn.mock.calls).toEqual([
      ['edgetool: tool "open" asks for strict mode, but its input schema has no strict form (tags: \'propertyNames\' has no strict form): it goes out non-strict.'],
    ]);
  });

  it('the approval decision reads the nulls as the executor does: a left-out optional argument still asks a human', async () => {
    const book = (strict: boolean) => defineTool({ name: 'book', description: 'Book', input, policy: { effects: 'write', strict }, execute: () => 'booked' });
    const registry = createRegistry({ tools: [book(true)] });
    const run = createRunContext();
    const tool = await registry.resolve('book');
    if (tool === undefined) throw new Error('no tool');
    expect(await approvalStatus(tool, 'c1', { city: 'Paris', days: null }, run, 'internal')).toBe('user-approval');
    // Without strict mode the null is invalid: no human is asked, the executor reports it to the model.
    expect(await approvalStatus(book(false), 'c1', { city: 'Paris', days: null }, run, 'internal')).toBe('not-applicable');
  });

  it("a variant of objects: the model's nulls reach execute as absent, and the approval decision asks a human for the call", async () => {
    const seen: unknown[] = [];
    const shape = v.variant('kind', [v.object({ kind: v.literal('circle'), radius: v.optional(v.number()) }), v.object({ kind: v.literal('square'), side: v.optional(v.number()) })]);
    const draw = defineTool({ name: 'draw', description: 'Draw', input: v.object({ shape }), policy: { effects: 'write', strict: true }, execute: (args) => seen.push(args) });
    expect(await approvalStatus(draw, 'c1', { shape: { kind: 'square', side: null } }, createRunContext(), 'internal')).toBe('user-approval');
    const model = scriptedModel(callsStep([['c1', 'draw', { shape: { kind: 'circle', radius: null } }]]), textStep('done'));
    const tools = await toAISDKTools([draw], { run: createRunContext(), grantApprovals: true });
    await streamText({ model, tools, stopWhen: isStepCount(2), prompt: 'go' }).consumeStream();
    expect(seen).toEqual([{ shape: { kind: 'circle' } }]);
  });
});

describe('strict tools and the offline model', () => {
  it('the offline model sends null for a strict tool\'s optional argument instead of asking for it; the write waits for its approval, then runs without it', async () => {
    const seen: unknown[] = [];
    const move = defineTool({
      name: 'update_delivery_date',
      description: 'Change the delivery date of an order',
      input: v.object({ order_id: v.string(), new_date: v.pipe(v.string(), v.isoDate()), note: v.optional(v.string()) }),
      policy: { effects: 'write', strict: true },
      execute: (args) => seen.push(args),
    });
    const agent = createChatAgent({ model: createOfflineModel(), tools: [move], tickets: createTicketSigner({ keys: [{ id: 'k1', secret: 's'.repeat(32) }] }) });
    const run = () => createRunContext({ conversationId: 'conv-1' });
    const asked = await agent.generate({ messages: 'Change the delivery date of order A-1001 to 2026-12-24', run: run() });
    expect(asked.pending.map((call) => [call.toolName, call.kind])).toEqual([['update_delivery_date', 'approval']]);
    await agent.generate({ messages: respondToApproval(asked.messages, asked.pending[0]?.toolCallId ?? '', true), run: run() });
    expect(seen).toEqual([{ order_id: 'A-1001', new_date: '2026-12-24' }]);
  });
});
