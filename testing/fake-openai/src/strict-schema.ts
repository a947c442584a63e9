// OpenAI's checks of a strict function tool's `parameters` (structured outputs for function calling): the request is
// refused as a whole, with a 400 naming the function, when one strict tool's schema breaks the rules.

type Json = Record<string, unknown>;

/** Keywords a strict schema may carry (OpenAI's documented subset; anything else is "not permitted"). */
const PERMITTED = new Set([
  'type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$ref', '$defs', 'definitions',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Python's tuple repr, as OpenAI's messages print a context: `()`, `('properties',)`, `('properties', 'a')`. */
function context(path: readonly string[]): string {
  const items = path.map((key) => `'${key}'`);
  return `In context=(${items.join(', ')}${items.length === 1 ? ',' : ''})`;
}

function check(schema: unknown, path: readonly string[], root: boolean): string | undefined {
  if (!isRecord(schema)) return `${context(path)}, schema must be a JSON Schema object.`;
  if (root && schema.type !== 'object') return `schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type)}"'.`;
  for (const key of Object.keys(schema)) {
    if (!PERMITTED.has(key)) return `${context(path)}, '${key}' is not permitted.`;
  }
  if (typeof schema.format === 'string' && !FORMATS.has(schema.format)) return `${context(path)}, '${schema.format}' is not a valid format.`;
  if (!('type' in schema) && !('anyOf' in schema) && !('$ref' in schema) && !('enum' in schema) && !('const' in schema)) {
    return `${context(path)}, schema must have a 'type' key.`;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object') || 'properties' in schema) {
    if (schema.additionalProperties !== false) return `${context(path)}, 'additionalProperties' is required to be supplied and to be false.`;
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = Object.keys(properties).filter((key) => !required.includes(key));
    if (!Array.isArray(schema.required) || missing.length > 0) {
      return `${context(path)}, 'required' is required to be supplied and to be an array including every key in properties.${missing.length > 0 ? ` Missing '${missing[0]}'.` : ''}`;
    }
    for (const key of Object.keys(properties)) {
      const problem = check(properties[key], [...path, 'properties', key], false);
      if (problem !== undefined) return problem;
    }
  }
  if (types.includes('array') || 'items' in schema) {
    const problem = check(schema.items, [...path, 'items'], false);
    if (problem !== undefined) return problem;
  }
  if ('anyOf' in schema) {
    if (!Array.isArray(schema.anyOf)) return `${context(path)}, 'anyOf' must be an array.`;
    for (const [i, branch] of schema.anyOf.entries()) {
      const problem = check(branch, [...path, 'anyOf', String(i)], false);
      if (problem !== undefined) return problem;
    }
  }
  for (const defs of ['$defs', 'definitions'] as const) {
    if (!isRecord(schema[defs])) continue;
    for (const [name, def] of Object.entries(schema[defs])) {
      const problem = check(def, [...path, defs, name], false);
      if (problem !== undefined) return problem;
    }
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
    const problem = check(fn.parameters, [], true);
    if (problem !== undefined) {
      return {
        message: `Invalid schema for function '${String(fn.name)}': ${problem}`,
        param: endpoint === 'chat' ? `tools[${i}].function.parameters` : `tools[${i}].parameters`,
      };
    }
  }
  return undefined;
}
