// Node-only (ajv compiles with `new Function`): connectMcp shows a remote tool's 2020-12 schema (MCP's default dialect)
// to the model in draft-07's form, the one providers read, and still validates arguments against the schema as written.
// The schemas are real: zod 4's own 2020-12 and draft-07 output of the same schemas (the draft-07 one is what the
// rewrite must give), and pydantic 2.13's, the dialect of Python MCP servers (FastMCP).
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../executor/executor.ts';
import type { JsonSchema } from '../schema/input-schema.ts';
import type { JsonSchemaValidator } from '../schema/json-schema.ts';
import { toJsonSchema07 } from './json-schema-07.ts';
import { toJsonSchema2020 } from './json-schema-2020.ts';
import { connectMcp } from './mcp-client.ts';

/**
 * `Order.model_json_schema()` of pydantic 2.13.4 (tuples, models in $defs, a recursive one, a $ref with a description
 * beside it, a discriminated union): what a FastMCP server lists for a tool taking an `Order`.
 */
const PYDANTIC_ORDER: JsonSchema = {"$defs": {"Address": {"properties": {"street": {"title": "Street", "type": "string"}, "city": {"description": "City name", "title": "City", "type": "string"}}, "required": ["street", "city"], "title": "Address", "type": "object"}, "Cat": {"properties": {"kind": {"const": "cat", "title": "Kind", "type": "string"}, "lives": {"maximum": 9, "minimum": 0, "title": "Lives", "type": "integer"}}, "required": ["kind", "lives"], "title": "Cat", "type": "object"}, "Dog": {"properties": {"kind": {"const": "dog", "title": "Kind", "type": "string"}, "good": {"default": true, "title": "Good", "type": "boolean"}}, "required": ["kind"], "title": "Dog", "type": "object"}, "Node": {"properties": {"name": {"title": "Name", "type": "string"}, "children": {"default": [], "items": {"$ref": "#/$defs/Node"}, "title": "Children", "type": "array"}}, "required": ["name"], "title": "Node", "type": "object"}}, "description": "Places an order.", "properties": {"point": {"maxItems": 2, "minItems": 2, "prefixItems": [{"type": "number"}, {"type": "number"}], "title": "Point", "type": "array"}, "tags": {"items": {"type": "string"}, "title": "Tags", "type": "array"}, "row": {"maxItems": 3, "minItems": 3, "prefixItems": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}], "title": "Row", "type": "array"}, "home": {"$ref": "#/$defs/Address"}, "work": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}], "default": null, "description": "Where they work"}, "billing": {"$ref": "#/$defs/Address", "description": "Billing address"}, "tree": {"$ref": "#/$defs/Node"}, "pet": {"discriminator": {"mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}, "propertyName": "kind"}, "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}], "title": "Pet"}, "qty": {"exclusiveMaximum": 100, "exclusiveMinimum": 0, "multipleOf": 2, "title": "Qty", "type": "integer"}}, "required": ["point", "tags", "row", "home", "billing", "tree", "pet", "qty"], "title": "Order", "type": "object"};

/** Keywords of 2019-09 and 2020-12 with a draft-07 form: none may be left in the model's schema. */
const NEWER = ['prefixItems', '$defs', 'dependentRequired', 'dependentSchemas', '$schema'];

function keywords(schema: unknown, found = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return found;
  for (const [key, value] of Object.entries(schema)) {
    found.add(key);
    keywords(value, found);
  }
  return found;
}

const draft07 = new Ajv({ strict: false, allErrors: true });
const draft2020 = new Ajv2020({ strict: false, allErrors: true });

/** Every value is judged alike by a draft-07 validator of the rewrite and a 2020-12 validator of the original. */
function expectSameAnswers(original: JsonSchema, values: unknown[]): void {
  const rewritten = toJsonSchema07(original);
  expect(draft07.validateSchema(rewritten), JSON.stringify(draft07.errors)).toBe(true);
  const old = draft2020.compile(original);
  const now = draft07.compile(rewritten);
  const answers = values.map((value) => [old(value), now(value)]);
  expect(answers.map(([a]) => a)).toEqual(answers.map(([, b]) => b));
  // Both answers occur: the values tell the schemas apart.
  expect(new Set(answers.map(([a]) => a))).toEqual(new Set([true, false]));
}

