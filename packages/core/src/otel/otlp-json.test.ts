// trace records → OTLP/HTTP JSON, on Node, workerd and Chromium. Span times come from a stepping clock given to the
// executor, so every figure here is exact; one test maps the real clocks of each runtime to Unix time.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { InterceptorFn } from '../chain/types.ts';
import { createRunContext, forkRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { redact } from '../interceptors/redact.ts';
import { type TraceRecord, trace, traceIdKey } from '../interceptors/trace.ts';
import { defineTool } from '../tool/define-tool.ts';
import { type OtlpKeyValue, type OtlpSpan, toOtlpTraces } from './otlp-json.ts';
import { SCOPE, unixNanos } from './record-spans.ts';
import { formatTraceparent, parseTraceparent, setTraceparent, type TraceParent } from './trace-context.ts';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
/** Unix time of the stepping clock's 0. */
const ORIGIN_MS = 1_795_000_000_000;

/** A span clock that moves 1 ms per read, from 100. */
function steppingClock(): () => number {
  let t = 99;
  return () => ++t;
}

const login = defineTool({
  name: 'login',
  description: 'Signs a user in.',
  input: v.object({ user: v.string(), password: v.string() }),
  execute: ({ user }) => ({ user, ok: true }),
});

/** A pass-through interceptor: one layer around the tool, so the spans have an interceptor layer to nest. */
const audit: InterceptorFn = (_ctx, next) => next();

/** Runs calls through an executor with a stepping clock; returns the records and the clock (to take them "now"). */
async function records(calls: { id: string; args: unknown; tool?: string }[], options: { interceptors?: InterceptorFn[] | Parameters<typeof createExecutor>[0]['interceptors']; traceparent?: string; conversationId?: string } = {}) {
  const clock = steppingClock();
  const taken: TraceRecord[] = [];
  const executor = createExecutor({ registry: [login, flaky, hangs], interceptors: options.interceptors ?? [audit], onTrace: (r) => taken.push(r), clock });
  const run = createRunContext({ conversationId: options.conversationId ?? 'conv-1' });
  if (options.traceparent !== undefined) setTraceparent(run, options.traceparent);
  for (const call of calls) await executor.execute({ id: call.id, name: call.tool ?? 'login', arguments: call.args }, { run });
  return { records: taken, takenAt: { unixMs: ORIGIN_MS + clock(), clock: clock() - 1 } };
}

const attrs = (span: OtlpSpan | undefined): Record<string, unknown> =>
  Object.fromEntries((span?.attributes ?? []).map(({ key, value }: OtlpKeyValue) => [key, Object.values(value)[0]]));
const nanos = (text: string | undefined) => BigInt(text ?? '0');

/** SHA-256 with WebCrypto: an implementation independent of the converter's, to check its derived ids. */
async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

let nextCall = 0;
const flaky = defineTool({
  name: 'flaky',
  description: 'Fails once, then works.',
  input: v.object({}),
  policy: { effects: 'read', retries: 1 },
  execute: () => {
    if (nextCall++ % 2 === 0) throw new Error('try again');
    return 'ok';
  },
});
const hangs = defineTool({
  name: 'hangs',
  description: 'Never ends.',
  input: v.object({}),
  policy: { effects: 'read', timeoutMs: 5 },
  execute: () => new Promise(() => {}),
});

describe('toOtlpTraces', () => {
  it('makes an execute_tool span per call and a span per layer, nested by depth, under the request’s traceparent', async () => {
    const auth: InterceptorFn = (_ctx, next) => next();
    const { records: taken, takenAt } = await records([{ id: 'c1', args: { user: 'ada', password: 'hunter2' } }], { interceptors: [audit, auth], traceparent: TRACEPARENT });
    const request = toOtlpTraces(taken, { serviceName: 'orders', resource: { 'deployment.environment.name': 'test', 'service.version': 3 }, takenAt });
    expect(request.resourceSpans).toHaveLength(1);
    const [resource] = request.resourceSpans;
    expect(resource?.resource.attributes).toEqual([
      { key: 'service.name', value: { stringValue: 'orders' } },
      { key: 'deployment.environment.name', value: { stringValue: 'test' } },
      { key: 'service.version', value: { intValue: '3' } },
    ]);
    expect(resource?.scopeSpans[0]?.scope).toEqual({ name: '@edgetool/core', version: SCOPE.version });
    const spans = resource?.scopeSpans[0]?.spans ?? [];
    expect(spans.map((s) => s.name)).toEqual(['execute_tool login', 'audit', 'auth', 'login']);
    const [call, context, inner, execute] = spans as [OtlpSpan, OtlpSpan, OtlpSpan, OtlpSpan];

    // One trace, the request's; the call's span is the child of the request's span, each layer of the one outside it.
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set(['4bf92f3577b34da6a3ce929d0e0e4736']));
    expect([call.parentSpanId, context.parentSpanId, inner.parentSpanId, execute.parentSpanId]).toEqual(['00f067aa0ba902b7', call.spanId, context.spanId, inner.spanId]);
    for (const span of spans) expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(4);
    // Sampled, parent known (bit 8); only the call's span has a remote parent (bit 9).
    expect(spans.map((s) => s.flags)).toEqual([0x301, 0x101, 0x101, 0x101]);
    expect(spans.every((s) => s.kind === 1 && s.status.code === 0)).toBe(true);

    expect(attrs(call)).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'login',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.conversation.id': 'conv-1',
      'edgetool.outcome': 'success',
      'edgetool.attempts': '1',
    });
    expect(attrs(context)).toEqual({ 'edgetool.layer.kind': 'interceptor', 'edgetool.outcome': 'success' });
    expect(attrs(execute)).toEqual({ 'edgetool.layer.kind': 'execute', 'edgetool.outcome': 'success' });
    // The input is not exported unless asked for.
    expect(JSON.stringify(request)).not.toContain('hunter2');

    // Times: the executor read the stepping clock at 100 (the call's start), then 101, 102, 103 as the layers opened and
    // 104, 105, 106 as they closed.
    const ns = (ms: number) => BigInt(ORIGIN_MS + ms) * 1_000_000n;
    expect([call, context, inner, execute].map((s) => [nanos(s.startTimeUnixNano), nanos(s.endTimeUnixNano)])).toEqual([
      [ns(101), ns(106)],
      [ns(101), ns(106)],
      [ns(102), ns(105)],
      [ns(103), ns(104)],
    ]);
    for (const span of spans) expect(span.startTimeUnixNano).toMatch(/^[1-9]\d{18}$/);
  });

  it('makes no empty envelope: no records, no resource spans', () => {
    expect(toOtlpTraces([], { serviceName: 's', takenAt: { unixMs: ORIGIN_MS, clock: 0 } })).toEqual({ resourceSpans: [] });
  });

  it('is a pure function: the same records and time give the same JSON, ids included', async () => {
    const { records: taken, takenAt } = await records([{ id: 'c1', args: { user: 'ada', password: 'x' } }]);
    const once = JSON.stringify(toOtlpTraces(taken, { serviceName: 's', takenAt }));
    expect(JSON.stringify(toOtlpTraces(taken, { serviceName: 's', takenAt }))).toBe(once);
    // Taken at another moment, the record keeps its ids (they are made from its start on the span clock)...
    const first = JSON.parse(once) as ReturnType<typeof toOtlpTraces>;
    const moved = toOtlpTraces(taken, { serviceName: 's', takenAt: { ...takenAt, unixMs: takenAt.unixMs + 60_000 } });
    expect(moved.resourceSpans[0]?.scopeSpans[0]?.spans.map((s) => s.spanId)).toEqual(first.resourceSpans[0]?.scopeSpans[0]?.spans.map((s) => s.spanId));
    // ...and the same call run again later (the same call id, after its approval) gets other span ids in the same trace.
    const again = { ...(taken[0] as TraceRecord), spans: taken[0]?.spans.map((span) => ({ ...span, start: span.start + 60_000 })) ?? [] };
    const later = toOtlpTraces([again], { serviceName: 's', takenAt: { unixMs: takenAt.unixMs + 60_000, clock: takenAt.clock + 60_000 } });
    expect(later.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.traceId).toBe(first.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.traceId);
    expect(later.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.spanId).not.toBe(first.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.spanId);
  });

  it('derives the trace id of a call without trace context from the conversation and call id (SHA-256), and the span ids', async () => {
    const { records: taken, takenAt } = await records([{ id: 'call_7', args: { user: 'ada', password: 'x' } }], { conversationId: 'conv-9' });
    expect(taken[0]?.traceId).toBe('call_7');
    const spans = toOtlpTraces(taken, { serviceName: 's', takenAt }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const traceId = (await sha256Hex('conv-9\ncall_7')).slice(0, 32);
    expect(spans.map((s) => s.traceId)).toEqual([traceId, traceId, traceId]);
    expect(spans[0]?.parentSpanId).toBeUndefined();
    expect(spans[0]?.flags).toBe(0x101);
    // The call's start on the span clock (the stepping clock's 101: its first layer opened then).
    const start = taken[0]?.spans[0]?.start;
    expect(start).toBe(101);
    expect(await Promise.all(spans.map((_, i) => sha256Hex(`${traceId}\nconv-9\ncall_7\n${start}\n${i}`)))).toEqual(spans.map((s) => expect.stringMatching(new RegExp(`^${s.spanId}`))));
    // The same call id in another conversation is another trace.
    const other = await records([{ id: 'call_7', args: { user: 'ada', password: 'x' } }], { conversationId: 'conv-10' });
    expect(toOtlpTraces(other.records, { serviceName: 's', takenAt: other.takenAt }).resourceSpans[0]?.scopeSpans[0]?.spans[0]?.traceId).not.toBe(traceId);
  });

  it('uses a UUID trace id (the trace() interceptor’s) as is, without its dashes', async () => {
    const uuid = '0af7651916cd43dd8448eb211c80319c';
    const withDashes = `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-${uuid.slice(12, 16)}-${uuid.slice(16, 20)}-${uuid.slice(20)}`.toUpperCase();
    const { records: taken, takenAt } = await records([{ id: 'c1', args: { user: 'a', password: 'b' } }], { interceptors: [trace({ export: () => {}, traceId: () => withDashes })] });
    const spans = toOtlpTraces(taken, { serviceName: 's', takenAt }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(spans.map((s) => s.traceId)).toEqual([uuid, uuid, uuid]);
  });

  it('the run’s traceparent wins over a trace id set by an outer trace(), and reaches a sub-agent’s forked run', async () => {
    const { records: taken } = await records([{ id: 'c1', args: { user: 'a', password: 'b' } }], { interceptors: [trace({ export: () => {} })], traceparent: TRACEPARENT });
    expect(taken[0]?.traceId).toBe(TRACEPARENT);
    const run = createRunContext({ conversationId: 'outer' });
    setTraceparent(run, TRACEPARENT);
    expect(forkRunContext(run, { conversationId: 'inner' }).get(traceIdKey)).toBe(TRACEPARENT);
  });

  it('puts a sub-agent’s calls under the layer of its agent call that ran them: one trace, a tree', async () => {
    for (const traceparent of [undefined, TRACEPARENT]) {
      const clock = steppingClock();
      const outer: TraceRecord[] = [];
      const inner: TraceRecord[] = [];
      // The sub-agent's own executor (its onTrace apart), on the same span clock, as `agentTool`'s inner turn has.
      const innerExecutor = createExecutor({ registry: [login], interceptors: [audit], onTrace: (r) => inner.push(r), clock });
      const analyst = defineTool({
        name: 'analyst',
        description: '',
        input: v.object({}),
        execute: async (_input, ctx) => {
          const run = forkRunContext(ctx.run, { conversationId: `${ctx.run.conversationId}/analyst/${ctx.call.id}`, parent: ctx });
          await innerExecutor.execute({ id: 'in_1', name: 'login', arguments: { user: 'a', password: 'b' } }, { run });
          await innerExecutor.execute({ id: 'in_2', name: 'login', arguments: { user: 42 } }, { run });
          return 'done';
        },
      });
      const run = createRunContext({ conversationId: 'conv' });
      if (traceparent !== undefined) setTraceparent(run, traceparent);
      await createExecutor({ registry: [analyst], interceptors: [audit], onTrace: (r) => outer.push(r), clock }).execute({ id: 'call_1', name: 'analyst', arguments: {} }, { run });
      // Each record taken at its own moment (an exporter stamps each one when it is queued; the sub-agent's come first).
      const spansOf = (taken: TraceRecord[], unixMs: number) =>
        toOtlpTraces(taken, { serviceName: 's', takenAt: { unixMs, clock: clock() } }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
      const innerSpans = spansOf(inner, ORIGIN_MS + 150.4);
      const outerSpans = spansOf(outer, ORIGIN_MS + 161.9);
      expect(outerSpans.map((s) => s.name)).toEqual(['execute_tool analyst', 'audit', 'analyst']);
      expect(innerSpans.map((s) => s.name)).toEqual(['execute_tool login', 'audit', 'login', 'execute_tool login']);
      const [call, , execute] = outerSpans as [OtlpSpan, OtlpSpan, OtlpSpan];
      const roots = innerSpans.filter((s) => s.name === 'execute_tool login');
      // One trace: the request's, or the agent call's own (from its conversation and call id).
      const traceId = traceparent === undefined ? (await sha256Hex('conv\ncall_1')).slice(0, 32) : '4bf92f3577b34da6a3ce929d0e0e4736';
      expect(new Set([...outerSpans, ...innerSpans].map((s) => s.traceId))).toEqual(new Set([traceId]));
      // The agent call's span is the request's child (or a root); the sub-agent's calls, the one refused before its chain
      // included, are children of the agent call's execute layer, a local parent (bit 9 off).
      expect(call.parentSpanId).toBe(traceparent === undefined ? undefined : '00f067aa0ba902b7');
      expect(roots.map((s) => s.parentSpanId)).toEqual([execute.spanId, execute.spanId]);
      expect(roots.map((s) => s.flags)).toEqual([0x101, 0x101]);
      expect(attrs(roots[0])).toMatchObject({ 'gen_ai.tool.call.id': 'in_1', 'gen_ai.conversation.id': 'conv/analyst/call_1' });
      expect(new Set([...outerSpans, ...innerSpans].map((s) => s.spanId)).size).toBe(7);
      // The ids are those of the formula: the execute layer is span 2 of the agent call started at 101 on the span clock.
      expect(await sha256Hex(`${traceId}\nconv\ncall_1\n101\n2`)).toMatch(new RegExp(`^${execute.spanId}`));
    }
  });

  it('a failed call: error status with the code, error.type, and the layers that failed', async () => {
    const failing = defineTool({ name: 'broken', description: '', input: v.object({}), execute: () => Promise.reject(new Error('db down')) });
    const clock = steppingClock();
    const taken: TraceRecord[] = [];
    await createExecutor({ registry: [failing], interceptors: [audit], onTrace: (r) => taken.push(r), clock }).execute({ id: 'c1', name: 'broken', arguments: {} });
    const spans = toOtlpTraces(taken, { serviceName: 's', takenAt: { unixMs: ORIGIN_MS + 200, clock: 200 } }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(spans.map((s) => [s.name, s.status])).toEqual([
      ['execute_tool broken', { code: 2, message: 'execution-failed' }],
      ['audit', { code: 2, message: 'execution-failed' }],
      ['broken', { code: 2, message: 'execution-failed' }],
    ]);
    expect(attrs(spans[0])).toMatchObject({ 'edgetool.outcome': 'error', 'error.type': 'execution-failed', 'edgetool.error.code': 'execution-failed' });
    expect(attrs(spans[2])).toMatchObject({ 'error.type': 'execution-failed', 'edgetool.error.code': 'execution-failed' });
  });

  it('a call refused before its chain (invalid input, an unknown tool) is one span at the moment it was taken, in the request’s trace', async () => {
    const { records: taken, takenAt } = await records([{ id: 'c1', args: { user: 42 } }], { traceparent: TRACEPARENT });
    expect(taken[0]?.spans).toEqual([]);
    const spans = toOtlpTraces(taken, { serviceName: 's', takenAt }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(spans).toHaveLength(1);
    // The executor reads the run's trace id for the calls it refuses itself: no interceptor ran for them.
    expect(spans[0]?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(spans[0]?.parentSpanId).toBe('00f067aa0ba902b7');
    const unknown = await records([{ id: 'c2', args: {}, tool: 'nope' }], { traceparent: TRACEPARENT });
    expect(unknown.records[0]?.traceId).toBe(TRACEPARENT);
    expect(spans[0]?.status).toEqual({ code: 2, message: 'invalid-input' });
    expect(spans[0]?.startTimeUnixNano).toBe(spans[0]?.endTimeUnixNano);
    expect(nanos(spans[0]?.startTimeUnixNano)).toBe(BigInt(takenAt.unixMs) * 1_000_000n);
    expect(attrs(spans[0])).toMatchObject({ 'edgetool.attempts': '0', 'error.type': 'invalid-input' });
  });

  it('retries: each attempt’s layers are children of the retry layer, and the call counts its attempts', async () => {
    nextCall = 0;
    const { records: taken, takenAt } = await records([{ id: 'c1', args: {}, tool: 'flaky' }]);
    const spans = toOtlpTraces(taken, { serviceName: 's', takenAt }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(spans.map((s) => s.name)).toEqual(['execute_tool flaky', 'audit', 'retry', 'flaky', 'flaky']);
    const [, , retryLayer, first, second] = spans as OtlpSpan[];
    expect([first?.parentSpanId, second?.parentSpanId]).toEqual([retryLayer?.spanId, retryLayer?.spanId]);
    expect([first?.status.code, second?.status.code]).toEqual([2, 0]);
    expect(attrs(spans[0])).toMatchObject({ 'edgetool.outcome': 'success', 'edgetool.attempts': '2' });
  });

  it('a layer a timeout left running ends when the record was taken, marked running', async () => {
    const clock = steppingClock();
    const taken: TraceRecord[] = [];
    await createExecutor({ registry: [hangs], onTrace: (r) => taken.push(r), clock }).execute({ id: 'c1', name: 'hangs', arguments: {} });
    const takenAt = { unixMs: ORIGIN_MS + 500, clock: 500 };
    const spans = toOtlpTraces(taken, { serviceName: 's', takenAt }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(spans.map((s) => [s.name, attrs(s)['edgetool.outcome']])).toEqual([
      ['execute_tool hangs', 'error'],
      ['timeout', 'error'],
      ['hangs', 'running'],
    ]);
    expect(spans[2]?.endTimeUnixNano).toBe(unixNanos(ORIGIN_MS + 500));
    expect(spans[2]?.status.code).toBe(0);
  });

  it('a call’s reported tokens go on its span as the GenAI usage attributes (a timed-out call’s too); none, none', async () => {
    const summarise = defineTool({
      name: 'summarise',
      description: 'Calls a model, then hangs.',
      input: v.object({}),
      policy: { timeoutMs: 5 },
      execute: (_input, ctx) => {
        ctx.reportUsage({ inputTokens: 1200, outputTokens: 80, totalTokens: 1280, cachedInputTokens: 1024, reasoningTokens: 32 });
        ctx.reportUsage({ outputTokens: 0.5 });
        return new Promise(() => {});
      },
    });
    const taken: TraceRecord[] = [];
    const executor = createExecutor({ registry: [summarise, login], onTrace: (r) => taken.push(r), clock: steppingClock() });
    await executor.execute({ id: 'c1', name: 'summarise', arguments: {} });
    await executor.execute({ id: 'c2', name: 'login', arguments: { user: 'ada', password: 'x' } });
    const [call, quiet] = toOtlpTraces(taken, { serviceName: 's', takenAt: { unixMs: ORIGIN_MS + 500, clock: 500 } }).resourceSpans[0]?.scopeSpans[0]?.spans.filter((s) => s.name.startsWith('execute_tool')) ?? [];
    expect(attrs(call)).toMatchObject({
      'edgetool.outcome': 'error',
      'error.type': 'timeout',
      'gen_ai.usage.input_tokens': '1200',
      'gen_ai.usage.output_tokens': 80.5,
      'gen_ai.usage.cache_read.input_tokens': '1024',
      'gen_ai.usage.reasoning.output_tokens': '32',
      'edgetool.usage.total_tokens': '1280',
    });
    expect(call?.attributes.find((a) => a.key === 'gen_ai.usage.input_tokens')?.value).toEqual({ intValue: '1200' });
    expect(Object.keys(attrs(quiet)).filter((key) => key.includes('usage'))).toEqual([]);
  });

  it('exports the input only when asked, masked by redact(), structured, and cut when long', async () => {
    const { records: taken, takenAt } = await records([{ id: 'c1', args: { user: 'ada', password: 'hunter2' } }], { interceptors: [redact({ fields: ['password'] })] });
    const request = toOtlpTraces(taken, { serviceName: 's', takenAt, exportInput: true });
    const call = request.resourceSpans[0]?.scopeSpans[0]?.spans[0];
    expect(call?.attributes.at(-1)).toEqual({
      key: 'gen_ai.tool.call.arguments',
      value: { kvlistValue: { values: [{ key: 'user', value: { stringValue: 'ada' } }, { key: 'password', value: { stringValue: '[redacted]' } }] } },
    });
    expect(JSON.stringify(request)).not.toContain('hunter2');
    const long = toOtlpTraces(taken, { serviceName: 's', takenAt, exportInput: true, maxInputLength: 10 }).resourceSpans[0]?.scopeSpans[0]?.spans[0];
    expect(long?.attributes.at(-1)).toEqual({ key: 'gen_ai.tool.call.arguments', value: { stringValue: '{"user":"a…' } });
  });

  it('a long input is never cut in half of a surrogate pair (a lone surrogate is no UTF-8 string for the collector)', async () => {
    const { records: taken, takenAt } = await records([{ id: 'c1', args: { note: '😀😀' } }]);
    // `{"note":"` is 9 characters: a cut at 10 would keep the first half of the first emoji.
    const cut = (maxInputLength: number) =>
      toOtlpTraces(taken, { serviceName: 's', takenAt, exportInput: true, maxInputLength }).resourceSpans[0]?.scopeSpans[0]?.spans[0]?.attributes.at(-1)?.value;
    expect(cut(10)).toEqual({ stringValue: '{"note":"…' });
    expect(cut(11)).toEqual({ stringValue: '{"note":"😀…' });
  });

  it('structured input keeps JSON’s view of values: integers, doubles, nulls, arrays, dates', () => {
    const record: TraceRecord = {
      traceId: 'c1',
      callId: 'c1',
      toolName: 't',
      conversationId: '',
      input: { n: 3, x: 0.5, big: 2 ** 60, none: null, gone: undefined, list: [1, 'a', true], when: new Date(Date.UTC(2026, 0, 2)) },
      outcome: 'success',
      errorCode: undefined,
      attempts: 1,
      spans: [],
    };
    const call = toOtlpTraces([record], { serviceName: 's', takenAt: { unixMs: ORIGIN_MS, clock: 0 }, exportInput: true }).resourceSpans[0]?.scopeSpans[0]?.spans[0];
    expect(attrs(call)['gen_ai.conversation.id']).toBeUndefined();
    expect(call?.attributes.at(-1)?.value).toEqual({
      kvlistValue: {
        values: [
          { key: 'n', value: { intValue: '3' } },
          { key: 'x', value: { doubleValue: 0.5 } },
          { key: 'big', value: { doubleValue: 2 ** 60 } },
          { key: 'none', value: {} },
          { key: 'list', value: { arrayValue: { values: [{ intValue: '1' }, { stringValue: 'a' }, { boolValue: true }] } } },
          { key: 'when', value: { stringValue: '2026-01-02T00:00:00.000Z' } },
        ],
      },
    });
  });

  it('maps this runtime’s span clock to Unix time', async () => {
    const taken: TraceRecord[] = [];
    const executor = createExecutor({ registry: [login], onTrace: (r) => taken.push(r) });
    const before = Date.now();
    await executor.execute({ id: 'c1', name: 'login', arguments: { user: 'a', password: 'b' } });
    const [call] = toOtlpTraces(taken, { serviceName: 's' }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const after = Date.now();
    // Date.now() is the wall clock and a span's time the monotonic one mapped onto it (timeOrigin + now()): they drift
    // apart by some milliseconds over a long browser session, so a second of slack; a mapping that is wrong is off by
    // years (a missing time origin). Compared as numbers of ms: a failing BigInt comparison cannot be reported by
    // vitest's browser runner (it cannot serialize a BigInt) and surfaced as an unhandled error instead.
    const ms = (text: string | undefined) => Number(nanos(text) / 1_000_000n);
    expect(ms(call?.startTimeUnixNano)).toBeGreaterThanOrEqual(before - 1_000);
    expect(ms(call?.endTimeUnixNano)).toBeLessThanOrEqual(after + 1_000);
    expect(nanos(call?.endTimeUnixNano) >= nanos(call?.startTimeUnixNano)).toBe(true);
    // What docs/architecture.md says of the clocks: workerd's time origin is 0 and its performance.now() is Unix
    // milliseconds; elsewhere the origin is when the page or process started.
    if (navigator.userAgent === 'Cloudflare-Workers') {
      expect(performance.timeOrigin).toBe(0);
      expect(performance.now()).toBeGreaterThanOrEqual(before);
    } else {
      expect(performance.timeOrigin).toBeGreaterThan(0);
      expect(performance.timeOrigin).toBeLessThanOrEqual(before);
    }
  });
});

describe('unixNanos', () => {
  it('writes milliseconds as nanoseconds to the microsecond, carrying a rounded-up fraction', () => {
    expect(unixNanos(1_795_000_000_123 + 0.4567)).toBe('1795000000123457000');
    expect(unixNanos(1_795_000_000_000)).toBe('1795000000000000000');
    expect(unixNanos(1_795_000_000_001 + 0.9999996)).toBe('1795000000002000000');
    expect(unixNanos(0.0015)).toBe('2000');
    expect(unixNanos(0)).toBe('0');
    expect(unixNanos(Number.NaN)).toBe('0');
  });
});

describe('traceparent', () => {
  it.each([
    ['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', flags: 1 }],
    [' 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00 ', { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', flags: 0 }],
    ['cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09-what-comes-later', { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', flags: 9 }],
  ])('reads %j', (header, parsed) => {
    expect(parseTraceparent(header)).toEqual(parsed);
  });

  it.each([
    ['uppercase hex', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01'],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['an all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['an all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['version 00 with more fields', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-00'],
    ['two headers joined', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01, 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['a short trace id', '00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01'],
    ['nothing', ''],
  ])('refuses %s', (_what, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });

  it('refuses what is not a string, writes version 00, and sets only a valid one on a run', () => {
    expect(parseTraceparent(null)).toBeUndefined();
    expect(parseTraceparent(undefined)).toBeUndefined();
    expect(formatTraceparent({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', flags: 3 })).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03');
    const later = parseTraceparent('cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-ff-what-comes-later');
    expect(later?.flags).toBe(0xff);
    // a later version's flags unknown to version 00 are written as zero: only sampled (01) and random (02) pass
    expect(formatTraceparent(later as TraceParent)).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03');
    expect(formatTraceparent({ ...(later as TraceParent), flags: 0x05 })).toMatch(/-01$/);
    const run = createRunContext();
    expect(setTraceparent(run, 'not one')).toBe(false);
    expect(run.has(traceIdKey)).toBe(false);
    expect(setTraceparent(run, TRACEPARENT)).toBe(true);
    expect(parseTraceparent(run.get(traceIdKey))?.parentId).toBe('00f067aa0ba902b7');
  });
});
