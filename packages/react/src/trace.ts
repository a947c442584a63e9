import type { ToolCallResult } from '@edgetool/core';
import { type TracePartData, traceOf } from '@edgetool/ai';

/** One span of a call's chain, as a timeline shows it. */
export type TraceSpan = TracePartData['spans'][number];

/** One run of a call through an edgetool chain, on the server or in this browser. */
export interface CallTrace {
  readonly side: 'server' | 'client';
  readonly outcome: TracePartData['outcome'];
  readonly errorCode: string | undefined;
  readonly durationMs: number;
  readonly spans: readonly TraceSpan[];
  /** The tokens the call reported spending (a sub-agent, a tool that calls a model); absent when none. */
  readonly usage?: TracePartData['usage'];
}

/** The trace of a finished browser-side call. */
export function traceOfResult(result: ToolCallResult): CallTrace {
  return traceOf(result, 'client');
}

/** The trace a server sent in a `data-edgetool-trace` part. */
export function traceOfPart(data: TracePartData): CallTrace {
  const trace: CallTrace = { side: data.side, outcome: data.outcome, errorCode: data.errorCode, durationMs: data.durationMs, spans: data.spans };
  return data.usage === undefined ? trace : { ...trace, usage: data.usage };
}

/** A bar of a timeline: offset and width in percent of the trace's total span. */
export interface TimelineBar {
  readonly name: string;
  readonly kind: TraceSpan['kind'];
  readonly depth: number;
  readonly outcome: TraceSpan['outcome'];
  readonly offsetPct: number;
  readonly widthPct: number;
  readonly durationMs: number;
}

/** Lays out a trace's spans as bars relative to its first start and last end (widths at least 0.5%). */
export function timelineBars(trace: Pick<CallTrace, 'spans'>): TimelineBar[] {
  if (trace.spans.length === 0) return [];
  const start = Math.min(...trace.spans.map((s) => s.start));
  const end = Math.max(...trace.spans.map((s) => s.start + s.duration));
  const total = end - start;
  return trace.spans.map((span) => {
    const offsetPct = total > 0 ? ((span.start - start) / total) * 100 : 0;
    const widthPct = total > 0 ? Math.max((span.duration / total) * 100, 0.5) : 100;
    return {
      name: span.name,
      kind: span.kind,
      depth: span.depth,
      outcome: span.outcome,
      offsetPct: Math.min(offsetPct, 99.5),
      widthPct: Math.min(widthPct, 100 - Math.min(offsetPct, 99.5)),
      durationMs: span.duration,
    };
  });
}
