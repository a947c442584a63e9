import type { ToolCallResult } from '@edgetool/core';
import { knownCounts, MAX_TRACE_SUB_CALLS, type MessageUsage, type SubCallTraceData, type TracePartData, traceOf } from '@edgetool/ai';

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
  /** An agent tool's call on the server: the calls its sub-agent made (at most `MAX_TRACE_SUB_CALLS` in all). */
  readonly calls?: readonly SubCallTraceData[];
  /** How many of those calls the server left out. */
  readonly omittedCalls?: number;
}

/** The trace of a finished browser-side call. */
export function traceOfResult(result: ToolCallResult): CallTrace {
  return traceOf(result, 'client');
}

/**
 * The trace a server sent in a `data-edgetool-trace` part. The part may hold anything (a server that is not ours, a
 * stored or edited history): what a timeline draws is checked, a span of the wrong shape is left out, and a field of the
 * wrong type reads as unknown, so that drawing it cannot fail (a `spans` that is no list, a `null` span, an `errorCode`
 * that is an object and a `null` token count each threw while the card rendered, and the page went blank).
 */
export function traceOfPart(data: TracePartData): CallTrace {
  const part = data as Partial<Record<keyof TracePartData, unknown>>;
  const trace: CallTrace = {
    side: part.side === 'client' ? 'client' : 'server',
    outcome: typeof part.outcome === 'string' ? (part.outcome as CallTrace['outcome']) : 'success',
    errorCode: typeof part.errorCode === 'string' ? part.errorCode : undefined,
    durationMs: typeof part.durationMs === 'number' && Number.isFinite(part.durationMs) ? part.durationMs : 0,
    spans: readSpans(part.spans),
  };
  const usage = typeof part.usage === 'object' && part.usage !== null ? knownCounts(part.usage as MessageUsage) : {};
  const withUsage = Object.keys(usage).length === 0 ? trace : { ...trace, usage };
  if (part.calls === undefined) return withUsage;
  // Only calls of the right shape, as many as a server sends.
  const budget = { left: MAX_TRACE_SUB_CALLS };
  const calls = readSubCalls(part.calls, budget);
  const omitted = leftOut(part.omittedCalls) + calls.dropped;
  return { ...withUsage, calls: calls.kept, ...(omitted > 0 ? { omittedCalls: omitted } : {}) };
}

/** A part's count of calls left out: a positive whole number, else none. */
const leftOut = (n: unknown): number => (Number.isSafeInteger(n) && (n as number) > 0 ? (n as number) : 0);

const SPAN_OUTCOMES: ReadonlySet<string> = new Set(['success', 'error', 'approval-required', 'client-pending', 'running']);

/**
 * A span as a timeline draws it (a name, a kind, a depth, a start and a duration it can lay out), or `undefined` when
 * any field is not what it should be: for spans that come from outside (a server's trace part, a saved browser state).
 */
export function readTraceSpan(value: unknown): TraceSpan | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { name, kind, depth, start, duration, outcome } = value as Record<string, unknown>;
  if (typeof name !== 'string' || (kind !== 'interceptor' && kind !== 'execute') || !Number.isSafeInteger(depth) || (depth as number) < 0) return undefined;
  if (typeof start !== 'number' || !Number.isFinite(start) || typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0) return undefined;
  if (typeof outcome !== 'string' || !SPAN_OUTCOMES.has(outcome)) return undefined;
  return { name, kind, depth: depth as number, start, duration, outcome: outcome as TraceSpan['outcome'] };
}

/** The well-formed spans of a list; none for anything else. */
const readSpans = (list: unknown): TraceSpan[] => (Array.isArray(list) ? (list as unknown[]).flatMap((span) => readTraceSpan(span) ?? []) : []);

