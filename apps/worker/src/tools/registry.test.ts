import { describe, expect, it } from 'vitest';
import { createDemoRegistry, demoDeps, demoTools } from './index.ts';

describe('demo registry', () => {
  it('holds the nine tools with the intended policies', () => {
    expect(demoTools.map((t) => [t.name, t.policy.effects, t.policy.needsApproval, t.policy.runsOn])).toEqual([
      ['query_order', 'read', false, 'server'],
      ['list_delayed_orders', 'read', false, 'server'],
      ['audit_orders', 'read', false, 'server'],
      ['orders_chart', 'read', false, 'server'],
      ['order_invoice', 'read', false, 'server'],
      ['update_delivery_date', 'write', true, 'server'],
      ['send_email', 'destructive', true, 'server'],
      ['world_clock', 'read', false, 'server'],
      ['calculate', 'read', false, 'server'],
    ]);
  });

  it('gives every tool a description and an object JSON Schema with its required fields', () => {
    const schemas = Object.fromEntries(demoTools.map((t) => [t.name, t.jsonSchema]));
    for (const tool of demoTools) {
      expect(tool.description.length).toBeGreaterThan(60);
      expect(tool.jsonSchema).toMatchObject({ type: 'object' });
    }
    expect(schemas.update_delivery_date).toMatchObject({
      required: ['order_id', 'new_date'],
      properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' }, new_date: { type: 'string', format: 'date' } },
    });
    expect(schemas.list_delayed_orders).toMatchObject({ properties: { days_threshold: { type: 'integer', default: 1, minimum: 1 } } });
    expect(schemas.send_email).toMatchObject({ required: ['order_id', 'subject', 'body'] });
    expect(schemas.audit_orders).toEqual({ type: 'object', properties: {}, required: [] });
  });

  it('resolves by name, lists the tools and passes registry options through', async () => {
    const registry = createDemoRegistry({ onError: 'throw' });
    expect(registry.names()).toEqual(demoTools.map((t) => t.name));
    // With its own onError the registry hands out a copy of each tool that carries it (it travels when nested).
    expect(registry.resolve('calculate')).toMatchObject({ name: 'calculate', execute: demoTools[8].execute, policy: demoTools[8].policy });
    expect(createDemoRegistry().resolve('calculate')).toBe(demoTools[8]);
    expect(registry.resolve('constructor')).toBeUndefined();
    expect(registry.onError).toBe('throw');
    expect(await registry.tools()).toHaveLength(9);
  });

  it('builds the deps from the bindings', () => {
    const db = {} as D1Database;
    expect(demoDeps({ DB: db })).toEqual({ db });
  });
});