describe('toJsonSchema07 (2020-12 → draft-07, for the model)', () => {
  const Address = z.object({ street: z.string(), city: z.string() }).meta({ id: 'Address' });
  type Tree = { name: string; children: Tree[] };
  const Tree: z.ZodType<Tree> = z.object({ name: z.string(), get children() { return z.array(Tree); } });
  const schemas = {
    tuples: z.object({ point: z.tuple([z.number(), z.number()]), tags: z.tuple([z.string()], z.number()), pair: z.tuple([z.string(), z.int()]).optional() }),
    'shared and described definitions': z.object({ home: Address, billing: Address.describe('Billing address'), work: Address.nullable() }),
    recursive: z.object({ tree: Tree }),
    'tuples in unions and lists': z.object({ u: z.union([z.string(), z.tuple([z.boolean()])]), rows: z.array(z.tuple([z.string(), z.int()])) }),
    'a root that is a definition': Address,
  };
  for (const [name, schema] of Object.entries(schemas)) {
    it(`gives zod's own draft-07 output for its 2020-12 output: ${name}`, () => {
      const { $schema: _a, ...newer } = z.toJSONSchema(schema, { target: 'draft-2020-12' });
      const { $schema: _b, ...older } = z.toJSONSchema(schema, { target: 'draft-07' });
      expect(toJsonSchema07(newer as JsonSchema)).toEqual(older);
      expect(toJsonSchema07(older as JsonSchema)).toEqual(older); // a draft-07 schema comes back as it was
    });
  }

  it("rewrites pydantic's schema to valid draft-07 that takes exactly what the original takes", () => {
    const rewritten = toJsonSchema07(PYDANTIC_ORDER);
    expect([...keywords(rewritten)].filter((key) => NEWER.includes(key))).toEqual([]);
    expect(rewritten.properties).toMatchObject({
      point: { items: [{ type: 'number' }, { type: 'number' }] },
      home: { $ref: '#/definitions/Address' },
      billing: { description: 'Billing address', allOf: [{ $ref: '#/definitions/Address' }] },
    });
    const address = { street: 'Main St 1', city: 'Oslo' };
    const order = { point: [1, 2], tags: ['a'], row: ['r', 1, true], home: address, billing: address, tree: { name: 'n', children: [{ name: 'c' }] }, pet: { kind: 'cat', lives: 3 }, qty: 2 };
    expectSameAnswers(PYDANTIC_ORDER, [
      order,
      { ...order, point: ['1', 2] },
      { ...order, row: ['r', true, 1] },
      { ...order, row: ['r', 1, true, 'x'] },
      { ...order, billing: { street: 'x' } },
      { ...order, tree: { name: 'n', children: [{ name: 1 }] } },
      { ...order, pet: { kind: 'cat', lives: 10 } },
      { ...order, work: null },
      { ...order, work: { city: 'Oslo' } },
    ]);
  });

  it('follows $ref pointers into what it moves, and writes dependentRequired and dependentSchemas as dependencies', () => {
    const schema: JsonSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string', minLength: 2 }, { type: 'integer' }], items: { type: 'boolean' } },
        first: { $ref: '#/properties/pair/prefixItems/0' },
        rest: { $ref: '#/properties/pair/items' },
        zip: { $ref: '#/dependentSchemas/card/properties/zip' },
        when: { $ref: '#/$defs/when' },
        card: { type: 'string' },
      },
      dependentRequired: { card: ['name'], name: ['card'] },
      dependentSchemas: { card: { properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' } } } },
      $defs: { when: { type: 'string', enum: ['now', 'later'] } },
    };
    const rewritten = toJsonSchema07(schema);
    expect(rewritten.properties).toMatchObject({
      first: { $ref: '#/properties/pair/items/0' },
      rest: { $ref: '#/properties/pair/additionalItems' },
      zip: { $ref: '#/dependencies/card/allOf/0/properties/zip' },
      when: { $ref: '#/definitions/when' },
    });
    expect(rewritten.dependencies).toEqual({ card: { required: ['name'], allOf: [{ properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' } } }] }, name: ['card'] });
    const { $schema: _, ...plain } = schema;
    expectSameAnswers(plain, [
      {},
      { pair: ['ab', 1, true] },
      { pair: ['a', 1] },
      { pair: ['ab', 1, 'x'] },
      { first: 'abc', rest: false },
      { first: 'a' },
      { rest: 1 },
      { zip: '12345' },
      { zip: 'x' },
      { when: 'now' },
      { when: 'never' },
      { card: 'x' },
      { card: 'x', name: 'n', zip: '12345' },
      { card: 'x', name: 'n', zip: 'abc' },
      { name: 'n' },
    ]);
  });

  it("writes zod's empty tuple as `items: false`, valid draft-07 (zod's own `items: []` is not, as its `prefixItems: []` is no 2020-12)", () => {
    const { $schema: _, ...empty } = z.toJSONSchema(z.tuple([]), { target: 'draft-2020-12' });
    expect(toJsonSchema07(empty as JsonSchema)).toEqual({ type: 'array', items: false, maxItems: 0 });
    expect(draft07.validateSchema(toJsonSchema07(empty as JsonSchema))).toBe(true);
    expect(draft07.validateSchema(z.toJSONSchema(z.tuple([]), { target: 'draft-07' }))).toBe(false);
  });

  it("round-trips through the handler's 2020-12 rewrite (a connectMcp tool served again by createMcpHandler)", () => {
    const back = toJsonSchema2020(toJsonSchema07(PYDANTIC_ORDER));
    expect(draft2020.validateSchema(back)).toBe(true);
    expect(back.properties).toMatchObject({ point: { prefixItems: [{ type: 'number' }, { type: 'number' }] }, home: { $ref: '#/$defs/Address' } });
    expect(Object.keys(back.$defs as object)).toEqual(['Address', 'Cat', 'Dog', 'Node']);
  });

  it('converts a schema 100 levels deep, and leaves one deeper whole (its refs would point at $defs moved away)', () => {
    const nested = (depth: number): JsonSchema => {
      let schema: JsonSchema = { prefixItems: [{ $ref: '#/$defs/s' }] };
      for (let i = 0; i < depth; i++) schema = { properties: { a: schema } };
      return { $defs: { s: { type: 'string' } }, ...schema };
    };
    const converted = toJsonSchema07(nested(99));
    expect(keywords(converted).has('prefixItems')).toBe(false);
    expect(JSON.stringify(converted)).toContain('{"items":[{"$ref":"#/definitions/s"}]}');
    expect(toJsonSchema07(nested(100))).toEqual(nested(100));
    expect(toJsonSchema07(nested(1000))).toEqual(nested(1000));
  });
});

describe('connectMcp: a remote tool of 2020-12', () => {
  /** A server (as its `fetch`) that lists one tool taking pydantic's Order, and records the calls that reach it. */
  function pythonServer() {
    const calls: unknown[] = [];
    const fetch = async (request: Request) => {
      const message = (await request.json()) as { id?: number; method: string; params?: { arguments?: unknown } };
      const answer = (result: unknown) => Response.json({ jsonrpc: '2.0', id: message.id, result });
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (message.method === 'initialize') return answer({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fastmcp', version: '2' } });
      if (message.method === 'tools/list') {
        const inputSchema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...PYDANTIC_ORDER };
        return answer({ tools: [{ name: 'place_order', description: 'Places an order.', inputSchema, outputSchema: inputSchema }] });
      }
      calls.push(message.params?.arguments);
      return answer({ content: [{ type: 'text', text: 'placed' }], structuredContent: message.params?.arguments });
    };
    return { fetch, calls };
  }

  it('shows the model draft-07 and validates arguments against the schema as the server wrote it', async () => {
    const server = pythonServer();
    const client = await connectMcp({ url: 'https://python.example/mcp', fetch: server.fetch });
    const [tool] = await client.tools({ policy: { effects: 'read' } });
    if (tool === undefined) throw new Error('no tool listed');
    const shown = tool.input as JsonSchemaValidator;
    expect(shown.jsonSchema).toEqual({ ...toJsonSchema07(PYDANTIC_ORDER), type: 'object' });
    expect([...keywords(shown.jsonSchema)].filter((key) => NEWER.includes(key))).toEqual([]);
    expect([...keywords((tool.output as JsonSchemaValidator).jsonSchema)].filter((key) => NEWER.includes(key))).toEqual([]);
    // listTools() still gives the schema as the server listed it.
    expect((await client.listTools())[0]?.inputSchema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: PYDANTIC_ORDER.$defs });

    const executor = createExecutor({ registry: [tool] });
    const address = { street: 'Main St 1', city: 'Oslo' };
    const order = { point: [1, 2], tags: [], row: ['r', 1, true], home: address, billing: address, tree: { name: 'n' }, pet: { kind: 'dog' }, qty: 4 };
    const wrongRow = await executor.execute({ id: 'c1', name: 'place_order', arguments: JSON.stringify({ ...order, row: ['r', 'one', true] }) });
    expect(wrongRow.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
    const longRow = await executor.execute({ id: 'c2', name: 'place_order', arguments: JSON.stringify({ ...order, row: ['r', 1, true, 2] }) });
    expect(longRow.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
    expect(server.calls).toEqual([]);
    const placed = await executor.execute({ id: 'c3', name: 'place_order', arguments: JSON.stringify(order) });
    expect(placed.outcome).toEqual({ type: 'success', output: order });
    expect(server.calls).toEqual([order]);
    await client.close();
  });
});
