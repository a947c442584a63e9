import type { JsonSchema } from './input-schema.ts';

const NUMERIC = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

function types(schema: JsonSchema): readonly unknown[] {
  const type = schema.type;
  return Array.isArray(type) ? type : type === undefined ? [] : [type];
}

const isSchema = (x: unknown): x is JsonSchema => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The schemas a value may match: the `anyOf` or `oneOf` branches, flattened (`v.nullable(v.number())` is
 * `anyOf: [{ type: 'number' }, { type: 'null' }]`), or the schema itself when it has a `type` or no branches.
 * A `true` or malformed branch becomes `{}` (anything goes), a `false` one is dropped.
 */
function alternatives(schema: JsonSchema): readonly JsonSchema[] {
  const { anyOf, oneOf } = schema;
  if (schema.type !== undefined || Array.isArray(anyOf) === Array.isArray(oneOf)) return [schema];
  const branches: readonly unknown[] = Array.isArray(anyOf) ? anyOf : (oneOf as readonly unknown[]);
  return branches.flatMap((branch) => (branch === false ? [] : isSchema(branch) ? alternatives(branch) : [{}]));
}

/** Whether a schema may take the string as it is: a string type, an equal `const` or `enum` member, or no type at all. */
function keepsString(schema: JsonSchema, value: string): boolean {
  const kinds = types(schema);
  if (kinds.length > 0) return kinds.includes('string');
  if ('const' in schema) return schema.const === value;
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  return true;
}

/** The one alternative that may hold an object or an array, or undefined when none or several may (then nothing is coerced). */
function holder(options: readonly JsonSchema[], kind: 'object' | 'array'): JsonSchema | undefined {
  const fits = options.filter((option) => {
    const kinds = types(option);
    return kinds.length === 0 || kinds.includes(kind);
  });
  return fits.length === 1 ? fits[0] : undefined;
}

/**
 * Lenient coercion for models that quote primitives: guided by the JSON Schema, turns `"3"` into 3,
 * `"true"` into true and `"null"` into null where a number, boolean or null is expected, also inside
 * `anyOf`/`oneOf` (nullable fields). A string is left alone where a branch may take it as a string, and an
 * object or array where several branches may hold it. Everything else is left as is, and the result
 * is still validated. Never writes `__proto__`-like keys (no prototype pollution).
 */
export function coerceToSchema(value: unknown, schema: JsonSchema | undefined): unknown {
  if (!isSchema(schema)) return value; // also `true`/`false` schemas
  const options = alternatives(schema);
  if (typeof value === 'string') {
    if (options.some((option) => keepsString(option, value))) return value;
    const kinds = options.flatMap(types);
    if ((kinds.includes('number') || kinds.includes('integer')) && NUMERIC.test(value)) {
      const n = Number(value);
      if (Number.isFinite(n) && (!kinds.includes('integer') || kinds.includes('number') || Number.isInteger(n))) return n;
    }
    if (kinds.includes('boolean')) {
      const lower = value.trim().toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
    }
    if (kinds.includes('null') && value === 'null') return null;
    return value;
  }
  if (Array.isArray(value)) {
    const items = holder(options, 'array')?.items;
    if (!isSchema(items)) return value;
    return value.map((item) => coerceToSchema(item, items));
  }
  if (typeof value === 'object' && value !== null) {
    const props = holder(options, 'object')?.properties;
    if (typeof props !== 'object' || props === null) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const sub = Object.hasOwn(props, key) ? ((props as Record<string, JsonSchema>)[key] as JsonSchema) : undefined;
      Object.defineProperty(out, key, { value: coerceToSchema(item, sub), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
