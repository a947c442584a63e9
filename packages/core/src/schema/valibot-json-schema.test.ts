// Differential tests of `valibotToJsonSchema` against `@valibot/to-json-schema` (errorMode 'ignore'):
// a hand-written table, 400 random nested schemas with random pipes, and the documented differences
// (schemas the library can only turn into `{}` throw here). Failures print fast-check's seed and path.
import { toJsonSchema } from '@valibot/to-json-schema';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { valibotToJsonSchema } from './valibot-json-schema.ts';

type Schema = v.GenericSchema;

/** `v.pipe` without its overloads, for pipes assembled at run time. */
const pipe = v.pipe as unknown as (schema: Schema, ...items: unknown[]) => Schema;
const library = (schema: unknown): unknown => toJsonSchema(schema as Schema, { errorMode: 'ignore' });

/** Serialises with key order and `undefined` values kept visible. */
const serialise = (value: unknown): string => JSON.stringify(value, (_key, x: unknown) => (x === undefined ? '(undefined)' : x));

/**
 * Same output as the library, key order included (the model sees the serialised schema).
 * Not `toStrictEqual`: its class check reads `.constructor`, which a property named `constructor` shadows.
 */
function expectSame(schema: unknown): void {
  const ours = valibotToJsonSchema(schema);
  const theirs = library(schema);
  expect(ours).toEqual(theirs);
  expect(serialise(ours)).toBe(serialise(theirs));
}

// The demo tools' inputs (apps/worker/src/tools).
const orderId = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^A-\d{4}$/, 'Order ids look like A-1001'), v.description('The order id, e.g. A-1001'));
const isoDay = v.pipe(
  v.string(),
  v.trim(),
  v.isoDate('Expected a date as YYYY-MM-DD'),
  v.check((s) => s.length === 10, 'That day does not exist in the calendar'),
);

// Enum objects as TypeScript emits them (a numeric enum maps values back to names).
const Color = { Red: 'red', Green: 'green' } as const;
const Level = { Low: 0, High: 1, 0: 'Low', 1: 'High' } as const;
const Mixed = { A: 'a', B: 2, 2: 'B' } as const;

