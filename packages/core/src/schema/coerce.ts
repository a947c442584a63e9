import type { JsonSchema } from './input-schema.ts';
import { fitToSchema } from './schema-branches.ts';

/**
 * Lenient coercion for models that quote primitives: guided by the JSON Schema, turns `"3"` into 3,
 * `"true"` into true and `"null"` into null where a number, boolean or null is expected, also inside
 * `anyOf`/`oneOf` (nullable fields). A string is left alone where a branch may take it as a string, and an
 * object or array where several branches may hold it. Everything else is left as is, and the result
 * is still validated. Never writes `__proto__`-like keys (no prototype pollution).
 */
export function coerceToSchema(value: unknown, schema: JsonSchema | undefined): unknown {
  return fitToSchema(value, schema, true, false);
}

/**
 * The arguments a tool's policy validates: quoted primitives coerced (`coerce`) and a strict model's `null`s for
 * optional arguments left out (`strict`), in one walk. The executor and the chat loop's approval decision both read
 * arguments through it, so a human is asked about exactly the input the tool will run with.
 */
export function fitArguments(value: unknown, schema: JsonSchema | undefined, policy: { readonly coerce?: boolean | undefined; readonly strict?: boolean | undefined }): unknown {
  const coerce = policy.coerce === true;
  const strict = policy.strict === true;
  return coerce || strict ? fitToSchema(value, schema, coerce, strict) : value;
}
