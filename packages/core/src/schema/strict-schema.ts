import type { JsonSchema } from './input-schema.ts';
import { alternatives, isSchema, resolveRef, takes, types } from './schema-branches.ts';

/**
 * One of OpenAI's documented size limits of a strict schema that a tool's schema breaks: which, the limit, and what the
 * rewritten schema measured. Over any of them OpenAI refuses the whole request, so the tool goes non-strict instead.
 */
export interface StrictSchemaLimit {
  /**
   * `properties`: object properties in all; `nesting`: objects nested in objects; `enum-values`: enum values in all;
   * `characters`: characters of property names, definition names, enum values and const values in all;
   * `enum-characters`: characters of the values of one enum that has more than 250.
   */
  readonly name: 'properties' | 'nesting' | 'enum-values' | 'characters' | 'enum-characters';
  readonly max: number;
  readonly found: number;
}

/**
 * A tool's input schema for OpenAI's strict mode (`toStrictJsonSchema`): the schema to send with `strict: true`, or
 * why the tool must go non-strict (a schema strict mode cannot express without refusing arguments the tool accepts,
 * or one over OpenAI's size limits, then named in `limit`).
 */
export type StrictJsonSchema =
  | { readonly strict: true; readonly schema: JsonSchema }
  | { readonly strict: false; readonly reason: string; readonly limit?: StrictSchemaLimit };

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
/** OpenAI's documented limits of a strict schema (Structured Outputs, "Supported schemas"). */
const LIMITS = { properties: 5000, nesting: 10, 'enum-values': 1000, characters: 120_000, 'enum-characters': 15_000 };
/** An enum with more values than this has its own, smaller limit of characters. */
const LARGE_ENUM = 250;
/** Schemas of any kind (branches, items) nest at most this deep: far past any real tool, far short of the stack's end. */
const MAX_LEVELS = 100;
/** The references OpenAI documents: the root (`#`) and a definition (`#/$defs/name`; `definitions` is sent as `$defs`). */
const REF = /^#(?:\/(?:\$defs|definitions)\/[^/]+)?$/;
const ROOT = '(root): strict mode needs an object';

class Refusal extends Error {
  readonly limit: StrictSchemaLimit | undefined;
  constructor(message: string, limit?: StrictSchemaLimit) {
    super(message);
    this.limit = limit;
  }
}

/** The state of one rewrite: the tool's schema (references resolve in it), what to make nullable, what to count. */
interface Walk {
  readonly root: JsonSchema;
  /** Optional properties, made nullable once the whole schema is written (the `$ref`s in them must resolve first). */
  readonly optional: [Json, string][];
  properties: number;
  enums: number;
  characters: number;
}

const define = (o: Json, key: string, value: unknown) => Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

function limit(name: StrictSchemaLimit['name'], found: number, where: string, what: string): void {
  const max = LIMITS[name];
  if (found > max) throw new Refusal(`${where}: ${found} ${what}, over OpenAI's limit of ${max}`, { name, max, found });
}

/**
 * Rewrites a tool's input JSON Schema for OpenAI's strict mode (structured outputs for function calling): every object
 * closed and listing every property in `required`, an optional property made required and nullable (`type: [t, 'null']` for a
 * scalar, `anyOf: [..., { type: 'null' }]` otherwise; a model then sends `null` for it, which `dropOptionalNulls` reads
 * back as absent), `oneOf` as `anyOf`, and constraints strict mode refuses
 * (`minLength`, an unsupported `format`, `default`, ...) written into the description. Definitions (`$defs`,
 * `definitions`) are rewritten the same way and `$ref`s to them (or to the root, `#`) kept, so recursive and shared
 * schemas stay strict. A schema it cannot rewrite without refusing arguments the tool accepts (an open object,
 * `patternProperties`, `allOf`, a tuple, a value of any type, a root that is not an object, a `$ref` elsewhere, objects
 * nested deeper than 10, schemas nested deeper than 100, a cycle), or one over OpenAI's size limits, gives
 * `strict: false` and the reason.
 */
