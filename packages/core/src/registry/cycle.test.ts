import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors/tool-error.ts';
import { createExecutor } from '../executor/executor.ts';
import { listDelayedOrders, queryOrder } from '../test-support/order-tools.ts';
import { NESTED_LOOKUPS } from './cycle.ts';
import { createRegistry, type ToolRegistry } from './registry.ts';
import { delegatingResolver, staticResolver, type ToolResolver } from './resolvers.ts';

const FIX = 'a registry or resolver is among those it delegates to, directly or through others; take it out of them.';
const resolvingCycle = (name: string) => `Resolving "${name}" went round a cycle of resolvers: ${FIX}`;
const countedCycle = (name: string) =>
  `Resolving "${name}" went round a cycle of resolvers (${NESTED_LOOKUPS} lookups of it were waiting on one another; a resolver of one's own must pass \`via\` on): ${FIX}`;
const listingCycle = `Listing the tools went round a cycle of resolvers: ${FIX}`;

/** What `run` threw: a cycle must be a `resolver-cycle` `ToolError` (it was a `RangeError`, a stack overflow). */
function thrown(run: () => unknown): { code: string; message: string } | string {
  try {
    run();
    return 'nothing thrown';
  } catch (error) {
    return ToolError.isInstance(error) ? { code: error.code, message: error.message } : String(error);
  }
}

/** A resolver of one's own that hands every lookup of its names, and its listing, to `target()` (passing `via` on). */
function pointingAt(names: readonly string[] | undefined, target: () => ToolResolver | undefined): ToolResolver {
  return {
    kind: 'edgetool.resolver',
    names: () => names ?? target()?.names() ?? [],
    resolve: (name, signal, via) => target()?.resolve(name, signal, via),
  };
}

/**
 * A lazy resolver of one's own: loads the module that holds the resolver of its tools on first use (after an `await`,
 * as an `import()` does) and asks it, passing `via` on. Counts its loads; one that goes round and round stops after 50.
 */
function lazyPlugin(names: readonly string[], load: () => ToolResolver): ToolResolver & { loads: number } {
  const plugin = {
    kind: 'edgetool.resolver' as const,
    loads: 0,
    names: () => names,
    async resolve(name: string, signal?: AbortSignal, via?: readonly ToolResolver[]) {
      if (++plugin.loads > 50) throw new Error('went round 50 times');
      const resolver = await new Promise<ToolResolver>((resolve) => setTimeout(() => resolve(load())));
      return resolver.resolve(name, signal, via);
    },
  };
  return plugin;
}

