// A compact stand-in for `toJsonSchema(schema, { errorMode: 'ignore' })` from `@valibot/to-json-schema`
// 1.8.0 (draft-07): the same output, key order included, read from the schemas' runtime shape.
// Deliberate differences from the library (its 'ignore' mode emits `{}`, "anything", where it cannot convert):
// - A schema it cannot convert (date, bigint, function, undefined, custom, non_optional, …), a literal
//   that is not a string, finite number or boolean, and a picklist/enum with such an option throw a
//   TypeError instead, so a tool never advertises "anything" for input it will reject. The exception is
//   a schema that only describes a pipe's output (after its first item, e.g. `pipe(string(), transform(…),
//   date())`): the library skips it, and so does this.
// - `lazy` becomes a `$ref` to a definition in `$defs` named by a number, as the library writes it (a recursive schema
//   must not recurse here), and so does a schema met again that a lazy one returned.
// - The `values`, `not_value` and `not_values` actions are skipped (rare in tool input; the schema the
//   model sees is looser, validation still applies them). The library maps them to `enum`/`not`.
// - A custom action with a RegExp `requirement` becomes `pattern`; the library skips unknown actions.
// - The library's global definitions (`addGlobalDefs`) are ignored.
// Other unsupported actions (transform, check, trim, …) are skipped, as the library does.

type Json = Record<string, unknown>;

/** The fields of valibot schema and action objects read here. */
interface Node {
  readonly kind: string;
  readonly type: string;
  readonly pipe?: readonly Node[];
  readonly entries: Readonly<Record<string, Node>>;
  readonly item: Node;
  readonly items: readonly Node[];
  readonly rest?: Node;
  readonly key: Node;
  readonly value: Node;
  readonly wrapped: Node;
  readonly options: readonly Node[];
  readonly literal: unknown;
  readonly default: unknown;
  readonly requirement: unknown;
  readonly description: unknown;
  readonly title: unknown;
  readonly examples: unknown;
  readonly metadata: Json;
  readonly getter: (input: unknown) => Node;
}

/** One conversion's definitions: what each lazy getter returned, the definition each such schema became. */
interface Defs {
  readonly getters: Map<unknown, Node>;
  readonly ids: Map<Node, string>;
  readonly defs: Json;
}

const FORMATS: Readonly<Record<string, string>> = {
  email: 'email',
  rfc_email: 'email',
  url: 'uri',
  uuid: 'uuid',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
  iso_date: 'date',
  iso_date_time: 'date-time',
  iso_timestamp: 'date-time',
  iso_time: 'time',
};

const COMBINATORS: Readonly<Record<string, string>> = { union: 'anyOf', variant: 'oneOf', intersect: 'allOf' };
const NOT_REQUIRED = ['optional', 'exact_optional', 'nullish'];
const finite = Number.isFinite;
const SAFE = 2 ** 53 - 1;
const isConst = (x: unknown): boolean => typeof x === 'string' || typeof x === 'boolean' || finite(x);
// The stricter bound wins; a current value that is not a finite number is replaced.
const lower = (c: unknown, v: number): unknown => (finite(c) && (c as number) >= v ? c : v);
const upper = (c: unknown, v: number): unknown => (finite(c) && (c as number) <= v ? c : v);
const addExamples = (j: Json, x: unknown): unknown => (j.examples = Array.isArray(j.examples) ? [...j.examples, ...(x as unknown[])] : x);

