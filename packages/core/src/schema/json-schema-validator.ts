// The half of `jsonSchema()` that loads on first use, beside `@cfworker/json-schema` (which it is handed): the
// validation function, and the guard that keeps a schema's `pattern`s and `patternProperties` keys off the engine's
// backtracking matcher (see "Patterns in raw JSON Schemas" in docs/architecture.md).
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from './input-schema.ts';
import { compileLinearPattern, MAX_PATTERN_WORK, type PatternBudget, PatternWorkError, patternRisk } from './linear-pattern.ts';

/** The `format` a guarded `pattern` becomes: this prefix, then the pattern. */
export const PATTERN_FORMAT = 'edgetool:pattern:';

/** What the guard uses of `@cfworker/json-schema` (loaded on first use by `jsonSchema()`). */
export type Cfworker = Pick<typeof import('@cfworker/json-schema'), 'Validator' | 'format' | 'ignoredKeyword'>;

/** A pattern the guard will not let the engine run, where it was found and why. */
export interface RefusedPattern {
  readonly pattern: string;
  readonly keyword: 'pattern' | 'patternProperties';
  readonly reason: string;
}

// Parent keywords repeat what their children already say; keep the precise leaf errors.
const WRAPPER_KEYWORDS = new Set(['properties', 'items', 'allOf', '$ref', 'additionalProperties', 'prefixItems', 'contains']);

