import type { Validator } from '@cfworker/json-schema';
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

type ValidatorModule = typeof import('@cfworker/json-schema');

let validatorModule: ValidatorModule | undefined;
let loadingValidator: Promise<ValidatorModule> | undefined;

/**
 * Loads `@cfworker/json-schema` once, when a raw JSON Schema is first made. A bundler that splits code (Vite,
 * for a browser) keeps the validator (about 23 KB minified) out of the page's first load; one that does not
 * (wrangler) bundles it inline and it loads at once. A failed load is retried on the next use.
 */
function loadValidator(): Promise<ValidatorModule> {
  loadingValidator ??= import('@cfworker/json-schema').then(
    (module) => {
      validatorModule = module;
      return module;
    },
    (error: unknown) => {
      loadingValidator = undefined;
      throw error;
    },
  );
  return loadingValidator;
}

/**
 * Wraps a raw JSON Schema (for dynamic tools: MCP, user-defined, loaded at run time) so the
 * executor can validate it with `@cfworker/json-schema`, which never uses `eval`. Validation is synchronous once
 * the validator has loaded (it starts loading here); a call that comes first waits for it (the Standard Schema
 * `validate` may return a promise, and the executor awaits one).
 */
/* @__NO_SIDE_EFFECTS__ */
export function jsonSchema<T = unknown>(schema: JsonSchema, options: { draft?: '4' | '7' | '2019-09' | '2020-12' } = {}): JsonSchemaValidator<T> {
  let validator: Validator | undefined;
  const { $schema: _drop, ...forModel } = schema;
  const check = (module: ValidatorModule, value: unknown): StandardSchemaV1.Result<T> => {
    validator ??= new module.Validator(schema as never, options.draft ?? '7', false);
    const result = validator.validate(value);
    if (result.valid) return { value: value as T };
    const leaves = result.errors.filter((e) => !WRAPPER_KEYWORDS.has(e.keyword));
    const errors = leaves.length > 0 ? leaves : result.errors;
    return { issues: errors.map((e) => ({ message: e.error, path: pointerToPath(e.instanceLocation) })) };
  };
  if (validatorModule === undefined) loadValidator().catch(() => {}); // a failure surfaces on the first validation
  return {
    jsonSchema: forModel,
    '~standard': {
      version: 1,
      vendor: 'edgetool.json-schema',
      validate(value: unknown): StandardSchemaV1.Result<T> | Promise<StandardSchemaV1.Result<T>> {
        return validatorModule === undefined ? loadValidator().then((module) => check(module, value)) : check(validatorModule, value);
      },
    },
  };
}

/** True for schemas made by {@link jsonSchema}. */
export function isJsonSchemaValidator(value: unknown): value is JsonSchemaValidator {
  return typeof value === 'object' && value !== null && 'jsonSchema' in value && '~standard' in value;
}
