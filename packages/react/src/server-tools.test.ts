import { createExecutor, createRegistry, defineInterceptor, defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AUTHORISED, authorisationAsks, authorisationResolver, authorisationTool, parseServerTools, summarizePolicy } from './server-tools.ts';

describe('parseServerTools', () => {
  it('reads a list or { tools }, with jsonSchema or inputSchema', () => {
    const item = { name: 'query_order', description: 'Look up', jsonSchema: { type: 'object' }, policy: { effects: 'read', runsOn: 'server', needsApproval: false } };
    expect(parseServerTools([item])).toEqual([{ name: 'query_order', description: 'Look up', jsonSchema: { type: 'object' }, policy: { effects: 'read', runsOn: 'server', needsApproval: false, returnDirect: false, coerce: false, strict: false } }]);
    const { jsonSchema, ...rest } = item;
    expect(parseServerTools({ tools: [{ ...rest, inputSchema: jsonSchema }] })).toEqual(parseServerTools([item]));
  });

  it('fills safe defaults and skips garbage', () => {
    expect(parseServerTools([{ name: 'mystery' }, { nope: 1 }, 'x', null])).toEqual([
      { name: 'mystery', description: '', jsonSchema: { type: 'object' }, policy: { effects: 'write', runsOn: 'server', needsApproval: true, returnDirect: false, coerce: false, strict: false } },
    ]);
    expect(parseServerTools({ error: 'x' })).toEqual([]);
    expect(parseServerTools([{ name: 'c', policy: { effects: 'write', needsApproval: 'conditional' } }])[0]?.policy.needsApproval).toBe('conditional');
  });

  it("reads the tool's coerce and strict policy; anything but true is false", () => {
    const policies = parseServerTools([
      { name: 'a', policy: { effects: 'read', coerce: true, strict: true } },
      { name: 'b', policy: { effects: 'read', coerce: 'yes', strict: 1 } },
      { name: 'c', policy: { effects: 'read' } },
    ]).map((t) => [t.policy.coerce, t.policy.strict]);
    expect(policies).toEqual([
      [true, true],
      [false, false],
      [false, false],
    ]);
    const local = defineTool({ name: 'local', description: '', input: v.object({}), policy: { coerce: true }, execute: () => 1 });
    expect(summarizePolicy(local)).toMatchObject({ coerce: true, strict: false });
  });
});

describe('authorisation stand-ins', () => {
  const [read, write, conditional] = parseServerTools([
    { name: 'query_order', jsonSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }, policy: { effects: 'read', needsApproval: false } },
    { name: 'update', jsonSchema: { type: 'object' }, policy: { effects: 'write', needsApproval: true } },
    { name: 'maybe', jsonSchema: { type: 'object' }, policy: { effects: 'write', needsApproval: 'conditional' } },
  ]);

  it('read tools pass the browser chain on their own; writes and conditional ones wait for a human', async () => {
    const executor = createExecutor({ side: 'client', registry: [read, write, conditional].map((t) => authorisationTool(t!)) });
    const ok = await executor.execute({ id: 'c1', name: 'query_order', arguments: { order_id: 'A-1' } });
    expect(ok.outcome).toEqual({ type: 'success', output: AUTHORISED });
    expect((await executor.execute({ id: 'c2', name: 'update', arguments: {} })).outcome.type).toBe('approval-required');
    expect((await executor.execute({ id: 'c3', name: 'maybe', arguments: {} })).outcome.type).toBe('approval-required');
    expect((await executor.execute({ id: 'c2', name: 'update', arguments: {} }, { approval: { approved: true } })).outcome.type).toBe('success');
  });

  it('authorisationAsks: every stand-in but that of a tool the server says never needs an approval asks a human', () => {
    expect([read, write, conditional].map((t) => authorisationAsks(t?.policy))).toEqual([false, true, true]);
    expect(authorisationAsks(undefined)).toBe(true);
  });

  it('validates the input against the server schema in the browser', async () => {
    const executor = createExecutor({ side: 'client', registry: [authorisationTool(read!)] });
    const bad = await executor.execute({ id: 'c1', name: 'query_order', arguments: { order: 1 } });
    expect(bad.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
  });

  it("reads the arguments as the server will: a coerce tool's quoted number and a strict tool's null for an optional argument pass its chain", async () => {
    const schema = {
      type: 'object',
      properties: { days: { type: 'integer', minimum: 1 }, customer: { type: 'string' } },
      required: ['days'],
      additionalProperties: false,
    };
    const [lenient, plain] = parseServerTools([
      { name: 'list_delayed_orders', jsonSchema: schema, policy: { effects: 'read', needsApproval: false, coerce: true, strict: true } },
      { name: 'list_as_is', jsonSchema: schema, policy: { effects: 'read', needsApproval: false } },
    ]);
    const seen: unknown[] = [];
    const watch = defineInterceptor('watch', (ctx, next) => {
      seen.push(ctx.input);
      return next();
    });
    const executor = createExecutor({ side: 'client', registry: [authorisationTool(lenient!), authorisationTool(plain!)], interceptors: [watch] });
    const quoted = await executor.execute({ id: 'c1', name: 'list_delayed_orders', arguments: { days: '3', customer: null } });
    expect(quoted.outcome).toEqual({ type: 'success', output: AUTHORISED });
    // The browser chain sees the input the server's tool will run with.
    expect(seen).toEqual([{ days: 3 }]);
    // Without the policy (what the stand-in did before the listing carried it) the same arguments are refused in the browser.
    const refused = await executor.execute({ id: 'c2', name: 'list_as_is', arguments: { days: '3', customer: null } });
    expect(refused.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
    expect(seen).toHaveLength(1);
    // Coercion is not a licence: what the schema refuses once coerced is still refused.
    const bad = await executor.execute({ id: 'c3', name: 'list_delayed_orders', arguments: { days: 'three' } });
    expect(bad.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
  });

  it('an undescribed server tool gets a stand-in that always asks a human', async () => {
    const executor = createExecutor({ side: 'client', registry: createRegistry({ resolvers: [authorisationResolver([read!])] }) });
    expect((await executor.execute({ id: 'c1', name: 'send_email', arguments: { to: 'x' } })).outcome.type).toBe('approval-required');
    expect((await executor.execute({ id: 'c2', name: 'query_order', arguments: { order_id: 'A' } })).outcome.type).toBe('success');
  });
});
