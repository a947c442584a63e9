import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { deriveJsonSchema, type JsonSchema } from './input-schema.ts';
import { dropOptionalNulls } from './strict-nulls.ts';
import { toStrictJsonSchema } from './strict-schema.ts';

const strictOf = (schema: JsonSchema) => {
  const result = toStrictJsonSchema(schema);
  if (!result.strict) throw new Error(`not strict: ${result.reason}`);
  return result.schema;
};
const reasonOf = (schema: JsonSchema) => {
  const result = toStrictJsonSchema(schema);
  return result.strict ? undefined : result.reason;
};

describe('toStrictJsonSchema', () => {
  it('closes every object, lists every property in required and makes the optional ones nullable (nested objects and arrays of objects too)', () => {
    const schema = deriveJsonSchema(
      v.object({
        city: v.string(),
        days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
        unit: v.optional(v.picklist(['c', 'f'])),
        note: v.nullish(v.string()),
        stops: v.optional(v.array(v.object({ name: v.string(), at: v.optional(v.string()) }))),
      }),
    );
    expect(strictOf(schema)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: ['integer', 'null'], minimum: 1 },
        unit: { anyOf: [{ enum: ['c', 'f'], type: 'string' }, { type: 'null' }] },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        stops: {
          anyOf: [
            {
              type: 'array',
              items: {
                type: 'object',
                properties: { name: { type: 'string' }, at: { type: ['string', 'null'] } },
                required: ['name', 'at'],
                additionalProperties: false,
              },
            },
            { type: 'null' },
          ],
        },
      },
      required: ['city', 'days', 'unit', 'note', 'stops'],
      additionalProperties: false,
    });
  });

  it('writes constraints strict mode refuses into the description, drops annotations, and turns oneOf into anyOf', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      title: 'Input',
      properties: {
        name: { type: 'string', description: 'Who', minLength: 2, maxLength: 40 },
        when: { type: 'string', format: 'date' },
        site: { type: 'string', format: 'uri' },
        size: { type: 'integer', default: 3 },
        pick: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['name', 'when', 'site', 'pick'],
    };
    expect(strictOf(schema)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Who (minLength: 2, maxLength: 40)' },
        when: { type: 'string', format: 'date' },
        site: { type: 'string', description: '(format: "uri")' },
        size: { type: ['integer', 'null'], description: '(default: 3)' },
        pick: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['name', 'when', 'site', 'size', 'pick'],
      additionalProperties: false,
    });
  });

  it("a string's content encoding (valibot's base64) goes into the description rather than keeping the tool non-strict", () => {
    const schema = deriveJsonSchema(v.object({ file: v.pipe(v.string(), v.base64()) })) as { properties: Record<string, unknown> };
    expect(schema.properties.file).toMatchObject({ contentEncoding: 'base64' });
    expect(strictOf(schema as JsonSchema)).toMatchObject({ properties: { file: { type: 'string', description: '(contentEncoding: "base64")' } } });
  });

  it('an empty object input is strict as an object with no properties', () => {
    expect(strictOf(deriveJsonSchema(v.object({})))).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
  });

  it('refuses what it cannot make strict without refusing arguments the tool accepts, and says where', () => {
    const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
    expect(reasonOf(object({ meta: { type: 'object', additionalProperties: true } }))).toBe('meta: an open object (additionalProperties) has no strict form');
    expect(reasonOf(deriveJsonSchema(v.object({ tags: v.record(v.string(), v.string()) })))).toBe("tags: 'propertyNames' has no strict form");
    expect(reasonOf(object({ a: { type: 'object', patternProperties: { '^x': { type: 'string' } } } }))).toBe("a: 'patternProperties' has no strict form");
    expect(reasonOf(object({ node: { $ref: '#/$defs/node' } }, { $defs: { node: { type: 'object' } } }))).toBe("(root): '$defs' has no strict form");
    expect(reasonOf(object({ a: { allOf: [{ type: 'string' }] } }))).toBe("a: 'allOf' has no strict form");
    expect(reasonOf(object({ anything: {} }))).toBe('anything: a schema without a type has no strict form');
    expect(reasonOf(object({ pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } }))).toMatch(/^pair: an array needs one items schema/);
    expect(reasonOf(object({ list: { type: 'array', items: { type: 'array', items: true } } }))).toMatch(/^list\[\]: an array needs one items schema/);
    expect(reasonOf({ type: 'string' })).toBe('(root): strict mode needs an object');
    expect(reasonOf({ anyOf: [object({})] })).toBe('(root): strict mode needs an object');
    expect(reasonOf(object({}, { required: ['ghost'] }))).toBe('(root): requires "ghost", which it does not describe');
    let deep: Record<string, unknown> = { type: 'object', properties: {} };
    for (let i = 0; i < 10; i++) deep = object({ next: deep });
    expect(reasonOf(deep)).toMatch(/objects nested deeper than 10$/);
  });

  it('refuses a schema nested thousands deep in branches or items (an MCP server can send one) or a cycle, instead of overflowing the stack', () => {
    let branches: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20_000; i++) branches = { anyOf: [branches, { type: 'number' }] };
    expect(reasonOf({ type: 'object', properties: { a: branches }, required: ['a'] })).toMatch(/^a(\.anyOf\[0\]){99}: schemas nested deeper than 100$/);
    const list: Record<string, unknown> = { type: 'array' };
    list.items = list;
    expect(reasonOf({ type: 'object', properties: { list } })).toMatch(/^list(\[\]){99}: schemas nested deeper than 100$/);
  });
});

