import type { JsonSchema } from './input-schema.ts';
import { fitToSchema } from './schema-branches.ts';

/**
 * The way back from strict mode (`policy.strict`): a model held to a strict schema sends `null` for an optional
 * argument it leaves out. Guided by the tool's own JSON Schema, such a `null` becomes absent, only for a property that
 * is optional there and does not itself accept `null`, in nested objects and arrays too, and through `$ref`s (a
 * recursive schema is followed as deep as the value goes). Everything else is left as is, and the result is still
 * validated. Never writes `__proto__`-like keys.
 */
export function dropOptionalNulls(value: unknown, schema: JsonSchema | undefined): unknown {
  return fitToSchema(value, schema, false, true);
}