const CASES: readonly (readonly [string, unknown])[] = [
  ['string', v.string()],
  ['number', v.number()],
  ['boolean', v.boolean()],
  ['null', v.null()],
  ['any', v.any()],
  ['unknown', v.unknown()],
  ['never', v.never()],
  ['literal string', v.literal('on')],
  ['literal number', v.literal(42)],
  ['literal boolean', v.literal(false)],
  ['picklist strings', v.picklist(['a', 'b', 'c'])],
  ['picklist numbers', v.picklist([1, 2, 3])],
  ['picklist mixed', v.picklist(['a', 1])],
  ['enum strings', v.enum(Color)],
  ['enum numeric', v.enum(Level)],
  ['enum mixed', v.enum(Mixed)],
  ['object', v.object({ a: v.string(), b: v.number() })],
  ['empty object', v.object({})],
  ['loose object', v.looseObject({ id: v.string() })],
  ['strict object', v.strictObject({ id: v.string(), n: v.optional(v.number()) })],
  ['object with rest', v.objectWithRest({ id: v.string() }, v.number())],
  ['array', v.array(v.string())],
  ['array of objects', v.array(v.object({ sku: v.string(), qty: v.pipe(v.number(), v.integer()) }))],
  ['tuple', v.tuple([v.string(), v.number()])],
  ['loose tuple', v.looseTuple([v.string()])],
  ['strict tuple', v.strictTuple([v.string(), v.boolean()])],
  ['tuple with rest', v.tupleWithRest([v.string()], v.number())],
  ['record', v.record(v.string(), v.unknown())],
  ['record with key pipe', v.record(v.pipe(v.string(), v.minLength(2)), v.number())],
  ['record with picklist keys', v.record(v.picklist(['x', 'y']), v.number())],
  ['union', v.union([v.string(), v.number()])],
  ['variant', v.variant('kind', [v.object({ kind: v.literal('a'), a: v.string() }), v.object({ kind: v.literal('b'), b: v.number() })])],
  ['intersect', v.intersect([v.object({ a: v.string() }), v.object({ b: v.number() })])],
  ['optional', v.object({ a: v.optional(v.string()) })],
  ['optional with default', v.object({ a: v.optional(v.number(), 3) })],
  ['optional with default function', v.object({ a: v.optional(v.array(v.string()), () => ['x']) })],
  ['nullable', v.object({ a: v.nullable(v.string()) })],
  ['nullable with default', v.nullable(v.string(), 'none')],
  ['nullish with default', v.object({ a: v.nullish(v.number(), 0) })],
  ['exact optional', v.object({ a: v.exactOptional(v.string(), 'x') })],
  ['undefinedable', v.object({ a: v.undefinedable(v.string()), b: v.undefinedable(v.number(), 1) })],
  ['optional wrapping a pipe', v.optional(v.pipe(v.string(), v.email()), 'a@b.c')],
  ['pipe around an optional', v.object({ a: v.pipe(v.optional(v.string()), v.description('maybe')) })],
  ['descriptions on nested fields', v.object({ user: v.pipe(v.object({ name: v.pipe(v.string(), v.description('Full name')) }), v.description('The user')) })],
  ['title, description, examples', v.pipe(v.string(), v.title('T'), v.description('D'), v.examples(['x']), v.examples(['y']))],
  ['metadata', v.pipe(v.string(), v.examples(['a']), v.metadata({ title: 'T', description: 'D', examples: ['b'], deprecated: true, 'x-extra': { n: 1 } }))],
  ['metadata with non-string title', v.pipe(v.number(), v.metadata({ title: 1, examples: 'no', readOnly: true }))],
  ['string lengths', v.pipe(v.string(), v.minLength(1), v.maxLength(10), v.minLength(0), v.maxLength(20))],
  ['string length', v.pipe(v.string(), v.length(4))],
  ['array lengths', v.pipe(v.array(v.number()), v.minLength(1), v.maxLength(5), v.nonEmpty())],
  ['empty', v.pipe(v.array(v.string()), v.empty())],
  ['empty string', v.pipe(v.string(), v.empty())],
  ['non_empty string', v.pipe(v.string(), v.nonEmpty())],
  ['number bounds', v.pipe(v.number(), v.minValue(1), v.maxValue(9), v.minValue(0), v.maxValue(100))],
  ['exclusive bounds', v.pipe(v.number(), v.gtValue(0), v.ltValue(1))],
  ['integer', v.pipe(v.number(), v.integer(), v.minValue(1))],
  ['safe integer', v.pipe(v.number(), v.minValue(0), v.safeInteger())],
  ['multiple of', v.pipe(v.number(), v.multipleOf(5))],
  ['bounds on a string are skipped', v.pipe(v.string(), v.minValue('a'), v.maxValue('z'))],
  ['non-finite bounds are skipped', v.pipe(v.number(), v.minValue(Number.NEGATIVE_INFINITY), v.maxValue(Number.NaN))],
  ['non-integer lengths are skipped', v.pipe(v.string(), v.minLength(1.5), v.maxLength(-1))],
  ['length on a number', pipe(v.number(), v.minLength(1), v.nonEmpty())],
  ['formats', v.object({ e: v.pipe(v.string(), v.email()), r: v.pipe(v.string(), v.rfcEmail()), u: v.pipe(v.string(), v.url()), id: v.pipe(v.string(), v.uuid()) })],
  ['ip formats', v.object({ a: v.pipe(v.string(), v.ipv4()), b: v.pipe(v.string(), v.ipv6()), c: v.pipe(v.string(), v.ip()) })],
  [
    'iso formats',
    v.object({
      d: v.pipe(v.string(), v.isoDate()),
      dt: v.pipe(v.string(), v.isoDateTime()),
      t: v.pipe(v.string(), v.isoTime()),
      ts: v.pipe(v.string(), v.isoTimestamp()),
      ts2: v.pipe(v.string(), v.isoDateTimeSecond()),
      w: v.pipe(v.string(), v.isoWeek()),
      s: v.pipe(v.string(), v.isoTimeSecond()),
    }),
  ],
  ['regex', v.pipe(v.string(), v.regex(/^[a-z]+$/))],
  ['regex with flags', v.pipe(v.string(), v.regex(/^[a-z]+$/iu))],
  ['first regex wins', v.pipe(v.string(), v.regex(/a/), v.regex(/b/), v.startsWith('x'))],
  ['starts/ends/includes', v.object({ s: v.pipe(v.string(), v.startsWith('a.b')), e: v.pipe(v.string(), v.endsWith('(x)')), i: v.pipe(v.string(), v.includes('$^')) })],
  [
    'regex-backed actions',
    v.object({
      a: v.pipe(v.string(), v.hexColor()),
      b: v.pipe(v.string(), v.slug()),
      c: v.pipe(v.string(), v.nanoid()),
      d: v.pipe(v.string(), v.hash(['md5', 'sha256'])),
      e: v.pipe(v.string(), v.ulid()),
      f: v.pipe(v.string(), v.digits()),
      g: v.pipe(v.string(), v.base64()),
      h: v.pipe(v.string(), v.emoji()),
    }),
  ],
  ['value', v.pipe(v.string(), v.value('x'), v.value('x'), v.value('y'))],
  ['value after literal', v.pipe(v.literal(1), v.value(1))],
  ['entries', v.pipe(v.record(v.string(), v.number()), v.minEntries(1), v.maxEntries(4), v.entries(2))],
  ['unsupported actions are skipped', v.pipe(v.string(), v.trim(), v.toLowerCase(), v.check((s) => s !== ''), v.transform((s) => s.length), v.brand('B'))],
  ['nested pipes', v.pipe(v.pipe(v.string(), v.minLength(2)), v.maxLength(8), v.description('nested'))],
  ['a second schema in a pipe overwrites', v.pipe(v.string(), v.transform(Number), v.number(), v.minValue(1))],
  ['a date after a transform is skipped', v.pipe(v.string(), v.isoDate(), v.transform((s) => new Date(s)), v.date())],
  ['deeply nested', v.object({ a: v.array(v.union([v.object({ b: v.nullish(v.tuple([v.string(), v.array(v.number())])) }), v.null()])) })],
  ['fallback is ignored', v.fallback(v.string(), 'x')],
  ['partial', v.partial(v.object({ a: v.string(), b: v.number() }))],
  ['demo: calculate', v.object({ expression: v.pipe(v.string(), v.minLength(1), v.maxLength(500), v.description('The expression')) })],
  [
    'demo: list_delayed_orders',
    v.object({ days_threshold: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365), v.description('Minimum delay in days (default 1)')), 1) }),
  ],
  ['demo: query_order', v.object({ order_id: orderId })],
  [
    'demo: send_email',
    v.object({
      order_id: orderId,
      subject: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.description('Subject line')),
      body: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(5_000), v.description('Plain-text message body')),
    }),
  ],
  [
    'demo: update_delivery_date',
    v.object({
      order_id: orderId,
      new_date: v.pipe(isoDay, v.description('The new delivery date, YYYY-MM-DD; today or later')),
      reason: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500), v.description('Why the date changes'))),
    }),
  ],
  [
    'demo: world_clock',
    v.object({ time_zone: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64), v.check((s) => s !== ''), v.description('IANA time zone, e.g. Europe/Berlin')) }),
  ],
];

