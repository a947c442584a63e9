import { createExecutor, createRegistry } from '@edgetool/core';
import { describe, expect, it } from 'vitest';
import { AUTHORISED, authorisationAsks, authorisationResolver, authorisationTool, parseServerTools } from './server-tools.ts';

describe('parseServerTools', () => {
  it('reads a list or { tools }, with jsonSchema or inputSchema', () => {
    const item = { name: 'query_order', description: 'Look up', jsonSchema: { type: 'object' }, policy: { effects: 'read', runsOn: 'server', needsApproval: false } };
    expect(parseServerTools([item])).toEqual([{ name: 'query_order', description: 'Look up', jsonSchema: { type: 'object' }, policy: { effects: 'read', runsOn: 'server', needsApproval: false, returnDirect: false } }]);
    const { jsonSchema, ...rest } = item;
    expect(parseServerTools({ tools: [{ ...rest, inputSchema: jsonSchema }] })).toEqual(parseServerTools([item]));
  });

  it('fills safe defaults and skips garbage', () => {
    expect(parseServerTools([{ name: 'mystery' }, { nope: 1 }, 'x', null])).toEqual([
      { name: 'mystery', description: '', jsonSchema: { type: 'object' }, policy: { effects: 'write', runsOn: 'server', needsApproval: true, returnDirect: false } },
    ]);
    expect(parseServerTools({ error: 'x' })).toEqual([]);
    expect(parseServerTools([{ name: 'c', policy: { effects: 'write', needsApproval: 'conditional' } }])[0]?.policy.needsApproval).toBe('conditional');
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

  it('an undescribed server tool gets a stand-in that always asks a human', async () => {
    const executor = createExecutor({ side: 'client', registry: createRegistry({ resolvers: [authorisationResolver([read!])] }) });
    expect((await executor.execute({ id: 'c1', name: 'send_email', arguments: { to: 'x' } })).outcome.type).toBe('approval-required');
    expect((await executor.execute({ id: 'c2', name: 'query_order', arguments: { order_id: 'A' } })).outcome.type).toBe('success');
  });
});
