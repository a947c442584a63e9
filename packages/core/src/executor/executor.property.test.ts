// Property-based tests of the executor against random model output (issue "Reliability").
// Runs per runtime: 1,000 random calls + 400 random calls with a throwing trace exporter + 200 random
// executeAll batches (~900 calls) + 500 valid calls (those with a prototype key refused) + 300 calls with a
// prototype key put anywhere + 400 quoted-primitive calls with `coerce` + 300 unknown names + 20 empty outputs =
// 3,120 properties, ~4,000 executor calls.
// Failures print fast-check's seed and path.
import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCall, ToolOutcome } from '../chain/types.ts';
import { ToolError } from '../errors/tool-error.ts';
import { formatIssuePath } from '../schema/input-schema.ts';
import { jsonSchema } from '../schema/json-schema.ts';
import {
  CODES,
  HOSTILE_KEYS,
  jsonClone,
  jsonEqual,
  jsonNumber,
  jsonObject,
  jsonString,
  jsonValue,
  objectFrom,
  PROTOTYPE_KEYS,
  settle,
  watchUnhandledRejections,
  OUTCOME_TYPES,
} from '../test-support/arbitraries.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { AnyTool } from '../tool/types.ts';
import { createExecutor, type ExecutorOptions, type ToolCallResult } from './executor.ts';


/** What each tool's `execute` received, in order. */
const seen: { tool: string; input: unknown }[] = [];
const record = (tool: string) => (input: unknown) => {
  seen.push({ tool, input });
  return input;
};

const tools = [
  defineTool({ name: 'echo_text', description: '', input: v.object({ text: v.string() }), execute: record('echo_text') }),
  defineTool({
    name: 'say',
    description: 'returns its text as the output',
    input: v.object({ text: v.string() }),
    execute: (input) => (record('say')(input) as { text: string }).text,
  }),
  defineTool({
    name: 'add',
    description: '',
    input: v.object({ a: v.number(), b: v.number() }),
    policy: { coerce: true },
    execute: (input) => {
      record('add')(input);
      return input.a + input.b;
    },
  }),
  defineTool({
    name: 'bag',
    description: 'a record-type schema with coercion',
    input: v.record(v.string(), v.unknown()),
    policy: { coerce: true },
    execute: (input) => Object.keys(record('bag')(input) as object),
  }),
  defineTool({
    name: 'cart',
    description: '',
    input: v.object({
      items: v.array(v.object({ sku: v.string(), qty: v.pipe(v.number(), v.integer()) })),
      gift: v.optional(v.boolean()),
      meta: v.optional(v.object({ tag: v.string() })),
    }),
    policy: { coerce: true },
    execute: record('cart'),
  }),
  defineTool({ name: 'loose', description: '', input: v.looseObject({ id: v.string() }), execute: record('loose') }),
  defineTool({
    name: 'raw',
    description: 'a raw JSON Schema tool',
    input: jsonSchema<{ q: string; n?: number; tags?: string[] }>({
      type: 'object',
      properties: { q: { type: 'string' }, n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['q'],
    }),
    policy: { coerce: true },
    execute: record('raw'),
  }),
  defineTool({ name: 'write_note', description: '', input: v.object({ text: v.string() }), policy: { effects: 'write' }, execute: record('write_note') }),
  defineTool({ name: 'client_pick', description: '', input: v.object({}), policy: { runsOn: 'client' } }),
  defineTool({
    name: 'flaky',
    description: '',
    input: v.object({ mode: v.picklist(['ok', 'throw', 'tool-error', 'reject', 'bigint', 'cyclic', 'undefined']) }),
    execute: async ({ mode }) => {
      seen.push({ tool: 'flaky', input: { mode } });
      if (mode === 'throw') throw new TypeError('boom');
      if (mode === 'tool-error') throw new ToolError('rate-limited', 'slow down');
      if (mode === 'reject') return Promise.reject('a plain string');
      if (mode === 'bigint') return 10n;
      if (mode === 'cyclic') {
        const self: Record<string, unknown> = {};
        self.self = self;
        return self;
      }
      return mode === 'undefined' ? undefined : 'ok';
    },
  }),
  defineTool({ name: 'no_args', description: '', input: v.object({}), execute: () => 'done' }),
] as AnyTool[];
const NAMES = tools.map((t) => t.name);
const KNOWN = new Set(NAMES);

// ---------------------------------------------------------------- arbitraries: what a model may send

const flipCase = (s: string) => [...s].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch.toLowerCase())).join('');
const longString = fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 64, max: 4000 })).map(([s, n]) => s.repeat(n));

