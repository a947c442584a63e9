// jsonSchema()'s pattern guard: a schema's patterns run on the linear matcher wherever the validator can reach them,
// with the engine's answers; what the matcher cannot run and the engine could backtrack on for long is refused.
// The ReDoS inputs below block the engine for hours: without the guard, these tests hang until the run is stopped.
import * as cfworker from '@cfworker/json-schema';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor/executor.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { JsonSchema } from './input-schema.ts';
import { jsonSchema } from './json-schema.ts';
import { guardPatterns, MAX_VALIDATION_STEPS, PATTERN_FORMAT } from './json-schema-validator.ts';
import { MAX_PATTERN_WORK } from './linear-pattern.ts';

const EVIL = '^(a+)+$';
const ATTACK = `${'a'.repeat(5000)}!`;
const mismatch = (pattern: string) => `String does not match pattern "${pattern}".`;
const budgetIssue = (pattern: string, length: number, subject = 'a text') =>
  `Matching this value against the schema's patterns would take more than ${MAX_PATTERN_WORK} steps; it stopped at pattern ` +
  `"${pattern}", on ${subject} of ${length} characters. Send a shorter value.`;

async function validate(schema: JsonSchema, value: unknown, options: Parameters<typeof jsonSchema>[1] = {}): Promise<StandardSchemaV1.Result<unknown>> {
  return jsonSchema(schema, options)['~standard'].validate(value);
}

