import { defineInterceptor } from '../chain/interceptor.ts';
import type { ToolInterceptor } from '../chain/types.ts';
import { contextKey, type ContextKey } from '../context/context-key.ts';

/** The input with sensitive fields masked: what traces and logs may record instead of `ctx.input`. */
export const redactedInputKey: ContextKey<unknown> = contextKey<unknown>('edgetool.redacted-input');

/**
 * Returns a deep copy of `value` with every property named in `fields` replaced (any depth). Objects with `toJSON`
 * (a `Date`) are copied as the JSON the model reads of them.
 */
export function redactValue(value: unknown, fields: ReadonlySet<string>, replacement = '[redacted]'): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, fields, replacement));
  if (typeof value !== 'object' || value === null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    const json: unknown = (value as { toJSON(): unknown }).toJSON();
    return json === value ? json : redactValue(json, fields, replacement);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = fields.has(key) ? replacement : redactValue((value as Record<string, unknown>)[key], fields, replacement);
    Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Keeps named sensitive fields (passwords, tokens, card numbers) out of traces, logs and the model:
 * records a masked copy of the input under {@link redactedInputKey} and masks the same fields in
 * the output. The tool itself still receives the real input. A call that fails before the chain runs (bad JSON,
 * invalid arguments) reaches `onTrace` masked too: field by field, or wholly when its arguments are not JSON.
 */
/* @__NO_SIDE_EFFECTS__ */
export function redact(options: { readonly fields: readonly string[]; readonly replacement?: string }): ToolInterceptor {
  const fields = new Set(options.fields);
  const replacement = options.replacement ?? '[redacted]';
  const interceptor = defineInterceptor('redact', async (ctx, next) => {
    ctx.set(redactedInputKey, redactValue(ctx.input, fields, replacement));
    const outcome = await next();
    return outcome.type === 'success' ? { type: 'success', output: redactValue(outcome.output, fields, replacement) } : outcome;
  });
  // Arguments that are not JSON cannot be masked field by field: the whole text is masked.
  return { ...interceptor, redactInput: (input: unknown) => (typeof input === 'string' ? replacement : redactValue(input, fields, replacement)) };
}
