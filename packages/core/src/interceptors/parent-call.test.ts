// The trace records of calls made inside another call (an agent tool's sub-agent, on a run forked with `parent`).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { InterceptorFn, ToolContext } from '../chain/types.ts';
import { createRunContext, forkRunContext, type RunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { defineTool } from '../tool/define-tool.ts';
import { parentCallKey, type TraceRecord, trace, traceIdKey } from './trace.ts';

const lookup = defineTool({ name: 'lookup', description: '', input: v.object({ id: v.string() }), execute: ({ id }) => `order ${id}` });

/** A tool that runs two inner calls (one refused before its chain) on a fork of its run, as `agentTool` does. */
function delegating(inner: ReturnType<typeof createExecutor>, forks: RunContext[], innerTool = 'lookup') {
  return defineTool({
    name: 'analyst',
    description: '',
    input: v.object({}),
    execute: async (_input, ctx: ToolContext) => {
      const run = forkRunContext(ctx.run, { conversationId: `${ctx.run.conversationId}/analyst/${ctx.call.id}`, parent: ctx });
      forks.push(run);
      await inner.execute({ id: 'in_1', name: innerTool, arguments: innerTool === 'lookup' ? { id: 'A-1' } : {} }, { run });
      await inner.execute({ id: 'in_2', name: 'nothing', arguments: {} }, { run });
      return 'done';
    },
  });
}

const audit: InterceptorFn = (_ctx, next) => next();

describe('a call made inside another call (forkRunContext with parent)', () => {
  it('names the outer call in its record and shares its trace id; the outer call’s record is as before', async () => {
    const inner: TraceRecord[] = [];
    const outer: TraceRecord[] = [];
    const forks: RunContext[] = [];
    const innerExecutor = createExecutor({ registry: [lookup], onTrace: (r) => inner.push(r) });
    const executor = createExecutor({ registry: [delegating(innerExecutor, forks)], interceptors: [audit], onTrace: (r) => outer.push(r) });
    const result = await executor.execute({ id: 'call_1', name: 'analyst', arguments: {} }, { run: createRunContext({ conversationId: 'conv' }) });
    expect(result.outcome.type).toBe('success');

    expect(outer).toHaveLength(1);
    expect(outer[0]?.parent).toBeUndefined();
    expect('parent' in (outer[0] as object)).toBe(false);
    expect(outer[0]?.traceId).toBe('call_1');
    // The outer call's layers: audit (0), then its execute (1), which ran the inner calls.
    const parent = { callId: 'call_1', toolName: 'analyst', conversationId: 'conv', traceConversationId: 'conv', span: { start: result.spans[0]?.start, index: 1 } };
    expect(inner.map((r) => [r.callId, r.traceId, r.conversationId, r.outcome])).toEqual([
      ['in_1', 'call_1', 'conv/analyst/call_1', 'success'],
      ['in_2', 'call_1', 'conv/analyst/call_1', 'error'],
    ]);
    // The refused call (unknown tool, no chain) names it too.
    for (const record of inner) expect(record.parent).toEqual(parent);
    expect(forks[0]?.get(parentCallKey)).toEqual(parent);
  });

  it('shares a trace id the outer call was given (trace()’s, a request’s), and nested forks keep the outermost conversation', async () => {
    const inner: TraceRecord[] = [];
    const forks: RunContext[] = [];
    const innerExecutor = createExecutor({ registry: [lookup], onTrace: (r) => inner.push(r) });
    const executor = createExecutor({ registry: [delegating(innerExecutor, forks)], interceptors: [trace({ export: () => {}, traceId: () => 'made-up' })] });
    await executor.execute({ id: 'call_1', name: 'analyst', arguments: {} }, { run: createRunContext({ conversationId: 'conv' }) });
    expect(inner.map((r) => r.traceId)).toEqual(['made-up', 'made-up']);

    const request = createRunContext({ conversationId: 'conv' });
    request.set(traceIdKey, 'from-request');
    const nested: TraceRecord[] = [];
    const deepest = createExecutor({ registry: [lookup], onTrace: (r) => nested.push(r) });
    const middle = createExecutor({ registry: [delegating(deepest, forks)] });
    const top = createExecutor({ registry: [delegating(middle, forks, 'analyst')] });
    await top.execute({ id: 'call_1', name: 'analyst', arguments: {} }, { run: request });
    expect(nested[0]).toMatchObject({ traceId: 'from-request', conversationId: 'conv/analyst/call_1/analyst/in_1' });
    // Spans off (no onTrace, no trace()): the parent is named, with no span to put its calls under.
    expect(nested[0]?.parent).toEqual({ callId: 'in_1', toolName: 'analyst', conversationId: 'conv/analyst/call_1', traceConversationId: 'conv', span: undefined });
  });

  it('leaves a plain fork as it was: no parent, no trace id of its own', () => {
    const run = createRunContext({ conversationId: 'conv' });
    const fork = forkRunContext(run, { conversationId: 'sub' });
    expect(fork.has(parentCallKey)).toBe(false);
    expect(fork.has(traceIdKey)).toBe(false);
  });
});
