import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { defineInterceptor } from '../chain/interceptor.ts';
import type { ToolOutcome } from '../chain/types.ts';
import { createRunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { defineTool } from '../tool/define-tool.ts';
import { type CacheStore, type CachedOutput, cache, cacheHitKey, memoryCacheStore } from './cache.ts';

const code = (outcome: ToolOutcome) => (outcome.type === 'error' ? outcome.error.code : outcome.type);

/** A read tool that counts its runs; `produce` makes its output (default: the query and the run number). */
function weather(produce: (city: string, run: number) => unknown = (city, run) => ({ city, run }), policy: Parameters<typeof defineTool>[0]['policy'] = {}) {
  let runs = 0;
  const tool = defineTool({
    name: 'weather',
    description: 'Weather in a city',
    input: v.object({ city: v.string(), units: v.optional(v.string()) }),
    policy,
    execute: ({ city }) => produce(city, ++runs),
  });
  return { tool, runs: () => runs };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const call = (id: string, args: unknown, name = 'weather') => ({ id, name, arguments: args });

describe('cache()', () => {
  it('serves a repeated call of a read tool from the cache, by input value in any key order, and marks the hit', async () => {
    const { tool, runs } = weather();
    let hits = 0;
    const seeHit = defineInterceptor('see-hit', async (ctx, next) => {
      const outcome = await next();
      if (ctx.get(cacheHitKey) === true) hits++;
      return outcome;
    });
    const executor = createExecutor({ registry: [tool], interceptors: [seeHit, cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u1' });
    const first = await executor.execute(call('c1', '{"city":"Paris","units":"C"}'), { run });
    const second = await executor.execute(call('c2', '{"units":"C","city":"Paris"}'), { run });
    const other = await executor.execute(call('c3', { city: 'Rome' }), { run });
    expect(runs()).toBe(2);
    expect(second.outcome).toEqual({ type: 'success', output: { city: 'Paris', run: 1 } });
    expect(second.content).toBe(first.content);
    expect(other.outcome).toEqual({ type: 'success', output: { city: 'Rome', run: 2 } });
    expect(hits).toBe(1);
    // The hit ran nothing inside the cache: its spans end at the cache layer.
    const traced = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 60_000 })], spans: true });
    await traced.execute(call('c4', { city: 'Oslo' }), { run });
    const again = await traced.execute(call('c5', { city: 'Oslo' }), { run });
    expect(again.spans.map((span) => span.name)).toEqual(['cache']);
  });

  it('keeps each user apart by default, and runs without a user apart by conversation', async () => {
    const { tool, runs } = weather();
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 60_000 })] });
    const paris = { city: 'Paris' };
    const ann = await executor.execute(call('c1', paris), { run: createRunContext({ userId: 'ann' }) });
    const bob = await executor.execute(call('c2', paris), { run: createRunContext({ userId: 'bob' }) });
    const annAgain = await executor.execute(call('c3', paris), { run: createRunContext({ userId: 'ann' }) });
    expect([ann, bob, annAgain].map((r) => (r.outcome as { output: { run: number } }).output.run)).toEqual([1, 2, 1]);
    const a1 = await executor.execute(call('c4', paris), { run: createRunContext({ conversationId: 'a' }) });
    const b1 = await executor.execute(call('c5', paris), { run: createRunContext({ conversationId: 'b' }) });
    const a2 = await executor.execute(call('c6', paris), { run: createRunContext({ conversationId: 'a' }) });
    expect([a1, b1, a2].map((r) => (r.outcome as { output: { run: number } }).output.run)).toEqual([3, 4, 3]);
    expect(runs()).toBe(4);
  });

  it('takes a scope of your own; undefined leaves the call uncached', async () => {
    const { tool, runs } = weather();
    const shared = cache({ ttlMs: 60_000, scope: (ctx) => (ctx.run.userId === 'private' ? undefined : 'everyone') });
    const executor = createExecutor({ registry: [tool], interceptors: [shared] });
    await executor.execute(call('c1', { city: 'Paris' }), { run: createRunContext({ userId: 'ann' }) });
    await executor.execute(call('c2', { city: 'Paris' }), { run: createRunContext({ userId: 'bob' }) });
    expect(runs()).toBe(1);
    await executor.execute(call('c3', { city: 'Paris' }), { run: createRunContext({ userId: 'private' }) });
    await executor.execute(call('c4', { city: 'Paris' }), { run: createRunContext({ userId: 'private' }) });
    expect(runs()).toBe(3);
  });

  it('expires entries after ttlMs', async () => {
    let now = 1_000;
    const { tool, runs } = weather();
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 500, store: memoryCacheStore({ now: () => now }) })] });
    const run = createRunContext({ userId: 'u' });
    await executor.execute(call('c1', { city: 'Paris' }), { run });
    now += 499;
    await executor.execute(call('c2', { city: 'Paris' }), { run });
    expect(runs()).toBe(1);
    now += 1;
    await executor.execute(call('c3', { city: 'Paris' }), { run });
    expect(runs()).toBe(2);
  });

  it('never caches writes, tools that ask for approval or have a check, errors, or calls of unrun outcomes', async () => {
    let runs = 0;
    const make = (name: string, policy: Parameters<typeof defineTool>[0]['policy'], fail = false) =>
      defineTool({
        name,
        description: name,
        input: v.object({ id: v.string() }),
        policy,
        execute: ({ id }) => {
          runs++;
          if (fail) throw new Error('down');
          return { id };
        },
      });
    const tools = [
      make('approved_read', { effects: 'read', needsApproval: true }),
      make('checked_read', { effects: 'read', check: () => {} }),
      make('failing_read', { effects: 'read' }, true),
    ];
    const executor = createExecutor({ registry: tools, interceptors: [cache({ ttlMs: 60_000, clearOnWrite: false })] });
    const run = createRunContext({ userId: 'u' });
    for (const name of ['checked_read', 'failing_read']) {
      await executor.execute(call(`${name}-1`, { id: 'x' }, name), { run });
      await executor.execute(call(`${name}-2`, { id: 'x' }, name), { run });
    }
    expect(runs).toBe(4);
    const asked = await executor.execute(call('a1', { id: 'x' }, 'approved_read'), { run });
    expect(code(asked.outcome)).toBe('approval-required');
    // Approved twice: a human said yes to each read, and a cache must not answer one no human approved.
    await executor.execute(call('a2', { id: 'x' }, 'approved_read'), { run, approval: { approved: true } });
    await executor.execute(call('a3', { id: 'x' }, 'approved_read'), { run, approval: { approved: true } });
    expect(runs).toBe(6);
    const write = make('write_note', { effects: 'write', needsApproval: false });
    const writer = createExecutor({ registry: [write], interceptors: [cache({ ttlMs: 60_000, clearOnWrite: false })] });
    await writer.execute(call('w1', { id: 'x' }, 'write_note'), { run });
    await writer.execute(call('w2', { id: 'x' }, 'write_note'), { run });
    expect(runs).toBe(8);
  });

  it('keeps only plain JSON data up to maxOutputSize: a Date, a class instance, a cycle or a large result passes through', async () => {
    class Reading {
      readonly celsius: number;
      constructor(celsius: number) {
        this.celsius = celsius;
      }
    }
    const outputs: Record<string, () => unknown> = {
      date: () => ({ at: new Date(0) }),
      instance: () => new Reading(20),
      cycle: () => {
        const node: Record<string, unknown> = { name: 'a' };
        node.self = node;
        return node;
      },
      arrayCycle: () => {
        const list: unknown[] = [];
        list.push(list);
        return { list };
      },
      large: () => ({ text: 'x'.repeat(70_000) }),
      withToJSON: () => ({ toJSON: () => 'x' }),
      undefinedInArray: () => [1, undefined],
      nan: () => ({ n: Number.NaN }),
    };
    const { tool, runs } = weather((city) => outputs[city]?.());
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    const codes: Record<string, string> = {};
    for (const city of Object.keys(outputs)) {
      await executor.execute(call(`${city}-1`, { city }), { run });
      codes[city] = code((await executor.execute(call(`${city}-2`, { city }), { run })).outcome);
    }
    expect(runs()).toBe(16);
    // Each ends as it would without a cache (a cycle cannot be written for the model), not in an error of the cache's.
    expect(codes).toEqual({ date: 'success', instance: 'success', cycle: 'invalid-output', arrayCycle: 'invalid-output', large: 'success', withToJSON: 'success', undefinedInArray: 'success', nan: 'success' });
    const { tool: small, runs: smallRuns } = weather(() => ({ text: 'x'.repeat(50), list: [1, true, null, { a: 'b' }] }));
    const fits = createExecutor({ registry: [small], interceptors: [cache({ ttlMs: 60_000, maxOutputSize: 100 })] });
    await fits.execute(call('s1', { city: 'any' }), { run });
    const hit = await fits.execute(call('s2', { city: 'any' }), { run });
    expect(smallRuns()).toBe(1);
    expect(hit.outcome).toEqual({ type: 'success', output: { text: 'x'.repeat(50), list: [1, true, null, { a: 'b' }] } });
  });

  it('copies results in and out: a caller that changes its result does not change what the next call gets', async () => {
    const { tool } = weather((city) => ({ city, tags: ['a'], __proto__x: 1 }));
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    const first = await executor.execute(call('c1', { city: 'Paris' }), { run });
    ((first.outcome as { output: { tags: string[] } }).output.tags).push('changed');
    const second = await executor.execute(call('c2', { city: 'Paris' }), { run });
    ((second.outcome as { output: { tags: string[] } }).output.tags).push('changed again');
    const third = await executor.execute(call('c3', { city: 'Paris' }), { run });
    expect((third.outcome as { output: unknown }).output).toEqual({ city: 'Paris', tags: ['a'], __proto__x: 1 });
  });

  it('keeps a "__proto__" key of a result as data, never as the copy\'s prototype', async () => {
    const { tool, runs } = weather(() => JSON.parse('{"__proto__":{"polluted":true},"ok":1}'));
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    await executor.execute(call('c1', { city: 'Paris' }), { run });
    const hit = await executor.execute(call('c2', { city: 'Paris' }), { run });
    expect(runs()).toBe(1);
    const output = (hit.outcome as { output: Record<string, unknown> }).output;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect((output as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(output)).toEqual(['__proto__', 'ok']);
    expect(hit.content).toBe('{"__proto__":{"polluted":true},"ok":1}');
  });

  it('empties the cache when a write runs through it (success or failure), but not for one that waits for approval', async () => {
    const { tool, runs } = weather();
    let fail = false;
    const move = defineTool({
      name: 'move_order',
      description: 'Move an order',
      input: v.object({ id: v.string() }),
      policy: { effects: 'write', needsApproval: false },
      execute: () => {
        if (fail) throw new Error('conflict');
        return 'moved';
      },
    });
    const asking = defineTool({ name: 'cancel_order', description: 'Cancel', input: v.object({ id: v.string() }), policy: { effects: 'destructive' }, execute: () => 'cancelled' });
    const executor = createExecutor({ registry: [tool, move, asking], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    const paris = call('r', { city: 'Paris' });
    await executor.execute(paris, { run });
    await executor.execute(paris, { run });
    expect(runs()).toBe(1);
    expect(code((await executor.execute(call('x1', { id: 'A' }, 'cancel_order'), { run })).outcome)).toBe('approval-required');
    await executor.execute(paris, { run });
    expect(runs()).toBe(1);
    await executor.execute(call('m1', { id: 'A' }, 'move_order'), { run });
    await executor.execute(paris, { run });
    expect(runs()).toBe(2);
    fail = true;
    expect(code((await executor.execute(call('m2', { id: 'A' }, 'move_order'), { run })).outcome)).toBe('execution-failed');
    await executor.execute(paris, { run });
    expect(runs()).toBe(3);
  });

  it('does not keep a read that was running while a write cleared the cache', async () => {
    const gate = deferred<void>();
    let runs = 0;
    const slow = defineTool({
      name: 'stock',
      description: 'Stock level',
      input: v.object({ sku: v.string() }),
      execute: async () => {
        runs++;
        if (runs === 1) await gate.promise;
        return { level: runs };
      },
    });
    const restock = defineTool({ name: 'restock', description: 'Restock', input: v.object({}), policy: { effects: 'write', needsApproval: false }, execute: () => 'ok' });
    const executor = createExecutor({ registry: [slow, restock], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    const reading = executor.execute(call('s1', { sku: 'A' }, 'stock'), { run });
    await executor.execute(call('w1', {}, 'restock'), { run });
    gate.resolve();
    expect((await reading).outcome).toEqual({ type: 'success', output: { level: 1 } });
    const after = await executor.execute(call('s2', { sku: 'A' }, 'stock'), { run });
    expect(after.outcome).toEqual({ type: 'success', output: { level: 2 } });
  });

  it('empties the cache again when a write a timeout inside it gave up on ends: reads kept meanwhile came before it landed', async () => {
    let level = 1;
    const gate = deferred<void>();
    const landed = deferred<void>();
    const stock = defineTool({ name: 'stock', description: 'Stock level', input: v.object({ sku: v.string() }), execute: () => ({ level }) });
    // Its timeout (a policy layer, inside the cache) ends the call; the tool goes on and writes later.
    const restock = defineTool({
      name: 'restock',
      description: 'Restock',
      input: v.object({}),
      policy: { effects: 'write', needsApproval: false, timeoutMs: 20 },
      execute: async () => {
        await gate.promise;
        level = 2;
        landed.resolve();
        return 'ok';
      },
    });
    const executor = createExecutor({ registry: [stock, restock], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    const read = async (id: string) => (await executor.execute(call(id, { sku: 'A' }, 'stock'), { run })).outcome;
    expect(await read('s1')).toEqual({ type: 'success', output: { level: 1 } });
    expect(code((await executor.execute(call('w1', {}, 'restock'), { run })).outcome)).toBe('timeout');
    // Read after the timeout, before the write lands: the level then, kept.
    expect(await read('s2')).toEqual({ type: 'success', output: { level: 1 } });
    gate.resolve();
    await landed.promise;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await read('s3')).toEqual({ type: 'success', output: { level: 2 } });
  });

  it('keeps no read while a write its timeout gave up on goes on: one after the write landed, before the tool ended, is fresh', async () => {
    let level = 1;
    let runs = 0;
    const landing = deferred<void>();
    const ending = deferred<void>();
    const stock = defineTool({
      name: 'stock',
      description: 'Stock level',
      input: v.object({ sku: v.string() }),
      execute: () => {
        runs++;
        return { level };
      },
    });
    // Its timeout ends the call; the tool goes on, writes (a remote commit), and ends later still.
    const restock = defineTool({
      name: 'restock',
      description: 'Restock',
      input: v.object({}),
      policy: { effects: 'write', needsApproval: false, timeoutMs: 20 },
      execute: async () => {
        await landing.promise;
        level = 2;
        await ending.promise;
        return 'ok';
      },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const executor = createExecutor({ registry: [stock, restock], interceptors: [cache({ ttlMs: 60_000 })] });
      const run = createRunContext({ userId: 'u' });
      const read = async (id: string) => (await executor.execute(call(id, { sku: 'A' }, 'stock'), { run })).outcome;
      expect(await read('s1')).toEqual({ type: 'success', output: { level: 1 } });
      const writing = executor.execute(call('w1', {}, 'restock'), { run });
      await vi.advanceTimersByTimeAsync(20);
      expect(code((await writing).outcome)).toBe('timeout');
      // Read before the write lands: the level then, not kept.
      expect(await read('s2')).toEqual({ type: 'success', output: { level: 1 } });
      landing.resolve();
      await vi.advanceTimersByTimeAsync(0);
      // The write landed, its tool has not ended: the new level, not the one read before it.
      expect(await read('s3')).toEqual({ type: 'success', output: { level: 2 } });
      expect(runs).toBe(3);
      ending.resolve();
      await vi.advanceTimersByTimeAsync(0);
      // The tool ended: results are kept again.
      expect(await read('s4')).toEqual({ type: 'success', output: { level: 2 } });
      expect(await read('s5')).toEqual({ type: 'success', output: { level: 2 } });
      expect(runs).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps results again abandonedWriteMs after a write that never ends was given up on (0: at once)', async () => {
    for (const abandonedWriteMs of [undefined, 5000, 0]) {
      const { tool, runs } = weather();
      const hang = defineTool({
        name: 'hang',
        description: 'A write that never ends',
        input: v.object({}),
        policy: { effects: 'write', needsApproval: false, timeoutMs: 20 },
        execute: () => new Promise<never>(() => {}),
      });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const executor = createExecutor({ registry: [tool, hang], interceptors: [cache({ ttlMs: Number.POSITIVE_INFINITY, abandonedWriteMs })] });
        const run = createRunContext({ userId: 'u' });
        const writing = executor.execute(call('w1', {}, 'hang'), { run });
        await vi.advanceTimersByTimeAsync(20);
        expect(code((await writing).outcome)).toBe('timeout');
        const wait = abandonedWriteMs ?? 60_000;
        await executor.execute(call('r1', { city: 'Paris' }), { run });
        await executor.execute(call('r2', { city: 'Paris' }), { run });
        expect(runs()).toBe(wait === 0 ? 1 : 2);
        await vi.advanceTimersByTimeAsync(Math.max(wait - 1, 0));
        await executor.execute(call('r3', { city: 'Rome' }), { run });
        await executor.execute(call('r4', { city: 'Rome' }), { run });
        expect(runs()).toBe(wait === 0 ? 2 : 4);
        await vi.advanceTimersByTimeAsync(wait === 0 ? 0 : 1);
        await executor.execute(call('r5', { city: 'Oslo' }), { run });
        await executor.execute(call('r6', { city: 'Oslo' }), { run });
        expect(runs()).toBe(wait === 0 ? 3 : 5);
      } finally {
        vi.useRealTimers();
      }
    }
  });

  it('empties the cache at once when the caller aborts a write with no time limit, and keeps no read until the tool ends', async () => {
    let level = 1;
    let runs = 0;
    const landing = deferred<void>();
    const ending = deferred<void>();
    const stock = defineTool({
      name: 'stock',
      description: 'Stock level',
      input: v.object({ sku: v.string() }),
      execute: () => {
        runs++;
        return { level };
      },
    });
    // No timeoutMs: the executor answers the abort, the tool ignores its signal and goes on.
    const restock = defineTool({
      name: 'restock',
      description: 'Restock',
      input: v.object({}),
      policy: { effects: 'write', needsApproval: false },
      execute: async () => {
        await landing.promise;
        level = 2;
        await ending.promise;
        return 'ok';
      },
    });
    const executor = createExecutor({ registry: [stock, restock], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    const read = async (id: string) => (await executor.execute(call(id, { sku: 'A' }, 'stock'), { run })).outcome;
    expect(await read('s1')).toEqual({ type: 'success', output: { level: 1 } });
    const controller = new AbortController();
    const writing = executor.execute(call('w1', {}, 'restock'), { run, signal: controller.signal });
    controller.abort();
    expect(code((await writing).outcome)).toBe('aborted');
    expect(await read('s2')).toEqual({ type: 'success', output: { level: 1 } });
    landing.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The write landed while its tool goes on: the new level, not the one kept before the write or read since.
    expect(await read('s3')).toEqual({ type: 'success', output: { level: 2 } });
    expect(runs).toBe(3);
    ending.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await read('s4');
    await read('s5');
    expect(runs).toBe(4);
  });

  it('clear() empties it by hand', async () => {
    const { tool, runs } = weather();
    const cached = cache({ ttlMs: 60_000 });
    const executor = createExecutor({ registry: [tool], interceptors: [cached] });
    const run = createRunContext({ userId: 'u' });
    await executor.execute(call('c1', { city: 'Paris' }), { run });
    await cached.clear();
    await executor.execute(call('c2', { city: 'Paris' }), { run });
    expect(runs()).toBe(2);
  });

  it('runs identical calls made at the same time once; when the first fails, the others run on their own', async () => {
    const gate = deferred<void>();
    let runs = 0;
    let fail = true;
    const tool = defineTool({
      name: 'rates',
      description: 'Exchange rates',
      input: v.object({ base: v.string() }),
      execute: async ({ base }) => {
        runs++;
        await gate.promise;
        if (fail) {
          fail = false;
          throw new Error('upstream down');
        }
        return { base, rate: runs };
      },
    });
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    const calls = [1, 2, 3].map((n) => executor.execute(call(`c${n}`, { base: 'EUR' }, 'rates'), { run }));
    await Promise.resolve();
    gate.resolve();
    const results = await Promise.all(calls);
    expect(code(results[0]!.outcome)).toBe('execution-failed');
    expect(results.slice(1).map((r) => code(r.outcome))).toEqual(['success', 'success']);
    expect(runs).toBe(3);

    const together = [4, 5, 6].map((n) => executor.execute(call(`c${n}`, { base: 'USD' }, 'rates'), { run }));
    const shared = await Promise.all(together);
    expect(runs).toBe(4);
    expect(shared.map((r) => r.outcome)).toEqual(Array(3).fill({ type: 'success', output: { base: 'USD', rate: 4 } }));
  });

  it('ends a call waiting for an identical running one when its own signal aborts', async () => {
    const gate = deferred<void>();
    const tool = defineTool({
      name: 'slow',
      description: 'Slow read',
      input: v.object({ q: v.string() }),
      execute: async ({ q }) => {
        await gate.promise;
        return q;
      },
    });
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    const first = executor.execute(call('c1', { q: 'a' }, 'slow'), { run });
    const controller = new AbortController();
    const second = executor.execute(call('c2', { q: 'a' }, 'slow'), { run, signal: controller.signal });
    controller.abort();
    expect(code((await second).outcome)).toBe('aborted');
    gate.resolve();
    expect((await first).outcome).toEqual({ type: 'success', output: 'a' });
  });

  it('checks each hit against the output schema, as a fresh result', async () => {
    let runs = 0;
    const tool = defineTool({
      name: 'count',
      description: 'A count',
      input: v.object({}),
      output: v.object({ n: v.pipe(v.number(), v.transform((n) => n * 10)) }),
      execute: () => ({ n: ++runs }),
    });
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 60_000 })] });
    const run = createRunContext({ userId: 'u' });
    const first = await executor.execute(call('c1', {}, 'count'), { run });
    const second = await executor.execute(call('c2', {}, 'count'), { run });
    expect(runs).toBe(1);
    expect(first.outcome).toEqual({ type: 'success', output: { n: 10 } });
    expect(second.outcome).toEqual({ type: 'success', output: { n: 10 } });
  });

  it('takes a store of your own (asynchronous), and a store that fails or returns junk never fails a call', async () => {
    const entries = new Map<string, CachedOutput>();
    const ttls: number[] = [];
    const remote: CacheStore = {
      get: async (key) => entries.get(key),
      set: async (key, value, ttlMs) => {
        ttls.push(ttlMs);
        entries.set(key, value);
      },
      clear: async () => entries.clear(),
    };
    const { tool, runs } = weather();
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 30_000, store: remote })] });
    const run = createRunContext({ userId: 'u' });
    await executor.execute(call('c1', { city: 'Paris' }), { run });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const hit = await executor.execute(call('c2', { city: 'Paris' }), { run });
    expect(runs()).toBe(1);
    expect(ttls).toEqual([30_000]);
    expect([...entries.keys()]).toEqual(['weather\nuser:u\n{"city":"Paris"}']);
    expect(hit.outcome).toEqual({ type: 'success', output: { city: 'Paris', run: 1 } });

    const broken: CacheStore = {
      get: () => {
        throw new Error('store down');
      },
      set: () => Promise.reject(new Error('store down')),
    };
    const junk: CacheStore = { get: () => ({ output: new Date() }) as CachedOutput, set: () => {} };
    for (const store of [broken, junk]) {
      const { tool: t, runs: r } = weather();
      const ex = createExecutor({ registry: [t], interceptors: [cache({ ttlMs: 1000, store, clearOnWrite: false })] });
      const a = await ex.execute(call('b1', { city: 'Oslo' }), { run });
      const b = await ex.execute(call('b2', { city: 'Oslo' }), { run });
      expect([code(a.outcome), code(b.outcome), r()]).toEqual(['success', 'success', 2]);
    }
  });

  it('shares a result while a store of your own saves it, but no longer than ttlMs: a save that never settles keeps nothing', async () => {
    const remote: CacheStore = { get: () => undefined, set: () => new Promise<void>(() => {}), clear: () => {} };
    const { tool, runs } = weather();
    const executor = createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 1000, store: remote })] });
    const run = createRunContext({ userId: 'u' });
    vi.useFakeTimers();
    try {
      await executor.execute(call('c1', { city: 'Paris' }), { run });
      // The store has not answered yet: the next call shares the result the save is on its way with.
      expect((await executor.execute(call('c2', { city: 'Paris' }), { run })).outcome).toEqual({ type: 'success', output: { city: 'Paris', run: 1 } });
      vi.advanceTimersByTime(1001);
      expect((await executor.execute(call('c3', { city: 'Paris' }), { run })).outcome).toEqual({ type: 'success', output: { city: 'Paris', run: 2 } });
      expect(runs()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops a save of a store of your own that was on its way when a write cleared the cache (delete(key), else clear())', async () => {
    for (const withDelete of [true, false]) {
      const entries = new Map<string, CachedOutput>();
      const saves: Array<() => void> = [];
      const deleted: string[] = [];
      // A remote store that applies a save when it is let go: after a clear that was sent later.
      const remote: CacheStore = {
        get: (key) => entries.get(key),
        set: (key, value) => new Promise<void>((resolve) => saves.push(() => resolve(void entries.set(key, value)))),
        clear: () => entries.clear(),
        ...(withDelete
          ? {
              delete: (key: string) => {
                deleted.push(key);
                entries.delete(key);
              },
            }
          : {}),
      };
      let level = 1;
      const stock = defineTool({ name: 'stock', description: 'Stock level', input: v.object({ sku: v.string() }), execute: () => ({ level }) });
      const restock = defineTool({
        name: 'restock',
        description: 'Restock',
        input: v.object({}),
        policy: { effects: 'write', needsApproval: false },
        execute: () => {
          level = 2;
          return 'ok';
        },
      });
      const executor = createExecutor({ registry: [stock, restock], interceptors: [cache({ ttlMs: 60_000, store: remote })] });
      const run = createRunContext({ userId: 'u' });
      const read = async (id: string) => (await executor.execute(call(id, { sku: 'A' }, 'stock'), { run })).outcome;
      expect(await read('s1')).toEqual({ type: 'success', output: { level: 1 } });
      await executor.execute(call('w1', {}, 'restock'), { run });
      for (const save of saves.splice(0)) save();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(await read('s2')).toEqual({ type: 'success', output: { level: 2 } });
      expect(deleted).toEqual(withDelete ? ['stock\nuser:u\n{"sku":"A"}'] : []);
    }
  });

  it('refuses options it cannot honour, at cache()', () => {
    const noClear: CacheStore = { get: () => undefined, set: () => {} };
    expect(() => cache({ ttlMs: 1000, store: noClear })).toThrow('cache: this store has no clear(), which clearOnWrite (on by default) needs');
    expect(() => cache({ ttlMs: 1000, store: noClear, clearOnWrite: false })).not.toThrow();
    expect(() => cache({ ttlMs: 0 })).toThrow('cache: ttlMs must be a positive number');
    expect(() => cache({ ttlMs: Number.NaN })).toThrow('cache: ttlMs must be a positive number');
    expect(() => cache({} as never)).toThrow('cache: ttlMs must be a positive number');
    expect(() => cache({ ttlMs: 1000, store: {} as never })).toThrow('cache: store must have get(key) and set(key, value, ttlMs) methods.');
    expect(() => cache({ ttlMs: 1000, maxOutputSize: -1 })).toThrow('cache: maxOutputSize must be a positive number.');
    expect(() => cache({ ttlMs: 1000, abandonedWriteMs: -1 })).toThrow('cache: abandonedWriteMs must be 0 or a number of milliseconds from 1 to');
    expect(() => cache({ ttlMs: 1000, abandonedWriteMs: Number.POSITIVE_INFINITY })).toThrow('cache: abandonedWriteMs must be 0');
    expect(() => memoryCacheStore({ maxEntries: 0 })).toThrow('memoryCacheStore: maxEntries must be a positive integer.');
    expect(() => cache({ ttlMs: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});

describe('memoryCacheStore()', () => {
  it('keeps at most maxEntries, dropping expired entries first, then the least recently used', () => {
    let now = 0;
    const store = memoryCacheStore({ maxEntries: 3, now: () => now });
    store.set('a', { output: 1 }, 1000);
    store.set('b', { output: 2 }, 10);
    store.set('c', { output: 3 }, 1000);
    now = 20;
    store.set('d', { output: 4 }, 1000);
    expect(['a', 'b', 'c', 'd'].map((key) => store.get(key)?.output)).toEqual([1, undefined, 3, 4]);
    // Read order now a, c, d: "a" was used least recently until it is read again.
    store.get('a');
    store.set('e', { output: 5 }, 1000);
    expect(['a', 'c', 'd', 'e'].map((key) => store.get(key)?.output)).toEqual([1, undefined, 4, 5]);
    store.clear();
    expect(store.get('a')).toBeUndefined();
  });

  it('keeps at most maxSize of output (JSON characters, about), least recently used out; a larger one is not kept', () => {
    const text = (c: string) => c.repeat(40); // 42 characters of JSON
    const store = memoryCacheStore({ maxSize: 100 });
    store.set('a', { output: text('a') }, 1000);
    store.set('b', { output: text('b') }, 1000);
    store.set('c', { output: text('c') }, 1000);
    expect(['a', 'b', 'c'].map((key) => store.get(key)?.output)).toEqual([undefined, text('b'), text('c')]);
    store.get('b');
    store.set('d', { output: [text('d')] }, 1000);
    expect(['b', 'c', 'd'].map((key) => store.get(key)?.output)).toEqual([text('b'), undefined, [text('d')]]);
    // Over the whole budget: not kept, and it does not empty the store to try.
    store.set('e', { output: { big: 'e'.repeat(200) } }, 1000);
    expect(['b', 'd', 'e'].map((key) => store.get(key) !== undefined)).toEqual([true, true, false]);
    // A key stored again counts once.
    store.set('b', { output: text('B') }, 1000);
    store.set('b', { output: text('B') }, 1000);
    expect(['b', 'd'].map((key) => store.get(key) !== undefined)).toEqual([true, true]);
    // delete(key) gives its size back: a result that fills the rest fits beside d.
    store.delete('b');
    store.set('f', { output: 'f'.repeat(52) }, 1000);
    expect(['b', 'd', 'f'].map((key) => store.get(key) !== undefined)).toEqual([false, true, true]);
    // By default, 8 Mi: two hundred results of 64 KB each are more than it keeps.
    const memory = memoryCacheStore();
    for (let i = 0; i < 200; i++) memory.set(`k${i}`, { output: 'x'.repeat(65_536) }, 60_000);
    const kept = Array.from({ length: 200 }, (_, i) => memory.get(`k${i}`) !== undefined).filter(Boolean).length;
    expect(kept).toBe(127);
    expect(() => memoryCacheStore({ maxSize: 0 })).toThrow('memoryCacheStore: maxSize must be a positive number.');
  });
});
