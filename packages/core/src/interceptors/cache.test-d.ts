import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { ToolContext, ToolInterceptor } from '../chain/types.ts';
import type { ContextKey } from '../context/context-key.ts';
import { createExecutor } from '../executor/executor.ts';
import { defineTool } from '../tool/define-tool.ts';
import { type CacheInterceptor, type CacheStore, type CachedOutput, cache, cacheHitKey, type MemoryCacheStore, memoryCacheStore } from './cache.ts';

describe('cache() types', () => {
  it('is an interceptor with clear(), usable at every level, its scope typed by the deps', () => {
    type Deps = { tenant: string };
    const cached = cache<Deps>({ ttlMs: 1000, scope: (ctx) => ctx.run.deps.tenant });
    expectTypeOf(cached).toEqualTypeOf<CacheInterceptor<Deps>>();
    expectTypeOf(cached).toExtend<ToolInterceptor<unknown, unknown, Deps>>();
    expectTypeOf(cached.clear).returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf<Parameters<NonNullable<Parameters<typeof cache<Deps>>[0]['scope']>>[0]>().toEqualTypeOf<ToolContext<unknown, Deps>>();
    const tool = defineTool({ name: 'weather', description: 'Weather', input: v.object({ city: v.string() }), interceptors: [cache({ ttlMs: 1000 })], execute: ({ city }) => city });
    createExecutor({ registry: [tool], interceptors: [cache({ ttlMs: 1000 })] });
    expectTypeOf(cacheHitKey).toEqualTypeOf<ContextKey<true>>();
    // @ts-expect-error ttlMs is required
    cache({});
    // @ts-expect-error scope returns a string or undefined
    cache({ ttlMs: 1000, scope: () => 1 });
  });

  it('takes a store of your own, synchronous or not; the memory store has every method', () => {
    const store: CacheStore = { get: async (_key: string): Promise<CachedOutput | undefined> => undefined, set: async () => {} };
    cache({ ttlMs: 1000, store, clearOnWrite: false });
    const memory = memoryCacheStore({ maxEntries: 10, maxSize: 1_000_000 });
    expectTypeOf(memory.clear).toBeFunction();
    expectTypeOf(memory.get('k')).toEqualTypeOf<CachedOutput | undefined>();
    expectTypeOf(memory).toEqualTypeOf<MemoryCacheStore>();
    expectTypeOf(memory).toExtend<CacheStore>();
    expectTypeOf(memory.delete).toEqualTypeOf<(key: string) => void>();
  });
});
