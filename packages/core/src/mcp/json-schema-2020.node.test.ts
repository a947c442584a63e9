// Node-only (ajv compiles with `new Function`): every schema the handler lists is checked against the JSON Schema
// meta-schemas by ajv, the validator the official SDKs use. MCP 2025-11-25 reads a schema without `$schema` as 2020-12
// (SEP-1613); the older revisions name no dialect, and their clients read draft-07.
import type { StandardSchemaV1 } from '@standard-schema/spec';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { validateWithSchema } from '../schema/input-schema.ts';
import { jsonSchema } from '../schema/json-schema.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { AnyTool } from '../tool/types.ts';
import { toJsonSchema2020 } from './json-schema-2020.ts';
import { createMcpHandler } from './mcp-handler.ts';

/** A Standard Schema from another library that implements Standard JSON Schema and derives draft-07 (as zod's can). */
function standardWithJsonSchema(json: Record<string, unknown>, check: (value: unknown) => boolean): StandardSchemaV1 {
  const props = {
    version: 1 as const,
    vendor: 'acme',
    validate: (value: unknown) => (check(value) ? { value } : { issues: [{ message: 'no' }] }),
    jsonSchema: { input: () => ({ $schema: 'http://json-schema.org/draft-07/schema#', ...json }) },
  };
  return { '~standard': props } as StandardSchemaV1;
}

const point = v.tuple([v.number(), v.number()]);
type Node = { name: string; children: Node[] };
const node: v.GenericSchema<Node> = v.object({ name: v.string(), children: v.array(v.lazy(() => node)) });

const isPair = (x: unknown) => Array.isArray(x) && x.length === 2 && typeof x[0] === 'string' && typeof x[1] === 'number';
const tools: AnyTool[] = [
  defineTool({
    name: 'valibot_tuples',
    description: 'valibot tuples: plain, with a rest, strict, nested, and a recursive schema',
    input: v.object({
      at: point,
      tags: v.tupleWithRest([v.string()], v.number()),
      flags: v.strictTuple([v.boolean()]),
      path: v.array(v.looseTuple([v.string(), v.number()])),
      tree: v.optional(node),
    }),
    output: v.object({ corner: point, rest: v.tupleWithRest([v.string()], v.boolean()) }),
    execute: () => ({ corner: [0, 0] as [number, number], rest: ['a'] as [string] }),
  }),
  defineTool({
    name: 'standard_json_schema',
    description: 'A Standard Schema with draft-07 JSON Schema: definitions, a $ref into them, a tuple, dependencies',
    input: standardWithJsonSchema(
      {
        type: 'object',
        properties: { pair: { $ref: '#/definitions/pair' }, card: { type: 'string' }, zip: { type: 'string' } },
        required: ['pair'],
        dependencies: { card: ['zip'], zip: { properties: { card: { minLength: 4 } } } },
        definitions: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } },
      },
      (x) => typeof x === 'object' && x !== null && isPair((x as { pair?: unknown }).pair),
    ),
    execute: () => 'ok',
  }),
  defineTool({
    name: 'raw_draft_07',
    description: 'jsonSchema(): a draft-07 tuple with a rest',
    input: jsonSchema({
      type: 'object',
      properties: { row: { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } }, any: { items: { type: 'string' }, additionalItems: false } },
      required: ['row'],
    }),
    execute: () => 'ok',
  }),
  defineTool({
    name: 'raw_draft_04',
    description: 'jsonSchema() of draft-04: boolean exclusive bounds',
    input: jsonSchema({ type: 'object', properties: { n: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false } } }, { draft: '4' }),
    execute: () => 'ok',
  }),
  defineTool({
    name: 'raw_2020_12',
    description: 'jsonSchema() already in 2020-12',
    input: jsonSchema({ type: 'object', properties: { row: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } } }, $defs: { x: {} } }, { draft: '2020-12' }),
    execute: () => 'ok',
  }),
];

/** Arguments each tool's own validation takes or refuses: the listed schema must agree with it. */
const samples: Record<string, unknown[]> = {
  valibot_tuples: [
    { at: [1, 2], tags: ['a', 1, 2], flags: [true], path: [['x', 1], ['y', 2, 'more']] },
    { at: [1, 2], tags: ['a'], flags: [true], path: [], tree: { name: 'r', children: [{ name: 'c', children: [] }] } },
    { at: [1, 'two'], tags: ['a'], flags: [true], path: [] },
    { at: [1, 2], tags: ['a', 'b'], flags: [true], path: [] },
    { at: [1, 2], tags: ['a'], flags: [true, false], path: [] },
    { at: [1, 2], tags: ['a'], flags: [true], path: [], tree: { name: 'r', children: [{ name: 3, children: [] }] } },
    { at: [1, 2], tags: ['a'], flags: [true], path: [['x', 'y']] },
  ],
  standard_json_schema: [{ pair: ['a', 1] }, { pair: ['a', 'b'] }, { pair: ['a', 1, 2] }],
  raw_draft_07: [{ row: ['a', 1, 2] }, { row: ['a', 1.5] }, { row: [1] }, { row: ['a'], any: ['x', 'y'] }, { row: ['a'], any: [1] }],
  raw_draft_04: [{ n: 1 }, { n: 0 }, { n: 9 }, { n: 9.5 }],
  raw_2020_12: [{ row: ['a', 1] }, { row: ['a', 'b'] }],
};

