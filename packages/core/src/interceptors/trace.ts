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

/**
 * The call a forked run's work runs inside: an `agentTool`'s call, whose sub-agent runs on the fork. The trace record of
 * each call made on the fork names it (`TraceRecord.parent`), and OTel export puts their spans under its span.
 */
export interface ParentCall {
  readonly callId: string;
  readonly toolName: string;
  /** The conversation id of the run the call ran on. */
  readonly conversationId: string;
  /**
   * The conversation an OTel trace id made from a plain trace id (a call id) is derived from: the outermost run's, so
   * the calls of nested sub-agents join the same trace.
   */
  readonly traceConversationId: string;
  /**
   * Where the work runs in the call's timed layers: the call's start on its span clock (its first layer's) and the index
   * in its `spans` of the layer running it (its `execute`). Absent when the call's layers were not timed.
   */
  readonly span?: { readonly start: number; readonly index: number } | undefined;
}

/** The call a run's work runs inside, on a run forked for it (`forkRunContext`'s `parent`); unset on other runs. */
export const parentCallKey: ContextKey<ParentCall> = /* @__PURE__ */ contextKey<ParentCall>('edgetool.parent-call');

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
  /**
   * The call this one was made inside: set for the calls of an `agentTool`'s sub-agent (they run on the run
   * `forkRunContext` made for that call, with its `parent`), which also share its `traceId`. Absent for other calls.
   */
  readonly parent?: ParentCall | undefined;
}

/** Builds the exportable record of a call from its context. */
export function toTraceRecord(ctx: ToolContext, outcome: ToolOutcome): TraceRecord {
  const parent = ctx.run.get(parentCallKey);
  const record: TraceRecord = {
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
  return parent === undefined ? record : { ...record, parent };
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