function pointerToPath(pointer: string): readonly PropertyKey[] {
  const body = pointer.replace(/^#\/?/, '');
  if (body === '') return [];
  return body.split('/').map((raw) => {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(key) ? Number(key) : key;
  });
}

// Compiled patterns, the most recently used last: a schema of a few bytes (`a{9999}`) compiles to a large program,
// so only a few are kept; a format whose program was dropped compiles it again.
const compiled = new Map<string, ((text: string, budget?: PatternBudget) => boolean) | null>();

function linear(source: string): ((text: string, budget?: PatternBudget) => boolean) | null {
  let test = compiled.get(source);
  if (test === undefined) test = compileLinearPattern(source) ?? null;
  compiled.delete(source);
  compiled.set(source, test);
  if (compiled.size > 64) compiled.delete(compiled.keys().next().value as string);
  return test;
}

// The budget of the validation that is running (validation is synchronous): every pattern it matches, in a format or
// against a property name, spends from it. A format called outside one of our validations gets a budget of its own.
let running: PatternBudget | undefined;

/** Defines a data property (a key such as `__proto__` stays a key). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A copy of `schema` in which each `pattern` the linear matcher compiles is a `format` that runs it (registered in
 * `@cfworker/json-schema`'s format table), and the patterns left to the engine that could backtrack for long.
 * It visits every place the validator can reach a subschema (the keywords its `dereference` walks, so also what a
 * `$ref` can point to), but not `const`, `enum`, `default` or `examples`, which are data. Parts without a pattern are
 * shared with `schema`, not copied.
 */
export function guardPatterns(schema: JsonSchema, cfworker: Cfworker): GuardedSchema {
  const refused: RefusedPattern[] = [];
  const keyed: KeyedMap[] = [];
  const copies = new Map<object, unknown>();
  const refuse = (pattern: string, keyword: RefusedPattern['keyword']): void => {
    const reason = patternRisk(pattern);
    if (reason !== undefined) refused.push({ pattern, keyword, reason });
  };
  /** An array of subschemas (allOf, items, ...) or a map of them (properties, $defs, ...), guarded. */
  const children = (value: object): object => {
    let out: Record<string, unknown> | undefined;
    for (const key in value) {
      const child = (value as Record<string, unknown>)[key];
      const guarded = visit(child);
      if (guarded === child) continue;
      out ??= (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
      put(out, key, guarded);
    }
    return out ?? value;
  };
  /**
   * A `patternProperties` map whose keys the matcher can run becomes a copy of our own, whose keys each validation
   * renames (see `renameKeys`); a key it cannot run stays for the engine, and is refused if that could take long.
   */
  const keyedMap = (map: Record<string, unknown>): Record<string, unknown> => {
    const entries = Object.keys(map).map((name) => [name, map[name]] as const);
    let runs = false; // whether the matcher runs any of the keys
    for (const [name] of entries) {
      if (linear(name) === null) refuse(name, 'patternProperties');
      else runs = true;
    }
    if (!runs) return map;
    const copy: Record<string, unknown> = {};
    for (const [name, subschema] of entries) put(copy, name, subschema);
    keyed.push({ map: copy, entries });
    return copy;
  };
  const visit = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    if (copies.has(node)) return copies.get(node);
    copies.set(node, node); // a cycle (the validator itself cannot follow one) ends here
    if (Array.isArray(node)) {
      const result = children(node);
      copies.set(node, result);
      return result;
    }
    const source = node as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    const own = (): Record<string, unknown> => (copy ??= keepStepCounter(source, { ...source }));
    for (const key in source) {
      const value = source[key];
      if (cfworker.ignoredKeyword[key] || (key === 'examples' && Array.isArray(value)) || typeof value !== 'object' || value === null) continue;
      // Maps (properties, $defs, ...) and arrays hold subschemas; any other object is a subschema itself.
      let guarded = Object.hasOwn(MAPS, key) ? children(value) : visit(value);
      if (key === 'patternProperties' && !Array.isArray(guarded)) guarded = keyedMap(guarded as Record<string, unknown>);
      if (guarded !== value) put(own(), key, guarded);
    }
    if (source.pattern !== undefined) {
      let pattern: string | undefined;
      try {
        pattern = String(source.pattern); // what `new RegExp(pattern)` reads; one that cannot be read throws there, as before
      } catch {}
      const allOf = (copy ?? source).allOf; // guarded already, if it held patterns
      if (pattern !== undefined && linear(pattern) !== null && (source.format === undefined || allOf === undefined || Array.isArray(allOf))) {
        const name = PATTERN_FORMAT + pattern;
        const known = pattern;
        cfworker.format[name] ??= (text) => (linear(known) ?? (() => false))(text, running);
        const out = own();
        delete out.pattern;
        // A node's own format stays where it is, and so do the JSON pointers into its allOf.
        if (source.format === undefined) put(out, 'format', name);
        else put(out, 'allOf', [...((allOf as unknown[] | undefined) ?? []), { format: name }]);
      } else if (pattern !== undefined) refuse(pattern, 'pattern');
    }
    const result = copy ?? node;
    copies.set(node, result);
    return result;
  };
  return { schema: visit(schema) as JsonSchema, refused, keyed };
}

/** What {@link guardPatterns} makes of a schema. */
export interface GuardedSchema {
  /** The schema to validate by. */
  readonly schema: JsonSchema;
  /** The patterns left to the engine that could backtrack for long. */
  readonly refused: readonly RefusedPattern[];
  /** The `patternProperties` maps (in `schema`) whose keys each validation renames. */
  readonly keyed: readonly KeyedMap[];
}

/** A `patternProperties` map of the guarded schema, and its keys and subschemas as the schema wrote them. */
export interface KeyedMap {
  readonly map: Record<string, unknown>;
  readonly entries: readonly (readonly [pattern: string, subschema: unknown])[];
}

/**
 * The most steps (calls of cfworker's `validate` on an object subschema) one validation may take: about 0.1–0.3 s here
 * (cfworker takes 1–3 µs a step; 5,000 objects of eight properties take some 50,000). A schema whose `anyOf` (or `allOf`, `oneOf`) holds two `$ref`s back to itself makes
 * each level of the value cost twice the one below (2^n steps: 20 levels took seconds); a value past it fails with an issue.
 */
export const MAX_VALIDATION_STEPS = 100_000;

// The steps the running validation may still take (validation is synchronous); none is counted outside one.
let stepsLeft = Number.POSITIVE_INFINITY;

/** Thrown by a subschema's step counter when a validation has taken {@link MAX_VALIDATION_STEPS} steps. */
class StepBudgetError extends Error {}

// cfworker's `validate` destructures this keyword from every object subschema it is called on, and nothing else reads
// it (its `dereference` walks enumerable keys only): a getter there counts the steps.
const STEP_KEY = 'maxContains';

/** Gives the copy `copy` of a subschema the step counter of `source`, if it has one (a spread drops it). */
function keepStepCounter(source: object, copy: Record<string, unknown>): Record<string, unknown> {
  const counter = Object.getOwnPropertyDescriptor(source, STEP_KEY);
  if (counter?.get !== undefined) Object.defineProperty(copy, STEP_KEY, counter);
  return copy;
}

/**
 * A copy of `schema` in which every object subschema counts the validator's steps (see {@link MAX_VALIDATION_STEPS}),
 * so that the user's schema (which the model reads) is left as it was. Data (`const`, `enum`, ...) is shared, not copied.
 */
export function countSteps(schema: JsonSchema, cfworker: Cfworker): JsonSchema {
  const copies = new Map<object, unknown>();
  const map = (value: object): object => {
    const out = (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
    for (const key in value) put(out, key, visit((value as Record<string, unknown>)[key]));
    return out;
  };
  const visit = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return map(node); // a list of subschemas (allOf, items, ...)
    if (copies.has(node)) return copies.get(node);
    const source = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    copies.set(node, out);
    for (const key in source) {
      const value = source[key];
      const data = cfworker.ignoredKeyword[key] || key === 'examples' || typeof value !== 'object' || value === null;
      put(out, key, data ? value : Object.hasOwn(MAPS, key) ? map(value) : visit(value));
    }
    const limit = out[STEP_KEY];
    Object.defineProperty(out, STEP_KEY, {
      get: () => {
        if (--stepsLeft < 0) throw new StepBudgetError();
        return limit;
      },
      enumerable: false,
      configurable: true,
    });
    return out;
  };
  return visit(schema) as JsonSchema;
}

const TOO_MUCH_WORK =
  `Checking this value against the tool's schema would take over ${MAX_VALIDATION_STEPS} steps (its subschemas refer to each ` +
  'other). Send a smaller, less nested value.';

const TOO_DEEP = "This value is nested too deeply to check against the tool's schema. Send a less nested value.";

/** Writes a text as a pattern that matches exactly it: letters, digits and `_` as they are, the rest as `\u{…}`. */
function literal(text: string): string {
  let out = '';
  for (const char of text) out += /^\w$/.test(char) ? char : `\\u{${(char.codePointAt(0) as number).toString(16)}}`;
  return out;
}

/** What the validator will meet in a value: its property names, how many there are in all, and its arrays' pairs. */
interface ValueShape {
  readonly names: ReadonlySet<string>;
  /** Property names over all objects (a name in two objects counts twice): the tests of each key, at least. */
  readonly tests: number;
  /** The pairs `uniqueItems` compares in each array, in compares of two objects (two primitives count 1/12). */
  readonly pairs: number;
  /** The length of the array with the most pairs. */
  readonly longest: number;
}

function scanValue(value: unknown): ValueShape {
  const names = new Set<string>();
  let [tests, pairs, longest, most] = [0, 0, 0, 0];
  const stack = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      let objects = false;
      for (const item of node) {
        stack.push(item);
        objects ||= typeof item === 'object' && item !== null;
      }
      // cfworker compares every ordered pair; two objects cost about 85 ns (deepCompareStrict), two primitives 2–7 ns.
      const cost = (node.length * node.length) / (objects ? 1 : 12);
      pairs += cost;
      if (cost > most) [most, longest] = [cost, node.length];
    } else {
      for (const name in node) {
        names.add(name);
        tests++;
        stack.push((node as Record<string, unknown>)[name]);
      }
    }
  }
  return { names, tests, pairs, longest };
}

