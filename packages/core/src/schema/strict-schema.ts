import type { JsonSchema } from './input-schema.ts';
import { alternatives, isSchema, takes, types } from './schema-branches.ts';

/**
 * A tool's input schema for OpenAI's strict mode (`toStrictJsonSchema`): the schema to send with `strict: true`, or
 * why the tool must go non-strict (a schema strict mode cannot express without refusing arguments the tool accepts).
 */
export type StrictJsonSchema = { readonly strict: true; readonly schema: JsonSchema } | { readonly strict: false; readonly reason: string };

type Json = Record<string, unknown>;

/** Kept as they are: what strict mode takes (the object and array keywords are rebuilt below). */
const KEPT = ['type', 'description', 'enum', 'const', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems'];
const FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];
/** Dropped: they only annotate. */
const ANNOTATIONS = ['title', '$schema', '$id', '$comment', 'examples', 'deprecated', 'readOnly', 'writeOnly'];
/**
 * Constraints strict mode refuses: written into the description instead. The sent schema then accepts more than the
 * tool does, never less, and the tool's own validation still refuses what breaks them.
 */
const DESCRIBED = ['default', 'minLength', 'maxLength', 'uniqueItems', 'minProperties', 'maxProperties', 'format', 'contentEncoding', 'contentMediaType'];
const SCALARS = ['string', 'number', 'integer', 'boolean'];
/** Objects nest at most this deep in a strict schema. */
const MAX_DEPTH = 10;
/** Schemas of any kind (branches, items) nest at most this deep: far past any real tool, far short of the stack's end. */
const MAX_LEVELS = 100;

class Refusal extends Error {}

/**
 * Rewrites a tool's input JSON Schema for OpenAI's strict mode (structured outputs for function calling): every object
 * closed and listing every property in `required`, an optional property made required and nullable (`type: [t, 'null']` for a
 * scalar, `anyOf: [..., { type: 'null' }]` otherwise; a model then sends `null` for it, which `dropOptionalNulls` reads
 * back as absent), `oneOf` as `anyOf`, and constraints strict mode refuses
 * (`minLength`, an unsupported `format`, `default`, ...) written into the description. A schema it cannot rewrite
 * without refusing arguments the tool accepts (an open object, `patternProperties`, `$ref`, `allOf`, a tuple, a value of
 * any type, a root that is not an object, objects nested deeper than 10, schemas nested deeper than 100, a cycle) gives
 * `strict: false` and the reason.
 */
export function toStrictJsonSchema(schema: JsonSchema): StrictJsonSchema {
  try {
    if (!isSchema(schema) || types(schema).join() !== 'object') throw new Refusal('(root): strict mode needs an object');
    return { strict: true, schema: strictNode(schema, '', 0, 0) };
  } catch (error) {
    if (error instanceof Refusal) return { strict: false, reason: error.message };
    throw error;
  }
}

function strictNode(s: unknown, at: string, depth: number, level: number): Json {
  const where = at || '(root)';
  if (!isSchema(s)) throw new Refusal(`${where}: a schema of any value has no strict form`);
  // A server's schema nested thousands deep (or a cycle) must not overflow the stack: that failed every request, not the tool.
  if (level === MAX_LEVELS) throw new Refusal(`${where}: schemas nested deeper than ${MAX_LEVELS}`);
  const out: Json = {};
  const notes: string[] = [];
  for (const key of Object.keys(s)) {
    const value = s[key];
    if (['properties', 'required', 'additionalProperties', 'items', 'anyOf', 'oneOf'].includes(key) || ANNOTATIONS.includes(key)) continue;
    if (key === 'format' && FORMATS.includes(value as string)) out[key] = value;
    else if (DESCRIBED.includes(key)) notes.push(`${key}: ${JSON.stringify(value)}`);
    else if (KEPT.includes(key)) out[key] = value;
    else throw new Refusal(`${where}: '${key}' has no strict form`);
  }
  if (s.anyOf !== undefined || s.oneOf !== undefined) {
    const branches = s.anyOf ?? s.oneOf;
    if (!Array.isArray(branches) || (s.anyOf !== undefined && s.oneOf !== undefined)) throw new Refusal(`${where}: malformed anyOf/oneOf`);
    // `oneOf` as `anyOf` accepts a value two branches match: the tool's own validation still refuses it.
    out.anyOf = branches.map((branch, i) => strictNode(branch, `${at}.anyOf[${i}]`, depth, level + 1));
  }
  const kinds = types(s);
  if (kinds.includes('object') || s.properties !== undefined) {
    if (depth === MAX_DEPTH) throw new Refusal(`${where}: objects nested deeper than ${MAX_DEPTH}`);
    const { properties = {}, required = [], additionalProperties: extra } = s as { properties?: unknown; required?: unknown; additionalProperties?: unknown };
    if (extra !== undefined && extra !== false) throw new Refusal(`${where}: an open object (additionalProperties) has no strict form`);
    if (!isSchema(properties) || !Array.isArray(required)) throw new Refusal(`${where}: malformed properties or required`);
    const missing = required.find((key) => !Object.hasOwn(properties, key));
    if (missing !== undefined) throw new Refusal(`${where}: requires "${String(missing)}", which it does not describe`);
    const props: Json = {};
    for (const key of Object.keys(properties)) {
      const sub = strictNode(properties[key], at === '' ? key : `${at}.${key}`, depth + 1, level + 1);
      Object.defineProperty(props, key, { value: required.includes(key) ? sub : nullable(sub), enumerable: true, writable: true, configurable: true });
    }
    out.type ??= 'object';
    out.properties = props;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (kinds.includes('array') || s.items !== undefined) {
    if (!isSchema(s.items)) throw new Refusal(`${where}: an array needs one items schema (tuples and any items have no strict form)`);
    out.items = strictNode(s.items, `${at}[]`, depth, level + 1);
  }
  if (kinds.length === 0 && out.anyOf === undefined && !('enum' in s) && !('const' in s)) throw new Refusal(`${where}: a schema without a type has no strict form`);
  if (notes.length > 0) out.description = [s.description, `(${notes.join(', ')})`].filter((x) => typeof x === 'string' && x !== '').join(' ');
  return out;
}

/** The schema, also taking `null` (how strict mode writes an optional property). */
function nullable(s: Json): Json {
  if (alternatives(s).some((option) => takes(option, null, 'null'))) return s;
  // A scalar takes `null` in its type list; an object, an array, an enum or a const is wrapped (the well-trodden form).
  const kinds = types(s);
  if (kinds.length > 0 && kinds.every((kind) => SCALARS.includes(kind as string)) && !('enum' in s) && !('const' in s)) return { ...s, type: [...kinds, 'null'] };
  if (s.type === undefined && Array.isArray(s.anyOf)) return { ...s, anyOf: [...s.anyOf, { type: 'null' }] };
  return { anyOf: [s, { type: 'null' }] };
}
