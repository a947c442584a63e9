import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { contextKey } from '../context/context-key.ts';
import { createRunContext } from '../context/run-context.ts';
import { ToolError } from '../errors/tool-error.ts';
import { createExecutor } from '../executor/executor.ts';
import { createRegistry } from '../registry/registry.ts';
import { defineTool } from '../tool/define-tool.ts';
import { CallContext } from '../context/tool-context.ts';
import { defineInterceptor, success } from './interceptor.ts';
import { runLayers } from './run-chain.ts';
import type { InterceptorFn } from './types.ts';

const echo = (log: string[] = []) =>
  defineTool({
    name: 'echo',
    description: 'Echoes its text',
    input: v.object({ text: v.string() }),
    execute: ({ text }) => {
      log.push('execute');
      return { text };
    },
  });

function recorder(log: string[], name: string) {
  return defineInterceptor(name, async (_ctx, next) => {
    log.push(`${name}:before`);
    const outcome = await next();
    log.push(`${name}:after`);
    return outcome;
  });
}

describe('ToolChain', () => {
  it('runs global → registry → tool → call → execute, and unwinds in reverse', async () => {
    const log: string[] = [];
    const tool = defineTool({ ...echo(log), interceptors: [recorder(log, 'tool')] });
    const registry = createRegistry({ tools: [tool], interceptors: [recorder(log, 'registry')] });
    const executor = createExecutor({ registry, interceptors: [recorder(log, 'global')], spans: true });
    const result = await executor.execute({ id: 'c1', name: 'echo', arguments: '{"text":"hi"}' }, { interceptors: [recorder(log, 'call')] });
    expect(result.outcome).toEqual({ type: 'success', output: { text: 'hi' } });
    expect(log).toEqual([
      'global:before',
      'registry:before',
      'tool:before',
      'call:before',
      'execute',
      'call:after',
      'tool:after',
      'registry:after',
      'global:after',
    ]);
    expect(result.spans.map((s) => [s.name, s.kind, s.depth])).toEqual([
      ['global', 'interceptor', 0],
      ['registry', 'interceptor', 1],
      ['tool', 'interceptor', 2],
      ['call', 'interceptor', 3],
      ['echo', 'execute', 4],
    ]);
  });

  it('refuses next() twice with chain-misuse, and execute runs once', async () => {
    const log: string[] = [];
    const twice: InterceptorFn = async (_ctx, next) => {
      await next();
      return next();
    };
    const executor = createExecutor({ registry: [echo(log)], interceptors: [twice] });
    const result = await executor.execute({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result.outcome.type).toBe('error');
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('chain-misuse');
    expect(result.content).toMatch(/next\(\) twice/);
    expect(log).toEqual(['execute']);
  });

  it('a second next() nobody awaits runs nothing and is no unhandled rejection (it ended a Node process)', async () => {
    const log: string[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (event: { reason?: unknown }) => unhandled.push(event.reason);
    globalThis.addEventListener?.('unhandledrejection', onUnhandled);
    // A careless refresh: answers with the first outcome and fires the chain once more, without awaiting it.
    const refresh: InterceptorFn = async (_ctx, next) => {
      const outcome = await next();
      void next();
      return outcome;
    };
    const executor = createExecutor({ registry: [echo(log)], interceptors: [refresh] });
    const result = await executor.execute({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result.content).toBe('{"text":"x"}');
    await new Promise((resolve) => setTimeout(resolve, 10));
    globalThis.removeEventListener?.('unhandledrejection', onUnhandled);
    expect(unhandled).toEqual([]);
    expect(log).toEqual(['execute']);
  });

  it('a next() called after its interceptor returned runs nothing: the call has ended (it ran the tool then)', async () => {
    const log: string[] = [];
    const late: (() => Promise<unknown>)[] = [];
    // A careless stale-while-revalidate cache: answers at once, refreshes "later".
    const stale = defineInterceptor('stale', async (_ctx, next) => {
      late.push(next);
      return success({ text: 'stale' });
    });
    // A reentrant interceptor may call next() again, but not once it has returned.
    const again = defineInterceptor('again', async (_ctx, next) => {
      late.push(next);
      return next();
    }, { reentrant: true });
    // A pass-through that hands back next()'s own promise ends with the layers inside.
    const through = defineInterceptor('through', (_ctx, next) => {
      late.push(next);
      return next();
    }, { reentrant: true });
    const executor = createExecutor({ registry: [echo(log)] });
    for (const interceptor of [stale, again, through]) {
      const result = await executor.execute({ id: 'c1', name: 'echo', arguments: { text: 'x' } }, { interceptors: [interceptor] });
      expect(result.isError).toBe(false);
    }
    expect(log).toEqual(['execute', 'execute']);
    for (const [i, next] of late.entries()) {
      const name = ['stale', 'again', 'through'][i];
      const outcome = await next();
      expect(outcome).toMatchObject({ type: 'error', error: { code: 'chain-misuse', message: `Interceptor "${name}" called next() after it had returned; nothing ran.` } });
    }
    expect(log).toEqual(['execute', 'execute']);
  });

  it('refuses an interceptor that returns something other than an outcome', async () => {
    const forgetful: InterceptorFn = async (_ctx, next) => {
      await next();
      return undefined as never;
    };
    const executor = createExecutor({ registry: [echo()], interceptors: [forgetful] });
    const result = await executor.execute({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('chain-misuse');
    expect(result.content).toMatch(/forget to return next/);
  });

  it('refuses a plain function that returns nothing before it calls next(): a misuse, not a rejected execute()', async () => {
    // Not async: it returned undefined, which the chain took for the promise of a next() it never called.
    const hollow = defineInterceptor('hollow', (() => undefined) as unknown as InterceptorFn);
    const log: string[] = [];
    const executor = createExecutor({ registry: [echo(log)], interceptors: [hollow] });
    const result = await executor.execute({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('chain-misuse');
    expect(result.content).toMatch(/"hollow" returned undefined \(did it forget to return next\(\)\?\)/);
    expect(log).toEqual([]);
  });

  it('lets an interceptor short-circuit (a cache): execute never runs', async () => {
    const log: string[] = [];
    const cache = new Map<string, unknown>([['{"text":"hit"}', { text: 'from cache' }]]);
    const cached = defineInterceptor('cache', async (ctx, next) => {
      const key = JSON.stringify(ctx.input);
      if (cache.has(key)) return success(cache.get(key));
      const outcome = await next();
      if (outcome.type === 'success') cache.set(key, outcome.output);
      return outcome;
    });
    const executor = createExecutor({ registry: [echo(log)], interceptors: [cached] });
    const hit = await executor.execute({ id: 'c1', name: 'echo', arguments: '{"text":"hit"}' });
    expect(hit.outcome).toEqual({ type: 'success', output: { text: 'from cache' } });
    expect(log).toEqual([]);
    await executor.execute({ id: 'c2', name: 'echo', arguments: '{"text":"miss"}' });
    expect(log).toEqual(['execute']);
    expect(cache.has('{"text":"miss"}')).toBe(true);
  });

  it('lets an interceptor rewrite the input for the layers inside it only', async () => {
    let seenOutside: unknown;
    const outer: InterceptorFn = async (ctx, next) => {
      const outcome = await next();
      seenOutside = ctx.input;
      return outcome;
    };
    const trim: InterceptorFn<{ text: string }> = (ctx, next) => next({ input: { text: ctx.input.text.trim() } });
    const executor = createExecutor({ registry: [echo()], interceptors: [outer, trim as InterceptorFn] });
    const result = await executor.execute({ id: 'c1', name: 'echo', arguments: { text: '  padded  ' } });
    expect(result.outcome).toEqual({ type: 'success', output: { text: 'padded' } });
    expect(seenOutside).toEqual({ text: '  padded  ' });
  });

  it('lets an interceptor rewrite the result', async () => {
    const upper: InterceptorFn = async (_ctx, next) => {
      const outcome = await next();
      return outcome.type === 'success' ? success({ text: String((outcome.output as { text: string }).text).toUpperCase() }) : outcome;
    };
    const executor = createExecutor({ registry: [echo()], interceptors: [upper] });
    const result = await executor.execute({ id: 'c1', name: 'echo', arguments: { text: 'loud' } });
    expect(result.content).toBe('{"text":"LOUD"}');
  });

  it('lets an interceptor catch an error from inside (thrown by execute or by an inner interceptor)', async () => {
    const failing = defineTool({
      name: 'fails',
      description: '',
      input: v.object({}),
      execute: () => {
        throw new Error('database down');
      },
    });
    const throwsInside: InterceptorFn = async () => {
      throw new Error('inner interceptor broke');
    };
    const fallback: InterceptorFn = async (_ctx, next) => {
      const outcome = await next();
      return outcome.type === 'error' ? success(`fallback after: ${outcome.error.message}`) : outcome;
    };
    const executor = createExecutor({ registry: [failing], interceptors: [fallback] });
    expect((await executor.execute({ id: 'a', name: 'fails', arguments: {} })).content).toBe('fallback after: database down');
    const withInner = await executor.execute({ id: 'b', name: 'fails', arguments: {} }, { interceptors: [throwsInside] });
    expect(withInner.content).toBe('fallback after: inner interceptor broke');
  });

  it('shares typed attributes along the chain: one interceptor sets a trace id, the next reads it', async () => {
    const traceId = contextKey<string>('traceId');
    const seen: (string | undefined)[] = [];
    const setter: InterceptorFn = (ctx, next) => {
      ctx.set(traceId, `trace-${ctx.call.id}`);
      return next();
    };
    const reader: InterceptorFn = (ctx, next) => {
      seen.push(ctx.get(traceId));
      return next();
    };
    const tool = defineTool({
      name: 'read_attr',
      description: '',
      input: v.object({}),
      execute: (_input, ctx) => ctx.get(traceId) ?? 'missing',
    });
    const executor = createExecutor({ registry: [tool], interceptors: [setter, reader] });
    const result = await executor.execute({ id: 'c7', name: 'read_attr', arguments: '{}' });
    expect(seen).toEqual(['trace-c7']);
    expect(result.content).toBe('trace-c7');
  });

  it('never lets parallel calls see each other’s attributes, while the run context is shared', async () => {
    const mine = contextKey<string>('mine');
    const counter = contextKey<number>('counter');
    const tool = defineTool({
      name: 'slow',
      description: '',
      input: v.object({ label: v.string(), wait: v.number() }),
      execute: async ({ label, wait }, ctx) => {
        const before = ctx.get(mine);
        await new Promise((r) => setTimeout(r, wait));
        ctx.run.set(counter, (ctx.run.get(counter) ?? 0) + 1);
        return { label, before, after: ctx.get(mine) };
      },
    });
    const tag: InterceptorFn<{ label: string }> = (ctx, next) => {
      if (ctx.has(mine)) throw new Error('attribute leaked in from another call');
      ctx.set(mine, ctx.input.label);
      return next();
    };
    const executor = createExecutor({ registry: [tool], interceptors: [tag as InterceptorFn] });
    const run = createRunContext({ conversationId: 'conv-1' });
    const results = await executor.executeAll(
      [
        { id: '1', name: 'slow', arguments: { label: 'a', wait: 20 } },
        { id: '2', name: 'slow', arguments: { label: 'b', wait: 1 } },
        { id: '3', name: 'slow', arguments: { label: 'c', wait: 10 } },
      ],
      { run },
    );
    expect(results.map((r) => r.outcome)).toEqual([
      { type: 'success', output: { label: 'a', before: 'a', after: 'a' } },
      { type: 'success', output: { label: 'b', before: 'b', after: 'b' } },
      { type: 'success', output: { label: 'c', before: 'c', after: 'c' } },
    ]);
    expect(run.get(counter)).toBe(3);
  });

  it('names bare-function interceptors after the function and rejects non-interceptors', () => {
    expect(() => createExecutor({ registry: [echo()], interceptors: [{} as never] })).toThrow(/interceptor must be/);
  });

  it('keeps ToolError identity across the chain', async () => {
    const custom: InterceptorFn = async () => {
      throw new ToolError('rate-limited', 'slow down', { retryable: true });
    };
    const executor = createExecutor({ registry: [echo()], interceptors: [custom], spans: true });
    const result = await executor.execute({ id: 'c1', name: 'echo', arguments: { text: 'x' } });
    expect(result.outcome.type === 'error' && result.outcome.error.code).toBe('rate-limited');
    expect(result.spans[0]).toMatchObject({ name: 'custom', outcome: 'error', errorCode: 'rate-limited' });
  });
});

describe('runLayers', () => {
  const tool = echo();
  const context = () => new CallContext({ tool, call: { id: 'c1', name: 'echo', arguments: {} }, args: {}, input: { text: 'hi' }, run: createRunContext(), side: 'server', spans: [] });
  const pass = (name: string) => defineInterceptor(name, (_ctx, next) => next());

  it('settles synchronously when pass-throughs wrap a synchronous tool, and still records every span', () => {
    const ctx = context();
    let ticks = 0;
    const result = runLayers(ctx, [pass('a'), pass('b'), pass('c')], () => success(++ticks), () => 0);
    expect(result).toEqual({ type: 'success', output: 1 });
    expect(ctx.spans.map((s) => [s.name, s.outcome])).toEqual([
      ['a', 'success'],
      ['b', 'success'],
      ['c', 'success'],
      ['echo', 'success'],
    ]);
  });

  it('returns a promise as soon as one layer is asynchronous, with the same outcome', async () => {
    const awaiting = defineInterceptor('awaiting', async (_ctx, next) => next());
    const viaLayer = runLayers(context(), [pass('a'), awaiting], () => success('x'), null);
    const viaTool = runLayers(context(), [pass('a')], async () => success('y'), null);
    expect(viaLayer).toBeInstanceOf(Promise);
    expect(viaTool).toBeInstanceOf(Promise);
    expect(await viaLayer).toEqual({ type: 'success', output: 'x' });
    expect(await viaTool).toEqual({ type: 'success', output: 'y' });
  });
});

describe('run context forks', () => {
  it('a fork reads the parent, writes only to itself', async () => {
    const { forkRunContext } = await import('../context/run-context.ts');
    const key = contextKey<string>('k');
    const other = contextKey<number>('n');
    const parent = createRunContext({ conversationId: 'outer', userId: 'ada', deps: { db: 1 } });
    parent.set(key, 'from parent');
    const child = forkRunContext(parent, { conversationId: 'outer/sub' });
    expect([child.userId, child.deps, child.conversationId]).toEqual(['ada', { db: 1 }, 'outer/sub']);
    expect(child.get(key)).toBe('from parent');
    child.set(key, 'child value');
    child.set(other, 2);
    expect(child.get(key)).toBe('child value');
    expect(parent.get(key)).toBe('from parent');
    expect(parent.has(other)).toBe(false);
  });
});
