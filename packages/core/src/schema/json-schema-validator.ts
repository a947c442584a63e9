// The half of `jsonSchema()` that loads on first use, beside `@cfworker/json-schema` (which it is handed): the
// validation function, and the guard that keeps a schema's `pattern`s off the engine's backtracking matcher (see
// "Patterns in raw JSON Schemas" in docs/architecture.md).
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from './input-schema.ts';
import { compileLinearPattern, PatternWorkError, patternRisk } from './linear-pattern.ts';

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
const compiled = new Map<string, ((text: string) => boolean) | null>();

function linear(source: string): ((text: string) => boolean) | null {
  let test = compiled.get(source);
  if (test === undefined) test = compileLinearPattern(source) ?? null;
  compiled.delete(source);
  compiled.set(source, test);
  if (compiled.size > 64) compiled.delete(compiled.keys().next().value as string);
  return test;
}

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
export function guardPatterns(schema: JsonSchema, cfworker: Cfworker): { readonly schema: JsonSchema; readonly refused: readonly RefusedPattern[] } {
  const refused: RefusedPattern[] = [];
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
    const own = (): Record<string, unknown> => (copy ??= { ...source });
    for (const key in source) {
      const value = source[key];
      if (cfworker.ignoredKeyword[key] || (key === 'examples' && Array.isArray(value)) || typeof value !== 'object' || value === null) continue;
      // Maps (properties, $defs, ...) and arrays hold subschemas; any other object is a subschema itself.
      const guarded = Object.hasOwn(MAPS, key) ? children(value) : visit(value);
      if (guarded !== value) put(own(), key, guarded);
      if (key === 'patternProperties' && !Array.isArray(value)) for (const name of Object.keys(value)) refuse(name, 'patternProperties');
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
        cfworker.format[name] ??= (text) => (linear(known) ?? (() => false))(text);
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
  return { schema: visit(schema) as JsonSchema, refused };
}

const MAPS: Record<string, true> = { $defs: true, definitions: true, properties: true, patternProperties: true, dependentSchemas: true, dependencies: true };

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
  const guarded = options.trustPatterns ? { schema, refused: [] } : guardPatterns(schema, cfworker);
  if (guarded.refused.length > 0) {
    const issues = guarded.refused.map(({ pattern, keyword, reason }) => ({
      message:
        `This tool cannot be used: its schema's ${keyword === 'pattern' ? 'pattern' : 'patternProperties key'} "${pattern}" is not run, because ${reason} ` +
        '(matching it could take exponential time); calling again will not help.',
      path: [],
    }));
    return () => ({ issues });
  }
  const validator = new cfworker.Validator(guarded.schema as never, draft, false);
  return (value) => {
    let result: ReturnType<typeof validator.validate>;
    try {
      result = validator.validate(value);
    } catch (error) {
      // A text too long for the work a pattern may take: the whole value fails (a `not` or `anyOf` around the
      // pattern must not read "no match" as an answer), and the model reads which pattern and how long.
      if (!(error instanceof PatternWorkError)) throw error;
      return { issues: [{ message: `${error.message} Send a shorter value.`, path: [] }] };
    }
    if (result.valid) return { value: value as T };
    const leaves = result.errors.filter((e) => !WRAPPER_KEYWORDS.has(e.keyword));
    const errors = leaves.length > 0 ? leaves : result.errors;
    return {
      issues: errors.map((e) => {
        const at = e.keyword === 'format' ? e.error.indexOf(`"${PATTERN_FORMAT}`) : -1;
        const message = at < 0 ? e.error : `String does not match pattern "${e.error.slice(at + 1 + PATTERN_FORMAT.length, -2)}".`;
        return { message, path: pointerToPath(e.instanceLocation) };
      }),
    };
  };
}
