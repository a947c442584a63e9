// Internal: trace records → OTLP spans, shared by `toOtlpTraces` and the exporter. Not part of the public API.
import type { ToolSpan } from '../chain/types.ts';
import type { TraceRecord } from '../interceptors/trace.ts';
import { sha256 } from '../tickets/hmac-sha256.ts';
import type { OtlpAnyValue, OtlpKeyValue, OtlpSpan, OtlpSpanOptions, OtlpTraceRequest, RecordTime } from './otlp-json.ts';
import { parseTraceparent } from './trace-context.ts';

/** The instrumentation scope of every span: this package (kept equal to package.json's version by a test). */
export const SCOPE = { name: '@edgetool/core', version: '0.1.0' } as const;

const KIND_INTERNAL = 1;
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;
const FLAG_SAMPLED = 0x01;
/** OTLP span flags: the parent's remoteness is known (bit 8), and it is remote (bit 9). */
const FLAG_HAS_IS_REMOTE = 0x100;
const FLAG_IS_REMOTE = 0x200;
const DEFAULT_MAX_INPUT_LENGTH = 4096;
/** A call's reported tokens (`TraceRecord.usage`) and the attributes they go in: GenAI's, and ours for the total (GenAI has none). */
const USAGE_ATTRIBUTES = [
  ['inputTokens', 'gen_ai.usage.input_tokens'],
  ['outputTokens', 'gen_ai.usage.output_tokens'],
  ['cachedInputTokens', 'gen_ai.usage.cache_read.input_tokens'],
  ['reasoningTokens', 'gen_ai.usage.reasoning.output_tokens'],
  ['totalTokens', 'edgetool.usage.total_tokens'],
] as const;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const HEX32 = /^[0-9a-fA-F]{32}$/;
const ZEROS = /^0+$/;
const encoder = /* @__PURE__ */ new TextEncoder();

/** Now, on the wall clock and on `performance.now()` (the executor's default span clock). */
export function recordTimeNow(clock: () => number = () => performance.now(), now: () => number = Date.now): RecordTime {
  return { unixMs: now(), clock: clock() };
}

/** The first `bytes` bytes of SHA-256(`text`) as hex; never all zeros (an invalid id in OTLP and W3C Trace Context). */
function derivedId(text: string, bytes: number): string {
  const digest = sha256(encoder.encode(text));
  let hex = '';
  for (let i = 0; i < bytes; i++) hex += (digest[i] as number).toString(16).padStart(2, '0');
  return ZEROS.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/**
 * The OTel trace of a record: a `traceparent` (`setTraceparent`) gives its trace id and the remote parent span; a
 * UUID (the `trace()` interceptor's default) or 32 hex digits are the trace id; anything else (a call id, which is the
 * default) is hashed with the conversation id, so equal call ids of two conversations do not share a trace.
 */
function traceOf(record: TraceRecord): { traceId: string; parentSpanId: string | undefined; flags: number } {
  const parent = parseTraceparent(record.traceId);
  if (parent !== undefined) return { traceId: parent.traceId, parentSpanId: parent.parentId, flags: parent.flags };
  const hex = UUID.test(record.traceId) || HEX32.test(record.traceId) ? record.traceId.replaceAll('-', '').toLowerCase() : '';
  // A sub-agent's call shares its agent call's trace id, hashed with the conversation that call's trace id was given in.
  const conversationId = record.parent?.traceConversationId ?? record.conversationId;
  const traceId = hex !== '' && !ZEROS.test(hex) ? hex : derivedId(`${conversationId}\n${record.traceId}`, 16);
  return { traceId, parentSpanId: undefined, flags: FLAG_SAMPLED };
}

/**
 * The id of span `index` of a run of a call (0: its `execute_tool` span, then its layers in order), from its trace, its
 * conversation, its id and its start on the span clock: the span of an agent call that a sub-agent's call names as its
 * parent (`TraceRecord.parent`) is found again from the sub-agent's record alone.
 */
function spanIdOf(traceId: string, conversationId: string, callId: string, start: number, index: number): string {
  return derivedId(`${traceId}\n${conversationId}\n${callId}\n${start}\n${index}`, 8);
}

/** Unix milliseconds (with a fraction) as Unix nanoseconds in a decimal string, to the microsecond (finer digits are noise). */
export function unixNanos(ms: number): string {
  if (!(ms > 0)) return '0';
  let whole = Math.floor(ms);
  let micros = Math.round((ms - whole) * 1000);
  if (micros === 1000) {
    whole += 1;
    micros = 0;
  }
  return whole === 0 ? String(micros * 1000) : `${whole}${String(micros).padStart(3, '0')}000`;
}

/** A JSON-like value as an OTLP `AnyValue`, as `JSON.stringify` would see it (`toJSON`, dropped `undefined` fields). */
function anyValue(value: unknown): OtlpAnyValue {
  let v = value;
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON(): unknown }).toJSON();
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isSafeInteger(v) ? { intValue: String(v) } : Number.isFinite(v) ? { doubleValue: v } : {};
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  if (typeof v !== 'object' || v === null) return {};
  const values: OtlpKeyValue[] = [];
  for (const key of Object.keys(v)) {
    const item = (v as Record<string, unknown>)[key];
    if (item !== undefined && typeof item !== 'function' && typeof item !== 'symbol') values.push({ key, value: anyValue(item) });
  }
  return { kvlistValue: { values } };
}