/**
 * The most pairs of items `uniqueItems` may compare in one value, in compares of two objects: about 0.2 s here (an
 * array of 1,580 objects, or of 5,470 numbers or strings). cfworker compares every pair, so 5,000 objects took 2.1 s
 * and 20,000 took 33 s; a value past it fails with an issue.
 */
export const MAX_UNIQUE_PAIRS = 2_500_000;

/** Whether a schema has a truthy `uniqueItems` anywhere (data included: it errs towards checking). */
function hasUniqueItems(schema: unknown, seen = new Set<object>()): boolean {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  if (!Array.isArray(schema) && (schema as Record<string, unknown>).uniqueItems) return true;
  for (const key in schema) if (hasUniqueItems((schema as Record<string, unknown>)[key], seen)) return true;
  return false;
}

/**
 * Renames the keys of the `patternProperties` maps for one validation. `@cfworker/json-schema` matches each key with
 * `new RegExp(key, 'u')`, on property names the model writes, and the engine may backtrack on those for long (`^(a+)+$`,
 * or polynomially: `a*a*a*b`). The matcher finds which of the value's property names each key matches, and the key
 * becomes a pattern that matches exactly those names among them (an alternation of literals), which the engine answers
 * without backtracking. The value's names are the only ones the validator tests, so its answers are the key's. Returns
 * each new key's original, for the messages.
 */