/** Whether the engine compiles `pattern` with the `u` flag (one it rejects throws at validation, as before the guard). */
function accepts(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

async function messages(schema: JsonSchema, value: unknown): Promise<string[]> {
  const result = await validate(schema, value);
  return (result.issues ?? []).map((issue) => issue.message);
}

describe('jsonSchema: patterns run on the linear matcher', () => {
  it('answers a ReDoS input at once, with an issue that names the pattern and the instance path', async () => {
    expect(await validate({ type: 'string', pattern: EVIL }, ATTACK)).toEqual({ issues: [{ message: mismatch(EVIL), path: [] }] });
    expect(await validate({ type: 'string', pattern: EVIL }, 'aaaa')).toEqual({ value: 'aaaa' });
    const nested = { type: 'object', properties: { list: { type: 'array', items: { type: 'string', pattern: EVIL } } } };
    expect(await validate(nested, { list: ['aa', ATTACK] })).toEqual({ issues: [{ message: mismatch(EVIL), path: ['list', 1] }] });
  });

  it('through the executor: the model reads which pattern its argument missed', async () => {
    const input = jsonSchema<{ name: string }>({ type: 'object', properties: { name: { type: 'string', pattern: EVIL } }, required: ['name'] });
    const tool = defineTool({ name: 'greet', description: 'Greets', input, execute: ({ name }) => `hi ${name}` });
    const executor = createExecutor({ registry: [tool] });
    const [bad, good] = await executor.executeAll([
      { id: 'a', name: 'greet', arguments: JSON.stringify({ name: ATTACK }) },
      { id: 'b', name: 'greet', arguments: '{"name":"aaa"}' },
    ]);
    expect(bad?.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input', issues: [{ path: 'name', message: mismatch(EVIL) }] } });
    expect(good?.content).toBe('hi aaa');
  });

  it('bounds the work of one validation: a text that would take too long fails the whole value, naming the pattern and the length', async () => {
    // 14 bytes of schema that keep 5,000 states alive per character: linear, and still seconds for 10,000 characters.
    const wide = '[a-z]{0,4998}!';
    const long = 'a'.repeat(10_000);
    const issue = budgetIssue(wide, 10_000);
    expect(await validate({ type: 'string', pattern: wide }, long)).toEqual({ issues: [{ message: issue, path: [] }] });
    // Fails closed: a `not` around the pattern does not read "no match" as an answer.
    expect(await validate({ not: { type: 'string', pattern: wide } }, long)).toEqual({ issues: [{ message: issue, path: [] }] });
    expect(await validate({ type: 'string', pattern: wide }, `${'a'.repeat(300)}!`)).toEqual({ value: `${'a'.repeat(300)}!` });
    // Realistic patterns on long arguments stay far below the bound.
    expect(await validate({ type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$' }, 'QUJD'.repeat(25_000))).toEqual({ value: 'QUJD'.repeat(25_000) });
  });

  it('the budget is the whole value’s: many texts that each fit it fail together, where each used to take it all again', async () => {
    // Each text of 790 characters takes about 4,000,000 state visits less a little: forty took 1.6 s with a budget each.
    const wide = '[a-z]{0,4998}!';
    const schema = { type: 'array', items: { type: 'string', pattern: wide } };
    const texts = Array.from({ length: 40 }, () => 'a'.repeat(790));
    expect(await validate(schema, texts)).toEqual({ issues: [{ message: budgetIssue(wide, 790), path: [] }] });
    expect(await messages(schema, texts.slice(0, 1))).toEqual([mismatch(wide)]);
    // The next validation has a budget of its own.
    expect(await validate(schema, ['ab!', 'c!'])).toEqual({ value: ['ab!', 'c!'] });
  });

  it('leaves the schema the model sees as it was', () => {
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{2}$', format: 'email' } } };
    expect(jsonSchema(schema).jsonSchema).toEqual(schema);
    expect(schema.properties.code).toEqual({ type: 'string', pattern: '^[A-Z]{2}$', format: 'email' });
  });

  it('keeps a node’s own format and the JSON pointers into its allOf: the pattern is an allOf entry appended', async () => {
    const schema = { type: 'string', format: 'email', allOf: [{ minLength: 6 }], pattern: '^[a-z@.]+$' };
    const guarded = guardPatterns(schema, cfworker).schema;
    expect(guarded).toEqual({ type: 'string', format: 'email', allOf: [{ minLength: 6 }, { format: `${PATTERN_FORMAT}^[a-z@.]+$` }] });
    expect(await messages(schema, 'AB@c.de')).toEqual([mismatch('^[a-z@.]+$')]);
    expect(await messages(schema, 'a@b.c')).toEqual(['String is too short (5 < 6).']);
    expect(await messages(schema, 'ab.cde')).toEqual(['String does not match format "email".']);
    expect(await validate(schema, 'ab@c.de')).toEqual({ value: 'ab@c.de' });
    // The allOf it appends to is the guarded one: a pattern inside it runs on the matcher too.
    const inner = { format: 'email', pattern: '@', allOf: [{ pattern: EVIL }] };
    expect(guardPatterns(inner, cfworker).schema).toEqual({ format: 'email', allOf: [{ format: PATTERN_FORMAT + EVIL }, { format: `${PATTERN_FORMAT}@` }] });
    expect(await messages(inner, ATTACK)).toEqual(expect.arrayContaining([mismatch(EVIL), mismatch('@')]));
  });

  it('selects anyOf and oneOf branches as the engine would', async () => {
    const anyOf = { anyOf: [{ type: 'string', pattern: '^\\d+$' }, { type: 'string', pattern: '^[a-z]+$' }, { type: 'number' }] };
    expect(await validate(anyOf, '123')).toEqual({ value: '123' });
    expect(await validate(anyOf, 'abc')).toEqual({ value: 'abc' });
    expect(await validate(anyOf, 7)).toEqual({ value: 7 });
    expect(await messages(anyOf, '12a')).toEqual(expect.arrayContaining([mismatch('^\\d+$'), mismatch('^[a-z]+$')]));
    const oneOf = { oneOf: [{ pattern: '^a' }, { pattern: 'b$' }] };
    expect(await validate(oneOf, 'ax')).toEqual({ value: 'ax' });
    expect(await validate(oneOf, 'xb')).toEqual({ value: 'xb' });
    expect(await messages(oneOf, 'ab')).toEqual(['Instance does not match exactly one subschema (2 matches).']);
    const not = { type: 'string', not: { pattern: EVIL } };
    expect(await validate(not, ATTACK)).toEqual({ value: ATTACK });
    expect(await messages(not, 'aaa')).toEqual(['Instance matched "not" schema.']);
  });

  // Each schema reaches the pattern through one keyword; the value puts the attack right there.
  const POSITIONS: readonly (readonly [string, JsonSchema, unknown, string?])[] = [
    ['properties', { properties: { p: { pattern: EVIL } } }, { p: ATTACK }],
    ['patternProperties values', { patternProperties: { '^p$': { pattern: EVIL } } }, { p: ATTACK }],
    ['additionalProperties', { additionalProperties: { pattern: EVIL } }, { p: ATTACK }],
    ['unevaluatedProperties', { unevaluatedProperties: { pattern: EVIL } }, { p: ATTACK }],
    ['propertyNames', { propertyNames: { pattern: EVIL } }, { [ATTACK]: 1 }],
    ['items', { items: { pattern: EVIL } }, [ATTACK]],
    ['items (array form)', { items: [{ pattern: EVIL }] }, [ATTACK]],
    ['prefixItems', { prefixItems: [{ pattern: EVIL }] }, [ATTACK]],
    ['additionalItems', { items: [{}], additionalItems: { pattern: EVIL } }, [1, ATTACK]],
    ['unevaluatedItems', { unevaluatedItems: { pattern: EVIL } }, [ATTACK]],
    ['contains', { contains: { pattern: EVIL } }, [ATTACK], 'Array does not contain item matching schema.'],
    ['allOf', { allOf: [{ pattern: EVIL }] }, ATTACK],
    ['anyOf', { anyOf: [{ pattern: EVIL }] }, ATTACK],
    ['oneOf', { oneOf: [{ pattern: EVIL }] }, ATTACK],
    ['if', { if: { pattern: EVIL }, else: false }, ATTACK, 'False boolean schema.'],
    ['then', JSON.parse(`{"if":true,"then":{"pattern":${JSON.stringify(EVIL)}}}`), ATTACK], // a `then` key in a literal would read as a promise
    ['else', { if: false, else: { pattern: EVIL } }, ATTACK],
    ['dependentSchemas', { dependentSchemas: { p: { properties: { p: { pattern: EVIL } } } } }, { p: ATTACK }],
    ['dependencies (schema form)', { dependencies: { p: { properties: { p: { pattern: EVIL } } } } }, { p: ATTACK }],
    ['$defs through $ref', { $defs: { s: { pattern: EVIL } }, properties: { p: { $ref: '#/$defs/s' } } }, { p: ATTACK }],
    ['definitions through $ref', { definitions: { s: { pattern: EVIL } }, properties: { p: { $ref: '#/definitions/s' } } }, { p: ATTACK }],
    ['an unknown keyword through $ref', { 'x-shared': { pattern: EVIL }, properties: { p: { $ref: '#/x-shared' } } }, { p: ATTACK }],
    ['a map given as an array', { properties: [{ pattern: EVIL }] }, { 0: ATTACK }],
  ];

  for (const [where, schema, value, message = mismatch(EVIL)] of POSITIONS) {
    it(`guards a pattern in ${where}`, async () => {
      const result = await validate(schema, value, { draft: '2020-12' });
      expect(result.issues?.map((issue) => issue.message)).toContain(message);
      expect(JSON.stringify(guardPatterns(schema, cfworker).schema)).not.toContain('"pattern"');
    });
  }

  it('does not touch data: const, enum, default and examples keep their `pattern` keys, and unchanged parts are shared', () => {
    const data = { pattern: EVIL };
    const schema = { const: data, enum: [data], default: data, examples: [data], properties: { const: { pattern: 'x' }, kept: { type: 'string' } } };
    const guarded = guardPatterns(schema, cfworker).schema as typeof schema;
    expect(guarded.const).toBe(data);
    expect(guarded.enum).toBe(schema.enum);
    expect(guarded.default).toBe(data);
    expect(guarded.examples).toBe(schema.examples);
    expect(guarded.properties.const).toEqual({ format: `${PATTERN_FORMAT}x` });
    expect(guarded.properties.kept).toBe(schema.properties.kept);
    expect(guardPatterns({ type: 'string' }, cfworker).schema).toEqual({ type: 'string' });
  });

  it('reads a pattern as the engine does: a property named __proto__ and a pattern that is not a string', async () => {
    const schema = JSON.parse(`{"properties":{"__proto__":{"type":"string","pattern":${JSON.stringify(EVIL)}}}}`) as JsonSchema;
    expect(await validate(schema, JSON.parse(`{"__proto__":"${ATTACK}"}`))).toMatchObject({ issues: [{ message: mismatch(EVIL), path: ['__proto__'] }] });
    expect(await messages({ pattern: [EVIL] }, ATTACK)).toEqual([mismatch(EVIL)]);
    expect(await validate({ pattern: 12 }, 'x12')).toEqual({ value: 'x12' });
  });

  it('a pattern the engine rejects fails as it did before the guard', async () => {
    const before = await validate({ pattern: '(' }, 'x', { trustPatterns: true }).catch((error: unknown) => error);
    const now = await validate({ pattern: '(' }, 'x').catch((error: unknown) => error);
    expect(now).toBeInstanceOf(SyntaxError);
    expect(String(now)).toBe(String(before));
  });
});

describe('jsonSchema: patternProperties keys run on the linear matcher, not on property names the engine backtracks on', () => {
  const hit = (pattern: string): JsonSchema => ({ type: 'object', patternProperties: { [pattern]: { const: 'hit' } }, additionalProperties: { const: 'miss' } });

  it('a key the engine would backtrack on for hours answers at once, exponential or polynomial', async () => {
    // Without the guard each of these blocks the thread: `^(x+)+$` exponentially, `a*a*a*a*a*a*b` as n⁶.
    const nested = { type: 'object', patternProperties: { '^(x+)+$': { type: 'string' } } };
    const longX = { [`${'x'.repeat(5000)}!`]: 1 };
    expect(await validate(nested, longX)).toEqual({ value: longX });
    expect(await validate(nested, { xx: 1 })).toEqual({
      issues: [
        { message: 'Property "xx" matches pattern "^(x+)+$" but does not match associated schema.', path: [] },
        { message: 'Instance type "number" is invalid. Expected "string".', path: ['xx'] },
      ],
    });
    const longA = { [`${'a'.repeat(3000)}c`]: 'miss' };
    expect(await validate(hit('a*a*a*a*a*a*b'), longA)).toEqual({ value: longA });
    expect(await messages(hit('a*a*a*a*a*a*b'), { [`${'a'.repeat(3000)}b`]: 'miss' })).toContain(
      `Property "${'a'.repeat(3000)}b" matches pattern "a*a*a*a*a*a*b" but does not match associated schema.`,
    );
  });

  // Names whose letters need escaping, astral and lone surrogates, names that are pattern syntax, prototype names.
  const NAMES = ['', 'a', 'A', 'ab', 'a.b', 'x-1', 'y-2', '😀', 'a\nb', ' ', 'é', '__proto__', 'constructor', '^$', '(?:', '\\', '|', 'b'];
  const PATTERNS = ['', '^a', 'a$', '^.$', '^[^a]', '\\.', '^\\p{L}+$', '^(?:x-|y-)\\d$', '[\\uD800-\\uDFFF]', '^$', 'b|^$', '^__', '\\|', '\\\\'];

  it('answers as the engine does, for each name and key', async () => {
    for (const pattern of PATTERNS) {
      const engine = new RegExp(pattern, 'u');
      for (const name of NAMES) {
        const value = JSON.parse(`{${JSON.stringify(name)}:"hit"}`) as Record<string, string>; // a __proto__ name stays a name
        const expected = engine.test(name);
        const result = await validate(hit(pattern), value);
        expect([pattern, name, result.issues === undefined]).toEqual([pattern, name, expected]);
      }
      // All names in one value, nested in an array of objects, each with the engine's answer.
      const all = JSON.parse(`{${NAMES.map((name) => `${JSON.stringify(name)}:${JSON.stringify(engine.test(name) ? 'hit' : 'miss')}`).join(',')}}`) as object;
      const schema = { type: 'array', items: hit(pattern) };
      expect([pattern, await validate(schema, [all, {}])]).toEqual([pattern, { value: [all, {}] }]);
    }
  });

  it('a property name with half of a surrogate pair gets an issue that says so, with or without the guard', async () => {
    // The validator writes property names into JSON pointers with encodeURIComponent, which throws on one: the model
    // read "URI malformed".
    const message = expect.stringMatching(/^A property name holds half of a UTF-16 surrogate pair .* Send property names made of whole characters\.$/);
    for (const trustPatterns of [false, true]) {
      for (const schema of [hit('^a'), { additionalProperties: { type: 'string' } }]) {
        expect(await validate(schema, JSON.parse('{"\\ud800":"hit"}'), { trustPatterns })).toEqual({ issues: [{ message, path: [] }] });
      }
    }
    expect(await validate(hit('^a'), { '\uD83D\uDE00': 'miss' })).toEqual({ value: { '😀': 'miss' } });
  });

  it('keeps two keys that match the same names apart, and reaches maps through $ref and nested objects', async () => {
    const twins = { patternProperties: { '^a': { type: 'string' }, 'a$': { type: 'number' } } };
    expect(await messages(twins, { a: 1 })).toContain('Property "a" matches pattern "^a" but does not match associated schema.');
    expect(await messages(twins, { a: 's' })).toContain('Property "a" matches pattern "a$" but does not match associated schema.');
    expect(await validate(twins, { ab: 's', ba: 2, c: null })).toEqual({ value: { ab: 's', ba: 2, c: null } });
    const referred = { $defs: { tags: hit('^t-') }, properties: { outer: { properties: { inner: { $ref: '#/$defs/tags' } } } } };
    expect(await validate(referred, { outer: { inner: { 't-1': 'hit', u: 'miss' } } })).toMatchObject({ value: {} });
    expect(await messages(referred, { outer: { inner: { 't-1': 'miss' } } })).toContain(
      'Property "t-1" matches pattern "^t-" but does not match associated schema.',
    );
    // additionalProperties and unevaluatedProperties see the same names as evaluated.
    const closed = { patternProperties: { '^x-': {} }, unevaluatedProperties: false };
    expect(await validate(closed, { 'x-a': 1 }, { draft: '2020-12' })).toEqual({ value: { 'x-a': 1 } });
    expect(await messages(closed, { 'x-a': 1, y: 2 })).not.toEqual([]);
  });

  it('a map of many names is cheap when a key matches (nearly) all of them; matching lists too long to write fail the value', async () => {
    const names = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(39, '0')}`);
    const map = Object.fromEntries(names('a', 4000).map((name) => [name, 1]));
    expect(await validate({ patternProperties: { '^[a-z0-9]+$': { type: 'number' } } }, map)).toEqual({ value: map });
    const half = Object.fromEntries([...names('a', 2000), ...names('b', 2000)].map((name) => [name, 1]));
    expect(await validate({ patternProperties: { '^a': { type: 'number' } } }, half)).toEqual({
      issues: [{ message: budgetIssue('^a', 2000 * 41, 'property names'), path: [] }],
    });
  });
});

describe('jsonSchema: uniqueItems on a long array', () => {
  it('a value whose arrays would take too long to compare pair by pair fails at once, naming the length', async () => {
    // cfworker compares every pair of items: 5,000 distinct objects took 2.1 s, 20,000 took 33 s.
    const schema = { type: 'object', properties: { rows: { type: 'array', uniqueItems: true } } };
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i }));
    const issue = 'Checking that the items of an array are all different would take too long (5000 items). Send fewer items.';
    expect(await validate(schema, { rows })).toEqual({ issues: [{ message: issue, path: [] }] });
    // Within the bound it checks as before: 1,500 objects, 5,000 numbers, and a duplicate found.
    expect(await validate(schema, { rows: rows.slice(0, 1500) })).toEqual({ value: { rows: rows.slice(0, 1500) } });
    const numbers = Array.from({ length: 5000 }, (_, i) => i);
    expect(await validate(schema, { rows: numbers })).toEqual({ value: { rows: numbers } });
    expect(await messages(schema, { rows: [{ id: 1 }, { id: 2 }, { id: 1 }] })).toEqual(['Duplicate items at indexes 0 and 2.']);
    // A schema without uniqueItems is not bounded: long arrays are linear there.
    expect(await validate({ type: 'array' }, numbers.concat(numbers))).toEqual({ value: numbers.concat(numbers) });
    expect(await validate({ type: 'array', uniqueItems: false, items: {} }, rows)).toEqual({ value: rows });
  });

  it('the bound holds with trustPatterns too: it is about the value, not the patterns', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i }));
    expect((await validate({ uniqueItems: true }, rows, { trustPatterns: true })).issues).toHaveLength(1);
  });
});

/** `{ a: { a: ... leaf } }`, `depth` levels deep. */
function nested(depth: number, leaf: unknown = {}): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value, s: 'x' };
  return value;
}

describe('jsonSchema: a bound on the validator\'s steps', () => {
  // An MCP server's schema whose anyOf holds two $refs back to the root: cfworker checks both branches at every level
  // (it evaluates all of anyOf's branches), so each level costs twice the one below. 20 levels took seconds.
  const EXPONENTIAL = { properties: { a: { anyOf: [{ $ref: '#' }, { $ref: '#' }] } } };
  const tooMuch = (await_: StandardSchemaV1.Result<unknown>) => await_.issues?.map((issue) => issue.message);

  it('a value that would take 2^n steps fails at once with an issue, after at most MAX_VALIDATION_STEPS steps', async () => {
    // Each step at a level of the value checks its `s` against a format that counts: the steps taken, seen from outside.
    let checked = 0;
    cfworker.format['edgetool-test:count'] = () => {
      checked++;
      return true;
    };
    const schema = { properties: { ...EXPONENTIAL.properties, s: { format: 'edgetool-test:count' } } };
    const result = await validate(schema, nested(40));
    expect(tooMuch(result)).toEqual([expect.stringContaining(`would take over ${MAX_VALIDATION_STEPS} steps`)]);
    expect(result.issues?.[0]?.path).toEqual([]);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(MAX_VALIDATION_STEPS);
    // The same schema on a shallow value checks as before, valid or not; and with trustPatterns the bound holds too.
    expect(await validate(EXPONENTIAL, nested(4))).toEqual({ value: nested(4) });
    expect(tooMuch(await validate({ properties: { a: { anyOf: [{ $ref: '#' }, { $ref: '#' }] }, n: { type: 'number' } } }, { a: { n: 'x' } }))).toContain(
      'Instance type "string" is invalid. Expected "number".',
    );
    expect(tooMuch(await validate(EXPONENTIAL, nested(40), { trustPatterns: true }))).toEqual([expect.stringContaining('steps')]);
    // A chain of $defs that doubles at each link blows up on a plain string too, with no nesting in the value.
    const $defs = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`d${i}`, { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] }]));
    expect(tooMuch(await validate({ $ref: '#/$defs/d0', $defs: { ...$defs, d40: { type: 'string' } } }, 'x'))).toEqual([expect.stringContaining('steps')]);
  });

  it('a value nested past what the validator\'s stack holds fails with an issue, not a thrown RangeError', async () => {
    const result = await validate({ properties: { a: { $ref: '#' } } }, nested(20_000));
    expect(tooMuch(result)).toEqual([expect.stringContaining('nested too deeply')]);
  });

  it('the bound leaves realistic values alone: 5,000 objects of eight properties', async () => {
    const properties = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const schema = { type: 'object', properties: { rows: { type: 'array', items: { $ref: '#/$defs/row' } } }, $defs: { row: { type: 'object', properties } } };
    const rows = Array.from({ length: 5000 }, (_, i) => Object.fromEntries(Object.keys(properties).map((name) => [name, `${name}${i}`])));
    expect(await validate(schema, { rows })).toEqual({ value: { rows } });
  });

  it('an MCP-style tool with that schema answers invalid-input through the executor', async () => {
    const tool = defineTool({ name: 'nest', description: 'nests', input: jsonSchema(EXPONENTIAL), execute: () => 'ran' });
    const executor = createExecutor({ registry: [tool] });
    const result = await executor.execute({ id: 'c1', name: 'nest', arguments: JSON.stringify(nested(30)) });
    expect(result.outcome).toMatchObject({ type: 'error', error: { code: 'invalid-input' } });
    expect(result.content).toContain('steps');
  });
});

describe('jsonSchema: patterns the matcher cannot run', () => {
  const refused = (keyword: string, pattern: string, reason: string) =>
    `This tool cannot be used: its schema's ${keyword} "${pattern}" is not run, because ${reason} (matching it could take exponential time); calling again will not help.`;
  const NESTED = 'a quantifier applies to a group that holds a quantifier or an alternation';

  it('refuses a patternProperties key the matcher cannot run and the engine could backtrack on: every validation fails and names it', async () => {
    const schema = jsonSchema({ type: 'object', patternProperties: { '^(x+)\\1$': { type: 'string' } } });
    const issue = { message: refused('patternProperties key', '^(x+)\\1$', 'it has a backreference'), path: [] };
    expect(await schema['~standard'].validate({ [`${'x'.repeat(5000)}!`]: 'v' })).toEqual({ issues: [issue] });
    expect(await schema['~standard'].validate({})).toEqual({ issues: [issue] });
    // A key with lookaround but no such risk runs on the engine, as before.
    const safe = await validate({ patternProperties: { '^x-(?=[a-z])': { type: 'string' } } }, { 'x-ab': 1, y: 2 });
    expect(safe.issues?.map((issue) => issue.path)).toEqual([[], ['x-ab']]);
  });

  it('refuses lookaround over nested quantifiers and backreferences; runs safe ones on the engine', async () => {
    expect(await messages({ pattern: '^(?=(a+)+$)' }, 'aaa')).toEqual([refused('pattern', '^(?=(a+)+$)', NESTED)]);
    expect(await messages({ pattern: '^(a)\\1$' }, 'aa')).toEqual([refused('pattern', '^(a)\\1$', 'it has a backreference')]);
    expect(await validate({ pattern: '(?<=x)y' }, 'xy')).toEqual({ value: 'xy' });
    expect(await messages({ pattern: '(?<=x)y' }, 'zy')).toEqual(['String does not match pattern.']);
    expect(await validate({ pattern: '^a{1,20000}$' }, 'aaa')).toEqual({ value: 'aaa' });
    expect(await messages({ pattern: '^(?:a{1,200}){1,200}$' }, 'aaa')).toEqual([refused('pattern', '^(?:a{1,200}){1,200}$', NESTED)]);
  });

  it('refuses a pattern nested deeper than the stack allows with an issue, instead of throwing at every validation', async () => {
    // Between the depth the parser manages and the depth the engine still accepts, building the program or looking for
    // nested quantifiers ran out of stack: each validation threw a RangeError. Where that band lies depends on the runtime.
    const cannot = /^This tool cannot be used: its schema's (pattern|patternProperties key) "/;
    for (let depth = 250; depth <= 12_000; depth += 250) {
      const group = `${'('.repeat(depth)}a${')'.repeat(depth)}`;
      const starred = `${'(?:'.repeat(depth)}a${')*'.repeat(depth)}`;
      if (accepts(group)) {
        const result = await validate({ pattern: group }, 'a');
        if (result.issues !== undefined) expect([depth, result.issues[0]?.message]).toEqual([depth, expect.stringMatching(cannot)]);
      }
      if (accepts(starred)) {
        // Refused, or run on the matcher (which compiles it up to the depth the stack allows).
        const result = await validate({ patternProperties: { [starred]: {} } }, { a: 1 });
        if (result.issues !== undefined) expect([depth, result.issues[0]?.message]).toEqual([depth, expect.stringMatching(cannot)]);
      }
    }
  });

  it('other tools are unaffected by one tool’s refused schema', async () => {
    const refusedTool = defineTool({ name: 'bad', description: 'x', input: jsonSchema({ patternProperties: { '(a)\\1*': {} } }), execute: () => 'ran' });
    const fine = defineTool({ name: 'fine', description: 'x', input: jsonSchema({ properties: { q: { pattern: '^q' } } }), execute: () => 'ran' });
    const executor = createExecutor({ registry: [refusedTool, fine] });
    const [bad, good] = await executor.executeAll([
      { id: 'a', name: 'bad', arguments: '{}' },
      { id: 'b', name: 'fine', arguments: '{"q":"qq"}' },
    ]);
    expect(bad?.outcome).toMatchObject({
      type: 'error',
      error: { code: 'invalid-input', issues: [{ path: '(root)', message: refused('patternProperties key', '(a)\\1*', 'it has a backreference') }] },
    });
    expect(good?.content).toBe('ran');
  });

  it('trustPatterns: true runs every pattern on the engine as written, and refuses nothing', async () => {
    expect(await validate({ patternProperties: { '^(x+)+$': { type: 'string' } } }, { xx: 'v' }, { trustPatterns: true })).toEqual({ value: { xx: 'v' } });
    expect(await validate({ pattern: '^(a)\\1$' }, 'aa', { trustPatterns: true })).toEqual({ value: 'aa' });
    const trusted = await validate({ pattern: '^[a-z]+$' }, 'A', { trustPatterns: true });
    expect(trusted.issues?.map((issue) => issue.message)).toEqual(['String does not match pattern.']);
  });
});