describe('valibotToJsonSchema: same output as @valibot/to-json-schema', () => {
  it.each(CASES)('%s', (_name, schema) => expectSame(schema));

  it('adds the draft-07 $schema key at the root only', () => {
    expect(valibotToJsonSchema(v.object({ a: v.string() }))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
  });
});

describe('valibotToJsonSchema: lazy schemas, as $ref and $defs like the library', () => {
  type Tree = { name: string; children?: Tree[] | undefined };
  const tree: v.GenericSchema<Tree> = v.object({ name: v.string(), children: v.optional(v.array(v.lazy(() => tree))) });
  type List = { value: number; next: List | null };
  const list: v.GenericSchema<List> = v.object({ value: v.number(), next: v.nullable(v.lazy(() => list)) });
  const shared = v.pipe(v.string(), v.email());
  const sharedLazy = v.lazy(() => shared);

  it('writes a recursive schema once, in $defs, and refers to it', () => {
    expect(valibotToJsonSchema(v.object({ tree }))).toMatchObject({
      properties: { tree: { properties: { children: { items: { $ref: '#/$defs/0' } } } } },
      $defs: { 0: { type: 'object', properties: { children: { items: { $ref: '#/$defs/0' } } } } },
    });
    for (const schema of [
      tree,
      v.object({ tree, other: v.optional(tree) }),
      v.object({ list, lists: v.array(list) }),
      v.object({ a: sharedLazy, b: v.optional(sharedLazy, 'x@y.z'), c: shared, d: v.lazy(() => v.number()) }),
      v.object({ a: v.lazy(() => v.object({ b: v.lazy(() => v.string()) })) }),
      v.lazy(() => v.object({ a: v.string() })),
      v.pipe(v.string(), v.transform(String), v.lazy(() => v.string())),
    ]) {
      expectSame(schema);
    }
  });
});

describe('valibotToJsonSchema: documented differences from the library', () => {
  it('skips values, not_value and not_values', () => {
    const schema = pipe(v.picklist(['a', 'b', 'c']), v.values(['a', 'b']), v.notValue('a'), v.notValues(['c']));
    expect(valibotToJsonSchema(schema)).toEqual(valibotToJsonSchema(v.picklist(['a', 'b', 'c'])));
    expect(library(schema)).toMatchObject({ enum: ['a', 'b'], not: { anyOf: [{ const: 'a' }, { enum: ['c'] }] } });
  });

  it('turns a custom action with a RegExp requirement into pattern', () => {
    const custom = { kind: 'validation', type: 'my_format', requirement: /^x+$/, async: false, '~run': (dataset: unknown) => dataset };
    expect(valibotToJsonSchema(pipe(v.string(), custom))).toMatchObject({ type: 'string', pattern: '^x+$' });
    expect(library(pipe(v.string(), custom))).not.toHaveProperty('pattern');
  });
});

describe('valibotToJsonSchema: schemas it cannot convert', () => {
  const message = (type: string) => `Cannot derive a JSON Schema from the valibot "${type}" schema: pass \`jsonSchema\` to defineTool.`;
  const CANNOT: readonly (readonly [string, unknown])[] = [
    ['date', v.date()],
    ['bigint', v.bigint()],
    ['function', v.function()],
    ['symbol', v.symbol()],
    ['undefined', v.undefined()],
    ['custom', v.custom(() => true)],
    ['map', v.map(v.string(), v.number())],
    ['set', v.set(v.string())],
    ['instance', v.instance(Date)],
    ['non_optional', v.nonOptional(v.optional(v.string()))],
    ['literal', v.literal(1n)],
    ['picklist', v.picklist([1n, 2n])],
    ['date', v.object({ when: v.optional(v.date()) })],
    ['date', v.pipe(v.date(), v.description('first in its pipe'))],
    ['symbol', v.array(v.union([v.string(), v.symbol()]))],
  ];

  it.each(CANNOT)('throws a TypeError for "%s"', (type, schema) => {
    expect(() => valibotToJsonSchema(schema)).toThrow(new TypeError(message(type)));
  });

  it('where the library emits {} ("anything")', () => {
    for (const schema of [v.date(), v.bigint(), v.function(), v.literal(1n), v.nonOptional(v.optional(v.string()))]) {
      expect(library(schema)).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#' });
    }
  });

  it('throws for what a lazy schema returns when it cannot convert that', () => {
    expect(() => valibotToJsonSchema(v.object({ a: v.lazy(() => v.date()) }))).toThrow(new TypeError(message('date')));
  });
});

// Random schemas: leaves, wrappers and containers from the supported set, each maybe piped with
// random actions (fitting or not: the library's checks are part of the contract).
const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
const number = fc.oneof(fc.integer({ min: -5, max: 20 }), finite, fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 0.5, -1));
const text = fc.string({ maxLength: 6 });
const constValue = fc.oneof(text, fc.integer(), finite, fc.boolean());
const defaultValue = fc.oneof(constValue, fc.constant(null), fc.array(text, { maxLength: 2 }));
const key = fc.oneof(text, fc.constantFrom('constructor', 'toString', 'type', '0'));