/** JSON a client can send as a name or id that breaks naive string conversion (`String(x)` throws for these). */
const HOSTILE_OBJECTS: readonly unknown[] = [
  JSON.parse('{"toString":1}'),
  JSON.parse('{"toString":{},"valueOf":{}}'),
  JSON.parse('{"__proto__":null}'),
  JSON.parse('[{"toString":null}]'),
];

function stringable(value: unknown): boolean {
  try {
    String(value);
    return true;
  } catch {
    return false;
  }
}

const nameArb = (hostile: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 2, arbitrary: fc.constantFrom(...NAMES).map((n) => n.toUpperCase()) },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES).map(flipCase) },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES).map((n) => ` ${n}`) },
  { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '', ' ', '\u0000', 'name') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  { weight: 1, arbitrary: longString },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.constant(undefined), fc.array(fc.string(), { maxLength: 2 }), jsonObject) },
  ...(hostile ? [{ weight: 1, arbitrary: fc.constantFrom(...HOSTILE_OBJECTS) }] : []),
  ).filter((name) => hostile || stringable(name));

const idArb = (hostile: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '__proto__', 'constructor', 'call_1') },
  { weight: 1, arbitrary: longString },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.constant(undefined), jsonObject) },
  ...(hostile ? [{ weight: 1, arbitrary: fc.constantFrom(...HOSTILE_OBJECTS) }] : []),
  ).filter((id) => hostile || stringable(id));

const PROTO_PAYLOADS = [
  '{"__proto__":{"polluted":true,"isAdmin":true}}',
  '{"__proto__":{"polluted":"yes"},"text":"x","a":"1","b":"2"}',
  '{"constructor":{"prototype":{"polluted":true}},"id":"x","q":"y"}',
  '{"prototype":{"polluted":true},"items":[{"sku":"a","qty":"1","__proto__":{"polluted":1}}]}',
  '{"items":[],"meta":{"tag":"t","__proto__":{"isAdmin":true}}}',
  '[{"__proto__":{"polluted":true}}]',
  '{"a":{"__proto__":{"__proto__":{"polluted":true}}}}',
];

/** 100 KB strings, built once: valid JSON, truncated JSON, and junk. */
const HUGE = [
  JSON.stringify({ text: 'x'.repeat(100_000) }),
  JSON.stringify({ q: '\u{1F600}'.repeat(25_000), tags: Array.from({ length: 2000 }, (_, i) => `t${i}`) }),
  JSON.stringify({ text: 'y'.repeat(100_000) }).slice(0, 99_999),
  '{'.repeat(100_000),
  'a'.repeat(100_000),
];

/** Deeply nested arrays/objects as text, balanced or not. */
const deepText = fc
  .record({ depth: fc.integer({ min: 1, max: 5000 }), kind: fc.constantFrom('array', 'object', 'mixed'), balanced: fc.boolean() })
  .map(({ depth, kind, balanced }) => {
    const open = kind === 'array' ? '[' : kind === 'object' ? '{"a":' : '[{"text":';
    const close = kind === 'array' ? ']' : kind === 'object' ? '}' : '}]';
    const inner = kind === 'array' ? '' : '1';
    return open.repeat(depth) + inner + (balanced ? close.repeat(depth) : close.repeat(Math.floor(depth / 2)));
  });

const jsonText = jsonValue.map((value) => JSON.stringify(value));
const truncatedJson = fc.tuple(jsonObject.map((o) => JSON.stringify(o)), fc.nat()).map(([text, n]) => text.slice(0, n % (text.length + 1)));
const corruptedJson = fc
  .tuple(jsonText, fc.nat(), fc.constantFrom('"', '{', '}', ',', ':', '\\', "'", '\u0000', ']', 'NaN', 'undefined'))
  .map(([text, at, junk]) => text.slice(0, at % (text.length + 1)) + junk + text.slice(at % (text.length + 1)));

