import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor/executor.ts';
import { timeout } from '../interceptors/timeout.ts';
import { jsonSchema } from '../schema/json-schema.ts';
import { listDelayedOrders, queryOrder, updateDeliveryDate } from '../test-support/order-tools.ts';
import { defineTool, isTool } from './define-tool.ts';

describe('defineTool', () => {
  it('returns a plain tagged object with policy defaults', () => {
    expect(isTool(queryOrder)).toBe(true);
    // The tag alone is not a tool (a resolver's `{ kind, name }` crashed the executor), nor is a null policy.
    for (const fake of [{ kind: 'edgetool.tool', name: 'x' }, { ...queryOrder, policy: null }, { ...queryOrder, interceptors: {} }, null, 'edgetool.tool']) {
      expect(isTool(fake)).toBe(false);
    }
    expect(queryOrder.kind).toBe('edgetool.tool');
    expect(queryOrder.policy).toEqual({
      effects: 'read',
      runsOn: 'server',
      needsApproval: false,
      editable: false,
      returnDirect: false,
      timeoutMs: undefined,
      retries: 0,
      concurrency: undefined,
      coerce: false,
      strict: false,
      maxContentChars: 100_000,
    });
    expect(updateDeliveryDate.policy.needsApproval).toBe(true);
  });

  it('derives the JSON Schema of query_order with descriptions and required', () => {
    expect(queryOrder.jsonSchema).toEqual({
      type: 'object',
      properties: { order_id: { type: 'string', minLength: 1, description: 'The order id, e.g. A-1001' } },
      required: ['order_id'],
    });
  });

  it('derives update_delivery_date: a date format, an optional reason', () => {
    const schema = updateDeliveryDate.jsonSchema as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(schema.required).toEqual(['order_id', 'new_date']);
    expect(schema.properties.new_date).toMatchObject({ type: 'string', format: 'date', description: 'The new date, YYYY-MM-DD' });
    expect(schema.properties.reason).toEqual({ type: 'string', description: 'Why the date changes' });
    expect(schema).not.toHaveProperty('$schema');
  });

  it('derives list_delayed_orders: integer with default 1, an enum, nothing required', () => {
    const schema = listDelayedOrders.jsonSchema as { properties: Record<string, Record<string, unknown>>; required?: string[] };
    expect(schema.properties.days_threshold).toEqual({ type: 'integer', minimum: 0, description: 'Minimum delay in days', default: 1 });
    expect(schema.properties.status).toEqual({ type: 'string', enum: ['pending', 'shipped', 'delayed'] });
    expect(schema.required ?? []).toEqual([]);
  });

  it('accepts a raw JSON Schema and validates it without eval', async () => {
    const schema = jsonSchema<{ city: string; days?: number }>({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
    });
    const t = defineTool({ name: 'forecast', description: 'Weather', input: schema, execute: ({ city }) => city });
    expect(t.jsonSchema).not.toHaveProperty('$schema');
    expect(t.jsonSchema).toMatchObject({ required: ['city'] });
    const ok = await schema['~standard'].validate({ city: 'Paris', days: 2 });
    expect(ok).toEqual({ value: { city: 'Paris', days: 2 } });
    const bad = (await schema['~standard'].validate({ days: 0 })) as { issues: { path: PropertyKey[]; message: string }[] };
    expect(bad.issues.some((i) => i.message.includes('city'))).toBe(true);
    expect(bad.issues.some((i) => i.path.join('.') === 'days')).toBe(true);
  });

  it('a valibot input JSON cannot carry throws a TypeError when first listed; an explicit jsonSchema wins', () => {
    const input = v.object({ when: v.date() });
    const derived = defineTool({ name: 'at_date', description: 'd', input, execute: ({ when }) => when.getTime() });
    expect(() => derived.jsonSchema).toThrow(new TypeError('Cannot derive a JSON Schema from the valibot "date" schema: pass `jsonSchema` to defineTool.'));
    const given = { type: 'object', properties: { when: { type: 'string', format: 'date-time' } }, required: ['when'] };
    expect(defineTool({ name: 'at_date', description: 'd', input, jsonSchema: given }).jsonSchema).toBe(given);
  });

  it('every tool has the same jsonSchema getter, derived once per tool and shared by its copies', () => {
    const make = (name: string) => defineTool({ name, description: 'd', input: v.object({ city: v.string() }), execute: () => 1 });
    const [a, b] = [make('a'), make('b')];
    // One getter for all (a getter per tool kept tools in V8's slow dictionary mode: see define-tool.node.test.ts).
    const getter = (tool: object) => Object.getOwnPropertyDescriptor(tool, 'jsonSchema')?.get;
    expect(getter(a)).toBeTypeOf('function');
    expect(getter(a)).toBe(getter(b));
    expect(Object.keys(a)).toEqual(['kind', 'name', 'description', 'input', 'output', 'policy', 'interceptors', 'metadata', 'jsonSchema', 'execute']);
    // A copy made from its descriptors (as a registry makes them) and a spread read the same schema object.
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(a)) as typeof a;
    expect(copy.jsonSchema).toBe(a.jsonSchema);
    expect({ ...b }.jsonSchema).toBe(b.jsonSchema);
    expect(a.jsonSchema).not.toBe(b.jsonSchema);
    expect(a.jsonSchema).toEqual(b.jsonSchema);
  });

  it("a Standard JSON Schema library's own error (zod 4's z.date()) is the same TypeError, with the library's reason", () => {
    const failure = new Error('Date cannot be represented in JSON Schema');
    const input = {
      '~standard': {
        version: 1 as const,
        vendor: 'zod',
        validate: (value: unknown) => ({ value: value as { when: Date } }),
        jsonSchema: {
          input: () => {
            throw failure;
          },
        },
      },
    };
    const derived = defineTool({ name: 'at_date', description: 'd', input, execute: () => 'ok' });
    const message =
      'Cannot derive a JSON Schema from a "zod" schema (Date cannot be represented in JSON Schema): use only types JSON can carry (a date as an ISO string), or pass `jsonSchema` to defineTool.';
    expect(() => derived.jsonSchema).toThrow(new TypeError(message));
    expect(() => derived.jsonSchema).toThrow(expect.objectContaining({ cause: failure }));
  });

  it('rejects bad names, non-schemas and unsafe policies', () => {
    const input = v.object({});
    expect(() => defineTool({ name: 'has space', description: '', input })).toThrow(/Invalid tool name/);
    expect(() => defineTool({ name: 'x'.repeat(65), description: '', input })).toThrow(/Invalid tool name/);
    expect(() => defineTool({ name: 'ok', description: '', input: {} as never })).toThrow(/input must be/);
    expect(() => defineTool({ name: 'w', description: '', input, policy: { effects: 'write', retries: 2 } })).toThrow(/only allowed for read/);
    expect(() => defineTool({ name: 'r', description: '', input, policy: { timeoutMs: 0 } })).toThrow(/timeoutMs/);
    expect(defineTool({ name: 'r', description: '', input, policy: { retries: 2 } }).policy.retries).toBe(2);
  });

  it('timeoutMs: a delay a timer cannot hold is refused (it fired after 1 ms), Infinity is none', async () => {
    const input = v.object({});
    for (const timeoutMs of [2 ** 31, 1e12, '5000']) {
      expect(() => defineTool({ name: 'r', description: '', input, policy: { timeoutMs: timeoutMs as number } })).toThrow(
        new TypeError(`Tool "r": timeoutMs must be a number of milliseconds from 1 to 2147483647, or Infinity for none; got ${timeoutMs}.`),
      );
    }
    expect(() => timeout(2 ** 31)).toThrow(/from 1 to 2147483647; got 2147483648/);
    expect(defineTool({ name: 'r', description: '', input, policy: { timeoutMs: 2 ** 31 - 1 } }).policy.timeoutMs).toBe(2 ** 31 - 1);
    const slow = defineTool({
      name: 'slow',
      description: '',
      input,
      policy: { timeoutMs: Number.POSITIVE_INFINITY },
      execute: () => new Promise((resolve) => setTimeout(resolve, 5, 'done')),
    });
    expect(slow.policy.timeoutMs).toBeUndefined();
    expect((await createExecutor({ registry: [slow] }).execute({ id: '1', name: 'slow', arguments: {} })).content).toBe('done');
  });

  it('refuses policy values outside their types (untyped code, a policy read from config), naming the field', () => {
    const input = v.object({});
    const refused: [Record<string, unknown>, string][] = [
      [{ effects: 'Write' }, `effects must be 'read', 'write' or 'destructive'; got "Write".`],
      [{ runsOn: 'browser' }, `runsOn must be 'server', 'client' or 'anywhere'; got "browser".`],
      [{ needsApproval: 'no' }, 'needsApproval must be a boolean or a function (input, ctx) => boolean.'],
      [{ returnDirect: 'yes' }, 'returnDirect must be true or false.'],
      [{ coerce: 1 }, 'coerce must be true or false.'],
      [{ strict: 'yes' }, 'strict must be true or false.'],
      [{ concurrency: 7 }, 'concurrency must be the name of a group (a string).'],
    ];
    for (const [policy, message] of refused) {
      expect(() => defineTool({ name: 't', description: '', input, policy: policy as never })).toThrow(new TypeError(`Tool "t": ${message}`));
    }
    const fine = defineTool({ name: 't', description: '', input, policy: { effects: 'destructive', runsOn: 'anywhere', needsApproval: () => true, returnDirect: true, coerce: true, concurrency: 'db' } });
    expect(fine.policy).toMatchObject({ effects: 'destructive', runsOn: 'anywhere', returnDirect: true, coerce: true, concurrency: 'db' });
  });

  it('lets a policy waive approval for a write, or require it for a read', () => {
    const input = v.object({});
    expect(defineTool({ name: 'a', description: '', input, policy: { effects: 'destructive', needsApproval: false } }).policy.needsApproval).toBe(false);
    expect(defineTool({ name: 'b', description: '', input, policy: { needsApproval: true } }).policy.needsApproval).toBe(true);
  });
});
