import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { ToolError } from '../errors/tool-error.ts';
import { createExecutor } from '../executor/executor.ts';
import { listDelayedOrders, queryOrder, updateDeliveryDate } from '../test-support/order-tools.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { AnyTool } from '../tool/types.ts';
import { createRegistry } from './registry.ts';
import { delegatingResolver, lazyResolver, staticResolver, type ToolResolver } from './resolvers.ts';

const clone = defineTool({ name: 'query_order', description: 'another one', input: v.object({}), execute: () => 'x' });

describe('registry and resolvers', () => {
  it('a duplicate name is an error at registration, never a silent skip', () => {
    expect(() => createRegistry({ tools: [queryOrder, clone] })).toThrow(/Duplicate tool name "query_order"/);
    try {
      staticResolver([queryOrder, clone]);
    } catch (error) {
      expect(ToolError.isInstance(error) && error.code).toBe('duplicate-tool');
    }
    expect(() => createRegistry({ tools: [queryOrder], resolvers: [staticResolver([clone])] })).toThrow(/Duplicate/);
    expect(() => delegatingResolver([lazyResolver({ query_order: async () => clone }), staticResolver([queryOrder])])).toThrow(/Duplicate/);
  });

  it('rejects entries that are not tools', () => {
    expect(() => createRegistry({ tools: [{ name: 'fake' } as never] })).toThrow(/defineTool/);
    expect(() => createRegistry({ tools: [{ kind: 'edgetool.tool', name: 'tagged' } as never] })).toThrow(/defineTool/);
  });

  it('looks names up safely: prototype names are unknown', async () => {
    const registry = createRegistry({ tools: [queryOrder] });
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) expect(await registry.resolve(name)).toBeUndefined();
    const lazy = lazyResolver({ query_order: async () => queryOrder });
    for (const name of ['__proto__', 'constructor', 'toString']) expect(lazy.resolve(name)).toBeUndefined();
  });

  it('a registry of its own list alone (its fast lookup) finds what one with resolvers or `available` finds', async () => {
    const names = ['query_order', 'list_delayed_orders', 'nope', '__proto__', 'constructor', '', 1, undefined, null, {}];
    const plain = createRegistry({ tools: [queryOrder, listDelayedOrders] });
    const withResolver = createRegistry({ tools: [queryOrder], resolvers: [staticResolver([listDelayedOrders])] });
    const gated = createRegistry({ tools: [queryOrder, listDelayedOrders], available: () => true });
    for (const name of names as string[]) {
      const found = plain.resolve(name);
      expect(found).toBe(withResolver.resolve(name));
      expect((await gated.resolve(name))?.name).toBe((found as { name?: string } | undefined)?.name);
    }
    expect(plain.resolve('query_order')).toBe(queryOrder);
  });

  it('a resolver that hands out null, a non-tool or a tool of another name: each call fails alone, execute never rejects', async () => {
    // A bare tag (`{ kind, name }`, no policy or interceptors) is no tool either: execute rejected with a TypeError.
    const tagged = { kind: 'edgetool.tool', name: 'tagged' };
    const handOut: Record<string, unknown> = {
      none: null,
      fake: { name: 'fake' },
      later: Promise.resolve('a module'),
      other: queryOrder,
      tagged,
      taggedLater: Promise.resolve({ ...tagged, name: 'taggedLater' }),
      noInterceptors: { ...queryOrder, name: 'noInterceptors', interceptors: undefined },
    };
    const custom: ToolResolver = { kind: 'edgetool.resolver', names: () => Object.keys(handOut), resolve: (name) => handOut[name] as never };
    const registry = createRegistry({ tools: [listDelayedOrders], resolvers: [custom] });
    const executor = createExecutor({ registry });
    const none = await executor.execute({ id: '1', name: 'none', arguments: {} });
    expect(none.content).toBe('Error (unknown-tool): Unknown tool "none". Available tools: list_delayed_orders.');
    for (const name of ['fake', 'later', 'tagged', 'taggedLater', 'noInterceptors']) {
      const result = await executor.execute({ id: '2', name, arguments: {} });
      expect(result.content).toBe(`Error (execution-failed): The resolver of "${name}" returned something that is not a tool made by defineTool().`);
    }
    const other = await executor.execute({ id: '3', name: 'other', arguments: { order_id: 'A' } });
    expect(other.content).toBe('Error (execution-failed): The resolver of "other" returned the tool "query_order".');
    expect(createRegistry({ resolvers: [custom] }).resolve('none')).toBeUndefined();
  });

  it('names() of a resolver of one\'s own: repeats and non-strings are left out, anything but a list is a TypeError', async () => {
    const listing = (names: unknown): ToolResolver => ({
      kind: 'edgetool.resolver',
      names: () => names as string[],
      resolve: (name) => (name === 'query_order' ? queryOrder : undefined),
    });
    // The same name twice was listed (and shown to the model) twice; a number or null was handed on as a name.
    for (const registry of [
      createRegistry({ resolvers: [listing(['query_order', 'query_order', 1, null])] }),
      createRegistry({ tools: [listDelayedOrders], resolvers: [listing(['query_order', 'query_order', 1, null])] }),
    ]) {
      const names = registry.names().filter((name) => name === 'query_order' || typeof name !== 'string');
      expect(names).toEqual(['query_order']);
      expect((await registry.tools()).filter((tool) => tool.name === 'query_order').length).toBe(1);
      const unknown = await createExecutor({ registry }).execute({ id: '1', name: 'nope', arguments: {} });
      expect(unknown.content).toMatch(/Available tools: (list_delayed_orders, )?query_order\.$/);
    }
    // A string was read letter by letter beside another resolver, and failed `.map is not a function` alone.
    const notAList = "A resolver's names() returned something that is not a list of names.";
    expect(() => createRegistry({ tools: [listDelayedOrders], resolvers: [listing('query_order')] })).toThrow(new TypeError(notAList));
    const alone = createRegistry({ resolvers: [listing('query_order')] });
    expect(() => alone.names()).toThrow(new TypeError(notAList));
    await expect(alone.tools()).rejects.toThrow(notAList);
    const unknown = await createExecutor({ registry: alone }).execute({ id: '1', name: 'nope', arguments: {} });
    expect(unknown.content).toBe(`Error (execution-failed): ${notAList}`);
  });

  it('a resolver of one\'s own that throws or rejects with no Error, or hands out a thenable that is no Promise, fails the call alone', async () => {
    // Found fine in session 26 and kept so: each is a typed failure of the call, never a rejection of execute().
    const thrown: Record<string, unknown> = { text: 'store down', none: undefined, nil: null, symbol: Symbol('s'), object: { message: 'quota' } };
    const failing = (async: boolean): ToolResolver => ({
      kind: 'edgetool.resolver',
      names: () => Object.keys(thrown),
      resolve: (name) => {
        if (async) return Promise.reject(thrown[name]);
        throw thrown[name];
      },
    });
    for (const async of [false, true]) {
      const failed: string[] = [];
      const registry = createRegistry({ tools: [queryOrder], resolvers: [failing(async)], onLoadError: (_error, name) => failed.push(name) });
      const executor = createExecutor({ registry });
      const contents = await Promise.all(Object.keys(thrown).map(async (name) => (await executor.execute({ id: name, name, arguments: {} })).content));
      expect(contents).toEqual(['store down', 'Unknown error', 'Unknown error', 'Unknown error', 'quota'].map((text) => `Error (execution-failed): ${text}`));
      expect((await registry.tools()).map((tool) => tool.name)).toEqual(['query_order']);
      expect(failed).toEqual(Object.keys(thrown));
    }
    // A thenable that is no Promise (one that never calls back) is not awaited as a tool: it is refused as no tool.
    // Defined, not written as a `then` property: the lint rule against thenables guards the code, not this test.
    const never = Object.defineProperty({}, 'then', { value: () => {} });
    const thenable: ToolResolver = { kind: 'edgetool.resolver', names: () => ['later'], resolve: () => never as never };
    const later = await createExecutor({ registry: createRegistry({ resolvers: [thenable] }) }).execute({ id: '1', name: 'later', arguments: {} });
    expect(later.content).toBe('Error (execution-failed): The resolver of "later" returned something that is not a tool made by defineTool().');
  });

  it('a cycle of resolvers built by hand fails the call with a message naming it, not a stack overflow', async () => {
    const fix = 'a registry or resolver is among those it delegates to, directly or through others; take it out of them.';
    const cycleOf = (name: string) => `Error (resolver-cycle): Resolving "${name}" went round a cycle of resolvers: ${fix}`;
    // Two registries whose resolvers delegate to each other (one of them async): each is asked the name again.
    const toB: ToolResolver = { kind: 'edgetool.resolver', names: () => ['x'], resolve: (name, signal) => b.resolve(name, signal) };
    const toA: ToolResolver = { kind: 'edgetool.resolver', names: () => ['x'], resolve: async (name, signal) => a.resolve(name, signal) };
    const a = createRegistry({ tools: [queryOrder], resolvers: [toB] });
    const b = createRegistry({ resolvers: [toA] });
    const failed: unknown[] = [];
    const viaA = createRegistry({ resolvers: [a], onLoadError: (error) => failed.push(error) });
    for (const registry of [a, b, viaA]) {
      const result = await createExecutor({ registry }).execute({ id: '1', name: 'x', arguments: {} });
      expect(result.content).toBe(cycleOf('x'));
    }
    // `tools()` leaves it out and reports it; the registry answers other names as before.
    expect((await viaA.tools()).map((tool) => tool.name)).toEqual(['query_order']);
    expect(failed.map((error) => (error as Error).message)).toEqual([cycleOf('x').slice('Error (resolver-cycle): '.length)]);
    expect(a.resolve('query_order')).toBe(queryOrder);
  });

  it('delegates in order and lists every name', async () => {
    const registry = createRegistry({ resolvers: [staticResolver([queryOrder]), staticResolver([listDelayedOrders])] });
    expect(registry.names()).toEqual(['query_order', 'list_delayed_orders']);
    expect(await registry.resolve('list_delayed_orders')).toBe(listDelayedOrders);
    expect((await registry.tools()).map((t) => t.name)).toEqual(['query_order', 'list_delayed_orders']);
  });

  it('a tool a resolver gets later is found beside other resolvers or a list too (it was only found alone)', async () => {
    // A resolver backed by a table a tool is added to while the server runs. delegatingResolver read every resolver's
    // names once, when it was made: beside a list or another resolver, a tool added later stayed an unknown tool.
    const late = new Map<string, AnyTool>();
    const growing: ToolResolver = { kind: 'edgetool.resolver', names: () => [...late.keys()], resolve: (name) => late.get(name) };
    const registry = createRegistry({ tools: [queryOrder], resolvers: [growing] });
    const executor = createExecutor({ registry });
    late.set('list_delayed_orders', listDelayedOrders);
    expect(registry.names()).toEqual(['query_order', 'list_delayed_orders']);
    expect((await registry.tools()).map((t) => t.name)).toEqual(['query_order', 'list_delayed_orders']);
    expect((await executor.execute({ id: '1', name: 'list_delayed_orders', arguments: {} })).outcome.type).toBe('success');
    // Names that come to overlap later: the first resolver that knows the name wins (at registration they still throw).
    const delegating = delegatingResolver([growing, staticResolver([updateDeliveryDate])]);
    late.set('update_delivery_date', clone);
    expect(delegating.names()).toEqual(['list_delayed_orders', 'update_delivery_date']);
    expect(delegating.resolve('update_delivery_date')).toBe(clone);
    expect(delegating.resolve('nothing')).toBeUndefined();
  });

  it('lazy: imports a module on first use, once, even under concurrent first calls', async () => {
    let loads = 0;
    const lazy = lazyResolver({
      update_delivery_date: async () => {
        loads++;
        await new Promise((r) => setTimeout(r, 10));
        return { default: updateDeliveryDate };
      },
    });
    expect(loads).toBe(0);
    const executor = createExecutor({ registry: createRegistry({ tools: [queryOrder], resolvers: [lazy] }) });
    const calls = Array.from({ length: 5 }, (_, i) => ({ id: String(i), name: 'update_delivery_date', arguments: { order_id: 'A', new_date: '2026-12-24' } }));
    const results = await Promise.all(calls.map((c) => executor.execute(c)));
    expect(results.every((r) => r.outcome.type === 'approval-required')).toBe(true);
    expect(loads).toBe(1);
    await executor.execute(calls[0] as (typeof calls)[0]);
    expect(loads).toBe(1);
  });

  it('lazy: one of two calls sharing a load stops waiting; the load is kept for the other, and a third call waits on it (it loaded twice)', async () => {
    let loads = 0;
    let finish: () => void = () => {};
    const slow = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const lazy = lazyResolver({
      query_order: async () => {
        loads++;
        await slow;
        return queryOrder;
      },
    });
    const executor = createExecutor({ registry: createRegistry({ resolvers: [lazy] }) });
    const call = { id: '1', name: 'query_order', arguments: { order_id: 'A-1001' } };
    const controller = new AbortController();
    const waiting = executor.execute(call);
    const leaving = executor.execute({ ...call, id: '2' }, { signal: controller.signal });
    controller.abort();
    expect((await leaving).outcome).toMatchObject({ type: 'error', error: { code: 'aborted' } });
    const later = executor.execute({ ...call, id: '3' });
    finish();
    expect([(await waiting).outcome.type, (await later).outcome.type]).toEqual(['success', 'success']);
    expect(loads).toBe(1);
    // With nobody left waiting (each waiter's signal aborted), the load is not kept: the next use loads again.
    const hung = lazyResolver({ query_order: () => (++loads === 2 ? new Promise<never>(() => {}) : Promise.resolve(queryOrder)) });
    const [a, b] = [new AbortController(), new AbortController()];
    const both = [hung.resolve('query_order', a.signal), hung.resolve('query_order', b.signal)];
    a.abort();
    b.abort();
    await expect(Promise.all(both)).rejects.toMatchObject({ code: 'aborted' });
    expect(await hung.resolve('query_order')).toBe(queryOrder);
    expect(loads).toBe(3);
  });

  it('lazy: a failed load is a typed error and may succeed later; a wrong export is refused', async () => {
    let fail = true;
    const lazy = lazyResolver({
      query_order: async () => {
        if (fail) throw new Error('chunk failed to load');
        return queryOrder;
      },
      list_delayed_orders: async () => queryOrder,
    });
    const executor = createExecutor({ registry: createRegistry({ resolvers: [lazy] }) });
    const first = await executor.execute({ id: '1', name: 'query_order', arguments: { order_id: 'A' } });
    expect(first.outcome.type === 'error' && first.outcome.error.message).toBe('chunk failed to load');
    fail = false;
    expect((await executor.execute({ id: '2', name: 'query_order', arguments: { order_id: 'A' } })).outcome.type).toBe('success');
    const wrong = await executor.execute({ id: '3', name: 'list_delayed_orders', arguments: {} });
    expect(wrong.content).toMatch(/exported a tool named "query_order"/);
  });

  it('lazy: a loader that returns its tool or module without a promise (JavaScript, require) loads it; one that is no function is refused', async () => {
    // The model read the engine's TypeError ("promise.then is not a function", "loader is not a function").
    for (const loadTimeoutMs of [10_000, Infinity]) {
      const lazy = lazyResolver({ query_order: (() => queryOrder) as never, list_delayed_orders: (() => ({ default: listDelayedOrders })) as never }, { loadTimeoutMs });
      const executor = createExecutor({ registry: createRegistry({ resolvers: [lazy] }) });
      expect((await executor.execute({ id: '1', name: 'query_order', arguments: { order_id: 'A-1001' } })).outcome.type).toBe('success');
      expect((await executor.execute({ id: '2', name: 'list_delayed_orders', arguments: {} })).outcome.type).toBe('success');
    }
    expect(() => lazyResolver({ query_order: queryOrder as never })).toThrow(new TypeError('lazyResolver: the loader of "query_order" is not a function: give a function that returns the tool or its module (a dynamic import of its file).'));
  });

  it('lazy: a loader that resolves with null or a primitive did not export a tool (the model read the engine\'s TypeError)', async () => {
    const lazy = lazyResolver({ nothing: async () => null as never, text: async () => 'orders' as never });
    const executor = createExecutor({ registry: createRegistry({ resolvers: [lazy] }) });
    for (const name of ['nothing', 'text']) {
      const result = await executor.execute({ id: '1', name, arguments: {} });
      expect(result.content).toBe(`Error (execution-failed): lazyResolver: the module for "${name}" did not export a tool (as default or itself).`);
    }
  });

  it('lazy: a load that never settles holds no call past its signal, and is not kept: the next call loads again (it hung forever)', async () => {
    let loads = 0;
    const lazy = lazyResolver({ query_order: () => (++loads === 1 ? new Promise<never>(() => {}) : Promise.resolve(queryOrder)) });
    const executor = createExecutor({ registry: createRegistry({ resolvers: [lazy] }) });
    const call = { id: '1', name: 'query_order', arguments: { order_id: 'A-1001' } };
    const first = await executor.execute(call, { signal: AbortSignal.timeout(5) });
    expect(first.content).toBe(`Error (timeout): The call of "query_order" did not finish within the caller's time limit.`);
    const second = await executor.execute(call);
    expect(second.outcome.type).toBe('success');
    expect(loads).toBe(2);
  });

  it('lazy: a load that never settles is given up after loadTimeoutMs without any signal, typed and not kept (tools() hung forever)', async () => {
    let loads = 0;
    const lazy = lazyResolver({ query_order: () => (++loads === 1 ? new Promise<never>(() => {}) : Promise.resolve(queryOrder)) }, { loadTimeoutMs: 5 });
    const failed: unknown[] = [];
    const registry = createRegistry({ tools: [listDelayedOrders], resolvers: [lazy], onLoadError: (error) => failed.push(error) });
    expect((await registry.tools()).map((tool) => tool.name)).toEqual(['list_delayed_orders']);
    expect(failed).toHaveLength(1);
    expect(ToolError.isInstance(failed[0]) && failed[0]).toMatchObject({ code: 'timeout', message: 'The tool "query_order" did not load within 5 ms.', retryable: true });
    // The next lookup loads again, and a loaded tool is kept.
    expect((await registry.tools()).map((tool) => tool.name)).toEqual(['list_delayed_orders', 'query_order']);
    expect(loads).toBe(2);
    // A call without a signal ends too.
    const hung = createExecutor({ registry: createRegistry({ resolvers: [lazyResolver({ hung: () => new Promise<never>(() => {}) }, { loadTimeoutMs: 5 })] }) });
    expect((await hung.execute({ id: '1', name: 'hung', arguments: {} })).content).toBe('Error (timeout): The tool "hung" did not load within 5 ms.');
  });

  it('lazy: a key no model can call a tool by is refused when the resolver is made (it was listed and never loaded)', async () => {
    // Its module's tool could never have that name, so every load failed, and names() offered it to the model.
    expect(() => lazyResolver({ query_order: async () => queryOrder, 'query order': async () => queryOrder })).toThrow(
      new TypeError('lazyResolver: "query order" is no tool name (1-64 letters, digits, "_" or "-"): key each loader by its tool\'s name.'),
    );
    expect(lazyResolver({ query_order: async () => queryOrder, 'list-delayed_2': async () => listDelayedOrders }).names()).toEqual([
      'query_order',
      'list-delayed_2',
    ]);
  });

  it('lazy: loadTimeoutMs is 10 s unless set; Infinity sets no limit, and a limit a timer cannot keep is refused', async () => {
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    try {
      await lazyResolver({ query_order: async () => queryOrder }).resolve('query_order');
      expect(timeout.mock.calls).toEqual([[10_000]]);
      await lazyResolver({ query_order: async () => queryOrder }, { loadTimeoutMs: Infinity }).resolve('query_order');
      expect(timeout).toHaveBeenCalledTimes(1);
    } finally {
      timeout.mockRestore();
    }
    for (const loadTimeoutMs of [0, -1, Number.NaN, 2 ** 31, '5']) {
      expect(() => lazyResolver({}, { loadTimeoutMs: loadTimeoutMs as number })).toThrow('lazyResolver: loadTimeoutMs must be from 1 to 2147483647 ms, or Infinity.');
    }
  });

  it('lazy: resolve(name, signal) rejects with a typed error when the signal aborts first; a late failure of that load drops no newer one', async () => {
    let rejectFirst: (error: Error) => void = () => {};
    let loads = 0;
    const first = new Promise<never>((_resolve, reject) => {
      rejectFirst = reject;
    });
    const lazy = lazyResolver({ query_order: () => (++loads === 1 ? first : Promise.resolve(queryOrder)) });
    await expect(lazy.resolve('query_order', AbortSignal.timeout(5))).rejects.toMatchObject({ code: 'timeout', toolName: 'query_order' });
    expect(await lazy.resolve('query_order')).toBe(queryOrder);
    rejectFirst(new Error('late'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Loaded: kept, even for a signal that has aborted.
    expect(await lazy.resolve('query_order', AbortSignal.abort())).toBe(queryOrder);
    expect(loads).toBe(2);
  });

  it('tools({ signal }): a load still pending when the signal aborts is left out and reported as a typed error (tools() hung forever)', async () => {
    let loads = 0;
    const lazy = lazyResolver({ query_order: () => (++loads === 1 ? new Promise<never>(() => {}) : Promise.resolve(queryOrder)) });
    const ignoring: ToolResolver = { kind: 'edgetool.resolver', names: () => ['ignores_signals'], resolve: () => new Promise<never>(() => {}) };
    const failed: [unknown, string][] = [];
    const registry = createRegistry({ tools: [listDelayedOrders], resolvers: [lazy, ignoring], onLoadError: (error, name) => failed.push([error, name]) });
    const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);
    expect(names(await registry.tools({ signal: AbortSignal.timeout(5) }))).toEqual(['list_delayed_orders']);
    expect(failed.map(([error, name]) => [name, ToolError.isInstance(error) && error.code, (error as Error).message])).toEqual([
      ['query_order', 'timeout', `The tool "query_order" did not load within the caller's time limit.`],
      ['ignores_signals', 'timeout', `The tool "ignores_signals" did not load within the caller's time limit.`],
    ]);
    // The load given up on is not kept: the next listing loads it again.
    failed.length = 0;
    expect(names(await registry.tools({ signal: AbortSignal.timeout(5) }))).toEqual(['list_delayed_orders', 'query_order']);
    expect(loads).toBe(2);
    const strict = createRegistry({
      resolvers: [lazyResolver({ hung: () => new Promise<never>(() => {}) })],
      onLoadError: (error) => {
        throw error;
      },
    });
    const controller = new AbortController();
    const listing = strict.tools({ signal: controller.signal });
    controller.abort();
    await expect(listing).rejects.toMatchObject({ code: 'aborted', message: 'Loading the tool "hung" was aborted by the caller.' });
  });

  it('tools(): a tool that fails to load is left out and reported, not the end of every turn (tools() rejected)', async () => {
    let fail = true;
    const lazy = lazyResolver({
      query_order: async () => {
        if (fail) throw new Error('chunk failed to load');
        return queryOrder;
      },
    });
    const thrower: ToolResolver = {
      kind: 'edgetool.resolver',
      names: () => ['thrower'],
      resolve: () => {
        throw new Error('resolver bug');
      },
    };
    const failed: [unknown, string][] = [];
    const registry = createRegistry({ tools: [listDelayedOrders], resolvers: [lazy, thrower], onLoadError: (error, name) => failed.push([error, name]) });
    expect((await registry.tools()).map((t) => t.name)).toEqual(['list_delayed_orders']);
    expect(failed.map(([error, name]) => [(error as Error).message, name]).sort()).toEqual([
      ['chunk failed to load', 'query_order'],
      ['resolver bug', 'thrower'],
    ]);
    // A call of it still fails alone, with the load error; once the module loads, the tool is listed again.
    const call = await createExecutor({ registry }).execute({ id: '1', name: 'query_order', arguments: { order_id: 'A-1001' } });
    expect(call.content).toBe('Error (execution-failed): chunk failed to load');
    fail = false;
    expect((await registry.tools()).map((t) => t.name)).toEqual(['list_delayed_orders', 'query_order']);
    expect(failed).toHaveLength(3); // the thrower again, nothing more
  });

  it('tools(): by default a load failure goes to console.error; a throwing onLoadError makes tools() reject (a startup check)', async () => {
    const broken = lazyResolver({ broken: () => Promise.reject(new Error('chunk failed to load')) });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await createRegistry({ tools: [queryOrder], resolvers: [broken] }).tools()).toEqual([queryOrder]);
      expect(log).toHaveBeenCalledTimes(1);
      expect(log.mock.calls[0]).toEqual([
        'edgetool: the tool "broken" is left out of the tools the model is shown:',
        new Error('chunk failed to load'),
      ]);
    } finally {
      log.mockRestore();
    }
    const strict = createRegistry({
      tools: [queryOrder],
      resolvers: [broken],
      onLoadError: (error) => {
        throw error;
      },
    });
    await expect(strict.tools()).rejects.toThrow('chunk failed to load');
    // A registry inside another: the outer one loads the tools of both, so its own onLoadError hears of them.
    const heard: string[] = [];
    const outer = createRegistry({ resolvers: [createRegistry({ resolvers: [broken] })], onLoadError: (_error, name) => heard.push(name) });
    expect(await outer.tools()).toEqual([]);
    expect(heard).toEqual(['broken']);
    expect(() => createRegistry({ onLoadError: 'log' as never })).toThrow('createRegistry: onLoadError must be a function (error, name) => void.');
  });
});