function convertAction(j: Json, a: Node): void {
  const { type: t, requirement: r } = a;
  switch (t) {
    case 'description':
    case 'title':
      j[t] = a[t];
      break;
    case 'examples':
      addExamples(j, a.examples);
      break;
    case 'metadata': {
      // title and description when strings, examples when an array, then every other key
      const m = a.metadata;
      for (const k of new Set(['title', 'description', 'examples', ...Object.keys(m)])) {
        const x = m[k];
        if (k === 'examples') {
          if (Array.isArray(x)) addExamples(j, x);
        } else if (k === 'title' || k === 'description' ? typeof x === 'string' : k !== '__proto__') j[k] = x;
      }
      break;
    }
    case 'integer':
    case 'safe_integer':
      j.type = 'integer';
      if (t[0] === 's') {
        j.minimum = lower(j.minimum, -SAFE);
        j.maximum = upper(j.maximum, SAFE);
      }
      break;
    case 'multiple_of':
      j.multipleOf = r;
      break;
    case 'base64':
      j.contentEncoding = 'base64';
      break;
    case 'empty':
      j[j.type === 'array' ? 'maxItems' : 'maxLength'] = 0;
      break;
    case 'value':
      if (isConst(r) && (!('const' in j) || j.const === r)) j.const = r;
      break;
    case 'starts_with':
    case 'ends_with':
    case 'includes':
      j.pattern ||= (t[0] === 's' ? '^' : '') + (r as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + (t[0] === 'e' ? '$' : '');
      break;
    default: {
      if (Object.hasOwn(FORMATS, t)) j.format = FORMATS[t];
      // Regex-backed actions become `pattern` (the first one wins); the library skips `ip` and `iso_date_time_second`.
      else if (r instanceof RegExp) {
        if (!/^ip$|date_time_s/.test(t)) j.pattern ||= r.source;
      } else {
        // min_length, max_length, length, non_empty, min_entries, max_entries, entries, min_value, max_value, gt_value, lt_value
        const [, side = '', what] = /^(?:(min|max|gt|lt|non)_)?(length|entries|value|empty)$/.exec(t) ?? [];
        const n = side === 'non' ? 1 : (r as number);
        const numeric = what === 'value';
        if (what && (numeric ? (j.type === 'number' || j.type === 'integer') && finite(n) : Number.isInteger(n) && n >= 0)) {
          // minItems, maxLength, minProperties, minimum, exclusiveMaximum, …
          const key = (x: string) =>
            (side.length === 2 ? 'exclusiveM' : 'm') + x + (numeric ? 'imum' : what === 'entries' ? 'Properties' : j.type === 'array' ? 'Items' : 'Length');
          const lo = key('in');
          const hi = key('ax');
          if (!/max|lt/.test(side)) j[lo] = lower(j[lo], n);
          if (!/min|gt|non/.test(side)) j[hi] = upper(j[hi], n);
        }
      }
    }
  }
}

function convertSchema(j: Json, s: Node, late: boolean, defs: Defs, skipRef = false): Json {
  const t = s.type;
  const sub = (x: Node): Json => convertSchema({}, x, late, defs);
  const id = skipRef ? undefined : defs.ids.get(s);
  if (id !== undefined) {
    j.$ref = `#/$defs/${id}`;
    return j;
  }
  const rest = (key: string): void => {
    if (s.rest) j[key] = sub(s.rest);
    else if (t.startsWith('strict')) j[key] = false;
  };
  if (s.pipe) {
    // A nested pipe is walked in place, as the library flattens it; schemas after the first one are `late`.
    s.pipe.forEach((x, i) => {
      if (x.kind === 'schema') convertSchema(j, x, late || i > 0, defs, true);
      else convertAction(j, x);
    });
    return j;
  }
  switch (t.replace(/^(loose|strict)_|_with_rest$/g, '')) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      j.type = t;
      break;
    case 'any':
    case 'unknown':
      break;
    case 'never':
      j.not = {};
      break;
    case 'array':
      j.type = 'array';
      j.items = sub(s.item);
      break;
    case 'tuple':
      j.type = 'array';
      j.items = s.items.map(sub);
      j.minItems = s.items.length;
      rest('additionalItems');
      break;
    case 'object': {
      const properties: Json = {};
      const required: string[] = [];
      j.type = 'object';
      j.properties = properties;
      j.required = required;
      for (const key in s.entries) {
        const entry = s.entries[key] as Node;
        properties[key] = sub(entry);
        if (!NOT_REQUIRED.includes(entry.type)) required.push(key);
      }
      rest('additionalProperties');
      break;
    }
    case 'record':
      j.type = 'object';
      j.propertyNames = sub(s.key);
      j.additionalProperties = sub(s.value);
      break;
    case 'union':
    case 'variant':
    case 'intersect':
      j[COMBINATORS[t] as string] = s.options.map(sub);
      break;
    case 'nullable':
    case 'nullish':
      j.anyOf = [sub(s.wrapped), { type: 'null' }];
      break;
    case 'optional':
    case 'exact_optional':
    case 'undefinedable':
      convertSchema(j, s.wrapped, late, defs);
      break;
    case 'literal':
      if (isConst(s.literal)) j.const = s.literal;
      else fail(t, late);
      break;
    case 'enum':
    case 'picklist': {
      const options = s.options as readonly unknown[];
      const types = ['string', 'number'];
      if (options.every((x) => typeof x === 'string' || finite(x))) {
        j.enum = options;
        j.type = types.find((type) => options.every((x) => typeof x === type)) ?? types;
      } else fail(t, late);
      break;
    }
    case 'lazy': {
      const { getters, ids } = defs;
      let wrapped = getters.get(s.getter);
      if (wrapped === undefined) {
        wrapped = s.getter(undefined);
        getters.set(s.getter, wrapped);
      }
      let ref = ids.get(wrapped);
      if (ref === undefined) {
        ref = `${ids.size}`;
        ids.set(wrapped, ref);
        defs.defs[ref] = convertSchema({}, wrapped, late, defs, true);
      }
      j.$ref = `#/$defs/${ref}`;
      break;
    }
    default:
      fail(t, late);
  }
  // Only the optional and nullable families have a `default`.
  const d = s.default;
  if (d !== undefined) j.default = typeof d === 'function' ? d() : d;
  return j;
}

function fail(type: string, late: boolean): void {
  if (!late) throw new TypeError(`Cannot derive a JSON Schema from the valibot "${type}" schema: pass \`jsonSchema\` to defineTool.`);
}

/**
 * Derives the draft-07 JSON Schema of a valibot schema, like `toJsonSchema(schema, { errorMode: 'ignore' })`
 * from `@valibot/to-json-schema` but a fraction of its size. Throws a TypeError where it cannot.
 */
export function valibotToJsonSchema(schema: unknown): Record<string, unknown> {
  const defs: Defs = { getters: new Map(), ids: new Map(), defs: {} };
  const j = convertSchema({}, schema as Node, false, defs);
  j.$schema = 'http://json-schema.org/draft-07/schema#';
  if (defs.ids.size > 0) j.$defs = defs.defs;
  return j;
}
