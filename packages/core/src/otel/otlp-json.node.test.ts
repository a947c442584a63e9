// Node-only: our OTLP JSON against OpenTelemetry's own. The same calls are replayed through the official JS SDK
// (@opentelemetry/sdk-trace's tracer, with the ids ours derived fed through its IdGenerator, and times, parents,
// attributes and statuses worked out here from the trace records, not from our output), serialized by
// @opentelemetry/otlp-transformer's JsonTraceSerializer, and compared field by field with what `toOtlpTraces` makes.
// Two differences are allowed, both the proto3 JSON mapping's own latitude: fields at their default value (empty
// lists, zero counts) may be left out, and a 64-bit integer may be a string (ours, as the mapping writes it) or a
// number (theirs). These packages are devDependencies of @edgetool/core only.
import { readFileSync } from 'node:fs';
import { type AnyValue, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, TraceFlags, trace as otelTrace } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { InterceptorFn } from '../chain/types.ts';
import { createRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { redact } from '../interceptors/redact.ts';
import type { TraceRecord } from '../interceptors/trace.ts';
import { defineTool } from '../tool/define-tool.ts';
import { type RecordTime, toOtlpTraces } from './otlp-json.ts';
import { SCOPE } from './record-spans.ts';
import { parseTraceparent, setTraceparent } from './trace-context.ts';

const ORIGIN_MS = 1_795_000_000_000;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const RESOURCE = { 'service.name': 'orders', 'deployment.environment.name': 'test' };

let attempt = 0;
const tools = [
  defineTool({
    name: 'refund',
    description: 'Refunds an order.',
    input: v.object({ order_id: v.string(), amount: v.number(), card: v.string(), tags: v.array(v.string()), note: v.nullable(v.string()) }),
    execute: ({ order_id }, ctx) => {
      ctx.reportUsage({ inputTokens: 310, outputTokens: 12, totalTokens: 322, cachedInputTokens: 256, reasoningTokens: 4 });
      return `Refunded ${order_id}`;
    },
  }),
  defineTool({
    name: 'broken',
    description: '',
    input: v.object({}),
    execute: (_input, ctx) => {
      ctx.reportUsage({ inputTokens: 90 });
      return Promise.reject(new Error('db down'));
    },
  }),
  defineTool({
    name: 'flaky',
    description: '',
    input: v.object({}),
    policy: { effects: 'read', retries: 1 },
    execute: () => {
      if (attempt++ % 2 === 0) throw new Error('try again');
      return 'ok';
    },
  }),
];

/** Calls of every shape, taken from an executor with a clock that steps 1 ms per read: exact, whole-millisecond times. */
async function takeRecords(): Promise<{ records: TraceRecord[]; takenAt: RecordTime }> {
  let t = 0;
  const clock = () => ++t;
  const records: TraceRecord[] = [];
  const auth: InterceptorFn = (_ctx, next) => next();
  const audit: InterceptorFn = (_ctx, next) => next();
  const executor = createExecutor({ registry: tools, interceptors: [audit, redact({ fields: ['card'] }), auth], onTrace: (r) => records.push(r), clock });
  const parented = createRunContext({ conversationId: 'conv-1' });
  setTraceparent(parented, TRACEPARENT);
  const plain = createRunContext({ conversationId: 'conv-2' });
  const refund = { order_id: 'A-1001', amount: 25.5, card: '4111', tags: ['vip', 'eu'], note: null };
  await executor.execute({ id: 'call_1', name: 'refund', arguments: refund }, { run: parented });
  await executor.execute({ id: 'call_2', name: 'broken', arguments: {} }, { run: parented });
  await executor.execute({ id: 'call_3', name: 'flaky', arguments: {} }, { run: plain });
  await executor.execute({ id: 'call_4', name: 'refund', arguments: { order_id: 7 } }, { run: plain });
  return { records, takenAt: { unixMs: ORIGIN_MS + t + 1, clock: t + 1 } };
}

const hrTime = (ms: number): [number, number] => [Math.floor(ms / 1000), (ms % 1000) * 1_000_000];

/**
 * Replays the records through the OTel SDK: each call's span, then its layers, each started and ended at the times the
 * record gives, under the parent its depth gives. `ids` are the span and trace ids in our output's order.
 */
async function replay(records: readonly TraceRecord[], takenAt: RecordTime, ids: readonly { traceId: string; spanId: string }[]): Promise<unknown> {
  const exporter = new InMemorySpanExporter();
  let next = 0;
  const provider = new TracerProvider({
    resource: resourceFromAttributes(RESOURCE),
    idGenerator: { generateTraceId: () => ids[next]?.traceId ?? '', generateSpanId: () => ids[next]?.spanId ?? '' },
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer(SCOPE.name, SCOPE.version);
  const unix = (clockMs: number) => hrTime(takenAt.unixMs - takenAt.clock + clockMs);
  const error = (code: string | undefined) => ({ code: SpanStatusCode.ERROR, message: code ?? 'error' });

  for (const record of records) {
    const parent = parseTraceparent(record.traceId);
    const context = parent === undefined ? ROOT_CONTEXT : otelTrace.setSpanContext(ROOT_CONTEXT, { traceId: parent.traceId, spanId: parent.parentId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const ends = record.spans.map((s) => s.start + s.duration);
    const start = record.spans.length ? Math.min(...record.spans.map((s) => s.start)) : takenAt.clock;
    const end = record.spans.length ? Math.max(...ends) : takenAt.clock;
    const attributes: Record<string, AnyValue> = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': record.toolName,
      'gen_ai.tool.call.id': record.callId,
      'gen_ai.conversation.id': record.conversationId,
      'edgetool.outcome': record.outcome,
      'edgetool.attempts': record.attempts,
      // The SDK takes structured attributes (OTEP 4485) as plain JSON values.
      'gen_ai.tool.call.arguments': JSON.parse(JSON.stringify(record.input)) as AnyValue,
    };
    if (record.outcome === 'error') Object.assign(attributes, { 'error.type': record.errorCode, 'edgetool.error.code': record.errorCode });
    const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens, totalTokens } = record.usage ?? {};
    const usage = {
      'gen_ai.usage.input_tokens': inputTokens,
      'gen_ai.usage.output_tokens': outputTokens,
      'gen_ai.usage.cache_read.input_tokens': cachedInputTokens,
      'gen_ai.usage.reasoning.output_tokens': reasoningTokens,
      'edgetool.usage.total_tokens': totalTokens,
    };
    for (const [key, count] of Object.entries(usage)) if (count !== undefined) attributes[key] = count;
    const call = tracer.startSpan(`execute_tool ${record.toolName}`, { kind: SpanKind.INTERNAL, attributes, startTime: unix(start) }, context);
    if (record.outcome === 'error') call.setStatus(error(record.errorCode));
    call.end(unix(end));
    next++;
    const open: Span[] = [];
    for (const layer of record.spans) {
      open.length = layer.depth;
      const layerAttributes: Record<string, AnyValue> = { 'edgetool.layer.kind': layer.kind, 'edgetool.outcome': layer.outcome };
      if (layer.outcome === 'error') Object.assign(layerAttributes, { 'error.type': layer.errorCode, 'edgetool.error.code': layer.errorCode });
      const span = tracer.startSpan(layer.name, { kind: SpanKind.INTERNAL, attributes: layerAttributes, startTime: unix(layer.start) }, otelTrace.setSpan(ROOT_CONTEXT, open.at(-1) ?? call));
      if (layer.outcome === 'error') span.setStatus(error(layer.errorCode));
      span.end(unix(layer.start + layer.duration));
      open[layer.depth] = span;
      next++;
    }
  }
  await provider.forceFlush();
  return JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())));
}