const handle = createMcpHandler({ tools, name: 'dialects', version: '1' });

interface Listed {
  readonly name: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
}

async function list(revision?: string): Promise<Listed[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (revision !== undefined) headers['mcp-protocol-version'] = revision;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const answer = (await (await handle(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body }))).json()) as { result: { tools: Listed[] } };
  return answer.result.tools;
}

describe('tools/list: each revision’s JSON Schema dialect', () => {
  it('under 2025-11-25 every listed schema is valid 2020-12 and takes exactly what the tool’s own validation takes', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const listed = await list('2025-11-25');
    expect(listed.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    for (const { name, inputSchema, outputSchema } of listed) {
      for (const schema of [inputSchema, outputSchema]) {
        if (schema === undefined) continue;
        expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
        expect(schema.$schema).toBeUndefined();
        // No draft-07 form left anywhere: ajv's 2020-12 vocabulary would ignore `additionalItems` (a rest unchecked).
        expect(JSON.stringify(schema)).not.toMatch(/"additionalItems"|"definitions"|"dependencies"|"exclusiveM\w+":(true|false)/);
      }
      const tool = tools.find((t) => t.name === name) as AnyTool;
      const validate = ajv.compile(inputSchema);
      for (const sample of samples[name] ?? []) {
        const own = await validateWithSchema(tool.input, sample);
        expect(validate(sample), `${name} ${JSON.stringify(sample)}`).toBe(own.ok);
      }
    }
    const [valibot] = listed;
    expect(valibot?.inputSchema.properties).toMatchObject({
      at: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2 },
      tags: { prefixItems: [{ type: 'string' }], items: { type: 'number' } },
      flags: { prefixItems: [{ type: 'boolean' }], items: false },
    });
    expect(valibot?.outputSchema?.properties).toMatchObject({ rest: { prefixItems: [{ type: 'string' }], items: { type: 'boolean' } } });
    expect(listed[1]?.inputSchema).toMatchObject({
      properties: { pair: { $ref: '#/$defs/pair' } },
      $defs: { pair: { prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
      dependentRequired: { card: ['zip'] },
      dependentSchemas: { zip: { properties: { card: { minLength: 4 } } } },
    });
    expect(listed[3]?.inputSchema.properties).toEqual({ n: { type: 'number', exclusiveMinimum: 0, maximum: 9 } });
  });

  it('under 2025-06-18 and 2025-03-26 (or no header) the listing keeps the draft-07 form those clients read', async () => {
    const ajv = new Ajv({ strict: false });
    for (const revision of ['2025-06-18', '2025-03-26', undefined]) {
      const listed = await list(revision);
      expect(listed[0]?.inputSchema).toEqual({ type: 'object', ...tools[0]?.jsonSchema });
      for (const { name, inputSchema } of listed.slice(0, 3)) expect(ajv.validateSchema(inputSchema), `${name} ${revision}`).toBe(true);
    }
  });
});

describe('toJsonSchema2020', () => {
  it('leaves a 2020-12 schema as it was, and root definitions whose names $defs already has where they are', () => {
    const schema = { type: 'array', prefixItems: [{ type: 'string' }], items: { $ref: '#/$defs/x' }, $defs: { x: { type: 'number' } } };
    expect(toJsonSchema2020(schema)).toEqual(schema);
    const clash = { $defs: { a: {} }, definitions: { a: { type: 'string' } }, $ref: '#/definitions/a' };
    expect(toJsonSchema2020(clash)).toEqual(clash);
  });

  it('drops the additionalItems that draft-07 ignores (beside one items schema), and reads an empty tuple as its rest', () => {
    expect(toJsonSchema2020({ items: { type: 'string' }, additionalItems: false })).toEqual({ items: { type: 'string' } });
    expect(toJsonSchema2020({ type: 'array', items: [], additionalItems: false })).toEqual({ type: 'array', items: false });
    expect(toJsonSchema2020({ properties: { items: { type: 'array', items: [true] } } })).toEqual({ properties: { items: { type: 'array', prefixItems: [true] } } });
  });
});