describe('dropOptionalNulls', () => {
  const schema = deriveJsonSchema(
    v.object({
      city: v.string(),
      days: v.optional(v.number()),
      note: v.nullish(v.string()),
      must: v.nullable(v.string()),
      stops: v.optional(v.array(v.object({ name: v.string(), at: v.optional(v.string()) }))),
      extra: v.optional(v.object({ flag: v.optional(v.boolean()) })),
      anything: v.optional(v.unknown()),
    }),
  );

  it('reads null as absent only for an optional property whose own schema does not accept null, in nested objects and arrays too', () => {
    const sent = { city: 'Paris', days: null, note: null, must: null, stops: [{ name: 'a', at: null }, { name: 'b', at: 'noon' }], extra: { flag: null }, anything: null };
    expect(dropOptionalNulls(sent, schema)).toEqual({ city: 'Paris', note: null, must: null, stops: [{ name: 'a' }, { name: 'b', at: 'noon' }], extra: {}, anything: null });
    // A required property keeps its null (the validation reports it), as does a property the schema does not describe.
    expect(dropOptionalNulls({ city: null, other: null }, schema)).toEqual({ city: null, other: null });
    expect(dropOptionalNulls({ city: 'Paris', stops: null, extra: null }, schema)).toEqual({ city: 'Paris' });
  });

  it('reads the nulls of an object in a union or a variant along the branch the object is (its keys, its literals)', () => {
    const variant = v.object({
      shape: v.variant('kind', [
        v.object({ kind: v.literal('circle'), radius: v.optional(v.number()) }),
        v.object({ kind: v.literal('square'), side: v.optional(v.number()), radius: v.optional(v.string()) }),
      ]),
      items: v.array(v.union([v.object({ sku: v.string(), qty: v.optional(v.number()) }), v.object({ gift: v.string(), note: v.optional(v.string()) })])),
      filter: v.union([v.literal('none'), v.object({ from: v.optional(v.string()) })]),
    });
    const json = deriveJsonSchema(variant);
    const sent = { shape: { kind: 'circle', radius: null }, items: [{ sku: 'a', qty: null }, { gift: 'b', note: null }], filter: { from: null } };
    const back = dropOptionalNulls(sent, json);
    expect(back).toEqual({ shape: { kind: 'circle' }, items: [{ sku: 'a' }, { gift: 'b' }], filter: {} });
    expect(v.safeParse(variant, back).success).toBe(true);
    expect(dropOptionalNulls({ shape: { kind: 'square', side: null, radius: null } }, json)).toEqual({ shape: { kind: 'square' } });
    // Two branches the value fits alike: left as it is (the validation decides).
    const twins = deriveJsonSchema(v.union([v.object({ a: v.optional(v.number()) }), v.object({ a: v.optional(v.string()) })]));
    expect(dropOptionalNulls({ a: null }, twins)).toEqual({ a: null });
  });

  it('leaves what is not an object alone and writes no prototype key', () => {
    expect(dropOptionalNulls('x', schema)).toBe('x');
    expect(dropOptionalNulls(null, schema)).toBe(null);
    const parsed = JSON.parse('{"city":"P","__proto__":{"polluted":true}}') as unknown;
    const out = dropOptionalNulls(parsed, schema) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
  });
});