/** Objects close to the real inputs, with wrong types in random fields. */
const wrongTypes = fc.record(
  { text: jsonValue, a: jsonValue, b: jsonValue, items: jsonValue, id: jsonValue, q: jsonValue, n: jsonValue, mode: jsonValue, gift: jsonValue },
  { requiredKeys: [] },
);

/** Values a buggy client may pass as already-parsed `arguments`. */
const nonStringArgs: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true, withBoxedValues: true, maxDepth: 3 }),
  fc.oneof(fc.integer(), fc.double(), fc.constant(null), fc.constant(undefined), fc.boolean()),
  fc.array(jsonValue, { maxLength: 3 }),
  jsonObject,
  wrongTypes,
);

const argumentsArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 4, arbitrary: jsonText },
  { weight: 3, arbitrary: truncatedJson },
  { weight: 3, arbitrary: corruptedJson },
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_PAYLOADS) },
  { weight: 1, arbitrary: deepText },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
  { weight: 4, arbitrary: wrongTypes.map((o) => JSON.stringify(o)) },
  { weight: 4, arbitrary: nonStringArgs },
  { weight: 1, arbitrary: fc.constantFrom('', '   ', 'null', '[]', '"str"', '42', 'true', '{}', '{"mode":"throw"}', '{"mode":"bigint"}', '{"mode":"cyclic"}') },
);

/** A random call. `hostile` adds names/ids like `{"toString":1}` (JSON that `String()` cannot convert). */
const makeCallArb = (hostile: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 30, arbitrary: fc.record({ id: idArb(hostile), name: nameArb(hostile), arguments: argumentsArb }, { requiredKeys: ['name', 'arguments'] }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2, withNullPrototype: true }) },
  );
const callArb = makeCallArb(true);
/** Without the `String()`-breaking names, so each property fails for one bug only. */
const plainCallArb = makeCallArb(false);

// ---------------------------------------------------------------- invariants of every result

function checkResult(result: ToolCallResult, call: unknown): void {
  expect(OUTCOME_TYPES.has(result.outcome.type), `outcome type ${String(result.outcome.type)}`).toBe(true);
  expect(result.isError).toBe(result.outcome.type === 'error');
  expect(typeof result.returnDirect).toBe('boolean');
  expect(typeof result.content, 'content is a string').toBe('string');
  // A tool that returns '' is checked by its own test below, so one bug fails one test.
  const emptyOutput = result.outcome.type === 'success' && result.outcome.output === '';
  if (!emptyOutput) expect(result.content.length, 'content is not empty').toBeGreaterThan(0);
  expect(Array.isArray(result.spans)).toBe(true);
  expect(result.durationMs).toBeGreaterThanOrEqual(0);
  if (result.outcome.type === 'error') {
    const { error } = result.outcome;
    expect(ToolError.isInstance(error), 'every error is a ToolError').toBe(true);
    expect(CODES.has(error.code), `documented code, got ${String(error.code)}`).toBe(true);
    expect(result.content.startsWith(`Error (${error.code}): `)).toBe(true);
    if (error.code === 'unknown-tool') {
      const name = (call as { name?: unknown }).name;
      expect(typeof name === 'string' && KNOWN.has(name), `a registered name is never unknown: ${String(name)}`).toBe(false);
      expect(error.message).toContain(`Available tools: ${NAMES.join(', ')}.`);
    }
  }
}

const protoBefore = {
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  fn: Object.getOwnPropertyNames(Function.prototype).sort(),
};

function checkNoPollution(): void {
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'isAdmin', 'text', 'id', 'q', 'a', 'b']) expect(probe[key], `({}).${key}`).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore.object);
  expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(protoBefore.array);
  expect(Object.getOwnPropertyNames(Function.prototype).sort()).toEqual(protoBefore.fn);
  expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
}

/** Calls `execute` and fails the property on a synchronous throw or a rejection. */
async function run(options: Omit<ExecutorOptions, 'registry'>, call: unknown): Promise<ToolCallResult> {
  const executor = createExecutor({ ...options, registry: tools });
  let pending: Promise<ToolCallResult> | undefined;
  expect(() => {
    pending = executor.execute(call as ToolCall);
  }, 'execute never throws synchronously').not.toThrow();
  try {
    return await (pending as Promise<ToolCallResult>);
  } catch (error) {
    throw new Error(`execute rejected (it must resolve with the default 'report' policy): ${String(error)}`, { cause: error });
  }
}

