import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { deriveJsonSchema, type JsonSchema } from './input-schema.ts';
import { createExecutor } from '../executor/executor.ts';
import { defineTool } from '../tool/define-tool.ts';
import { coerceToSchema } from './coerce.ts';
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
    expect(reasonOf(object({ a: { allOf: [{ type: 'string' }, { minLength: 1 }] } }))).toBe("a: 'allOf' has no strict form");
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

// A tree of any depth (valibot `v.lazy`): the shape OpenAI's docs show for recursion through `$defs`.
type TreeNode = { name: string; note?: string | undefined; children?: TreeNode[] | undefined };
const treeNode: v.GenericSchema<TreeNode> = v.object({
  name: v.string(),
  note: v.optional(v.string()),
  children: v.optional(v.array(v.lazy(() => treeNode))),
});
const treeInput = v.object({ tree: treeNode, label: v.optional(v.string()) });

// What zod 4 writes for a shared object (a registry id) and a recursive one (`z.lazy`, a getter) in draft-07: the
// definitions under `definitions`, and a reference with keywords beside it as `allOf: [{ $ref }]`.
const zodShaped = {
  type: 'object',
  properties: {
    home: { $ref: '#/definitions/Address' },
    work: { description: 'Work address', allOf: [{ $ref: '#/definitions/Address' }] },
    list: { $ref: '#/definitions/__schema0' },
  },
  required: ['home', 'list'],
  definitions: {
    Address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } }, required: ['city'], description: 'An address' },
    __schema0: { type: 'object', properties: { v: { type: 'number' }, next: { anyOf: [{ $ref: '#/definitions/__schema0' }, { type: 'null' }] } }, required: ['v'] },
  },
};

describe('toStrictJsonSchema with $defs and $ref', () => {
  it('rewrites every definition a recursive valibot schema (v.lazy) refers to, and keeps the references', () => {
    const json = deriveJsonSchema(treeInput);
    expect(json).toMatchObject({ properties: { tree: { properties: { children: { items: { $ref: '#/$defs/0' } } } } }, $defs: { 0: { type: 'object' } } });
    const node = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        note: { type: ['string', 'null'] },
        children: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/0' } }, { type: 'null' }] },
      },
      required: ['name', 'note', 'children'],
      additionalProperties: false,
    };
    expect(strictOf(json)).toEqual({
      type: 'object',
      properties: { tree: node, label: { type: ['string', 'null'] } },
      required: ['tree', 'label'],
      additionalProperties: false,
      $defs: { 0: node },
    });
  });

  it('keeps recursion through the root (#), makes an optional reference nullable, and leaves one that takes null as it is', () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        parent: { $ref: '#' },
        owner: { $ref: '#/$defs/person' },
        maybe: { $ref: '#/$defs/maybe' },
      },
      required: ['title'],
      $defs: {
        person: { type: 'object', properties: { name: { type: 'string' }, boss: { $ref: '#/$defs/person' } }, required: ['name'] },
        maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
    };
    expect(strictOf(schema)).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string' },
        parent: { anyOf: [{ $ref: '#' }, { type: 'null' }] },
        owner: { anyOf: [{ $ref: '#/$defs/person' }, { type: 'null' }] },
        maybe: { $ref: '#/$defs/maybe' },
      },
      required: ['title', 'parent', 'owner', 'maybe'],
      additionalProperties: false,
      $defs: {
        person: {
          type: 'object',
          properties: { name: { type: 'string' }, boss: { anyOf: [{ $ref: '#/$defs/person' }, { type: 'null' }] } },
          required: ['name', 'boss'],
          additionalProperties: false,
        },
        maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
    });
  });

  it("reads zod's shape: definitions sent as $defs, a reference with a description inlined (OpenAI takes a $ref only alone)", () => {
    const address = { type: 'object', properties: { city: { type: 'string' }, zip: { type: ['string', 'null'] } }, required: ['city', 'zip'], additionalProperties: false };
    expect(strictOf(zodShaped)).toEqual({
      type: 'object',
      properties: {
        home: { $ref: '#/$defs/Address' },
        work: { anyOf: [{ ...address, description: 'Work address' }, { type: 'null' }] },
        list: { $ref: '#/$defs/__schema0' },
      },
      required: ['home', 'work', 'list'],
      additionalProperties: false,
      $defs: {
        Address: { ...address, description: 'An address' },
        __schema0: {
          type: 'object',
          properties: { v: { type: 'number' }, next: { anyOf: [{ $ref: '#/$defs/__schema0' }, { type: 'null' }] } },
          required: ['v', 'next'],
          additionalProperties: false,
        },
      },
    });
    // A root that is a reference (a registry id on the root schema) is its definition, inlined.
    const rooted = { $ref: '#/$defs/In', $defs: { In: { type: 'object', properties: { again: { $ref: '#' } } } } };
    expect(strictOf(rooted)).toEqual({
      type: 'object',
      properties: { again: { anyOf: [{ $ref: '#' }, { type: 'null' }] } },
      required: ['again'],
      additionalProperties: false,
      $defs: { In: { type: 'object', properties: { again: { anyOf: [{ $ref: '#' }, { type: 'null' }] } }, required: ['again'], additionalProperties: false } },
    });
  });

  it('refuses a reference it cannot keep pointing at the right place, and one to nothing', () => {
    const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
    expect(reasonOf(object({ a: { $ref: '#/$defs/gone' } }, { $defs: {} }))).toBe("a: $ref '#/$defs/gone' points to nothing");
    expect(reasonOf(object({ a: { $ref: '#/definitions/x' } }, { $defs: { x: { type: 'string' } } }))).toBe("a: $ref '#/definitions/x' points to nothing");
    expect(reasonOf(object({ a: { type: 'string' }, b: { $ref: '#/properties/a' } }))).toBe("b: a $ref other than '#' or '#/$defs/...' has no strict form");
    expect(reasonOf(object({ a: { $ref: 'https://example.com/a.json' } }))).toMatch(/^a: a \$ref other than/);
    expect(reasonOf(object({ a: { type: 'object', $defs: { x: { type: 'string' } } } }))).toBe("a: '$defs' has no strict form");
    expect(reasonOf(object({ a: { $ref: '#/$defs/x', type: 'number' } }, { $defs: { x: { type: 'string' } } }))).toBe(
      "a: 'type' both beside a reference and in its target has no strict form",
    );
    expect(reasonOf(object({}, { $defs: { bad: { type: 'object', additionalProperties: true } } }))).toBe('$defs.bad: an open object (additionalProperties) has no strict form');
    // References with keywords that point at each other: bounded like any other nesting.
    expect(reasonOf(object({ a: { $ref: '#/$defs/x' } }, { $defs: { x: { $ref: '#/$defs/y', description: 'x' }, y: { $ref: '#/$defs/x', description: 'y' } } }))).toMatch(
      /schemas nested deeper than 100$/,
    );
  });
});

