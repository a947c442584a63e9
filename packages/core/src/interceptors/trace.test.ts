import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { InterceptorFn } from '../chain/types.ts';
import { createRunContext } from '../context/run-context.ts';
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

  it('a trace id on the run is the trace id of every call of it without its own: chained, refused, and under trace()', async () => {
    const records: TraceRecord[] = [];
    const run = createRunContext({ conversationId: 'conv-1' });
    run.set(traceIdKey, 'request-trace');
    const plain = createExecutor({ registry: [login], onTrace: (r) => records.push(r) });
    await plain.execute({ id: 'c1', name: 'login', arguments: { user: 'ada', password: 'x' } }, { run });
    await plain.execute({ id: 'c2', name: 'nope', arguments: {} }, { run });
    await plain.execute({ id: 'c3', name: 'login', arguments: '{not json' }, { run });
    // trace() gives a call a trace id only when neither the call nor its run has one.
    const traced = createExecutor({ registry: [login], interceptors: [trace({ export: (r) => records.push(r), traceId: () => 'own-trace' })] });
    await traced.execute({ id: 'c4', name: 'login', arguments: { user: 'ada', password: 'x' } }, { run });
    await traced.execute({ id: 'c5', name: 'login', arguments: { user: 'ada', password: 'x' } });
    expect(records.map((r) => [r.callId, r.traceId])).toEqual([
      ['c1', 'request-trace'],
      ['c2', 'request-trace'],
      ['c3', 'request-trace'],
      ['c4', 'request-trace'],
      ['c5', 'own-trace'],
    ]);
    // Without one, a call's trace id is its call id, as before.
    const alone: TraceRecord[] = [];
    await createExecutor({ registry: [login], onTrace: (r) => alone.push(r) }).execute({ id: 'c6', name: 'nope', arguments: {} });
    expect(alone[0]?.traceId).toBe('c6');
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

  it('redact(): calls that fail before the chain runs reach onTrace masked too', async () => {
    const records: TraceRecord[] = [];
    const executor = createExecutor({ registry: [login], interceptors: [redact({ fields: ['password'] })], onTrace: (r) => records.push(r) });
    // Invalid arguments (user is a number): masked field by field.
    await executor.execute({ id: 'c1', name: 'login', arguments: { user: 42, password: 'hunter2' } });
    // Not JSON: the text cannot be masked field by field, so all of it is.
    await executor.execute({ id: 'c2', name: 'login', arguments: '{"user":"ada","password":"hunter2"' });
    // An unknown tool: the global redact() still applies.
    await executor.execute({ id: 'c3', name: 'logon', arguments: { password: 'hunter2' } });
    expect(records.map((r) => [r.errorCode, r.input])).toEqual([
      ['invalid-input', { user: 42, password: '[redacted]' }],
      ['invalid-json', '[redacted]'],
      ['unknown-tool', { password: '[redacted]' }],
    ]);
    expect(JSON.stringify(records)).not.toContain('hunter2');
  });

  it('redact() keeps what the model reads of dates and other toJSON values', async () => {
    const when = new Date('2026-11-22T10:00:00.000Z');
    const session = defineTool({
      name: 'session',
      description: '',
      input: v.object({}),
      execute: () => ({ token: 'secret', expires: when, nested: { at: { toJSON: () => ({ token: 'inner', day: 'Sunday' }) } } }),
    });
    const result = await createExecutor({ registry: [session], interceptors: [redact({ fields: ['token'] })] }).execute({ id: 's', name: 'session', arguments: {} });
    expect(result.content).toBe('{"token":"[redacted]","expires":"2026-11-22T10:00:00.000Z","nested":{"at":{"token":"[redacted]","day":"Sunday"}}}');
  });

  it("redact() keeps bytes as they are: a screenshot tool's toModelOutput got a plain object and every image failed", async () => {
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='), (c) => c.charCodeAt(0));
    const screenshot = defineTool({
      name: 'screenshot',
      description: '',
      input: v.object({}),
      execute: () => ({ token: 'secret', png, raw: png.buffer, view: new DataView(png.buffer) }),
      toModelOutput: (out) => [
        { type: 'text', text: `${out.token} ${out.raw.byteLength} ${out.view.getUint8(1)}` },
        { type: 'image', data: btoa(String.fromCharCode(...out.png)), mediaType: 'image/png' },
      ],
    });
    // A global redact() for passwords applies to every tool, the screenshot tool too.
    const result = await createExecutor({ registry: [screenshot], interceptors: [redact({ fields: ['token'] })] }).execute({ id: 's', name: 'screenshot', arguments: {} });
    expect(result.outcome.type).toBe('success');
    expect(result.content).toBe('[redacted] 68 80\n[image: image/png, 68 B]');
    const masked = redactValue({ list: [png] }, new Set(['token'])) as { list: unknown[] };
    expect(masked.list[0]).toBe(png);
  });

  it('redact() on a result JSON cannot hold (a cycle): invalid-output, as without it, not a failed run', async () => {
    const cyclic: Record<string, unknown> = { token: 'secret' };
    cyclic.self = cyclic;
    const list: unknown[] = [{ token: 'secret' }];
    list.push({ back: list });
    for (const output of [cyclic, list]) {
      const tool = defineTool({ name: 'dump', description: '', input: v.object({}), policy: { effects: 'write', needsApproval: false }, execute: () => output });
      const plain = await createExecutor({ registry: [tool] }).execute({ id: 'p', name: 'dump', arguments: {} });
      const masked = await createExecutor({ registry: [tool], interceptors: [redact({ fields: ['token'] })] }).execute({ id: 'm', name: 'dump', arguments: {} });
      expect(plain.outcome.type === 'error' && plain.outcome.error.code).toBe('invalid-output');
      // It said execution-failed ("Maximum call stack size exceeded"): a model reads that the write did not happen.
      expect(masked.outcome.type === 'error' && masked.outcome.error.code).toBe('invalid-output');
      expect(masked.content).toMatch(/^Error \(invalid-output\): The result of "dump" could not be converted for the model: /);
    }
  });

  it('redactValue copies deeply, through arrays, without touching the original', () => {
    const original = { list: [{ password: 'a' }, { ok: 1 }], password: 'b' };
    expect(redactValue(original, new Set(['password']))).toEqual({ list: [{ password: '[redacted]' }, { ok: 1 }], password: '[redacted]' });
    expect(original.password).toBe('b');
  });
});
