import type { JsonSchema } from '../schema/input-schema.ts';
import { isObject, mapValues, ONE_SUBSCHEMA, SUBSCHEMA_LIST, SUBSCHEMA_MAP } from './json-schema-2020.ts';

type Json = Record<string, unknown>;

/**
 * A schema nested deeper than this is left whole as it is: far past any real tool, and a server's schema nested 1,000
 * deep must not overflow the stack while its tools are made (the validator has its own guard). Whole, not converted
 * down to this level: a `$ref` below it would still point at `$defs` moved away above it.
 */
const MAX_LEVELS = 100;

/** Thrown (and caught) when a schema goes deeper than {@link MAX_LEVELS}. */
const TOO_DEEP = Symbol('too deep');

/** Keywords beside a `$ref` that draft-07 may ignore without harm: they apply nothing (definitions are found by location). */
const BESIDE_REF = ['$defs', 'definitions', '$comment'];

/**
 * A JSON Schema of 2020-12 (MCP's default dialect, pydantic's and zod's) in the draft-07 form that models' providers
 * read: `prefixItems` becomes an `items` list and `items` beside it `additionalItems`, root `$defs` become `definitions`,
 * `dependentRequired` and `dependentSchemas` become `dependencies`, and a `$ref` with keywords beside it (which 2020-12
 * applies and draft-07 ignores) goes into `allOf`; `$ref` pointers follow. `$schema` is dropped. Keywords without a
 * draft-07 form (`unevaluatedProperties`, `minContains`, `$dynamicRef`, …) are left as they are, and so is a schema
 * nested more than 100 levels deep.
 */
export function toJsonSchema07(schema: JsonSchema): JsonSchema {
  const defs = schema.$defs;
  const move = isObject(defs) && !Object.keys(defs).some((name) => isObject(schema.definitions) && Object.hasOwn(schema.definitions, name));
  const root = move ? { ...schema, $defs: undefined, definitions: { ...(schema.definitions as Json | undefined), ...defs } } : schema;
  try {
    return convert(root, (ref) => pointer(schema, ref, move), 0) as JsonSchema;
  } catch (error) {
    if (error === TOO_DEEP) return schema;
    throw error;
  }
}

function convert(schema: unknown, ref: (ref: string) => string, level: number): unknown {
  if (!isObject(schema)) return schema; // `true`, `false`
  if (level > MAX_LEVELS) throw TOO_DEEP;
  const sub = (x: unknown) => convert(x, ref, level + 1);
  const out: Json = {};
  const { prefixItems, items, dependentRequired: required, dependentSchemas: schemas } = schema;
  const tuple = Array.isArray(prefixItems);
  const dependent = !('dependencies' in schema) && (isObject(required) || isObject(schemas));
  for (const [key, value] of Object.entries(schema)) {
    if (value === undefined || key === '$schema' || (key === 'items' && tuple)) continue;
    if (key === 'prefixItems' && tuple) {
      if (prefixItems.length > 0) out.items = prefixItems.map(sub);
      if (items !== undefined) out[prefixItems.length > 0 ? 'additionalItems' : 'items'] = sub(items);
    } else if ((key === 'dependentRequired' || key === 'dependentSchemas') && dependent) {
      if (out.dependencies !== undefined) continue;
      // draft-07's `dependencies` holds both: a list of names or a schema, and for a name in both, the list within the schema.
      const both: Json = { ...(isObject(required) ? required : {}) };
      for (const [name, one] of Object.entries(isObject(schemas) ? schemas : {})) {
        const list = both[name];
        both[name] = Array.isArray(list) ? { required: list, allOf: [sub(one)] } : sub(one);
      }
      out.dependencies = both;
    } else if (key === '$ref' && typeof value === 'string') {
      out.$ref = ref(value);
    } else {
      out[key] = ONE_SUBSCHEMA.includes(key) ? sub(value) : SUBSCHEMA_MAP.includes(key) ? mapValues(value, sub) : SUBSCHEMA_LIST.includes(key) && Array.isArray(value) ? value.map(sub) : value;
    }
  }
  // 2020-12 applies the keywords beside a `$ref`, draft-07 ignores them: in `allOf`, both apply (as zod writes it).
  if (typeof out.$ref === 'string' && Object.keys(out).some((key) => key !== '$ref' && !BESIDE_REF.includes(key))) {
    const { $ref, allOf, ...beside } = out;
    return { ...beside, allOf: [...(Array.isArray(allOf) ? allOf : []), { $ref }] };
  }
  return out;
}

/**
 * A local `$ref` (`#/…`) into `root` as the same place of the converted schema: `$defs` of the root (when moved) as
 * `definitions`, `prefixItems` as `items`, the `items` beside them as `additionalItems`, a dependent schema under
 * `dependencies`. Any other reference is kept.
 */
function pointer(root: JsonSchema, ref: string, moved: boolean): string {
  if (!ref.startsWith('#/')) return ref;
  const parts = ref.slice(2).split('/');
  let at: unknown = root;
  /** What `at` is: a schema (its keys are keywords), a map or a list of schemas, or data (nothing more to rename). */
  let kind: 'schema' | 'schemas' | 'data' = 'schema';
  for (let i = 0; i < parts.length; i++) {
    const key = (parts[i] as string).replace(/~1/g, '/').replace(/~0/g, '~');
    if (kind === 'data' || typeof at !== 'object' || at === null) break;
    if (kind === 'schemas') {
      at = (at as Json)[key];
      kind = 'schema';
      continue;
    }
    const s = at as Json;
    const tuple = Array.isArray(s.prefixItems);
    if (key === 'prefixItems' && tuple) parts[i] = 'items';
    else if (key === 'items' && tuple) parts[i] = (s.prefixItems as unknown[]).length > 0 ? 'additionalItems' : 'items';
    else if (key === '$defs' && moved && s === root) parts[i] = 'definitions';
    else if ((key === 'dependentSchemas' || key === 'dependentRequired') && !('dependencies' in s)) {
      parts[i] = 'dependencies';
      const name = parts[i + 1];
      // A name in both keywords: its schema is the `allOf` of the one made for it.
      const decoded = name?.replace(/~1/g, '/').replace(/~0/g, '~');
      if (key === 'dependentSchemas' && decoded !== undefined && isObject(s.dependentRequired) && Array.isArray(s.dependentRequired[decoded])) {
        parts.splice(i + 2, 0, 'allOf', '0');
        at = (s.dependentSchemas as Json)[decoded];
        i += 3;
        continue;
      }
    }
    at = s[key];
    kind = ONE_SUBSCHEMA.includes(key) || key === 'items' ? (Array.isArray(at) ? 'schemas' : 'schema') : SUBSCHEMA_MAP.includes(key) || SUBSCHEMA_LIST.includes(key) ? 'schemas' : 'data';
  }
  return `#/${parts.join('/')}`;
}