const action: fc.Arbitrary<unknown> = fc.oneof(
  text.map((s) => v.description(s)),
  text.map((s) => v.title(s)),
  fc.array(constValue, { maxLength: 2 }).map((x) => v.examples(x)),
  fc
    .record(
      { title: fc.oneof(text, fc.integer()), description: text, examples: fc.oneof(fc.array(text, { maxLength: 2 }), text), deprecated: fc.boolean(), minimum: number },
      { requiredKeys: [] },
    )
    .map((m) => v.metadata(m)),
  number.map((n) => v.minLength(n)),
  number.map((n) => v.maxLength(n)),
  number.map((n) => v.length(n)),
  number.map((n) => v.minValue(n)),
  number.map((n) => v.maxValue(n)),
  number.map((n) => v.gtValue(n)),
  number.map((n) => v.ltValue(n)),
  number.map((n) => v.multipleOf(n)),
  number.map((n) => v.minEntries(n)),
  number.map((n) => v.maxEntries(n)),
  number.map((n) => v.entries(n)),
  constValue.map((x) => v.value(x)),
  text.map((s) => v.startsWith(s)),
  text.map((s) => v.endsWith(s)),
  text.map((s) => v.includes(s)),
  fc.constantFrom<unknown>(
    v.integer(),
    v.safeInteger(),
    v.nonEmpty(),
    v.empty(),
    v.email(),
    v.rfcEmail(),
    v.url(),
    v.uuid(),
    v.ipv4(),
    v.ipv6(),
    v.ip(),
    v.isoDate(),
    v.isoDateTime(),
    v.isoTime(),
    v.isoTimestamp(),
    v.isoDateTimeSecond(),
    v.base64(),
    v.slug(),
    v.regex(/^a+$/),
    v.regex(/b/i),
    v.trim(),
    v.check(() => true),
    v.transform((x) => x),
    v.finite(),
    v.readonly(),
  ),
);

