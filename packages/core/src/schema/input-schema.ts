import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ToolIssue } from '../errors/tool-error.ts';
import { validationOf } from './validation-result.ts';
import { valibotToJsonSchema } from './valibot-json-schema.ts';

/** A JSON Schema object as handed to the model (draft-07 flavour, no `$schema` key). */
export type JsonSchema = { readonly [key: string]: unknown };

/** Result of validating tool input: the typed value, or issues with paths. */
export type ValidationResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly ToolIssue[] };

/** Any schema edgetool accepts: a Standard Schema (valibot, zod, arktype, …) or a raw JSON Schema via `jsonSchema()`. */
export type ToolSchema<T = unknown> = StandardSchemaV1<unknown, T>;

/** The output type a schema validates to. */
export type InferSchemaOutput<TSchema extends StandardSchemaV1> = StandardSchemaV1.InferOutput<TSchema>;

export { formatIssuePath } from './issue-path.ts';

/**
 * Validates with any Standard Schema, synchronously when the schema is synchronous. A result that is a thenable (a
 * polyfill's or another realm's promise) is awaited; one that is neither `{ value }` nor `{ issues }` throws a `TypeError`.
 */
export function validateWithSchema<T>(schema: StandardSchemaV1<unknown, T>, value: unknown): ValidationResult<T> | Promise<ValidationResult<T>> {
  return validationOf<T>(schema['~standard'].validate(value));
}

interface StandardJsonSchemaProps {
  readonly jsonSchema?: { readonly input?: (options: { target: string }) => Record<string, unknown> };
}

/**
 * Derives the JSON Schema the model sees: valibot schemas through {@link valibotToJsonSchema} (the output of
 * `@valibot/to-json-schema`, at a quarter of its size),
 * other libraries through the Standard JSON Schema interface when they implement it.
 */
export function deriveJsonSchema(schema: StandardSchemaV1): JsonSchema {
  const props = schema['~standard'] as StandardSchemaV1.Props & StandardJsonSchemaProps;
  let json: Record<string, unknown>;
  if (props.vendor === 'valibot') {
    json = valibotToJsonSchema(schema);
  } else if (typeof props.jsonSchema?.input === 'function') {
    try {
      json = props.jsonSchema.input({ target: 'draft-07' });
    } catch (cause) {
      // The library's own error (zod 4: a plain `Error` for `z.date()`) becomes the `TypeError` a valibot schema gives.
      const reason = cause instanceof Error ? cause.message : String(cause);
      const fix = 'use only types JSON can carry (a date as an ISO string), or pass `jsonSchema` to defineTool.';
      throw new TypeError(`Cannot derive a JSON Schema from a "${props.vendor}" schema (${reason}): ${fix}`, { cause });
    }
  } else {
    throw new TypeError(`Cannot derive a JSON Schema from a "${props.vendor}" schema: pass \`jsonSchema\` to defineTool, or use jsonSchema() for raw JSON Schema tools.`);
  }
  const { $schema: _drop, ...rest } = json;
  return rest;
}