/** The input attribute's value: structured, or the start of its JSON text when that is too long; none when it has no JSON form. */
function inputValue(input: unknown, maxLength: number): OtlpAnyValue | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  if (text.length <= maxLength) return anyValue(input);
  // Never half of a surrogate pair at the cut: a lone surrogate is no UTF-8 text, which OTLP's strings must be.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
  return { stringValue: `${text.slice(0, end)}…` };
}

const str = (key: string, value: string): OtlpKeyValue => ({ key, value: { stringValue: value } });

/**
 * The spans of one finished call: its `execute_tool` span, then one per layer in the order the layers started, each
 * the child of the nearest earlier layer one level out (`depth`), the outermost ones children of the call's span.
 * `at` is when the record was taken: it maps span times to Unix time, and ends layers still running then (a layer a
 * timeout or an abort left behind) and the span of a call refused before its chain ran (it has no layers).
 */
export function recordSpans(record: TraceRecord, at: RecordTime, options: OtlpSpanOptions): OtlpSpan[] {
  const trace = traceOf(record);
  const { traceId, flags } = trace;
  // A sub-agent's call is the child of the layer of its agent call that ran it (the request's span is that call's parent).
  const within = record.parent?.span;
  const local = within !== undefined && record.parent !== undefined;
  const parentSpanId = local ? spanIdOf(traceId, record.parent.conversationId, record.parent.callId, within.start, within.index + 1) : trace.parentSpanId;
  const origin = at.unixMs - at.clock;
  const layers: readonly ToolSpan[] = record.spans;
  const endOf = (span: ToolSpan) => Math.max(span.start, span.outcome === 'running' ? at.clock : span.start + span.duration);
  let start = at.clock;
  let end = at.clock;
  if (layers.length > 0) {
    start = Math.min(...layers.map((span) => span.start));
    end = Math.max(...layers.map(endOf));
  }
  const startNanos = unixNanos(origin + start);
  const spanId = (index: number) => spanIdOf(traceId, record.conversationId, record.callId, start, index);
  const callSpanId = spanId(0);

  const error = record.outcome === 'error' ? (record.errorCode ?? 'error') : undefined;
  const attributes: OtlpKeyValue[] = [str('gen_ai.operation.name', 'execute_tool'), str('gen_ai.tool.name', record.toolName), str('gen_ai.tool.call.id', record.callId)];
  if (record.conversationId !== '') attributes.push(str('gen_ai.conversation.id', record.conversationId));
  attributes.push(str('edgetool.outcome', record.outcome), { key: 'edgetool.attempts', value: { intValue: String(record.attempts) } });
  for (const [field, key] of USAGE_ATTRIBUTES) {
    const count = record.usage?.[field];
    if (count !== undefined) attributes.push({ key, value: anyValue(count) });
  }
  if (error !== undefined) attributes.push(str('error.type', error), str('edgetool.error.code', error));
  if (options.exportInput === true) {
    const input = inputValue(record.input, options.maxInputLength ?? DEFAULT_MAX_INPUT_LENGTH);
    if (input !== undefined) attributes.push({ key: 'gen_ai.tool.call.arguments', value: input });
  }
  const spans: OtlpSpan[] = [
    {
      traceId,
      spanId: callSpanId,
      ...(parentSpanId === undefined ? {} : { parentSpanId }),
      name: `execute_tool ${record.toolName}`,
      kind: KIND_INTERNAL,
      startTimeUnixNano: startNanos,
      endTimeUnixNano: unixNanos(origin + end),
      attributes,
      status: error === undefined ? { code: STATUS_UNSET } : { code: STATUS_ERROR, message: error },
      flags: (flags & 0xff) | FLAG_HAS_IS_REMOTE | (parentSpanId === undefined || local ? 0 : FLAG_IS_REMOTE),
    },
  ];

  // The open layers, outermost first: a layer's parent is the last one opened one level out.
  const open: string[] = [];
  layers.forEach((layer, i) => {
    const id = spanId(i + 1);
    open.length = Math.min(open.length, layer.depth);
    const layerError = layer.outcome === 'error' ? (layer.errorCode ?? 'error') : undefined;
    const layerAttributes = [str('edgetool.layer.kind', layer.kind), str('edgetool.outcome', layer.outcome)];
    if (layerError !== undefined) layerAttributes.push(str('error.type', layerError), str('edgetool.error.code', layerError));
    spans.push({
      traceId,
      spanId: id,
      parentSpanId: open.at(-1) ?? callSpanId,
      name: layer.name,
      kind: KIND_INTERNAL,
      startTimeUnixNano: unixNanos(origin + layer.start),
      endTimeUnixNano: unixNanos(origin + endOf(layer)),
      attributes: layerAttributes,
      status: layerError === undefined ? { code: STATUS_UNSET } : { code: STATUS_ERROR, message: layerError },
      flags: (flags & 0xff) | FLAG_HAS_IS_REMOTE,
    });
    open[layer.depth] = id;
  });
  return spans;
}

/** The export request for `spans`: one resource (this service), one scope (this package); none without spans (OTLP asks for no empty envelopes). */
export function traceRequest(spans: readonly OtlpSpan[], options: OtlpSpanOptions): OtlpTraceRequest {
  if (spans.length === 0) return { resourceSpans: [] };
  const attributes: OtlpKeyValue[] = [str('service.name', options.serviceName)];
  for (const [key, value] of Object.entries(options.resource ?? {})) if (key !== 'service.name') attributes.push({ key, value: anyValue(value) });
  return { resourceSpans: [{ resource: { attributes }, scopeSpans: [{ scope: SCOPE, spans }] }] };
}
