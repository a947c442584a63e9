import type { JsonSchema } from '../schema/input-schema.ts';

type Json = Record<string, unknown>;

/** Keywords whose value is one subschema (both rewrites walk them: this one and `toJsonSchema07`). */
export const ONE_SUBSCHEMA: readonly string[] = ['items', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
/** Keywords whose value maps names to subschemas. */
export const SUBSCHEMA_MAP: readonly string[] = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value lists subschemas. */
export const SUBSCHEMA_LIST: readonly string[] = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/** A JSON object (not an array, not `null`). Not in the barrel: both rewrites and the MCP client read values with it. */
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** `value`'s own entries with `f` applied to each value, when it is an object; anything else as it is. */
export const mapValues = (value: unknown, f: (x: unknown) => unknown): unknown =>
  isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, x]) => [k, f(x)])) : value;

const converted = new WeakMap<JsonSchema, JsonSchema>();

/**
 * A tool's JSON Schema (draft-07, as valibot's and the Standard JSON Schema's derive it) in the 2020-12 dialect that MCP
 * 2025-11-25 reads a schema without `$schema` as: a tuple's `items` list becomes `prefixItems` and its `additionalItems`
 * the `items` for the rest, root `definitions` become `$defs`, `dependencies` are split, and draft-04's boolean
 * `exclusiveMinimum`/`exclusiveMaximum` become numbers. A schema already in 2020-12 comes back as it was.
 */
export function toJsonSchema2020(schema: JsonSchema): JsonSchema {
  let out = converted.get(schema);
  if (out === undefined) {
    // Root `definitions` move to `$defs` (refs into them follow) unless a `$defs` of the same name is there already.
    const defs = schema.definitions;
    const move = isObject(defs) && !Object.keys(defs).some((name) => isObject(schema.$defs) && Object.hasOwn(schema.$defs, name));
    out = convert(move ? { ...schema, definitions: undefined, $defs: { ...(schema.$defs as Json | undefined), ...defs } } : schema, move) as JsonSchema;
    converted.set(schema, out);
  }
  return out;
}

function convert(schema: unknown, moved: boolean): unknown {
  if (!isObject(schema)) return schema; // `true`, `false`
  const sub = (x: unknown) => convert(x, moved);
  const entries: [string, unknown][] = [];
  const { items, additionalItems } = schema;
  for (const [key, value] of Object.entries(schema)) {
    if (value === undefined || key === 'additionalItems') continue;
    if (key === 'items' && Array.isArray(items)) {
      // draft-07's tuple: the positions, then `additionalItems` for the rest (ignored there when `items` is one schema).
      if (items.length > 0) entries.push(['prefixItems', items.map(sub)]);
      if (additionalItems !== undefined) entries.push(['items', sub(additionalItems)]);
    } else if (key === 'dependencies' && isObject(value)) {
      const required = Object.entries(value).filter(([, x]) => Array.isArray(x));
      const schemas = Object.entries(value).filter(([, x]) => !Array.isArray(x));
      if (required.length > 0) entries.push(['dependentRequired', Object.fromEntries(required)]);
      if (schemas.length > 0) entries.push(['dependentSchemas', Object.fromEntries(schemas.map(([k, x]) => [k, sub(x)]))]);
    } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
      // draft-04: a flag on `minimum`/`maximum`, which becomes the exclusive bound itself.
      const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
      if (value && typeof schema[bound] === 'number') entries.push([key, schema[bound]]);
    } else if ((key === 'minimum' || key === 'maximum') && schema[key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true) {
      // replaced by its exclusive bound above
    } else if (key === '$ref' && moved && typeof value === 'string' && value.startsWith('#/definitions/')) {
      entries.push([key, `#/$defs/${value.slice(14)}`]);
    } else {
      entries.push([key, ONE_SUBSCHEMA.includes(key) ? sub(value) : SUBSCHEMA_MAP.includes(key) ? mapValues(value, sub) : SUBSCHEMA_LIST.includes(key) && Array.isArray(value) ? value.map(sub) : value]);
    }
  }
  return Object.fromEntries(entries);
}