// ---------------------------------------------------------------- properties

describe('executor properties: random model output', () => {
  const watcher = watchUnhandledRejections();
  beforeAll(() => {
    seen.length = 0;
  });
  afterAll(() => watcher.stop());

  it('resolves with a typed outcome, a ToolError with a documented code, non-empty content, no pollution', async () => {
    await fc.assert(
      fc.asyncProperty(callArb, async (call) => {
        const result = await run({}, call);
        checkResult(result, call);
        checkNoPollution();
      }),
      { numRuns: 1000, examples: [[{ id: 'c1', name: JSON.parse('{"toString":1}'), arguments: '{}' }]] },
    );
    await settle();
    expect(watcher.reasons, 'no unhandled rejection').toEqual([]);
  });

  it('a throwing trace exporter never fails or rejects a call ("a broken exporter must not fail the call")', async () => {
    const onTrace = () => {
      throw new Error('trace sink is down');
    };
    await fc.assert(
      fc.asyncProperty(plainCallArb, async (call) => {
        checkResult(await run({ onTrace }, call), call);
      }),
      { numRuns: 400, examples: [[{ id: 'c1', name: 'echo_text', arguments: '{' }]] },
    );
  });

  it('executeAll resolves with one typed result per call, in order, whatever the batch holds', async () => {
    const executor = createExecutor({ registry: tools });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof({ weight: 8, arbitrary: plainCallArb }, fc.constantFrom(null, undefined, 42, 'call')), { maxLength: 8 }), async (calls) => {
        let results: ToolCallResult[];
        try {
          results = await executor.executeAll(calls as ToolCall[]);
        } catch (error) {
          throw new Error(`executeAll rejected: ${String(error)}`, { cause: error });
        }
        expect(results).toHaveLength(calls.length);
        for (const [i, result] of results.entries()) checkResult(result, calls[i]);
      }),
      { numRuns: 200, examples: [[[null]]] },
    );
    await settle();
    expect(watcher.reasons, 'no unhandled rejection').toEqual([]);
  });
});

// Valid inputs per tool, and what the tool must see after validation (valibot's record/looseObject
// drop prototype keys on purpose; object schemas drop unknown keys).
const withoutPrototypeKeys = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !PROTOTYPE_KEYS.has(k)));
const validCall = fc.oneof(
  fc.record({ name: fc.constantFrom('echo_text', 'say'), input: fc.record({ text: jsonString }) }).map((c) => ({ ...c, expected: c.input })),
  fc.record({ name: fc.constant('add'), input: fc.record({ a: jsonNumber, b: jsonNumber }) }).map((c) => ({ ...c, expected: c.input })),
  fc.record({ name: fc.constant('bag'), input: jsonObject }).map((c) => ({ ...c, expected: withoutPrototypeKeys(c.input) })),
  fc
    .record({
      name: fc.constant('cart'),
      input: fc.record(
        {
          items: fc.array(fc.record({ sku: jsonString, qty: fc.integer() }), { maxLength: 4 }),
          gift: fc.boolean(),
          meta: fc.record({ tag: jsonString }),
        },
        { requiredKeys: ['items'] },
      ),
    })
    .map((c) => ({ ...c, expected: c.input })),
  fc
    .record({ name: fc.constant('loose'), id: jsonString, extra: jsonObject })
    .map(({ name, id, extra }) => {
      const input = { ...withoutPrototypeKeys(extra), id };
      return { name, input: Object.fromEntries([...Object.entries(extra), ['id', id]]), expected: input };
    }),
  fc
    .record({
      name: fc.constant('raw'),
      input: fc.record({ q: jsonString, n: fc.integer(), tags: fc.array(jsonString, { maxLength: 3 }), x: jsonValue }, { requiredKeys: ['q'] }),
    })
    .map((c) => ({ ...c, expected: c.input })),
);

/**
 * Whether the AI SDK's JSON parser (secure-json-parse) refuses this JSON value: an own `__proto__` key, or a
 * `constructor` object with an own `prototype`, at any depth. Written apart from `prototypeKeyIssues`, as the oracle.
 */