export function toStrictJsonSchema(schema: JsonSchema): StrictJsonSchema {
  try {
    if (!isSchema(schema) || (schema.$ref === undefined && types(schema).join() !== 'object')) throw new Refusal(ROOT);
    const { $defs, definitions, ...rest } = schema;
    const defs = $defs ?? definitions;
    if (($defs !== undefined && definitions !== undefined) || (defs !== undefined && !isSchema(defs))) throw new Refusal('(root): malformed $defs');
    const walk: Walk = { root: schema, optional: [], properties: 0, enums: 0, characters: 0 };
    const out = strictNode(rest, '', 0, 0, walk);
    if (types(out).join() !== 'object') throw new Refusal(ROOT);
    if (isSchema(defs)) {
      const made: Json = {};
      for (const name of Object.keys(defs)) {
        walk.characters += name.length;
        define(made, name, strictNode(defs[name], `$defs.${name}`, 0, 1, walk));
      }
      out.$defs = made;
    }
    // Whether a `$ref` already takes null is read in the rewritten schema, now whole.
    for (const [props, key] of walk.optional) define(props, key, nullable(props[key] as Json, out));
    limit('properties', walk.properties, '(root)', 'object properties in all');
    limit('enum-values', walk.enums, '(root)', 'enum values in all');
    limit('characters', walk.characters, '(root)', 'characters of property names, definition names, enum and const values');
    return { strict: true, schema: out };
  } catch (error) {
    if (error instanceof Refusal) return error.limit === undefined ? { strict: false, reason: error.message } : { strict: false, reason: error.message, limit: error.limit };
    throw error;
  }
}

