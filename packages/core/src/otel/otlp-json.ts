import type { TraceRecord } from '../interceptors/trace.ts';
import { recordSpans, recordTimeNow, traceRequest } from './record-spans.ts';

/** An OTLP `AnyValue` in the JSON encoding (`{}` is null). 64-bit integers are decimal strings. */
export type OtlpAnyValue =
  | { readonly stringValue: string }
  | { readonly boolValue: boolean }
  | { readonly intValue: string }
  | { readonly doubleValue: number }
  | { readonly arrayValue: { readonly values: readonly OtlpAnyValue[] } }
  | { readonly kvlistValue: { readonly values: readonly OtlpKeyValue[] } }
  | { readonly [key: string]: never };

/** An OTLP attribute: a key and its value. */
export interface OtlpKeyValue {
  readonly key: string;
  readonly value: OtlpAnyValue;
}

/** One OTLP span in the JSON encoding; fields at their default value (no events, no links, nothing dropped) are left out. */
export interface OtlpSpan {
  /** 32 lowercase hex digits. */
  readonly traceId: string;
  /** 16 lowercase hex digits. */
  readonly spanId: string;
  /**
   * The parent span: the enclosing layer, the call's span, the request's span from its `traceparent`, or for a call of an
   * agent tool's sub-agent (`TraceRecord.parent`) the layer of the agent call that ran it (its `execute`).
   */
  readonly parentSpanId?: string;
  readonly name: string;
  /** `SPAN_KIND_INTERNAL` (1), as the GenAI conventions ask of `execute_tool` spans. */
  readonly kind: number;
  /** Unix time in nanoseconds, as a decimal string. */
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: readonly OtlpKeyValue[];
  /** `STATUS_CODE_ERROR` (2) with the error code as its message for a failed call or layer; else unset (0). */
  readonly status: { readonly code: number; readonly message?: string };
  /** The W3C trace flags (bits 0–7), and bits 8 and 9: whether the parent is known to be remote, and is. */
  readonly flags: number;
}

/** The body of an OTLP/HTTP `POST /v1/traces` in the JSON encoding (an `ExportTraceServiceRequest`). */
export interface OtlpTraceRequest {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: readonly OtlpKeyValue[] };
    readonly scopeSpans: readonly {
      readonly scope: { readonly name: string; readonly version: string };
      readonly spans: readonly OtlpSpan[];
    }[];
  }[];
}

/** What the spans of trace records are made with, beside the records. */
export interface OtlpSpanOptions {
  /** The resource's `service.name`: how the tracing backend names this app. */
  readonly serviceName: string;
  /** More resource attributes (`service.version`, `deployment.environment.name`, …). */
  readonly resource?: Readonly<Record<string, string | number | boolean>> | undefined;
  /**
   * Export each call's input as `gen_ai.tool.call.arguments` (default `false`: inputs may hold personal data). The
   * input is the record's: `redact()`'s masked copy when the call's chain has one, else the input itself.
   */
  readonly exportInput?: boolean | undefined;
  /** The longest input, as JSON text, exported as a structured value; a longer one becomes its text cut to this length (default 4,096). */
  readonly maxInputLength?: number | undefined;
}

/**
 * The moment trace records were taken, on the wall clock (`unixMs`, `Date.now()`) and on the clock their spans were
 * timed with (`clock`, `performance.now()` unless the executor was given another). It maps span times to Unix time.
 */
export interface RecordTime {
  readonly unixMs: number;
  readonly clock: number;
}

/**
 * Turns finished calls' trace records into the body of an OTLP/HTTP JSON export (`ExportTraceServiceRequest`): per
 * call an `execute_tool <tool>` span, and inside it a span per layer of its chain (interceptors, then the tool's own
 * `execute`), nested as the onion ran; a sub-agent's call under the agent call that made it. A pure function of its arguments: `takenAt` places the spans in Unix time
 * (default: now, so convert records when they are taken; `createOtlpExporter` takes the time of each one).
 */
export function toOtlpTraces(records: readonly TraceRecord[], options: OtlpSpanOptions & { readonly takenAt?: RecordTime | undefined }): OtlpTraceRequest {
  const at = options.takenAt ?? recordTimeNow();
  return traceRequest(
    records.flatMap((record) => recordSpans(record, at, options)),
    options,
  );
}
