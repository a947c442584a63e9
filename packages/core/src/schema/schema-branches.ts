// Internal helpers to walk a value along its JSON Schema (coercion, strict mode's nulls): not in the barrel.
import type { JsonSchema } from './input-schema.ts';

/** The `type` of a schema as a list (empty when it has none). */
export function types(schema: JsonSchema): readonly unknown[] {
  const type = schema.type;
  return Array.isArray(type) ? type : type === undefined ? [] : [type];
}

/** A schema object (not `true`/`false`, not an array). */
export const isSchema = (x: unknown): x is JsonSchema => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The schema a local `$ref` points to in the root schema it belongs to (`#`, `#/$defs/name`, any JSON pointer), or
 * undefined when it points nowhere or elsewhere (another document, an anchor).
 */
export function resolveRef(root: JsonSchema, ref: unknown): unknown {
  if (typeof ref !== 'string' || (ref !== '#' && !ref.startsWith('#/'))) return undefined;
  let node: unknown = root;
  for (const token of ref.split('/').slice(1)) {
    let key = token;
    try {
      key = decodeURIComponent(token);
    } catch {}
    key = key.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The schemas a value may match: the `anyOf` or `oneOf` branches, flattened (`v.nullable(v.number())` is
 * `anyOf: [{ type: 'number' }, { type: 'null' }]`), or the schema itself when it has a `type` or no branches; a `$ref`
 * is what it points to in `root`, an `allOf` of one schema that schema. A `true` or malformed branch becomes `{}`
 * (anything goes), a `false` one is dropped, and a schema met again (a cycle of references) adds nothing.
 */
export function alternatives(schema: JsonSchema, root: JsonSchema | undefined, seen: Set<JsonSchema> = new Set()): readonly JsonSchema[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const { anyOf, oneOf, allOf } = schema;
  // zod writes a reference with keywords beside it as `allOf: [{ $ref }]`: one schema in `allOf` is that schema.
  const target = Array.isArray(allOf) && allOf.length === 1 ? allOf[0] : root === undefined ? undefined : resolveRef(root, schema.$ref);
  if (isSchema(target)) return alternatives(target, root, seen);
  if (schema.type !== undefined || Array.isArray(anyOf) === Array.isArray(oneOf)) return [schema];
  const branches: readonly unknown[] = Array.isArray(anyOf) ? anyOf : (oneOf as readonly unknown[]);
  return branches.flatMap((branch) => (branch === false ? [] : isSchema(branch) ? alternatives(branch, root, seen) : [{}]));
}

/**
 * The one alternative that may hold an object or an array, or undefined when none or several may (then nothing is
 * changed). Of several objects (a union, a variant), the one whose properties are the value's keys, its constants equal.
 */
export function holder(options: readonly JsonSchema[], kind: 'object' | 'array', value?: Record<string, unknown>): JsonSchema | undefined {
  let fits = options.filter((option) => {
    const kinds = types(option);
    // A typeless `const` or `enum` of scalars (`v.literal`) holds no object or array.
    return kinds.length === 0 ? typeof option.const === 'object' || !('const' in option || Array.isArray(option.enum)) : kinds.includes(kind);
  });
  if (fits.length > 1 && value !== undefined) fits = fits.filter((option) => describes(option, value));
  return fits.length === 1 ? fits[0] : undefined;
}

/** Whether an object schema describes every key of the value, with its `const` where it has one, and the value has its required keys. */
function describes(schema: JsonSchema, value: Record<string, unknown>): boolean {
  const { properties: props, required = [] } = schema;
  return (
    isSchema(props) &&
    Array.isArray(required) &&
    required.every((key) => Object.hasOwn(value, key)) &&
    Object.keys(value).every((key) => {
      const sub = Object.hasOwn(props, key) ? props[key] : undefined;
      return sub === true || (isSchema(sub) && (!('const' in sub) || sub.const === value[key]));
    })
  );
}

/** Whether a schema may take the value as it is: a type of that kind, an equal `const` or `enum` member, or no type at all. */
export function takes(schema: JsonSchema, value: string | null, kind: 'string' | 'null'): boolean {
  const kinds = types(schema);
  if (kinds.length > 0) return kinds.includes(kind);
  if ('const' in schema) return schema.const === value;
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  return true;
}

const NUMERIC = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * One walk of a value along its JSON Schema: `coerce` turns quoted primitives into what the schema expects
 * (`coerceToSchema`), `nulls` leaves out a `null` given for an optional property that does not accept it
 * (`dropOptionalNulls`). The executor does both in one pass when a tool asks for both. `$ref`s are followed in `root`
 * (the tool's schema); each step goes one level into the value, so a recursive schema ends with the value.
 */
export function fitToSchema(value: unknown, schema: JsonSchema | undefined, coerce: boolean, nulls: boolean, root: JsonSchema | undefined = schema): unknown {
  if (!isSchema(schema)) return value; // also `true`/`false` schemas
  const options = alternatives(schema, root);
  if (typeof value === 'string' && coerce) {
    if (options.some((option) => takes(option, value, 'string'))) return value;
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
    return value.map((item) => fitToSchema(item, items, coerce, nulls, root));
  }
  if (typeof value === 'object' && value !== null) {
    const shape = holder(options, 'object', value as Record<string, unknown>);
    const props = shape?.properties;
    if (!isSchema(props)) return value;
    const required: readonly unknown[] = nulls && Array.isArray(shape?.required) ? shape.required : [];
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const sub = Object.hasOwn(props, key) ? (props[key] as JsonSchema) : undefined;
      // Strict mode's way of leaving out an optional argument that does not itself accept null.
      if (nulls && item === null && isSchema(sub) && !required.includes(key) && !alternatives(sub, root).some((option) => takes(option, null, 'null'))) continue;
      Object.defineProperty(out, key, { value: fitToSchema(item, sub, coerce, nulls, root), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