function refusedByAISDK(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, '__proto__')) return true;
  const ctor = Object.hasOwn(value, 'constructor') ? (value as { constructor: unknown }).constructor : undefined;
  if (typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')) return true;
  return Object.values(value).some(refusedByAISDK);
}

/** Puts `key: inner` into a copy of `value` at a random depth (in an object, or a new object in an array), and says where. */
function injectKey(value: Record<string, unknown>, key: string, inner: unknown, turns: readonly number[]): { value: Record<string, unknown>; path: string } {
  const root = jsonClone(value);
  let node: object = root;
  const at: (string | number)[] = [];
  for (const turn of turns) {
    const children = Object.entries(node).filter(([, child]) => typeof child === 'object' && child !== null);
    if (children.length === 0) break;
    const [name, child] = children[turn % children.length] as [string, object];
    at.push(Array.isArray(node) ? Number(name) : name);
    node = child;
  }
  if (Array.isArray(node)) {
    at.push(node.length);
    node.push(objectFrom([[key, inner]]));
  } else Object.defineProperty(node, key, { value: inner, enumerable: true, writable: true, configurable: true });
  return { value: root, path: formatIssuePath(key === '__proto__' ? [...at, key] : [...at, key, 'prototype']) };
}

describe('executor properties: valid calls', () => {
  it('a valid call of a known tool succeeds, and the tool saw exactly the validated input (one with a prototype key is refused)', async () => {
    const executor = createExecutor({ registry: tools });
    await fc.assert(
      fc.asyncProperty(validCall, fc.boolean(), fc.string({ maxLength: 20 }), async ({ name, input, expected }, asText, id) => {
        seen.length = 0;
        const args = asText ? JSON.stringify(input) : jsonClone(input);
        const result = await executor.execute({ id, name, arguments: args });
        if (refusedByAISDK(input)) {
          // What the AI SDK and useChat refuse, the executor refuses too, text or parsed: typed, and nothing ran.
          expect(result.outcome.type === 'error' && result.outcome.error.code, result.content).toBe('invalid-json');
          expect(seen).toEqual([]);
          checkResult(result, { name });
          checkNoPollution();
          return;
        }
        expect(result.outcome.type, result.content).toBe('success');
        expect(seen).toHaveLength(1);
        expect(seen[0]?.tool).toBe(name);
        expect(seen[0]?.input, 'execute got the validated input').toBe(result.input);
        expect(jsonEqual(seen[0]?.input, expected), `tool saw ${JSON.stringify(seen[0]?.input)}, expected ${JSON.stringify(expected)}`).toBe(true);
        checkResult(result, { name });
        if (name === 'say' && (input as { text: string }).text !== '') expect(result.content).toBe((input as { text: string }).text);
        checkNoPollution();
      }),
      { numRuns: 500 },
    );
  });

  it('a prototype key anywhere in valid arguments (text, escaped text, parsed) is invalid-json naming its path; nothing runs or is polluted', async () => {
    const executor = createExecutor({ registry: tools });
    const forms = fc.constantFrom('text', 'escaped', 'parsed');
    /** The key in JSON text with its first character as a `\u` escape (`"\u005f_proto__":`). */
    const escaped = (text: string, key: string) => text.replaceAll(`"${key}":`, `"\\u00${key.charCodeAt(0).toString(16)}${key.slice(1)}":`);
    const hostile = fc.oneof(
      fc.record({ key: fc.constant('__proto__'), inner: jsonValue }),
      fc.record({ key: fc.constant('constructor'), inner: fc.record({ prototype: jsonValue }) }),
    );
    await fc.assert(
      fc.asyncProperty(validCall, hostile, fc.array(fc.nat(), { maxLength: 4 }), forms, async ({ name, input }, { key, inner }, turns, form) => {
        seen.length = 0;
        const injected = injectKey(input, key, inner, turns);
        const text = JSON.stringify(injected.value);
        const args = form === 'parsed' ? jsonClone(JSON.parse(text)) : form === 'escaped' ? escaped(text, key) : text;
        const result = await executor.execute({ id: 'c', name, arguments: args });
        const { outcome } = result;
        expect(outcome.type === 'error' && outcome.error.code, result.content).toBe('invalid-json');
        const paths = outcome.type === 'error' ? (outcome.error.issues ?? []).map((issue) => issue.path) : [];
        // Every key is named, the injected one included (unless it sits inside a refused key's value, which is not walked).
        if (!refusedByAISDK(input)) expect(paths).toContain(injected.path);
        expect(paths.length).toBeGreaterThan(0);
        expect(result.content).toContain(`prototype: ${paths.join(', ')}.`);
        expect(seen).toEqual([]);
        checkResult(result, { name });
        checkNoPollution();
      }),
      {
        numRuns: 300,
        examples: [[{ name: 'echo_text', input: { text: 'x' }, expected: { text: 'x' } }, { key: '__proto__', inner: { polluted: true } }, [], 'escaped']],
      },
    );
  });

  it('a tool that returns an empty string still gives the model non-empty content', async () => {
    const executor = createExecutor({ registry: tools });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('', ' ', 'x'), fc.boolean(), async (text, asText) => {
        const args = asText ? JSON.stringify({ text }) : { text };
        const result = await executor.execute({ id: 'c', name: 'say', arguments: args });
        expect(result.outcome).toEqual({ type: 'success', output: text });
        expect(result.content.length, `content for an output of ${JSON.stringify(text)}`).toBeGreaterThan(0);
      }),
      { numRuns: 20, examples: [['', false]] },
    );
  });

  it('with coerce: quoted numbers and booleans reach the tool as numbers and booleans', async () => {
    const executor = createExecutor({ registry: tools });
    const quote = (value: unknown, yes: boolean) => (yes && (typeof value === 'number' || typeof value === 'boolean') ? String(value) : value);
    const quoted = fc.oneof(
      fc.record({ a: jsonNumber, b: jsonNumber, qa: fc.boolean(), qb: fc.boolean() }).map(({ a, b, qa, qb }) => ({
        name: 'add',
        args: { a: quote(a, qa), b: quote(b, qb) },
        expected: { a, b },
      })),
      fc
        .record({ items: fc.array(fc.record({ sku: jsonString, qty: fc.integer(), quoteQty: fc.boolean() }), { maxLength: 4 }), gift: fc.boolean(), quoteGift: fc.boolean() })
        .map(({ items, gift, quoteGift }) => ({
          name: 'cart',
          args: { items: items.map(({ sku, qty, quoteQty }) => ({ sku, qty: quote(qty, quoteQty) })), gift: quote(gift, quoteGift) },
          expected: { items: items.map(({ sku, qty }) => ({ sku, qty })), gift },
        })),
      fc.record({ q: jsonString, n: fc.integer(), quoteN: fc.boolean() }).map(({ q, n, quoteN }) => ({
        name: 'raw',
        args: { q, n: quote(n, quoteN) },
        expected: { q, n },
      })),
    );
    await fc.assert(
      fc.asyncProperty(quoted, async ({ name, args, expected }) => {
        seen.length = 0;
        const result = await executor.execute({ id: 'c', name, arguments: JSON.stringify(args) });
        expect(result.outcome.type, result.content).toBe('success');
        expect(jsonEqual(seen[0]?.input, expected), `tool saw ${JSON.stringify(seen[0]?.input)}`).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('an unknown name (other case, prototype names, junk) is unknown-tool listing every available tool', async () => {
    const executor = createExecutor({ registry: tools });
    const unknownName = fc
      .oneof(
        fc.constantFrom(...NAMES).map((n) => n.toUpperCase()),
        fc.constantFrom(...NAMES).map(flipCase),
        fc.constantFrom(...HOSTILE_KEYS, 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__'),
        fc.string({ unit: 'binary', maxLength: 30 }),
      )
      .filter((name) => !KNOWN.has(name));
    await fc.assert(
      fc.asyncProperty(unknownName, async (name) => {
        seen.length = 0;
        const result = await executor.execute({ id: 'c', name, arguments: '{}' });
        const outcome: ToolOutcome = result.outcome;
        expect(outcome.type === 'error' && outcome.error.code).toBe('unknown-tool');
        expect(result.content).toBe(`Error (unknown-tool): Unknown tool "${name}". Available tools: ${NAMES.join(', ')}.`);
        expect(seen).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
