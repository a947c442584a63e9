import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { createRunContext, type RunContext } from '../context/run-context.ts';
import { createExecutor } from '../executor/executor.ts';
import { defineTool, withDeps } from '../tool/define-tool.ts';
import { createRegistry, type ToolRegistry } from './registry.ts';
import type { ToolErrorCode } from '../errors/tool-error.ts';
import { lazyResolver, type ToolResolver } from './resolvers.ts';

interface Deps {
  readonly role: 'staff' | 'guest';
}
const { defineTool: defineStaffTool } = withDeps<Deps>();
const purge = defineStaffTool({ name: 'purge', description: '', input: v.object({}), execute: () => 'purged' });
const plain = defineTool({ name: 'plain', description: '', input: v.object({}), execute: () => 1 });
const call = { id: 'c1', name: 'purge', arguments: {} };

describe('registry types: `available` is asked with the run its tools need', () => {
  it('made from withDeps tools, `available` gets a run typed by their deps', () => {
    const admin = createRegistry({
      tools: [purge, plain],
      available: (run) => {
        expectTypeOf(run).toEqualTypeOf<RunContext<Deps>>();
        return run.deps.role === 'staff';
      },
    });
    expectTypeOf(admin).toEqualTypeOf<ToolRegistry<Deps>>();
    createRegistry({ tools: [purge], available: async (run) => run.deps.role === 'staff' });
    // @ts-expect-error: a dep the tools do not declare
    createRegistry({ tools: [purge], available: (run) => run.deps.plan === 'pro' });
    // @ts-expect-error: an answer, not a role
    createRegistry({ tools: [purge], available: (run) => run.deps.role });
  });

  it('without such tools, the registry is typed by the run its `available` is written for, and so is its executor', () => {
    const paid = createRegistry({
      resolvers: [lazyResolver({ plain: async () => plain })],
      available: (run: RunContext<{ plan: 'free' | 'pro' }>) => run.deps.plan === 'pro',
    });
    expectTypeOf(paid).toEqualTypeOf<ToolRegistry<{ plan: 'free' | 'pro' }>>();
    const executor = createExecutor({ registry: paid });
    void executor.execute(call, { run: createRunContext({ deps: { plan: 'pro' as const } }) });
    // @ts-expect-error: the registry's check needs a plan in the run
    void executor.execute(call);
    // An untyped check: the run's deps are unknown, and the registry takes any call as before.
    const open = createRegistry({ tools: [plain], available: (run) => run.userId !== undefined });
    expectTypeOf(open).toEqualTypeOf<ToolRegistry<unknown>>();
    void createExecutor({ registry: open }).execute(call);
  });
});

describe('resolver types: a cycle of resolvers', () => {
  it('resolve takes the resolvers already looking the name up (`via`), and a cycle is a ToolErrorCode', () => {
    expectTypeOf<ToolResolver['resolve']>().parameter(2).toEqualTypeOf<readonly ToolResolver[] | undefined>();
    expectTypeOf<'resolver-cycle'>().toExtend<ToolErrorCode>();
    // A resolver of one's own that passes `via` on to the one it delegates to.
    const inner = lazyResolver({ plain: async () => plain });
    const own: ToolResolver = { kind: 'edgetool.resolver', names: () => ['plain'], resolve: (name, signal, via) => inner.resolve(name, signal, via) };
    void own;
  });
});