function renameKeys(keyed: readonly KeyedMap[], { names, tests }: ValueShape, budget: PatternBudget): Map<string, string> {
  const originals = new Map<string, string>();
  let index = 0;
  for (const { map, entries } of keyed) {
    for (const name of Object.keys(map)) delete map[name];
    for (const [pattern, subschema] of entries) {
      const test = linear(pattern);
      if (test === null) {
        put(map, pattern, subschema);
        continue;
      }
      const matched: string[] = [];
      const unmatched: string[] = [];
      let [matchedLength, unmatchedLength] = [0, 0];
      for (const name of names) {
        if (test(name, budget)) {
          matched.push(name);
          matchedLength += name.length + 1;
        } else {
          unmatched.push(name);
          unmatchedLength += name.length + 1;
        }
      }
      // The shorter list is written out: the names it matches, or (in a negative lookahead) those it does not. A key
      // that matches every name, as `^[a-z_]+$` on a map usually does, becomes one that matches anything.
      const negate = unmatchedLength < matchedLength;
      const listed = negate ? unmatched : matched;
      const length = negate ? unmatchedLength : matchedLength;
      // The engine compares each tested name with each listed one, a character at a time: that is charged, at the
      // exchange rate of a character compare (about 1 ns) to a state visit (about 25 ns).
      budget.left -= Math.ceil((tests * length) / 25);
      if (budget.left < 0) throw new PatternWorkError(pattern, length, 'property names');
      const alternation = listed.length === 0 ? '' : `(?:${listed.map(literal).join('|')})$`;
      const rest = negate ? (listed.length === 0 ? '' : `(?!${alternation})`) : listed.length === 0 ? '[^\\s\\S]' : alternation;
      // A named group of its own keeps apart two keys that match the same names.
      const renamed = `^(?<edgetool${index++}>)${rest}`;
      originals.set(renamed, pattern);
      put(map, renamed, subschema);
    }
  }
  return originals;
}

const LONE_SURROGATE =
  'A property name holds half of a UTF-16 surrogate pair (a \\uD800-\\uDFFF escape without its other half), which cannot be ' +
  'validated. Send property names made of whole characters.';

const MAPS: Record<string, true> = { $defs: true, definitions: true, properties: true, patternProperties: true, dependentSchemas: true, dependencies: true };

