import { describe, expect, it } from 'vitest';
import { defineInterceptor } from '../chain/interceptor.ts';
import { createMcpHandler } from '../mcp/mcp-handler.ts';
import { createRegistry, type ToolRegistry } from '../registry/registry.ts';
import { queryOrder } from '../test-support/order-tools.ts';
import { createExecutor } from './executor.ts';

/** A registry built by hand (not by `createRegistry`), of the right shape: what each case below breaks one part of. */
function handBuilt(): Record<string, unknown> {
  const inner = createRegistry({ tools: [queryOrder] });
  return {
    kind: 'edgetool.resolver',
    names: () => inner.names(),
    resolve: (name: string) => inner.resolve(name),
    tools: () => inner.tools(),
    interceptors: [],
    onError: 'report',
  };
}

const made = (registry: unknown) => () => createExecutor({ registry: registry as ToolRegistry });

describe('createExecutor checks the shape of a registry built by hand, once, when it is made', () => {
  it('a hand-built registry of the right shape runs its calls, with its interceptors around each tool', async () => {
    const log: string[] = [];
    const audit = defineInterceptor('hand-built', (_ctx, next) => {
      log.push('hand-built');
      return next();
    });
    const registry = { ...handBuilt(), interceptors: [audit] };
    const result = await createExecutor({ registry: registry as unknown as ToolRegistry }).execute({ id: '1', name: 'query_order', arguments: { order_id: 'A-1' } });
    expect(result.outcome.type).toBe('success');
    expect(log).toEqual(['hand-built']);
  });

  it('a wrong object fails with a TypeError that says what is wrong (it failed at a call, with an opaque one)', () => {
    const wrong = (part: string) => new TypeError(`createExecutor: \`registry\` must be a list of tools or a registry (see createRegistry()); its ${part} is wrong.`);
    // A plain resolver, an object without the tag, nothing: neither a list nor a registry (`.map is not a function`).
    const lazy = { kind: 'edgetool.resolver', names: () => [], resolve: () => undefined };
    for (const registry of [lazy, { ...handBuilt(), kind: undefined }, {}, null, 'tools']) expect(made(registry)).toThrow(wrong('kind'));
    for (const method of ['names', 'resolve', 'tools']) expect(made({ ...handBuilt(), [method]: 'no function' })).toThrow(wrong(method));
    // `registry.interceptors is not iterable`, and a non-interceptor in it failed at the first call of each tool.
    expect(made({ ...handBuilt(), interceptors: undefined })).toThrow(wrong('interceptors'));
    expect(made({ ...handBuilt(), interceptors: [{ name: 'half' }] })).toThrow(new TypeError('An interceptor must be a function or made with defineInterceptor().'));
  });

  it('a registry whose methods come from a class passes', async () => {
    class ClassRegistry {
      readonly kind = 'edgetool.resolver';
      readonly interceptors = [];
      readonly onError = 'throw';
      readonly #inner = createRegistry({ tools: [queryOrder] });
      names() {
        return this.#inner.names();
      }
      resolve(name: string) {
        return this.#inner.resolve(name);
      }
      tools() {
        return this.#inner.tools();
      }
    }
    const executor = createExecutor({ registry: new ClassRegistry() as unknown as ToolRegistry });
    expect((await executor.execute({ id: '1', name: 'query_order', arguments: { order_id: 'A-1' } })).outcome.type).toBe('success');
  });

  it('what it hands out is checked: a non-tool or a tool of another name fails the call alone (execute rejected, or ran the other tool)', async () => {
    const handOut: Record<string, unknown> = { fake: { name: 'fake' }, later: Promise.resolve('a module'), other: queryOrder, none: null };
    const registry = { ...handBuilt(), names: () => Object.keys(handOut), resolve: (name: string) => handOut[name] } as unknown as ToolRegistry;
    const ran: string[] = [];
    const executor = createExecutor({
      registry,
      interceptors: [
        defineInterceptor('ran', (ctx, next) => {
          ran.push(ctx.tool.name);
          return next();
        }),
      ],
    });
    const notATool = (name: string) => `Error (execution-failed): The resolver of "${name}" returned something that is not a tool made by defineTool().`;
    const other = 'Error (execution-failed): The resolver of "other" returned the tool "query_order".';
    const calls = ['fake', 'later', 'other'].map((name) => ({ id: name, name, arguments: { order_id: 'A-1' } }));
    const one = await Promise.all(calls.map((call) => executor.execute(call)));
    const batch = await executor.executeAll(calls);
    const client = await Promise.all(calls.map((call) => executor.acceptClientResult({ call, output: 'x', ticket: undefined })));
    for (const results of [one, batch, client]) expect(results.map((result) => result.content)).toEqual([notATool('fake'), notATool('later'), other]);
    expect(ran).toEqual([]);
    // `null` is no tool, as `undefined` is; the list of the others leaves out what fails.
    expect((await executor.execute({ id: 'n', name: 'none', arguments: {} })).content).toBe('Error (unknown-tool): Unknown tool "none". Available tools: (none).');
  });

  it('a registry made by createRegistry, and a list of tools, pass as before', () => {
    expect(made(createRegistry({ tools: [queryOrder], onError: (error: unknown) => (error ? 'throw' : 'report') }))).not.toThrow();
    expect(made([queryOrder])).not.toThrow();
    expect(made([])).not.toThrow();
  });
});

describe('the MCP endpoint checks the same', () => {
  it('a wrong object fails when the handler is made (it failed with `source is not iterable`)', () => {
    const wrong = 'createExecutor: `registry` must be a list of tools or a registry (see createRegistry()); its kind is wrong.';
    expect(() => createMcpHandler({ name: 'shop', version: '1', tools: { ...handBuilt(), kind: undefined } as unknown as ToolRegistry })).toThrow(new TypeError(wrong));
    expect(() => createMcpHandler({ name: 'shop', version: '1', tools: handBuilt() as unknown as ToolRegistry })).not.toThrow();
  });
});