describe('a cycle of resolvers is a resolver-cycle ToolError, registry or not, synchronous or not', () => {
  it('a delegating resolver that contains itself, through a resolver of one\'s own: at lookup and at names()', () => {
    let loop: ToolResolver | undefined;
    // Lists its names itself: a lookup goes round; one that lists loop's names: the listing goes round.
    loop = delegatingResolver([staticResolver([queryOrder]), pointingAt(['x'], () => loop)]);
    expect(thrown(() => loop.resolve('x'))).toEqual({ code: 'resolver-cycle', message: resolvingCycle('x') });
    expect(loop.resolve('query_order')).toBe(queryOrder);

    let listing: ToolResolver | undefined;
    listing = delegatingResolver([staticResolver([queryOrder]), pointingAt(undefined, () => listing)]);
    expect(thrown(() => listing.names())).toEqual({ code: 'resolver-cycle', message: listingCycle });
    // A name it does not know reads the names again: the same cycle, not an overflow.
    expect(thrown(() => listing.resolve('nope'))).toEqual({ code: 'resolver-cycle', message: listingCycle });
  });

  it('two delegating resolvers that contain each other (no registry between them)', () => {
    let outer: ToolResolver | undefined;
    const inner = delegatingResolver([staticResolver([listDelayedOrders]), pointingAt(['x'], () => outer)]);
    outer = delegatingResolver([staticResolver([queryOrder]), inner]);
    for (const resolver of [outer, inner]) {
      expect(thrown(() => resolver.resolve('x'))).toEqual({ code: 'resolver-cycle', message: resolvingCycle('x') });
    }
    expect(outer.resolve('list_delayed_orders')).toBe(listDelayedOrders);
  });

  it('registries whose resolvers list each other: names() and an unknown tool\'s list fail typed; execute never rejects', async () => {
    let b: ToolRegistry | undefined;
    const a = createRegistry({ tools: [queryOrder], resolvers: [pointingAt(undefined, () => b)] });
    b = createRegistry({ resolvers: [pointingAt(undefined, () => a)] });
    for (const registry of [a, b]) {
      expect(thrown(() => registry.names())).toEqual({ code: 'resolver-cycle', message: listingCycle });
      await expect(registry.tools()).rejects.toThrow(listingCycle);
      const result = await createExecutor({ registry }).execute({ id: '1', name: 'nope', arguments: {} });
      expect(result.content).toBe(`Error (resolver-cycle): ${listingCycle}`);
    }
    // A registry of one resolver of one's own that lists the registry back: the same.
    let self: ToolRegistry | undefined;
    self = createRegistry({ resolvers: [pointingAt(undefined, () => self)] });
    expect(thrown(() => self.names())).toEqual({ code: 'resolver-cycle', message: listingCycle });
  });

  it('a cycle with an `await` before it delegates fails at once, not at the caller\'s signal', async () => {
    // A registry whose lazy plugin's module holds a resolver that leads back to the registry.
    let registry: ToolRegistry | undefined;
    const plugin = lazyPlugin(['x'], () => pointingAt(['x'], () => registry));
    registry = createRegistry({ tools: [queryOrder], resolvers: [plugin] });
    const result = await createExecutor({ registry }).execute({ id: '1', name: 'x', arguments: {} });
    expect(result.content).toBe(`Error (resolver-cycle): ${resolvingCycle('x')}`);
    expect(plugin.loads).toBe(1);

    // Delegating resolvers alone, the plugin inside the inner one, its module leading back to the outer one.
    let outer: ToolResolver | undefined;
    const inner = lazyPlugin(['y'], () => outer as ToolResolver);
    outer = delegatingResolver([staticResolver([queryOrder]), delegatingResolver([inner])]);
    const failed = await Promise.resolve(outer.resolve('y')).catch((error: unknown) => error);
    expect(ToolError.isInstance(failed) && [failed.code, failed.message]).toEqual(['resolver-cycle', resolvingCycle('y')]);
    expect(inner.loads).toBe(1);
  });

  it('no false cycles: the same resolver twice side by side, calls at the same time, a lookup after a lookup', async () => {
    const shared = createRegistry({ tools: [queryOrder], resolvers: [staticResolver([listDelayedOrders])] });
    // A diamond: both branches hold the same registry (its tools once, in the first branch).
    const diamond = delegatingResolver([delegatingResolver([shared]), pointingAt(['other'], () => shared)]);
    expect(diamond.resolve('list_delayed_orders')).toBe(listDelayedOrders);
    // A plugin asked for its tool by several calls at once (each waits on its own load): no cycle.
    const plugin = lazyPlugin(['list_delayed_orders'], () => staticResolver([listDelayedOrders]));
    const registry = createRegistry({ tools: [queryOrder], resolvers: [plugin] });
    const executor = createExecutor({ registry });
    const calls = ['1', '2', '3'].map((id) => executor.execute({ id, name: 'list_delayed_orders', arguments: {} }));
    expect((await Promise.all(calls)).map((result) => result.outcome.type)).toEqual(['success', 'success', 'success']);
    // A resolver that asks the registry for another name (an alias) is no cycle either.
    let aliased: ToolRegistry | undefined;
    const alias: ToolResolver = { kind: 'edgetool.resolver', names: () => ['alias'], resolve: () => aliased?.resolve('query_order') };
    aliased = createRegistry({ tools: [queryOrder], resolvers: [alias] });
    expect(thrown(() => aliased.resolve('alias'))).toEqual('TypeError: The resolver of "alias" returned the tool "query_order".');
  });

  it('a cycle through a resolver of one\'s own that drops `via` after an `await` ends after a bounded number of rounds', async () => {
    // The resolver asks the registry back for the same name after an `await`, and passes neither `signal` nor `via`.
    const dropping = (target: () => ToolResolver | undefined) => {
      const resolver = {
        kind: 'edgetool.resolver' as const,
        rounds: 0,
        names: () => ['x'],
        async resolve(name: string) {
          if (++resolver.rounds > 5 * NESTED_LOOKUPS) throw new Error('went round unbounded');
          await Promise.resolve();
          return target()?.resolve(name);
        },
      };
      return resolver;
    };
    let registry: ToolRegistry | undefined;
    const plugin = dropping(() => registry);
    registry = createRegistry({ tools: [queryOrder], resolvers: [plugin] });
    const result = await createExecutor({ registry }).execute({ id: '1', name: 'x', arguments: {} });
    expect([result.outcome.type === 'error' && result.outcome.error.code, result.content]).toEqual(['resolver-cycle', `Error (resolver-cycle): ${countedCycle('x')}`]);
    expect(plugin.rounds).toBe(NESTED_LOOKUPS);
    // Every round ended with it: the next lookup goes round afresh, and stops at the same bound.
    await expect(Promise.resolve(registry.resolve('x'))).rejects.toThrow(countedCycle('x'));
    expect(plugin.rounds).toBe(2 * NESTED_LOOKUPS);

    // Delegating resolvers alone: the same.
    let outer: ToolResolver | undefined;
    const inner = dropping(() => outer);
    outer = delegatingResolver([staticResolver([queryOrder]), inner]);
    await expect(Promise.resolve(outer.resolve('x'))).rejects.toThrow(countedCycle('x'));
    expect(inner.rounds).toBe(NESTED_LOOKUPS);
  });

  it('no false cycle: many calls of one slow tool at once, up to the bound', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: ToolResolver = {
      kind: 'edgetool.resolver',
      names: () => ['list_delayed_orders'],
      resolve: async () => {
        await gate;
        return listDelayedOrders;
      },
    };
    const registry = createRegistry({ tools: [queryOrder], resolvers: [slow] });
    const lookups = Array.from({ length: NESTED_LOOKUPS }, () => Promise.resolve(registry.resolve('list_delayed_orders')));
    release();
    expect((await Promise.all(lookups)).every((tool) => tool?.name === 'list_delayed_orders')).toBe(true);
    // None is left counted: as many again wait at once without a refusal.
    const again = Array.from({ length: NESTED_LOOKUPS }, () => Promise.resolve(registry.resolve('list_delayed_orders')));
    expect((await Promise.all(again)).length).toBe(NESTED_LOOKUPS);
  });
});
