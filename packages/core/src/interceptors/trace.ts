import { defineInterceptor } from '../chain/interceptor.ts';
import type { ToolContext, ToolOutcome, ToolSpan, ToolUsage } from '../chain/types.ts';
import type { ToolInterceptor } from '../chain/types.ts';
import { contextKey, type ContextKey } from '../context/context-key.ts';
import { redactedInputKey } from './redact.ts';

/**
 * The trace id of a call, shared along its chain (set by {@link trace} when missing). Set on a run, it is the trace id of
 * every call of the run that has none of its own, refused calls included (`setTraceparent` from `@edgetool/core/otel`
 * puts a request's `traceparent` there).
 */
export const traceIdKey: ContextKey<string> = contextKey<string>('edgetool.trace-id');

/** One finished call, as exported to a trace sink. */
export interface TraceRecord {
  readonly traceId: string;
  readonly callId: string;
  readonly toolName: string;
  readonly conversationId: string;
  /** The redacted input when `redact()` ran, else the input. */
  readonly input: unknown;
  readonly outcome: ToolOutcome['type'];
  readonly errorCode: string | undefined;
  readonly attempts: number;
  readonly spans: readonly ToolSpan[];
  /** The tokens the call reported spending until the record was taken (`ctx.reportUsage()`), if any. */
  readonly usage?: ToolUsage | undefined;
}

/** Builds the exportable record of a call from its context. */
export function toTraceRecord(ctx: ToolContext, outcome: ToolOutcome): TraceRecord {
  return {
    traceId: ctx.get(traceIdKey) ?? ctx.run.get(traceIdKey) ?? ctx.call.id,
    callId: ctx.call.id,
    toolName: ctx.tool.name,
    conversationId: ctx.run.conversationId,
    input: ctx.has(redactedInputKey) ? ctx.get(redactedInputKey) : ctx.input,
    outcome: outcome.type,
    errorCode: outcome.type === 'error' ? outcome.error.code : undefined,
    attempts: ctx.attempt,
    spans: ctx.spans.map((span) => ({ ...span })),
    usage: ctx.usage,
  };
}

/**
 * Gives the call a trace id (kept if an outer layer or its run set one) and exports its spans when the
 * layers inside finish. Place it outermost (global) to see every interceptor.
 */
/* @__NO_SIDE_EFFECTS__ */
export function trace(options: { readonly export: (record: TraceRecord) => void; readonly traceId?: () => string }): ToolInterceptor {
  return defineInterceptor('trace', async (ctx, next) => {
    if (!ctx.has(traceIdKey) && !ctx.run.has(traceIdKey)) ctx.set(traceIdKey, options.traceId?.() ?? crypto.randomUUID());
    const outcome = await next();
    try {
      options.export(toTraceRecord(ctx, outcome));
    } catch {
      // A broken exporter must not fail the call.
    }
    return outcome;
  }, { traces: true });
}
