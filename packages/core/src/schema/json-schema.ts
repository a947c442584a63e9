import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from './input-schema.ts';

/** A raw JSON Schema that also validates as a Standard Schema (eval-free, safe in Workers). */
export interface JsonSchemaValidator<T = unknown> extends StandardSchemaV1<unknown, T> {
  readonly jsonSchema: JsonSchema;
}

type ValidatorModule = typeof import('./json-schema-validator.ts') & { readonly cfworker: typeof import('@cfworker/json-schema') };

let validatorModule: ValidatorModule | undefined;
let loadingValidator: Promise<ValidatorModule> | undefined;

/**
 * Loads `@cfworker/json-schema` and the pattern guard once, when a raw JSON Schema is first made. A bundler that
 * splits code (Vite, for a browser) keeps them (about 27 KB minified) out of the page's first load; one that does not
 * (wrangler) bundles them inline and they load at once. A failed load is retried on the next use.
 */
function loadValidator(): Promise<ValidatorModule> {
  loadingValidator ??= Promise.all([import('@cfworker/json-schema'), import('./json-schema-validator.ts')]).then(
    ([cfworker, module]) => {
      validatorModule = { ...module, cfworker };
      return validatorModule;
    },
    (error: unknown) => {
      loadingValidator = undefined;
      throw error;
    },
  );
  return loadingValidator;
}

/** Options of {@link jsonSchema}. */
export interface JsonSchemaOptions {
  /** The JSON Schema draft to validate by (default `'7'`). */
  readonly draft?: '4' | '7' | '2019-09' | '2020-12';
  /**
   * Run `pattern`s and `patternProperties` on the engine's own (backtracking) matcher, as written, with nothing refused.
   * Only for schemas you wrote: a pattern such as `^(a+)+$` lets one argument block the isolate for hours.
   */
  readonly trustPatterns?: boolean;
}

/**
 * Wraps a raw JSON Schema (for dynamic tools: MCP, user-defined, loaded at run time) so the
 * executor can validate it with `@cfworker/json-schema`, which never uses `eval`. Validation is synchronous once
 * the validator has loaded (it starts loading here); a call that comes first waits for it (the Standard Schema
 * `validate` may return a promise, and the executor awaits one). Its `pattern`s run on a linear-time matcher with the
 * engine's exact answers, and a pattern that matcher cannot run and the engine could backtrack on for long is refused
 * (each validation fails with an issue that names it), unless `trustPatterns`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function jsonSchema<T = unknown>(schema: JsonSchema, options: JsonSchemaOptions = {}): JsonSchemaValidator<T> {
  let validate: ((value: unknown) => StandardSchemaV1.Result<T>) | undefined;
  const { $schema: _drop, ...forModel } = schema;
  const check = (module: ValidatorModule, value: unknown): StandardSchemaV1.Result<T> => {
    validate ??= module.createValidator<T>({ cfworker: module.cfworker, schema, draft: options.draft ?? '7', trustPatterns: options.trustPatterns === true });
    return validate(value);
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
