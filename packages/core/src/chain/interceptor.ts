import { ToolError } from '../errors/tool-error.ts';
import type { InterceptorFn, InterceptorLike, ToolInterceptor, ToolOutcome } from './types.ts';

/**
 * Defines a named interceptor. Set `reentrant` only if it must call `next()` again (retry),
 * `abandons` only if it may return before its `next()` settles (timeout), and `traces` if it reads the
 * call's spans (the executor then times every layer of the chains it is in).
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineInterceptor<TInput = unknown, TOutput = unknown, TDeps = unknown>(
  name: string,
  intercept: InterceptorFn<TInput, TOutput, TDeps>,
  options: { reentrant?: boolean; abandons?: boolean; traces?: boolean } = {},
): ToolInterceptor<TInput, TOutput, TDeps> {
  return { kind: 'edgetool.interceptor', name, reentrant: options.reentrant ?? false, abandons: options.abandons ?? false, traces: options.traces ?? false, intercept };
}

/** Normalises a bare function into a named interceptor. */
export function toInterceptor<TInput, TOutput, TDeps>(value: InterceptorLike<TInput, TOutput, TDeps>): ToolInterceptor<TInput, TOutput, TDeps> {
  if (typeof value === 'function') return defineInterceptor(value.name || 'anonymous', value);
  if (value && value.kind === 'edgetool.interceptor' && typeof value.intercept === 'function') return value;
  throw new TypeError('An interceptor must be a function or made with defineInterceptor().');
}

/** A success outcome. */
export function success<T>(output: T): ToolOutcome<T> {
  return { type: 'success', output };
}

/** An error outcome. */
export function failure(error: ToolError): ToolOutcome<never> {
  return { type: 'error', error };
}

/** True for a well-formed outcome object (interceptors are user code: check what they return). */
export function isOutcome(value: unknown): value is ToolOutcome {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  if (type === 'error') return ToolError.isInstance((value as { error?: unknown }).error);
  return type === 'success' || type === 'approval-required' || type === 'client-pending';
}