const withPipe = (schema: fc.Arbitrary<Schema>): fc.Arbitrary<Schema> =>
  fc.tuple(schema, fc.array(action, { maxLength: 4 }), fc.boolean()).map(([s, items, piped]) => (piped || items.length > 0 ? pipe(s, ...items) : s));

type Wrapper = (schema: Schema, fallback?: unknown) => Schema;
const wrappers = [v.optional, v.nullable, v.nullish, v.exactOptional, v.undefinedable] as unknown as Wrapper[];

const { schema: schemaArb } = fc.letrec<{ schema: Schema; leaf: Schema; node: Schema }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, withPipe(tie('leaf')), withPipe(tie('node'))),
  leaf: fc.oneof(
    fc.constantFrom<Schema>(v.string(), v.number(), v.boolean(), v.null(), v.any(), v.unknown(), v.never()),
    constValue.map((x) => v.literal(x)),
    fc.uniqueArray(fc.oneof(text, fc.integer()), { minLength: 1, maxLength: 4 }).map((o) => v.picklist(o)),
  ),
  node: fc.oneof(
    tie('schema').map((s) => v.array(s)),
    fc.dictionary(key, tie('schema'), { maxKeys: 4 }).map((e) => v.object(e)),
    fc.dictionary(key, tie('schema'), { maxKeys: 3 }).map((e) => v.strictObject(e)),
    fc.dictionary(key, tie('schema'), { maxKeys: 3 }).map((e) => v.looseObject(e)),
    fc.tuple(fc.dictionary(key, tie('schema'), { maxKeys: 3 }), tie('schema')).map(([e, r]) => v.objectWithRest(e, r)),
    fc.array(tie('schema'), { maxLength: 3 }).map((i) => v.tuple(i)),
    fc.array(tie('schema'), { maxLength: 3 }).map((i) => v.strictTuple(i)),
    fc.tuple(fc.array(tie('schema'), { maxLength: 2 }), tie('schema')).map(([i, r]) => v.tupleWithRest(i, r)),
    tie('schema').map((s) => v.record(v.string(), s)),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((o) => v.union(o)),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((o) => v.intersect(o)),
    fc.array(tie('schema'), { maxLength: 3 }).map((o) => v.variant('k', o as never)),
    fc
      .tuple(fc.constantFrom(...wrappers), tie('schema'), fc.option(defaultValue, { nil: undefined }), fc.boolean())
      .map(([wrap, s, d, lazy]) => (d === undefined ? wrap(s) : wrap(s, lazy ? () => d : d))),
    // A second schema in the pipe: converted over the first (or skipped when unsupported), as the library does.
    fc.tuple(tie('schema'), fc.constantFrom<Schema>(v.number(), v.string(), v.date(), v.bigint(), v.array(v.date()))).map(([s, out]) => pipe(s, v.transform((x) => x), out)),
  ),
}));

describe('valibotToJsonSchema: random schemas', () => {
  it('matches the library on 400 random nested schemas with random pipes', () => {
    fc.assert(fc.property(schemaArb, expectSame), { numRuns: 400 });
  });
});
