import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ToolIssue } from '../errors/tool-error.ts';
import { valibotToJsonSchema } from './valibot-json-schema.ts';

/** A JSON Schema object as handed to the model (draft-07 flavour, no `$schema` key). */
export type JsonSchema = { readonly [key: string]: unknown };

/** Result of validating tool input: the typed value, or issues with paths. */
export type ValidationResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly ToolIssue[] };

/** Any schema edgetool accepts: a Standard Schema (valibot, zod, arktype, …) or a raw JSON Schema via `jsonSchema()`. */
export type ToolSchema<T = unknown> = StandardSchemaV1<unknown, T>;

/** The output type a schema validates to. */
export type InferSchemaOutput<TSchema extends StandardSchemaV1> = StandardSchemaV1.InferOutput<TSchema>;

/** Formats a Standard Schema path as `a.b[0].c` (root is `(root)`). */
export function formatIssuePath(path: StandardSchemaV1.Issue['path']): string {
  if (!path || path.length === 0) return '(root)';
  let out = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out || '(root)';
}

/** Validates with any Standard Schema, synchronously when the schema is synchronous. */
export function validateWithSchema<T>(schema: StandardSchemaV1<unknown, T>, value: unknown): ValidationResult<T> | Promise<ValidationResult<T>> {
  const result = schema['~standard'].validate(value);
  return result instanceof Promise ? result.then(toValidationResult) : toValidationResult(result);
}

function toValidationResult<T>(result: StandardSchemaV1.Result<T>): ValidationResult<T> {
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, issues: result.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })) };
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
    json = props.jsonSchema.input({ target: 'draft-07' });
  } else {
    throw new TypeError(`Cannot derive a JSON Schema from a "${props.vendor}" schema: pass \`jsonSchema\` to defineTool, or use jsonSchema() for raw JSON Schema tools.`);
  }
  const { $schema: _drop, ...rest } = json;
  return rest;
}
