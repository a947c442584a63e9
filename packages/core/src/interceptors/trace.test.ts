import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { InterceptorFn } from '../chain/types.ts';
import { createExecutor } from '../executor/executor.ts';
import { defineTool } from '../tool/define-tool.ts';
import { redact, redactValue } from './redact.ts';
import { type TraceRecord, trace, traceIdKey } from './trace.ts';

const login = defineTool({
  name: 'login',
  description: '',
  input: v.object({ user: v.string(), password: v.string() }),
  execute: async ({ user, password }) => {
    await new Promise((r) => setTimeout(r, 5));
    return { user, token: `t-${password.length}`, profile: { apiKey: 'secret-key', name: user } };
  },
});

describe('trace and redaction', () => {
  it('records a span per interceptor and for execute, with outcome and duration, and exports them', async () => {
    const records: TraceRecord[] = [];
    const auth: InterceptorFn = (_ctx, next) => next();
    const executor = createExecutor({ registry: [login], interceptors: [trace({ export: (r) => records.push(r), traceId: () => 'trace-1' }), auth] });
    const result = await executor.execute({ id: 'c1', name: 'login', arguments: { user: 'ada', password: 'hunter2' } });
    expect(result.spans.map((s) => [s.name, s.kind, s.outcome])).toEqual([
      ['trace', 'interceptor', 'success'],
      ['auth', 'interceptor', 'success'],
      ['login', 'execute', 'success'],
    ]);
    const [outer, , inner] = result.spans;
    expect(inner?.duration).toBeGreaterThan(0);
    expect(outer?.duration).toBeGreaterThanOrEqual(inner?.duration ?? Number.POSITIVE_INFINITY);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ traceId: 'trace-1', callId: 'c1', toolName: 'login', outcome: 'success', attempts: 1 });
    expect(records[0]?.spans.map((s) => s.name)).toEqual(['trace', 'auth', 'login']);
  });

  it('keeps a trace id set by an outer layer, and a broken exporter does not fail the call', async () => {
    const setId: InterceptorFn = (ctx, next) => {
      ctx.set(traceIdKey, 'from-gateway');
      return next();
    };
    const ids: string[] = [];
    const executor = createExecutor({
      registry: [login],
      interceptors: [
        setId,
        trace({
          export: (r) => {
            ids.push(r.traceId);
            throw new Error('exporter down');
          },
        }),
      ],
      onTrace: () => {
        throw new Error('also down');
      },
    });
    const result = await executor.execute({ id: 'c1', name: 'login', arguments: { user: 'ada', password: 'x' } });
    expect(result.outcome.type).toBe('success');
    expect(ids).toEqual(['from-gateway']);
  });

  it('redact(): the tool gets the real input; traces and the model get masked fields', async () => {
    let exported: TraceRecord | undefined;
    const executor = createExecutor({
      registry: [login],
      interceptors: [trace({ export: (r) => (exported = r) }), redact({ fields: ['password', 'apiKey', 'token'] })],
    });
    const result = await executor.execute({ id: 'c1', name: 'login', arguments: { user: 'ada', password: 'hunter2' } });
    expect(result.outcome).toEqual({ type: 'success', output: { user: 'ada', token: '[redacted]', profile: { apiKey: '[redacted]', name: 'ada' } } });
    expect(result.content).not.toContain('secret-key');
    expect(result.content).not.toContain('t-7');
    expect(exported?.input).toEqual({ user: 'ada', password: '[redacted]' });
  });

  it('redactValue copies deeply, through arrays, without touching the original', () => {
    const original = { list: [{ password: 'a' }, { ok: 1 }], password: 'b' };
    expect(redactValue(original, new Set(['password']))).toEqual({ list: [{ password: '[redacted]' }, { ok: 1 }], password: '[redacted]' });
    expect(original.password).toBe('b');
  });
});
