import { Validator } from '@cfworker/json-schema';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from './input-schema.ts';

/** A raw JSON Schema that also validates as a Standard Schema (eval-free, safe in Workers). */
export interface JsonSchemaValidator<T = unknown> extends StandardSchemaV1<unknown, T> {
  readonly jsonSchema: JsonSchema;
}

// Parent keywords repeat what their children already say; keep the precise leaf errors.
const WRAPPER_KEYWORDS = new Set(['properties', 'items', 'allOf', '$ref', 'additionalProperties', 'prefixItems', 'contains']);

function pointerToPath(pointer: string): readonly PropertyKey[] {
  const body = pointer.replace(/^#\/?/, '');
  if (body === '') return [];
  return body.split('/').map((raw) => {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(key) ? Number(key) : key;
  });
}

/**
 * Wraps a raw JSON Schema (for dynamic tools: MCP, user-defined, loaded at run time) so the
 * executor can validate it with `@cfworker/json-schema`, which never uses `eval`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function jsonSchema<T = unknown>(schema: JsonSchema, options: { draft?: '4' | '7' | '2019-09' | '2020-12' } = {}): JsonSchemaValidator<T> {
  let validator: Validator | undefined;
  const { $schema: _drop, ...forModel } = schema;
  return {
    jsonSchema: forModel,
    '~standard': {
      version: 1,
      vendor: 'edgetool.json-schema',
      validate(value: unknown): StandardSchemaV1.Result<T> {
        validator ??= new Validator(schema as never, options.draft ?? '7', false);
        const result = validator.validate(value);
        if (result.valid) return { value: value as T };
        const leaves = result.errors.filter((e) => !WRAPPER_KEYWORDS.has(e.keyword));
        const errors = leaves.length > 0 ? leaves : result.errors;
        return { issues: errors.map((e) => ({ message: e.error, path: pointerToPath(e.instanceLocation) })) };
      },
    },
  };
}

/** True for schemas made by {@link jsonSchema}. */
export function isJsonSchemaValidator(value: unknown): value is JsonSchemaValidator {
  return typeof value === 'object' && value !== null && 'jsonSchema' in value && '~standard' in value;
}