// cfworker's `url` format backtracks exponentially on a host name: its labels are `(?:[a-z…0-9]+-?)*[a-z…0-9]+`, which
// splits a run of letters every way it can (5.7 s for `http://` and 28 digits and a NUL, twice that per digit more), and
// quadratically on its user part, `\S+(?::\S*)?@` (15 s for `http://` and 40,000 `a:`). This is the same language
// written so the engine cannot backtrack for long: a label is `[…]+(?:-[…]+)*` (no `--`, no `-` at either end, as
// before), and the user part `\S+@` (the `\S+` already took any `:\S*`). A differential test checks it against cfworker's.
const URL_FORMAT = /^(?:(?:https?|ftp):\/\/)(?:\S+@)?(?:(?!10(?:\.\d{1,3}){3})(?!127(?:\.\d{1,3}){3})(?!169\.254(?:\.\d{1,3}){2})(?!192\.168(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:[a-z\u{00a1}-\u{ffff}0-9]+(?:-[a-z\u{00a1}-\u{ffff}0-9]+)*)(?:\.[a-z\u{00a1}-\u{ffff}0-9]+(?:-[a-z\u{00a1}-\u{ffff}0-9]+)*)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?(?:\/[^\s]*)?$/iu;

const safeUrl = (text: string): boolean => URL_FORMAT.test(text);

/** cfworker's own `url` format, as it was before {@link guardFormats} replaced it (for the differential test). */
export let builtInUrlFormat: ((text: string) => boolean) | undefined;

/**
 * Replaces the formats of `@cfworker/json-schema`'s table that backtrack for long on a short text with ones that answer
 * the same in linear time. The table is the module's own, so every validator (trusted patterns or not) gets them.
 */
export function guardFormats(cfworker: Cfworker): void {
  if (cfworker.format.url === safeUrl) return;
  builtInUrlFormat ??= cfworker.format.url;
  cfworker.format.url = safeUrl;
}

/**
 * Makes the validation function of a raw JSON Schema. Unless `trustPatterns`, its patterns run on the linear matcher,
 * and a schema with a pattern the engine could backtrack on for long fails every validation with an issue that names it.
 */
export function createValidator<T>(options: {
  readonly cfworker: Cfworker;
  readonly schema: JsonSchema;
  readonly draft: '4' | '7' | '2019-09' | '2020-12';
  readonly trustPatterns: boolean;
}): (value: unknown) => StandardSchemaV1.Result<T> {
  const { cfworker, schema, draft } = options;
  guardFormats(cfworker);
  const counted = countSteps(schema, cfworker);
  const guarded: GuardedSchema = options.trustPatterns ? { schema: counted, refused: [], keyed: [] } : guardPatterns(counted, cfworker);
  if (guarded.refused.length > 0) {
    const issues = guarded.refused.map(({ pattern, keyword, reason }) => ({
      message:
        `This tool cannot be used: its schema's ${keyword === 'pattern' ? 'pattern' : 'patternProperties key'} "${pattern}" is not run, because ${reason} ` +
        '(matching it could take exponential time); calling again will not help.',
      path: [],
    }));
    return () => ({ issues });
  }
  const { keyed } = guarded;
  const unique = hasUniqueItems(schema);
  const validator = new cfworker.Validator(guarded.schema as never, draft, false); // reads the keys as the schema wrote them
  return (value) => {
    let result: ReturnType<typeof validator.validate>;
    let originals: Map<string, string> | undefined;
    const shape = keyed.length > 0 || unique ? scanValue(value) : undefined;
    if (unique && shape !== undefined && shape.pairs > MAX_UNIQUE_PAIRS) {
      const message = `Checking that the items of an array are all different would take too long (${shape.longest} items). Send fewer items.`;
      return { issues: [{ message, path: [] }] };
    }
    const outer = running;
    const outerSteps = stepsLeft;
    running = { left: MAX_PATTERN_WORK };
    stepsLeft = MAX_VALIDATION_STEPS;
    try {
      if (shape !== undefined && keyed.length > 0) originals = renameKeys(keyed, shape, running);
      result = validator.validate(value);
    } catch (error) {
      // Work past the budget: the whole value fails (a `not` or `anyOf` around a pattern must not read "no match" as an
      // answer), and the model reads which pattern and how long.
      if (error instanceof PatternWorkError) return { issues: [{ message: `${error.message} Send a shorter value.`, path: [] }] };
      // `@cfworker/json-schema` writes each property name into a JSON pointer with `encodeURIComponent`, which throws on
      // half of a surrogate pair: no such name can be validated.
      if (error instanceof URIError) return { issues: [{ message: LONE_SURROGATE, path: [] }] };
      if (error instanceof StepBudgetError) return { issues: [{ message: TOO_MUCH_WORK, path: [] }] };
      // A value nested some hundreds of levels deep (or a long chain of `$ref`s) overflows the stack of cfworker's
      // recursive validate: a RangeError in V8 and JavaScriptCore, an InternalError ("too much recursion") in Firefox.
      if (error instanceof RangeError || (error instanceof Error && error.name === 'InternalError')) return { issues: [{ message: TOO_DEEP, path: [] }] };
      throw error;
    } finally {
      running = outer;
      stepsLeft = outerSteps;
      // The keys as written again: the renamed ones hold the value's property names.
      for (const { map, entries } of keyed) {
        for (const name of Object.keys(map)) delete map[name];
        for (const [pattern, subschema] of entries) put(map, pattern, subschema);
      }
    }
    if (result.valid) return { value: value as T };
    const leaves = result.errors.filter((e) => !WRAPPER_KEYWORDS.has(e.keyword));
    const errors = leaves.length > 0 ? leaves : result.errors;
    return {
      issues: errors.map((e) => {
        const at = e.keyword === 'format' ? e.error.indexOf(`"${PATTERN_FORMAT}`) : -1;
        let message = at < 0 ? e.error : `String does not match pattern "${e.error.slice(at + 1 + PATTERN_FORMAT.length, -2)}".`;
        if (e.keyword === 'patternProperties' && originals !== undefined) {
          for (const [renamed, pattern] of originals) message = message.replace(`matches pattern "${renamed}"`, () => `matches pattern "${pattern}"`);
        }
        return { message, path: pointerToPath(e.instanceLocation) };
      }),
    };
  };
}
