import { createExecutor, defineInterceptor, defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MAX_TRACE_SUB_CALLS, type SubCallTraceData, type TracePartData, traceOf } from '@edgetool/ai';
import { subCallRows, timelineBars, traceOfPart, traceOfResult } from './trace.ts';

describe('traces', () => {
  it('records the browser chain of a call: one span per interceptor and the execute span', async () => {
    const tool = defineTool({ name: 'browser_time_zone', description: 'tz', input: v.object({}), policy: { runsOn: 'client' }, execute: () => 'Europe/Paris' });
    const audit = defineInterceptor('audit', (_ctx, next) => next());
    const executor = createExecutor({ side: 'client', registry: [tool], interceptors: [audit], spans: true });
    const trace = traceOfResult(await executor.execute({ id: 'c1', name: 'browser_time_zone', arguments: {} }));
    expect(trace).toMatchObject({ side: 'client', outcome: 'success', errorCode: undefined });
    expect(trace.spans.map((s) => [s.name, s.kind, s.depth])).toEqual([
      ['audit', 'interceptor', 0],
      ['browser_time_zone', 'execute', 1],
    ]);
  });

  it("carries the tokens a call reported, on the browser's trace and on a server's trace part", async () => {
    const tool = defineTool({
      name: 'summarise',
      description: 'Summarises with a small model',
      input: v.object({}),
      policy: { runsOn: 'client' },
      execute: (_input, ctx) => {
        ctx.reportUsage({ inputTokens: 800, outputTokens: 145, totalTokens: 945 });
        return 'short';
      },
    });
    const executor = createExecutor({ side: 'client', registry: [tool] });
    const browser = traceOfResult(await executor.execute({ id: 'c1', name: 'summarise', arguments: {} }));
    expect(browser.usage).toEqual({ inputTokens: 800, outputTokens: 145, totalTokens: 945 });
    const part = traceOfPart({ toolCallId: 'c2', toolName: 'delay_analyst', ...traceOf(await executor.execute({ id: 'c2', name: 'summarise', arguments: {} }), 'server') });
    expect(part).toMatchObject({ side: 'server', usage: { totalTokens: 945 } });
    const quiet = defineTool({ name: 'quiet', description: 'q', input: v.object({}), policy: { runsOn: 'client' }, execute: () => 'ok' });
    const none = traceOfResult(await createExecutor({ side: 'client', registry: [quiet] }).execute({ id: 'c3', name: 'quiet', arguments: {} }));
    expect(none).not.toHaveProperty('usage');
  });

  it('lays spans out as bars relative to the trace', () => {
    const bars = timelineBars({
      spans: [
        { name: 'trace', kind: 'interceptor', depth: 0, start: 1000, duration: 10, outcome: 'success' },
        { name: 'approval', kind: 'interceptor', depth: 1, start: 1002, duration: 6, outcome: 'success' },
        { name: 'tool', kind: 'execute', depth: 2, start: 1004, duration: 0, outcome: 'success' },
      ],
    });
    expect(bars.map((b) => [b.name, b.offsetPct, b.widthPct])).toEqual([
      ['trace', 0, 100],
      ['approval', 20, 60],
      ['tool', 40, 0.5],
    ]);
    expect(timelineBars({ spans: [] })).toEqual([]);
    expect(timelineBars({ spans: [{ name: 'x', kind: 'execute', depth: 0, start: 5, duration: 0, outcome: 'success' }] })[0]).toMatchObject({ offsetPct: 0, widthPct: 100 });
  });

  it('an agent call’s part: its sub-agent’s calls as rows under it, nested ones a level deeper, on one time axis', () => {
    const span = (name: string, kind: 'interceptor' | 'execute', depth: number, start: number, duration: number) => ({ name, kind, depth, start, duration, outcome: 'success' as const });
    const data: TracePartData = {
      toolCallId: 'o1',
      toolName: 'delay_analyst',
      side: 'server',
      outcome: 'success',
      errorCode: undefined,
      durationMs: 100,
      spans: [span('timeout', 'interceptor', 0, 0, 100), span('delay_analyst', 'execute', 1, 0, 100)],
      calls: [
        { toolCallId: 'i1', toolName: 'list_delayed_orders', outcome: 'success', errorCode: undefined, durationMs: 20, spans: [span('list_delayed_orders', 'execute', 0, 20, 20)] },
        {
          toolCallId: 'i2',
          toolName: 'deep_agent',
          outcome: 'error',
          errorCode: 'timeout',
          durationMs: 50,
          spans: [span('deep_agent', 'execute', 0, 50, 50)],
          calls: [{ toolCallId: 'd1', toolName: 'query_order', outcome: 'error', errorCode: 'unknown-tool', durationMs: 0, spans: [] }],
          omittedCalls: 2,
        },
      ],
    };
    const trace = traceOfPart(data);
    expect(trace.calls).toEqual(data.calls);
    expect(subCallRows(trace).map((r) => [r.toolName, r.level, r.errorCode ?? r.outcome, r.omittedCalls, r.bars.map((b) => [b.offsetPct, b.widthPct])])).toEqual([
      ['list_delayed_orders', 1, 'success', 0, [[20, 20]]],
      ['deep_agent', 1, 'timeout', 2, [[50, 50]]],
      ['query_order', 2, 'unknown-tool', 0, []],
    ]);
    // Another call has none.
    const { calls: _calls, ...plain } = data;
    expect(subCallRows(traceOfPart(plain))).toEqual([]);
    expect(traceOfPart(plain)).not.toHaveProperty('calls');
  });

  it('a part from a stored or edited history keeps only well-formed sub-calls, at most as many as a server sends', () => {
    const call = (i: number): SubCallTraceData => ({ toolCallId: `c${i}`, toolName: 'q', outcome: 'success', errorCode: undefined, durationMs: 1, spans: [] });
    const base = { toolCallId: 'o1', toolName: 'a', side: 'server' as const, outcome: 'success' as const, errorCode: undefined, durationMs: 1, spans: [] };
    const many = traceOfPart({ ...base, calls: Array.from({ length: 5000 }, (_, i) => call(i)), omittedCalls: 3 });
    expect(many.calls).toHaveLength(MAX_TRACE_SUB_CALLS);
    expect(many.omittedCalls).toBe(5000 - MAX_TRACE_SUB_CALLS + 3);
    const junk = traceOfPart({ ...base, calls: [null, 'x', { toolName: 7 }, { ...call(1), spans: 'no', durationMs: Number.NaN }] as never, omittedCalls: -4 });
    expect(junk.calls).toEqual([{ ...call(1), durationMs: 0 }]);
    expect(junk.omittedCalls).toBe(3);
    expect(traceOfPart({ ...base, calls: 'lots' as never }).calls).toEqual([]);
  });

  it('a part a hostile server (or an edited history) sends is drawn without throwing: bad spans left out, bad fields unknown', () => {
    const span = { name: 'audit', kind: 'interceptor', depth: 0, start: 5, duration: 2, outcome: 'success' };
    const part = (data: Record<string, unknown>) => traceOfPart({ toolCallId: 'c1', toolName: 'q', ...data } as unknown as TracePartData);
    const junkSpans = [null, 'x', 7, [span], { ...span, name: { a: 1 } }, { ...span, depth: -1 }, { ...span, start: Number.NaN }, { ...span, kind: 'evil' }];
    const traces = [
      part({ side: 'server', outcome: 'success', durationMs: 3, spans: 5 }),
      part({ side: 'server', outcome: 'success', durationMs: 3 }),
      part({ side: 'server', outcome: 'success', durationMs: 3, spans: [...junkSpans, span] }),
      part({ side: 'evil', outcome: { a: 1 }, errorCode: { b: 2 }, durationMs: '3', spans: [span], usage: { totalTokens: 9, inputTokens: null, outputTokens: 'x' } }),
      part({ side: 'server', outcome: 'success', durationMs: 1, spans: [], usage: 'lots' }),
    ];
    for (const trace of traces) {
      expect(() => [timelineBars(trace), subCallRows(trace)]).not.toThrow();
      expect(trace.spans.every((s) => s.name === 'audit' && s.kind === 'interceptor')).toBe(true);
    }
    expect(traces.map((t) => t.spans.length)).toEqual([0, 0, 1, 1, 0]);
    expect(traces[3]).toEqual({ side: 'server', outcome: 'success', errorCode: undefined, durationMs: 0, spans: [span], usage: { totalTokens: 9 } });
    expect(traces[4]).not.toHaveProperty('usage');
    // A sub-call's spans are read the same way.
    const agent = part({ side: 'server', outcome: 'success', durationMs: 1, spans: [span], calls: [{ toolCallId: 's1', toolName: 'q', spans: junkSpans }] });
    expect(agent.calls?.[0]?.spans).toEqual([]);
  });
});