/** The well-formed sub-calls of a part, within the budget, and how many were dropped. */
function readSubCalls(list: unknown, budget: { left: number }): { kept: SubCallTraceData[]; dropped: number } {
  const kept: SubCallTraceData[] = [];
  if (!Array.isArray(list)) return { kept, dropped: 0 };
  let dropped = 0;
  for (const item of list as unknown[]) {
    const c = item as Partial<SubCallTraceData> | null;
    if (typeof c !== 'object' || c === null || typeof c.toolName !== 'string' || typeof c.toolCallId !== 'string' || budget.left <= 0) {
      dropped += 1;
      continue;
    }
    budget.left -= 1;
    const nested = c.calls === undefined ? undefined : readSubCalls(c.calls, budget);
    const omitted = leftOut(c.omittedCalls) + (nested?.dropped ?? 0);
    kept.push({
      toolCallId: c.toolCallId,
      toolName: c.toolName,
      outcome: typeof c.outcome === 'string' ? c.outcome : 'success',
      errorCode: typeof c.errorCode === 'string' ? c.errorCode : undefined,
      durationMs: typeof c.durationMs === 'number' && Number.isFinite(c.durationMs) ? c.durationMs : 0,
      spans: readSpans(c.spans).slice(0, 32),
      ...(nested !== undefined && nested.kept.length > 0 ? { calls: nested.kept } : {}),
      ...(omitted > 0 ? { omittedCalls: omitted } : {}),
    });
  }
  return { kept, dropped };
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

/**
 * Lays out a trace's spans as bars relative to its first start and last end (widths at least 0.5%); an agent call's
 * axis spans its sub-agent's calls too (`subCallRows` lays those out on it).
 */
export function timelineBars(trace: Pick<CallTrace, 'spans'> & Partial<Pick<CallTrace, 'calls'>>): TimelineBar[] {
  if (trace.spans.length === 0) return [];
  const { start, total } = axisOf(trace);
  return barsOn(trace.spans, start, total);
}

/** The time axis of a trace: from its first start to its last end, its sub-agent's calls included. */
function axisOf(trace: Pick<CallTrace, 'spans'> & Partial<Pick<CallTrace, 'calls'>>): { start: number; total: number } {
  const all = [...trace.spans];
  const collect = (calls: readonly SubCallTraceData[]): void => {
    for (const call of calls) {
      all.push(...call.spans);
      if (call.calls !== undefined) collect(call.calls);
    }
  };
  if (trace.calls !== undefined) collect(trace.calls);
  if (all.length === 0) return { start: 0, total: 0 };
  const start = Math.min(...all.map((s) => s.start));
  return { start, total: Math.max(...all.map((s) => s.start + s.duration)) - start };
}

/** A call an agent tool's sub-agent made, as a timeline row under its agent call's own layers. */
export interface SubCallRow {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly outcome: TraceSpan['outcome'];
  readonly errorCode: string | undefined;
  readonly durationMs: number;
  /** 1 for the sub-agent's own calls, 2 for a nested agent's, and so on. */
  readonly level: number;
  /** Its layers, on the agent call's time axis (the server times both with one clock). */
  readonly bars: readonly TimelineBar[];
  /** A nested agent's calls the server left out. */
  readonly omittedCalls: number;
}

/**
 * The sub-agent calls of an agent call's trace, depth first, each with its layers as bars on the axis of the agent
 * call's own (`timelineBars`). Empty for other calls.
 */
export function subCallRows(trace: Pick<CallTrace, 'spans' | 'calls'>): SubCallRow[] {
  const rows: SubCallRow[] = [];
  if (trace.calls === undefined || trace.calls.length === 0) return rows;
  const { start, total } = axisOf(trace);
  const walk = (calls: readonly SubCallTraceData[], level: number): void => {
    for (const call of calls) {
      const { toolCallId, toolName, outcome, errorCode, durationMs } = call;
      rows.push({ toolCallId, toolName, outcome, errorCode, durationMs, level, bars: barsOn(call.spans, start, total), omittedCalls: call.omittedCalls ?? 0 });
      if (call.calls !== undefined) walk(call.calls, level + 1);
    }
  };
  walk(trace.calls, 1);
  return rows;
}

/** Spans as bars on an axis from `start`, `total` ms long. */
function barsOn(spans: readonly TraceSpan[], start: number, total: number): TimelineBar[] {
  return spans.map((span) => {
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