function strictNode(s: unknown, at: string, depth: number, level: number, walk: Walk): Json {
  const where = at || '(root)';
  if (!isSchema(s)) throw new Refusal(`${where}: a schema of any value has no strict form`);
  // A server's schema nested thousands deep (or a cycle) must not overflow the stack: that failed every request, not the tool.
  if (level === MAX_LEVELS) throw new Refusal(`${where}: schemas nested deeper than ${MAX_LEVELS}`);
  const { allOf, $ref: ref, ...beside } = s;
  // zod writes a reference with keywords beside it as `allOf: [{ $ref }]`: one schema in `allOf` is that schema.
  if (Array.isArray(allOf) && allOf.length === 1) return strictNode(merge({ ...beside, ...(ref === undefined ? {} : { $ref: ref }) }, allOf[0], where), at, depth, level + 1, walk);
  if (ref !== undefined) {
    if (typeof ref !== 'string' || !REF.test(ref)) throw new Refusal(`${where}: a $ref other than '#' or '#/$defs/...' has no strict form`);
    const target = resolveRef(walk.root, ref);
    if (target === undefined) throw new Refusal(`${where}: $ref '${ref}' points to nothing`);
    // OpenAI takes a `$ref` only alone ("$ref cannot have keywords"): one with keywords beside it (a description), and
    // the root, become the target with them, as OpenAI's own SDK does. References inside the target stay references.
    if (at === '' || Object.keys(beside).some((key) => !ANNOTATIONS.includes(key))) return strictNode(merge(beside, target, where), at, depth, level + 1, walk);
    return { $ref: ref.replace('#/definitions/', '#/$defs/') };
  }
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
  const values: readonly unknown[] = Array.isArray(s.enum) ? s.enum : [];
  const characters = values.reduce((sum: number, value) => sum + String(value).length, typeof s.const === 'string' ? s.const.length : 0);
  walk.enums += values.length;
  walk.characters += characters;
  if (values.length > LARGE_ENUM) limit('enum-characters', characters, where, `characters in an enum of ${values.length} values`);
  if (s.anyOf !== undefined || s.oneOf !== undefined) {
    const branches = s.anyOf ?? s.oneOf;
    if (!Array.isArray(branches) || (s.anyOf !== undefined && s.oneOf !== undefined)) throw new Refusal(`${where}: malformed anyOf/oneOf`);
    // `oneOf` as `anyOf` accepts a value two branches match: the tool's own validation still refuses it.
    out.anyOf = branches.map((branch, i) => strictNode(branch, `${at}.anyOf[${i}]`, depth, level + 1, walk));
  }
  const kinds = types(s);
  if (kinds.includes('object') || s.properties !== undefined) {
    if (depth === LIMITS.nesting) throw new Refusal(`${where}: objects nested deeper than ${LIMITS.nesting}`, { name: 'nesting', max: LIMITS.nesting, found: depth + 1 });
    const { properties = {}, required = [], additionalProperties: extra } = s as { properties?: unknown; required?: unknown; additionalProperties?: unknown };
    if (extra !== undefined && extra !== false) throw new Refusal(`${where}: an open object (additionalProperties) has no strict form`);
    if (!isSchema(properties) || !Array.isArray(required)) throw new Refusal(`${where}: malformed properties or required`);
    const missing = required.find((key) => !Object.hasOwn(properties, key));
    if (missing !== undefined) throw new Refusal(`${where}: requires "${String(missing)}", which it does not describe`);
    const props: Json = {};
    for (const key of Object.keys(properties)) {
      define(props, key, strictNode(properties[key], at === '' ? key : `${at}.${key}`, depth + 1, level + 1, walk));
      if (!required.includes(key)) walk.optional.push([props, key]);
      walk.properties++;
      walk.characters += key.length;
    }
    out.type ??= 'object';
    out.properties = props;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (kinds.includes('array') || s.items !== undefined) {
    if (!isSchema(s.items)) throw new Refusal(`${where}: an array needs one items schema (tuples and any items have no strict form)`);
    out.items = strictNode(s.items, `${at}[]`, depth, level + 1, walk);
  }
  if (kinds.length === 0 && out.anyOf === undefined && !('enum' in s) && !('const' in s)) throw new Refusal(`${where}: a schema without a type has no strict form`);
  if (notes.length > 0) out.description = [s.description, `(${notes.join(', ')})`].filter((x) => typeof x === 'string' && x !== '').join(' ');
  return out;
}

/**
 * A schema with the keywords written beside it, as one (a `$ref`'s target, `allOf`'s one schema): theirs win for a
 * description or an annotation; any other keyword both give, with different values, has no strict form.
 */
function merge(beside: Json, target: unknown, where: string): Json {
  if (!isSchema(target)) throw new Refusal(`${where}: a schema of any value has no strict form`);
  const out: Json = {};
  for (const key of Object.keys(target)) if (key !== '$defs' && key !== 'definitions') define(out, key, target[key]);
  for (const key of Object.keys(beside)) {
    if (Object.hasOwn(out, key) && out[key] !== beside[key] && key !== 'description' && !ANNOTATIONS.includes(key)) {
      throw new Refusal(`${where}: '${key}' both beside a reference and in its target has no strict form`);
    }
    define(out, key, beside[key]);
  }
  return out;
}

/** The schema, also taking `null` (how strict mode writes an optional property); `$ref`s resolve in the rewritten `root`. */
function nullable(s: Json, root: Json): Json {
  if (alternatives(s, root).some((option) => takes(option, null, 'null'))) return s;
  // A scalar takes `null` in its type list; an object, an array, an enum, a const or a reference is wrapped (the well-trodden form).
  const kinds = types(s);
  if (kinds.length > 0 && kinds.every((kind) => SCALARS.includes(kind as string)) && !('enum' in s) && !('const' in s)) return { ...s, type: [...kinds, 'null'] };
  if (s.type === undefined && Array.isArray(s.anyOf)) return { ...s, anyOf: [...s.anyOf, { type: 'null' }] };
  return { anyOf: [s, { type: 'null' }] };
}
