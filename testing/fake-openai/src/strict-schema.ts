// OpenAI's checks of a strict function tool's `parameters` (structured outputs for function calling) and of a strict
// response format's schema (structured outputs for answers): the request is refused as a whole, with a 400 naming the
// function or the format, when one strict schema breaks the rules or the size limits.

type Json = Record<string, unknown>;

/** Keywords a strict schema may carry (OpenAI's documented subset; anything else is "not permitted"). */
const PERMITTED = new Set([
  'type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$ref', '$defs', 'definitions',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/**
 * OpenAI's documented size limits of a strict schema, and the words of its refusal. The nesting, properties and enum
 * texts are OpenAI's as reported by people who met them; the characters text is ours (no report of OpenAI's was found).
 */
const LIMITS = { properties: 5000, nesting: 10, enums: 1000, characters: 120_000, enumCharacters: 15_000, largeEnum: 250 };
const OPT_OUT = "Consider reducing the number of enums, or opt out of structured outputs by setting 'strict: false'.";

/** What a schema measures, counted as it is written (a `$ref` is not expanded, a definition counts once). */
interface Tally {
  properties: number;
  enums: number;
  characters: number;
  nesting: number;
  largeEnum?: number;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Python's tuple repr, as OpenAI's messages print a context: `()`, `('properties',)`, `('properties', 'a')`. */
function context(path: readonly string[]): string {
  const items = path.map((key) => `'${key}'`);
  return `In context=(${items.join(', ')}${items.length === 1 ? ',' : ''})`;
}

/** Where a local `$ref` points in the document (`#`, `#/$defs/name`, any JSON pointer), or undefined. */
function resolve(root: Json, ref: string): unknown {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const token of ref.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** Checks one schema of the document; `objects` is how many objects enclose it (the root's own count starts at 1). */
function check(schema: unknown, path: readonly string[], root: Json, objects: number, tally: Tally): string | undefined {
  if (!isRecord(schema)) return `${context(path)}, schema must be a JSON Schema object.`;
  if (path.length === 0 && schema.type !== 'object') return `schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type)}"'.`;
  for (const key of Object.keys(schema)) {
    if (!PERMITTED.has(key)) return `${context(path)}, '${key}' is not permitted.`;
  }
  if ('$ref' in schema) {
    // A reference stands alone, and must land somewhere in this document.
    const others = Object.keys(schema).filter((key) => key !== '$ref');
    if (others.length > 0) return `${context(path)}, $ref cannot have keywords {${others.map((key) => `'${key}'`).join(', ')}}.`;
    if (typeof schema.$ref !== 'string' || resolve(root, schema.$ref) === undefined) {
      return `${context(path)}, reference to component '${String(schema.$ref)}' which was not found in the schema.`;
    }
    return undefined;
  }
  if (typeof schema.format === 'string' && !FORMATS.has(schema.format)) return `${context(path)}, '${schema.format}' is not a valid format.`;
  if (!('type' in schema) && !('anyOf' in schema) && !('enum' in schema) && !('const' in schema)) {
    return `${context(path)}, schema must have a 'type' key.`;
  }
  if (Array.isArray(schema.enum)) {
    const characters = schema.enum.reduce((sum: number, value: unknown) => sum + (typeof value === 'string' ? value.length : 0), 0);
    tally.enums += schema.enum.length;
    tally.characters += characters;
    if (schema.enum.length > LIMITS.largeEnum) tally.largeEnum = Math.max(tally.largeEnum ?? 0, characters);
  }
  if (typeof schema.const === 'string') tally.characters += schema.const.length;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object') || 'properties' in schema) {
    tally.nesting = Math.max(tally.nesting, objects + 1);
    if (schema.additionalProperties !== false) return `${context(path)}, 'additionalProperties' is required to be supplied and to be false.`;
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = Object.keys(properties).filter((key) => !required.includes(key));
    if (!Array.isArray(schema.required) || missing.length > 0) {
      return `${context(path)}, 'required' is required to be supplied and to be an array including every key in properties.${missing.length > 0 ? ` Missing '${missing[0]}'.` : ''}`;
    }
    for (const key of Object.keys(properties)) {
      tally.properties++;
      tally.characters += key.length;
      const problem = check(properties[key], [...path, 'properties', key], root, objects + 1, tally);
      if (problem !== undefined) return problem;
    }
  }
  if (types.includes('array') || 'items' in schema) {
    const problem = check(schema.items, [...path, 'items'], root, objects, tally);
    if (problem !== undefined) return problem;
  }
  if ('anyOf' in schema) {
    if (!Array.isArray(schema.anyOf)) return `${context(path)}, 'anyOf' must be an array.`;
    for (const [i, branch] of schema.anyOf.entries()) {
      const problem = check(branch, [...path, 'anyOf', String(i)], root, objects, tally);
      if (problem !== undefined) return problem;
    }
  }
  for (const defs of ['$defs', 'definitions'] as const) {
    if (!isRecord(schema[defs])) continue;
    for (const [name, def] of Object.entries(schema[defs])) {
      tally.characters += name.length;
      // A definition is its own schema: its objects count from 1 again (a recursive one could not be counted otherwise).
      const problem = check(def, [...path, defs, name], root, 0, tally);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

/** The first of OpenAI's size limits the whole schema breaks, in OpenAI's words. */
function overLimit(tally: Tally): string | undefined {
  if (tally.nesting > LIMITS.nesting) return `${tally.nesting} levels of nesting exceeds limit of ${LIMITS.nesting}.`;
  if (tally.properties > LIMITS.properties) return `${tally.properties} parameters exceeds limit of ${LIMITS.properties}.`;
  if (tally.enums > LIMITS.enums) {
    return `Expected at most ${LIMITS.enums} enum values in total within a single schema when using structured outputs, but received ${tally.enums}. ${OPT_OUT}`;
  }
  if (tally.largeEnum !== undefined && tally.largeEnum > LIMITS.enumCharacters) {
    return `Expected at most ${LIMITS.enumCharacters} total characters across enum values when there are more than ${LIMITS.largeEnum} enum values, but received ${tally.largeEnum}. ${OPT_OUT}`;
  }
  if (tally.characters > LIMITS.characters) {
    return `Expected at most ${LIMITS.characters} total characters across property names, definition names, enum values and const values within a single schema when using structured outputs, but received ${tally.characters}. ${OPT_OUT}`;
  }
  return undefined;
}

/** What OpenAI answers a request whose strict function tool has a schema strict mode refuses, or `undefined` for none. */
export function strictToolError(body: Json, endpoint: 'chat' | 'responses'): { message: string; param: string } | undefined {
  if (!Array.isArray(body.tools)) return undefined;
  for (const [i, tool] of body.tools.entries()) {
    if (!isRecord(tool) || tool.type !== 'function') continue;
    const fn = endpoint === 'chat' ? tool.function : tool;
    if (!isRecord(fn) || fn.strict !== true) continue;
    const tally: Tally = { properties: 0, enums: 0, characters: 0, nesting: 0 };
    const parameters = fn.parameters;
    const problem = check(parameters, [], isRecord(parameters) ? parameters : {}, 0, tally) ?? overLimit(tally);
    if (problem !== undefined) {
      return {
        message: `Invalid schema for function '${String(fn.name)}': ${problem}`,
        param: endpoint === 'chat' ? `tools[${i}].function.parameters` : `tools[${i}].parameters`,
      };
    }
  }
  return undefined;
}

/**
 * What OpenAI answers a request whose strict response format (`response_format: { type: 'json_schema', json_schema }`
 * on Chat Completions, `text.format` on Responses) has a schema strict mode refuses, or `undefined` for none.
 */
export function strictFormatError(body: Json, endpoint: 'chat' | 'responses'): { message: string; param: string; code: string | null } | undefined {
  const format = endpoint === 'chat' ? (isRecord(body.response_format) ? body.response_format.json_schema : undefined) : isRecord(body.text) ? body.text.format : undefined;
  if (endpoint === 'chat' && (!isRecord(body.response_format) || body.response_format.type !== 'json_schema')) return undefined;
  if (!isRecord(format) || (endpoint === 'responses' && format.type !== 'json_schema') || format.strict !== true) return undefined;
  const tally: Tally = { properties: 0, enums: 0, characters: 0, nesting: 0 };
  const schema = format.schema;
  const problem = check(schema, [], isRecord(schema) ? schema : {}, 0, tally) ?? overLimit(tally);
  if (problem === undefined) return undefined;
  const message = `Invalid schema for response_format '${String(format.name)}': ${problem}`;
  return endpoint === 'chat' ? { message, param: 'response_format', code: null } : { message, param: 'text.format.schema', code: 'invalid_json_schema' };
}