/** Leaves out what proto3 JSON treats as absent (default values), writes integers as strings, sorts attributes by key. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || (Array.isArray(item) && item.length === 0) || (key.startsWith('dropped') && item === 0)) continue;
    out[key] = key === 'intValue' ? String(item) : normalize(item);
  }
  if (Array.isArray(out.attributes)) out.attributes = [...(out.attributes as { key: string }[])].sort((a, b) => a.key.localeCompare(b.key));
  return out;
}

describe('toOtlpTraces against the OpenTelemetry JS SDK and its OTLP JSON serializer', () => {
  it('encodes the same spans field by field: ids, parents, flags, times, attributes (structured input included), statuses', async () => {
    const { records, takenAt } = await takeRecords();
    expect(records.map((r) => `${r.toolName}:${r.outcome}:${r.spans.length}`)).toEqual(['refund:success:4', 'broken:error:4', 'flaky:success:6', 'refund:error:0']);
    const ours = toOtlpTraces(records, { serviceName: RESOURCE['service.name'], resource: RESOURCE, takenAt, exportInput: true });
    const spans = ours.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(spans).toHaveLength(4 + 14);
    const theirs = await replay(records, takenAt, spans);
    expect(normalize(ours)).toEqual(normalize(theirs));
    // The comparison saw something: the request's trace, a remote parent, an error, a structured value.
    const text = JSON.stringify(theirs);
    for (const part of ['4bf92f3577b34da6a3ce929d0e0e4736', '"parentSpanId":"00f067aa0ba902b7"', '"flags":769', '"code":2', 'kvlistValue', '"stringValue":"[redacted]"', '"doubleValue":25.5', 'gen_ai.usage.cache_read.input_tokens']) {
      expect(text).toContain(part);
    }
  });

  it('names the scope with the package’s own version', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    expect(SCOPE).toEqual({ name: manifest.name, version: manifest.version });
  });
});
