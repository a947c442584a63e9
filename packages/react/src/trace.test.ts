import { createExecutor, defineInterceptor, defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { traceOf } from '@edgetool/ai';
import { timelineBars, traceOfPart, traceOfResult } from './trace.ts';

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
});
