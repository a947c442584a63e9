import { defineInterceptor, failure } from '../chain/interceptor.ts';
import type { ToolInterceptor } from '../chain/types.ts';
import { contextKey, type ContextKey } from '../context/context-key.ts';
import { ToolError, toToolError } from '../errors/tool-error.ts';

/** The input with sensitive fields masked: what traces and logs may record instead of `ctx.input`. */
export const redactedInputKey: ContextKey<unknown> = contextKey<unknown>('edgetool.redacted-input');

/**
 * Returns a deep copy of `value` with every property named in `fields` replaced (any depth). Objects with `toJSON`
 * (a `Date`) are copied as the JSON the model reads of them; bytes (typed arrays, `ArrayBuffer`, `DataView`) are kept as
 * they are, for a `toModelOutput` that makes an image of them; a cycle, which JSON cannot hold, throws a `TypeError`.
 */
export function redactValue(value: unknown, fields: ReadonlySet<string>, replacement = '[redacted]'): unknown {
  return redactWithin(value, fields, replacement, new Set());
}

/** {@link redactValue}, with the objects it is inside: one met again is a cycle, which JSON cannot hold (a `TypeError`). */
function redactWithin(value: unknown, fields: ReadonlySet<string>, replacement: string, within: Set<object>): unknown {
  // Bytes have no fields to mask: copied as plain objects, they were no bytes to `toModelOutput` (every image failed).
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
  if (within.has(value)) throw new TypeError('it has a cycle, which JSON cannot hold');
  if (!Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    const json: unknown = (value as { toJSON(): unknown }).toJSON();
    return json === value ? json : redactWithin(json, fields, replacement, within);
  }
  within.add(value);
  let out: unknown;
  if (Array.isArray(value)) out = value.map((item) => redactWithin(item, fields, replacement, within));
  else {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = fields.has(key) ? replacement : redactWithin((value as Record<string, unknown>)[key], fields, replacement, within);
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    }
    out = copy;
  }
  within.delete(value);
  return out;
}

/**
 * Keeps named sensitive fields (passwords, tokens, card numbers) out of traces, logs and the model:
 * records a masked copy of the input under {@link redactedInputKey} and masks the same fields in
 * the output, a client's result (`acceptClientResult`) included. The tool itself still receives the real input. A call that fails before the chain runs (bad JSON,
 * invalid arguments) reaches `onTrace` masked too: field by field, or wholly when its arguments are not JSON.
 */
/* @__NO_SIDE_EFFECTS__ */
export function redact(options: { readonly fields: readonly string[]; readonly replacement?: string }): ToolInterceptor {
  const fields = new Set(options.fields);
  const replacement = options.replacement ?? '[redacted]';
  const interceptor = defineInterceptor('redact', async (ctx, next) => {
    ctx.set(redactedInputKey, redactValue(ctx.input, fields, replacement));
    const outcome = await next();
    if (outcome.type !== 'success') return outcome;
    try {
      return { type: 'success', output: redactValue(outcome.output, fields, replacement) };
    } catch (cause) {
      // A result JSON cannot hold either (a cycle, nesting past the stack): the tool ran, so it is the result's fault, as
      // the executor says of it without redact(), not a failed run that a model would try again.
      const reason = cause instanceof RangeError ? 'it is nested too deeply to convert to JSON' : toToolError(cause).message;
      const message = `The result of "${ctx.tool.name}" could not be converted for the model: ${reason}`;
      return failure(new ToolError('invalid-output', message, { toolName: ctx.tool.name, callId: ctx.call.id, cause, unexpected: true }));
    }
  });
  // Arguments that are not JSON cannot be masked field by field: the whole text is masked.
  return {
    ...interceptor,
    redactInput: (input: unknown) => (typeof input === 'string' ? replacement : redactValue(input, fields, replacement)),
    redactOutput: (output: unknown) => redactValue(output, fields, replacement),
  };
}