describe("toStrictJsonSchema and OpenAI's size limits", () => {
  const many = (n: number, prefix = 'p') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { type: 'string' }]));
  const limitOf = (schema: JsonSchema) => {
    const result = toStrictJsonSchema(schema);
    return result.strict ? undefined : result.limit;
  };

  it('counts object properties in all, definitions included, and refuses more than 5000', () => {
    const at = { type: 'object', properties: many(4000), required: [], $defs: { d: { type: 'object', properties: many(1000) } } };
    expect(toStrictJsonSchema(at).strict).toBe(true);
    const over = { ...at, properties: { ...many(4000), one: { $ref: '#/$defs/d' } } };
    expect(limitOf(over)).toEqual({ name: 'properties', max: 5000, found: 5001 });
    expect(reasonOf(over)).toBe("(root): 5001 object properties in all, over OpenAI's limit of 5000");
  });

  it('counts enum values in all and refuses more than 1000', () => {
    const values = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `v${from + i}`);
    const schema = (n: number) => ({ type: 'object', properties: { a: { enum: values(200) }, b: { type: 'array', items: { enum: values(n, 200) } } } });
    expect(toStrictJsonSchema(schema(800)).strict).toBe(true);
    expect(limitOf(schema(801))).toEqual({ name: 'enum-values', max: 1000, found: 1001 });
    expect(reasonOf(schema(801))).toBe("(root): 1001 enum values in all, over OpenAI's limit of 1000");
  });

  it('counts the characters of property names, definition names, enum and const values, and refuses more than 120,000', () => {
    const long = (n: number) => 'x'.repeat(n);
    const schema = (n: number) => ({
      type: 'object',
      properties: { [long(50_000)]: { const: long(40_000) }, pick: { enum: ['ab', 'cd'] }, ref: { $ref: '#/$defs/d' } },
      $defs: { d: { const: long(n) } },
    });
    // 50,000 + 40,000 + 'pick' 'ab' 'cd' 'ref' 'd' (12) + n
    expect(toStrictJsonSchema(schema(29_988)).strict).toBe(true);
    expect(limitOf(schema(29_989))).toEqual({ name: 'characters', max: 120_000, found: 120_001 });
  });

  it('refuses an enum of more than 250 values whose values have more than 15,000 characters', () => {
    const enumOf = (count: number, size: number) => ({ type: 'object', properties: { big: { enum: Array.from({ length: count }, (_, i) => String(i).padStart(size, '0')) } } });
    expect(toStrictJsonSchema(enumOf(250, 100)).strict).toBe(true); // 25,000 characters, but only 250 values
    expect(toStrictJsonSchema(enumOf(300, 50)).strict).toBe(true); // 15,000 characters
    expect(limitOf(enumOf(301, 50))).toEqual({ name: 'enum-characters', max: 15_000, found: 15_050 });
    expect(reasonOf(enumOf(301, 50))).toBe("big: 15050 characters in an enum of 301 values, over OpenAI's limit of 15000");
  });

  it('names the nesting limit', () => {
    let deep: Record<string, unknown> = { type: 'object', properties: {} };
    for (let i = 0; i < 10; i++) deep = { type: 'object', properties: { next: deep } };
    expect(limitOf(deep)).toEqual({ name: 'nesting', max: 10, found: 11 });
    // A reason that is not a limit has none.
    expect(toStrictJsonSchema({ type: 'string' })).toEqual({ strict: false, reason: '(root): strict mode needs an object' });
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

describe('dropOptionalNulls through $ref', () => {
  it("follows a recursive valibot schema's references as deep as the value goes", () => {
    const json = deriveJsonSchema(treeInput);
    const sent = {
      label: null,
      tree: { name: 'a', note: null, children: [{ name: 'b', note: 'x', children: [{ name: 'c', note: null, children: null }] }, { name: 'd', note: null, children: [] }] },
    };
    const back = dropOptionalNulls(sent, json);
    expect(back).toEqual({ tree: { name: 'a', children: [{ name: 'b', note: 'x', children: [{ name: 'c' }] }, { name: 'd', children: [] }] } });
    expect(v.safeParse(treeInput, back).success).toBe(true);
    expect(v.safeParse(treeInput, sent).success).toBe(false);
  });

  it("follows the root (#), zod's definitions and allOf, and keeps a null the referenced schema takes", () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, parent: { $ref: '#' }, maybe: { $ref: '#/$defs/maybe' } },
      required: ['title'],
      $defs: { maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    };
    expect(dropOptionalNulls({ title: 'a', maybe: null, parent: { title: 'b', parent: null, maybe: null } }, schema)).toEqual({
      title: 'a',
      maybe: null,
      parent: { title: 'b', maybe: null },
    });
    expect(dropOptionalNulls({ home: { city: 'P', zip: null }, work: null, list: { v: 1, next: { v: 2, next: null } } }, zodShaped)).toEqual({
      home: { city: 'P' },
      list: { v: 1, next: { v: 2, next: null } },
    });
    expect(dropOptionalNulls({ home: { city: 'P' }, work: { city: 'L', zip: null }, list: { v: 1 } }, zodShaped)).toEqual({ home: { city: 'P' }, work: { city: 'L' }, list: { v: 1 } });
  });

  it('ends on references that only point at each other, and on a reference to nothing', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/x' }, b: { anyOf: [{ $ref: '#/properties/b' }, { $ref: '#/$defs/gone' }] } },
      $defs: { x: { $ref: '#/$defs/y' }, y: { anyOf: [{ $ref: '#/$defs/x' }] } },
    };
    expect(dropOptionalNulls({ a: { q: null }, b: { r: null } }, schema)).toEqual({ a: { q: null }, b: { r: null } });
    // References with no schema at their end match nothing, so `a` takes no null; one to nothing is read as anything.
    expect(dropOptionalNulls({ a: null, b: null }, schema)).toEqual({ b: null });
  });

  it('coercion follows references too', () => {
    const schema = { type: 'object', properties: { n: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'integer' } } };
    expect(coerceToSchema({ n: '3' }, schema)).toEqual({ n: 3 });
  });

  it('the executor reads a strict model\'s nulls deep in a recursive tool input', async () => {
    const seen: unknown[] = [];
    const tool = defineTool({ name: 'tree', description: 'Store a tree', input: treeInput, policy: { strict: true }, execute: (input) => seen.push(input) });
    const executor = createExecutor({ registry: [tool] });
    const args = { label: null, tree: { name: 'a', note: null, children: [{ name: 'b', note: null, children: null }] } };
    const result = await executor.execute({ id: 'c1', name: 'tree', arguments: JSON.stringify(args) });
    expect(result.outcome.type).toBe('success');
    expect(seen).toEqual([{ tree: { name: 'a', children: [{ name: 'b' }] } }]);
  });
});
