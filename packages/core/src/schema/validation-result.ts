// Not in the barrel: what a Standard Schema's `validate` returned, read for `validateWithSchema` and the executor.
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ValidationResult } from './input-schema.ts';
import { formatIssuePath } from './issue-path.ts';

/**
 * A schema's result as `validateWithSchema` returns it: a thenable (a polyfill's or another realm's promise) is awaited;
 * one that is neither `{ value }` nor `{ issues }` throws a `TypeError`.
 */
export function validationOf<T>(result: unknown): ValidationResult<T> | Promise<ValidationResult<T>> {
  const then = typeof result === 'object' && result !== null ? (result as { then?: unknown }).then : undefined;
  return typeof then === 'function' ? Promise.resolve(result).then(toValidationResult<T>) : toValidationResult<T>(result);
}

/** What {@link passedValue} returns for a result that is not a synchronous pass. */
export const NOT_PASSED: unique symbol = Symbol('not passed');

/**
 * The value of a synchronous pass (`{ value }` with no `issues`, not a thenable), read with no result object made for it
 * (the executor's common case); {@link NOT_PASSED} for anything else, which {@link validationOf} reads.
 */
export function passedValue(result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return NOT_PASSED;
  const { then, issues } = result as { then?: unknown; issues?: unknown };
  return typeof then === 'function' || issues !== undefined || !('value' in result) ? NOT_PASSED : (result as { value: unknown }).value;
}

/** A schema's result, checked: a schema that answers anything else must not read as a pass (its input would be `undefined`). */
function toValidationResult<T>(result: unknown): ValidationResult<T> {
  if (typeof result !== 'object' || result === null) throw new TypeError(`the schema returned ${result === null ? 'null' : typeof result}, not a result`);
  const { issues } = result as { issues?: unknown };
  if (issues === undefined) {
    if (!('value' in result)) throw new TypeError('the schema returned neither a value nor issues');
    return { ok: true, value: (result as { value: T }).value };
  }
  if (!Array.isArray(issues)) throw new TypeError('the schema returned issues that are not a list');
  return {
    ok: false,
    issues: issues.map((issue: StandardSchemaV1.Issue) => ({ path: formatIssuePath(issue.path), message: issue.message })),
  };
}
